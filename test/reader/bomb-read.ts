/**
 * Child process of bombs.test.ts, run by scripts/fuzz/pool.ts: reads each
 * file it is sent every way a caller can read all of it (Parquet: rows(),
 * readRows(), columns(); Trevni: rows(), columnData()) and reports each
 * read's outcome and the case's peak RSS (the kernel's high-water mark,
 * reset before the case), which counts native buffers a heap limit would
 * miss. A process that grew is replaced before its next case.
 */
import { fileSource, openParquet, type ParquetReader, ParquetryError } from '../../src/node/index.js';
import { TrevniReader } from '../../src/node/entries/trevni.js';
import { resetPeak } from '../../scripts/fuzz/pool.js';
import { casePeakMb, RECYCLE_MB } from '../fuzz/case-peak.js';

/** A file to read, with extra open options. */
export interface BombCase {
  id: number;
  file: string;
  options: Record<string, unknown>;
}

/** Each read's outcome (`rows N`, `ErrorClass: message`, or `UNTYPED stack`), and the case's peak RSS. */
export interface BombOutcome {
  id: number;
  outcomes: Record<string, string>;
  peakMb: number;
}

async function outcome(read: () => Promise<number>): Promise<string> {
  try {
    return `rows ${await read()}`;
  } catch (e) {
    return e instanceof ParquetryError ? `${e.constructor.name}: ${e.message}` : `UNTYPED ${String((e as Error)?.stack ?? e)}`;
  }
}

async function count(iterable: AsyncIterable<unknown>): Promise<number> {
  let n = 0;
  for await (const _ of iterable) n++;
  return n;
}

/** Opens, counts what `read` gives, and closes, so no file handle waits for the collector. */
function parquet(c: BombCase, read: (r: ParquetReader) => Promise<number>): () => Promise<number> {
  return async () => {
    const r = await openParquet(c.file, c.options);
    try {
      return await read(r);
    } finally {
      await r.close();
    }
  };
}

function trevni(c: BombCase, read: (r: TrevniReader) => Promise<number>): () => Promise<number> {
  return async () => {
    const r = await TrevniReader.open(await fileSource(c.file), c.options);
    try {
      return await read(r);
    } finally {
      await r.close();
    }
  };
}

async function readAll(c: BombCase): Promise<Record<string, string>> {
  const reads: Record<string, () => Promise<number>> = c.file.endsWith('.trv')
    ? { rows: trevni(c, (r) => count(r.rows())), columnData: trevni(c, (r) => count(r.columnData())) }
    : {
        rows: parquet(c, (r) => count(r.rows())),
        readRows: parquet(c, async (r) => (await r.readRows()).length),
        columns: parquet(c, (r) => count(r.columns())),
      };
  const outcomes: Record<string, string> = {};
  for (const [name, read] of Object.entries(reads)) outcomes[name] = await outcome(read);
  return outcomes;
}

process.on('message', (msg: { type: 'init' } | { type: 'run'; items: BombCase[] }) => {
  if (msg.type === 'init') return void process.send!({ type: 'ready' });
  void (async () => {
    for (const c of msg.items) {
      resetPeak();
      const outcomes = await readAll(c);
      const done: BombOutcome = { id: c.id, outcomes, peakMb: casePeakMb() };
      await new Promise((sent) => process.send!({ type: 'done', outcome: done }, sent));
      if (process.resourceUsage().maxRSS / 1024 > RECYCLE_MB) process.exit(0);
    }
  })();
});
