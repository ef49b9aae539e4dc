/** Runs checkParquet on each file named; prints one line per file: path, outcome, detail. Anything untyped fails the run. */
import { readFileSync } from 'node:fs';
import { ParquetryError } from '../../src/errors.js';
import { checkParquet } from '../../src/parquet/recover/index.js';

for (const file of process.argv.slice(2)) {
  try {
    const r = await checkParquet(new Uint8Array(readFileSync(file)));
    process.stdout.write(`${file}\treport\t${r.losses.length} losses\n`);
  } catch (e) {
    if (!(e instanceof ParquetryError)) {
      process.stderr.write(`${file}: untyped ${(e as Error)?.stack ?? e}\n`);
      process.exit(1);
    }
    process.stdout.write(`${file}\tParquetryError\t${e.name}\n`);
  }
}
