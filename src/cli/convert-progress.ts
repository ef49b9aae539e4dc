/** The progress line and the final report of `parquetry convert`, on stderr. */
import { formatBytes } from '../text/byte-size.js';
import type { CliOutput } from './run-context.js';

export interface ProgressState {
  /** Fraction of the input read, when the input's size is known. */
  fraction: number | undefined;
  rows: number;
}

export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

function plural(n: number, word: string): string {
  return `${formatCount(n)} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * A single line on a terminal, redrawn a few times a second and erased at
 * the end; does nothing when disabled (stderr is not a terminal).
 */
export class Progress {
  private timer: NodeJS.Timeout | undefined;
  private shown = false;
  private readonly started = performance.now();

  constructor(
    private readonly enabled: boolean,
    private readonly label: string,
    private readonly poll: () => ProgressState,
    private readonly stream: CliOutput,
  ) {}

  start(): void {
    if (!this.enabled) return;
    this.timer = setInterval(() => this.draw(), 250);
    this.timer.unref();
  }

  private draw(): void {
    const { fraction, rows } = this.poll();
    const secs = (performance.now() - this.started) / 1000;
    const parts = [this.label];
    if (fraction !== undefined) parts.push(`${Math.min(100, Math.floor(fraction * 100))}%`);
    parts.push(plural(rows, 'row'));
    if (secs > 0) parts.push(`${formatCount(Math.round(rows / secs))} rows/s`);
    let text = parts.join('  ');
    const width = this.stream.columns;
    if (width && text.length > width - 1) text = text.slice(0, Math.max(0, width - 1));
    this.stream.write(`\r\x1b[K${text}`);
    this.shown = true;
  }

  /** Erases the line. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (this.shown) this.stream.write('\r\x1b[K');
    this.shown = false;
  }

  /** Prints a message line above the progress line. */
  message(text: string): void {
    const again = this.shown;
    if (this.shown) this.stream.write('\r\x1b[K');
    this.shown = false;
    this.stream.write(text + '\n');
    if (again) this.draw();
  }

  get seconds(): number {
    return (performance.now() - this.started) / 1000;
  }
}

export interface Report {
  rows: number;
  rowGroups: number | undefined;
  /** A dataset output's parts. */
  files?: number | undefined;
  bytes: number;
  to: string;
  seconds: number;
  skipped: number;
}

/** `wrote 2,000,000 rows in 16 row groups, 48.2 MiB to out.parquet (3.1 s)`, plus the skipped rows. */
export function formatReport(r: Report): string {
  let s = `wrote ${plural(r.rows, 'row')}`;
  if (r.rowGroups !== undefined) s += ` in ${plural(r.rowGroups, 'row group')}`;
  if (r.files !== undefined) s += ` and ${plural(r.files, 'file')}`;
  s += `, ${formatBytes(r.bytes)} to ${r.to} (${r.seconds.toFixed(1)} s)`;
  if (r.skipped) s += `; skipped ${plural(r.skipped, 'bad input row')}`;
  return s;
}
