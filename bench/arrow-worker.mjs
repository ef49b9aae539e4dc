/**
 * The child process of bench/arrow.ts: one contender's cold run and timed
 * runs, printed as JSON. Plain JavaScript, so parquetry's built package is
 * timed with no TypeScript loader in the process: the loader's module hooks
 * cost 5-10% of a toArrow() run even with every module loaded (three
 * interleaved pairs, 194-214 against 214-231 ms median). With `source` it
 * imports src/, which needs the loader (arrow.ts passes it then).
 *
 *   node --expose-gc bench/arrow-worker.mjs --worker CONTENDER RUNS FILE ROWS [source]
 */
import { readFileSync } from 'node:fs';
import { timedRuns } from './timed-runs.mjs';

const [, , , contender, runs, file, rows, source] = process.argv;

async function runner() {
  if (contender === 'parquet-wasm') {
    const [wasm, { tableFromIPC }] = await Promise.all([import('parquet-wasm'), import('apache-arrow')]);
    return async () => tableFromIPC(wasm.readParquet(readFileSync(file)).intoIPCStream());
  }
  const { openParquet } = await import(source ? '../src/node/index.js' : '../dist/node/index.js');
  const dictionary = contender === 'toArrow()';
  return async () => {
    const reader = await openParquet(file);
    try {
      return await reader.toArrow({ dictionary });
    } finally {
      await reader.close();
    }
  };
}

const run = await runner();
const timed = await timedRuns(async () => (await run()).numRows, Number(runs));
if (timed.answer !== Number(rows)) throw new Error(`${contender} read ${timed.answer} rows, expected ${rows}`);
process.stdout.write(JSON.stringify(timed));
