/**
 * A page deleted from a file whose footer is left as it was (offsets not
 * fixed): every chunk after it starts where another page now lies. Without an offset index, a chunk whose header walk then
 * breaks was read up to the break, and a page shifted to its start (other
 * rows, or another column's) came back as its first rows with no loss
 * reported. Every recovered row must be an original row, and fewer rows
 * must come with a reported loss. Flat files only: the pages shifted into a
 * nested chunk can still add up to its counts as a writer's could (an open
 * case of issue 21). (A page doubled in place is left out too: its
 * chunk then reads as pages a writer could have written, the last one pushed
 * into the next chunk, which only the page index or statistics can tell.)
 */
import { strict as assert } from 'node:assert';
import { it } from 'node:test';
import { ParquetReader } from '../../src/index.js';
import { judge, recoverRows } from './invariant.js';
import { pagesOf } from '../../scripts/fuzz/parquet-pages.js';
import { numbers } from './sweep-files.js';

for (const [label, make] of [
  ['numbers, no page index', () => numbers({ pageIndex: false })],
  ['numbers, v2 pages, no page index', () => numbers({ pageIndex: false, pageVersion: 2 })],
  ['numbers with a page index', () => numbers()],
] as const) {
  it(`${label}: each page deleted, the footer's offsets left as they were`, { timeout: 120_000 }, async () => {
    const bytes = await make();
    const rows = await (await ParquetReader.open(bytes)).readRows();
    const failures: string[] = [];
    let cases = 0;
    for (const p of await pagesOf(bytes)) {
      cases++;
      const v = judge(rows, await recoverRows(new Uint8Array(Buffer.concat([bytes.subarray(0, p.start), bytes.subarray(p.end)]))));
      if (v.wrong > 0 || v.unreported) failures.push(`page ${p.start}..${p.end} deleted: ${v.wrong} wrong rows${v.unreported ? ', loss not reported' : ''}`);
    }
    assert.ok(cases > 10, `only ${cases} cases`);
    assert.deepStrictEqual(failures, []);
  });
}
