/**
 * Child process of bombs.test.ts: reads FILE every way a caller can read all
 * of it (Parquet: rows(), readRows(), columns(); Trevni: rows(),
 * columnData()) and prints one JSON line: each read's outcome and the
 * process's peak RSS, which counts native buffers a heap limit would miss.
 * Argument 2 is JSON of extra open options.
 */
import { openParquet, ParquetryError, TrevniReader, fileSource } from '../../src/node/index.js';

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

const reads: Record<string, () => Promise<number>> = file.endsWith('.trv')
  ? {
      rows: async () => count((await TrevniReader.open(await fileSource(file), options)).rows()),
      columnData: async () => count((await TrevniReader.open(await fileSource(file), options)).columnData()),
    }
  : {
      rows: async () => count((await openParquet(file, options)).rows()),
      readRows: async () => (await openParquet(file, options)).readRows().then((r) => r.length),
      columns: async () => count((await openParquet(file, options)).columns()),
    };

const outcomes: Record<string, string> = {};
for (const [name, read] of Object.entries(reads)) outcomes[name] = await outcome(read);
// maxRSS is in KiB.
console.log(JSON.stringify({ outcomes, maxRssMiB: process.resourceUsage().maxRSS / 1024 }));
