/**
 * Footerless scan where the pages run out at damage (a page cut short): a
 * page doubled or dropped before that point shifts every later page onto
 * the next column, and with the page that would show it unreadable the
 * shifted chunks still hold equal rows (the fuzz's seed 20261125 case 7387:
 * a nested file, one page doubled, a later one failing its CRC). Every
 * recovered row must be an original row, every loss reported; nested
 * leaves from our writer, the fuzz's generator and DuckDB.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import { ParquetReader } from '../../src/index.js';
import { pagesOf } from '../../scripts/fuzz/parquet-pages.js';
import { withDuck } from './duck.js';
import { judge, recoverRows } from './invariant.js';
import { footerless, mixed, numbers, overGeneratedFiles, pageMutationsCutAfter } from './sweep-files.js';

/** Runs the damage of `bytes` and returns how many cases it made. */
async function sweep(bytes: Uint8Array): Promise<number> {
  const rows = await (await ParquetReader.open(bytes)).readRows();
  const failures: string[] = [];
  const mutations = pageMutationsCutAfter(bytes, await pagesOf(bytes));
  for (const m of mutations) {
    const v = judge(rows, await recoverRows(m.bytes, { like: bytes }));
    if (v.wrong > 0 || v.unreported) failures.push(`${m.label}: ${v.wrong} wrong rows${v.unreported ? ', loss not reported' : ''}`);
  }
  assert.deepStrictEqual(failures.slice(0, 20), []);
  return mutations.length;
}

it('nested and nullable leaves, v1, CRCs', { timeout: 120_000 }, async () => {
  assert.ok(await sweep(await mixed({ pageIndex: false }, 60)) > 100);
});

it('nested and nullable leaves, v2, no dictionaries', { timeout: 120_000 }, async () => {
  assert.ok(await sweep(await mixed({ pageVersion: 2, dictionary: false, checksums: false }, 60)) > 100);
});

it('int64, double and strings side by side', { timeout: 120_000 }, async () => {
  assert.ok(await sweep(await numbers({ pageIndex: false })) > 100);
});

it("the fuzz generator's small files (random nested schemas, as the campaign case)", { timeout: 120_000 }, async () => {
  const cases = await overGeneratedFiles(20261125, 8, sweep);
  assert.ok(cases > 100, `only ${cases} cases`);
});

const oracle = withDuck();

it('a nested file DuckDB wrote (lists of structs, a map)', { timeout: 120_000 }, async () => {
  const path = await oracle.files.write('tail.parquet', `SELECT i::INTEGER AS id,
    CASE WHEN i % 4 = 0 THEN NULL ELSE [ {'a': i, 'b': 'x' || (i % 5)} for _ in range(i % 3) ] END AS l,
    map([i % 7], ['v' || i]) AS m, i * 0.5 AS d FROM range(3000) t(i)`, 'ROW_GROUP_SIZE 1000');
  assert.ok(await sweep(new Uint8Array(readFileSync(path))) > 20);
});

/**
 * The footer gone, each column chunk doubled in place: a copy of the last
 * chunk's page passed for the last column's chunk, pushing that chunk out
 * where no row group can begin (seed 101 case 3159).
 */
it("each chunk doubled, the footer gone: nested leaves and the fuzz generator's files", { timeout: 120_000 }, async () => {
  const doubled = async (bytes: Uint8Array): Promise<number> => {
    const reader = await ParquetReader.open(bytes);
    // In a one-column file a chunk doubled reads as rows written twice: nothing can tell (docs/recovery.md).
    if (reader.schema.leaves.length === 1) return 0;
    const rows = await reader.readRows();
    const pages = await pagesOf(bytes);
    const body = footerless(bytes, pages);
    const failures: string[] = [];
    const chunks = new Map<string, { start: number; end: number }>();
    for (const p of pages) {
      const k = `${p.rowGroup}:${p.column}`;
      const c = chunks.get(k);
      chunks.set(k, { start: c?.start ?? p.start, end: p.end });
    }
    for (const [k, c] of chunks) {
      const damaged = new Uint8Array(Buffer.concat([body.subarray(0, c.end), body.subarray(c.start, c.end), body.subarray(c.end)]));
      // Whole, and cut 6 bytes past the copy (seed 106 case 2887: the copy of a dictionary chunk passed for the next column's).
      for (const d of [damaged, damaged.subarray(0, Math.min(damaged.length, 2 * c.end - c.start + 6))]) {
        const v = judge(rows, await recoverRows(d, { like: bytes }));
        if (v.wrong > 0 || v.unreported) failures.push(`chunk ${k} doubled (${d.length} bytes): ${v.wrong} wrong rows${v.unreported ? ', loss not reported' : ''}`);
      }
    }
    assert.deepStrictEqual(failures.slice(0, 20), []);
    return chunks.size;
  };
  let cases = await doubled(await mixed({ pageIndex: false }, 60));
  cases += await overGeneratedFiles(101, 8, doubled);
  cases += await overGeneratedFiles(106, 14, doubled);
  assert.ok(cases > 30, `only ${cases} cases`);
});
