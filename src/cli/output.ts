import { run } from './run-context.js';

/** `1 row`, `2 rows`: a count and its noun, plural unless the count is one. */
export function counted(n: number | bigint, word: string): string {
  return `${n} ${word}${n === 1 || n === 1n ? '' : 's'}`;
}

/**
 * Buffered stdout with backpressure: lines are gathered into ~64 KiB writes,
 * and a full pipe is waited on, so `cat` of a huge file streams in constant
 * memory. Use it through `withOutput`, which also writes what was gathered
 * when the command fails.
 */
export class Output {
  private parts: string[] = [];
  private size = 0;

  constructor(private readonly stream: NodeJS.WritableStream) {}

  async line(s: string): Promise<void> {
    this.parts.push(s, '\n');
    this.size += s.length + 1;
    if (this.size >= 65536) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.parts.length === 0) return;
    const chunk = this.parts.join('');
    this.parts = [];
    this.size = 0;
    if (!this.stream.write(chunk)) await new Promise<void>((resolve) => this.stream.once('drain', resolve));
  }
}

/**
 * Runs a command that prints through an Output, then writes what is still
 * gathered, also when the command fails: the rows printed before an error
 * (a corrupt row group, say) all reach stdout ahead of the error message.
 */
export async function withOutput(fn: (out: Output) => Promise<void>): Promise<void> {
  const out = new Output(run().io.stdout);
  try {
    await fn(out);
  } finally {
    await out.flush();
  }
}

/** Records as `cat` prints them: each rendered on its lines, a blank line between two. */
export async function printRecords(out: Output, rows: AsyncIterable<Record<string, unknown>>, render: (row: Record<string, unknown>) => string): Promise<void> {
  let first = true;
  for await (const row of rows) {
    if (!first) await out.line('');
    first = false;
    await out.line(render(row));
  }
}
