/**
 * The writer the crash test kills: writes row groups of ROWS records to
 * argv[2] with checkpointEvery 1, printing the row groups done after each
 * (by then its checkpoint is in the file), until it is killed or reaches argv[3] row groups.
 */
import { openWriter } from '../../src/node/index.js';
import { record, schema } from './fixtures.js';

const ROWS = Number(process.argv[4] ?? 1000);
const w = await openWriter<unknown>(process.argv[2]!, schema, { checkpointEvery: 1 });
const groups = Number(process.argv[3]);
for (let g = 0; g < groups; g++) {
  for (let i = g * ROWS; i < (g + 1) * ROWS; i++) await w.write(record(i));
  await w.flushRowGroup();
  process.stdout.write(`${g + 1}\n`);
}
await w.close();
