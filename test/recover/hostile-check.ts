/**
 * Runs checkParquet on each Parquet file named, recoverTrevni (its salvage
 * read, then the intact rows written out) on each Trevni one; prints one line
 * per file: path, outcome, detail. Anything untyped fails the run.
 */
import { readFileSync } from 'node:fs';
import { ParquetryError } from '../../src/errors.js';
import { BufferSink } from '../../src/io/sink.js';
import { checkParquet } from '../../src/parquet/recover/index.js';
import { recoverTrevni } from '../../src/trevni/recover.js';

for (const file of process.argv.slice(2)) {
  try {
    const bytes = new Uint8Array(readFileSync(file));
    const r = file.endsWith('.trv') ? await recoverTrevni(bytes, new BufferSink()) : await checkParquet(bytes);
    process.stdout.write(`${file}\treport\t${r.losses.length} losses\n`);
  } catch (e) {
    if (!(e instanceof ParquetryError)) {
      process.stderr.write(`${file}: untyped ${(e as Error)?.stack ?? e}\n`);
      process.exit(1);
    }
    process.stdout.write(`${file}\tParquetryError\t${e.name}\n`);
  }
}
