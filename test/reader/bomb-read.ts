/**
 * Child process of bombs.test.ts: reads FILE every way a caller can read all
 * of it (Parquet: rows(), readRows(), columns(); Trevni: rows(),
 * columnData()) and prints one JSON line: each read's outcome and the
 * process's peak RSS, which counts native buffers a heap limit would miss.
 * Argument 2 is JSON of extra open options.
 */
import { fileSource, openParquet, type ParquetReader, ParquetryError } from '../../src/node/index.js';
import { TrevniReader } from '../../src/node/entries/trevni.js';

const [file, optionsJson] = process.argv.slice(2) as [string, string | undefined];
const options = optionsJson ? (JSON.parse(optionsJson) as Record<string, unknown>) : {};

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
function parquet(read: (r: ParquetReader) => Promise<number>): () => Promise<number> {
  return async () => {
    const r = await openParquet(file, options);
    try {
      return await read(r);
    } finally {
      await r.close();
    }
  };
}

function trevni(read: (r: TrevniReader) => Promise<number>): () => Promise<number> {
  return async () => {
    const r = await TrevniReader.open(await fileSource(file), options);
    try {
      return await read(r);
    } finally {
      await r.close();
    }
  };
}

const reads: Record<string, () => Promise<number>> = file.endsWith('.trv')
  ? { rows: trevni((r) => count(r.rows())), columnData: trevni((r) => count(r.columnData())) }
  : {
      rows: parquet((r) => count(r.rows())),
      readRows: parquet(async (r) => (await r.readRows()).length),
      columns: parquet((r) => count(r.columns())),
    };

const outcomes: Record<string, string> = {};
for (const [name, read] of Object.entries(reads)) outcomes[name] = await outcome(read);
// maxRSS is in KiB.
console.log(JSON.stringify({ outcomes, maxRssMiB: process.resourceUsage().maxRSS / 1024 }));
