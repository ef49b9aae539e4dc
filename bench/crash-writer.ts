/**
 * The writer bench/crash-recover.ts kills: row groups of GROUP rows of the
 * flat table below, written to argv[2] with checkpointEvery 1 (and a
 * row-group budget of 8 MiB), printing the rows finished after each row
 * group (its checkpoint is in the file by then), argv[3] row groups in all.
 */
import { defineSchema, field, openWriter } from '../src/node/index.js';

export const GROUP = 300_000;
export const schema = defineSchema({
  id: field.int64().required(),
  amount: field.double().required(),
  category: field.string().required(),
  uid: field.string().required(),
});

/** Row i's amount: the campaign sums these one at a time rather than building the columns of the whole file. */
export const amountAt = (i: number) => ((i * 2654435761) % 1e6) / 100;

export function columns(from: number, to: number) {
  const n = to - from;
  return {
    id: BigInt64Array.from({ length: n }, (_, k) => BigInt(from + k)),
    amount: Float64Array.from({ length: n }, (_, k) => amountAt(from + k)),
    category: Array.from({ length: n }, (_, k) => `category_${(from + k) % 100}`),
    uid: Array.from({ length: n }, (_, k) => `user-${from + k}-${(((from + k) * 2654435761) >>> 0).toString(16)}-padding-to-make-rows-wider`),
  };
}

// Run as a script (not when bench/crash-recover.ts imports the generator).
if (process.argv[1]?.endsWith('crash-writer.ts')) {
  const w = await openWriter(process.argv[2], schema, { checkpointEvery: 1, rowGroupSize: 8 << 20 });
  const groups = Number(process.argv[3]);
  for (let g = 0; g < groups; g++) {
    await w.writeColumns(columns(g * GROUP, (g + 1) * GROUP));
    await w.flushRowGroup();
    process.stdout.write(`${(g + 1) * GROUP}\n`);
  }
  await w.close();
}
