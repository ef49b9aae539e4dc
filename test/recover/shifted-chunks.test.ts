/**
 * A page deleted from a file whose footer is left as it was (offsets not
 * fixed): every chunk after it starts where another page now lies. Without
 * an offset index, a chunk whose header walk then breaks was read up to the
 * break, and a page shifted to its start (other rows, or another column's)
 * came back as its first rows with no loss reported; and pages shifted into
 * a chunk can complete its value count bytes before its end (the fuzz's
 * case c3239, a page deleted from a file of nested leaves). Every recovered
 * row must be an original row, and fewer rows must come with a reported
 * loss. (A page doubled in place is left out: its chunk then reads as pages
 * a writer could have written, the last one pushed into the next chunk,
 * which only the page index or statistics can tell.)
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import { ParquetReader } from '../../src/index.js';
import { judge, recoverRows } from './invariant.js';
import { pagesOf } from '../../scripts/fuzz/parquet-pages.js';
import { applyRange } from '../../scripts/fuzz/structured.js';
import { withDuck } from './duck.js';
import { mixed, numbers, overGeneratedFiles } from './sweep-files.js';

/** Each page of `bytes` deleted in turn; returns the cases run. */
async function deleteEachPage(bytes: Uint8Array): Promise<number> {
  const rows = await (await ParquetReader.open(bytes)).readRows();
  const failures: string[] = [];
  let cases = 0;
  for (const p of await pagesOf(bytes)) {
    cases++;
    const v = judge(rows, await recoverRows(new Uint8Array(Buffer.concat([bytes.subarray(0, p.start), bytes.subarray(p.end)]))));
    if (v.wrong > 0 || v.unreported) failures.push(`page ${p.start}..${p.end} deleted: ${v.wrong} wrong rows${v.unreported ? ', loss not reported' : ''}`);
  }
  assert.deepStrictEqual(failures, []);
  return cases;
}

for (const [label, make] of [
  ['numbers, no page index', () => numbers({ pageIndex: false })],
  ['numbers, v2 pages, no page index', () => numbers({ pageIndex: false, pageVersion: 2 })],
  ['numbers with a page index', () => numbers()],
  ['nested and nullable leaves, no page index', () => mixed({ pageIndex: false })],
  ['nested and nullable leaves, v2 pages, no page index', () => mixed({ pageIndex: false, pageVersion: 2 })],
] as const) {
  it(`${label}: each page deleted, the footer's offsets left as they were`, { timeout: 120_000 }, async () => {
    assert.ok(await deleteEachPage(await make()) > 10);
  });
}

it("the fuzz generator's small files (random nested schemas): each page deleted", { timeout: 120_000 }, async () => {
  const cases = await overGeneratedFiles(21, 6, deleteEachPage);
  assert.ok(cases > 50, `only ${cases} cases`);
});

const oracle = withDuck();

it('a nested file DuckDB wrote: each page deleted', { timeout: 120_000 }, async () => {
  const path = await oracle.files.write('shifted.parquet', `SELECT i::INTEGER AS id, CASE WHEN i % 4 = 0 THEN NULL ELSE range(i % 5) END AS l,
    {'a': i % 3, 'b': [i, i + 1]} AS s, i % 2 = 0 AS flag FROM range(3000) t(i)`, 'ROW_GROUP_SIZE 1000');
  assert.ok(await deleteEachPage(new Uint8Array(readFileSync(path))) > 10);
});

/**
 * Each page doubled in place and each page deleted with the footer's
 * offsets moved to follow (the fuzz's fixOffsets: the offset index's own
 * entries stay): the index's next entry then lies on the copy, of the same
 * size, and gave the doubled page's rows as the next page's (seed 101 cases
 * 2306, 5510; seed 102 case 1705).
 */
it('with a page index: each page doubled or deleted, the footer following, the index entries left', { timeout: 120_000 }, async () => {
  const failures: string[] = [];
  let cases = 0;
  for (const bytes of [await numbers({}, 60), await mixed({}, 45)]) {
    const rows = await (await ParquetReader.open(bytes)).readRows();
    for (const p of await pagesOf(bytes)) {
      for (const op of ['duplicate', 'delete'] as const) {
        cases++;
        const v = judge(rows, await recoverRows(applyRange(bytes, { kind: 'range', op, unit: 'page', start: p.start, end: p.end, fixOffsets: true })));
        if (v.wrong > 0 || v.unreported) failures.push(`page ${p.start}..${p.end} ${op}: ${v.wrong} wrong rows${v.unreported ? ', loss not reported' : ''}`);
      }
    }
  }
  assert.ok(cases > 60, `only ${cases} cases`);
  assert.deepStrictEqual(failures.slice(0, 20), []);
});
