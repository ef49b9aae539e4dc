/**
 * Recovery judged against the original rows at cut positions of small
 * multi-page files (every byte of one) and under whole-page damage: nothing
 * recovered that the original does not hold at that place, and every loss
 * reported. Without a footer the page-header scan finds the row groups
 * (`like` the original); cuts inside the footer and a damaged footer
 * exercise the footer path, a checkpointing writer's file the checkpoint path.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import { ParquetReader } from '../../src/index.js';
import { withDuck } from './duck.js';
import { judge, recoverRows } from './invariant.js';
import { pagesOf } from '../../scripts/fuzz/parquet-pages.js';
import { footerless, mixed, numbers, oneColumn, pageMutations, sameTypes } from './sweep-files.js';

interface Input {
  label: string;
  bytes: Uint8Array;
}

/** Recovers each input `like` the original (when asked) and returns the cases that break the invariant. */
async function sweep(original: Uint8Array, inputs: Iterable<Input>, like: boolean, ignoreNames = false): Promise<{ cases: number; failures: string[] }> {
  const rows = await (await ParquetReader.open(original)).readRows();
  const failures: string[] = [];
  let cases = 0;
  for (const input of inputs) {
    const v = judge(rows, await recoverRows(input.bytes, like ? { like: original } : {}), { ignoreNames });
    cases++;
    if (v.wrong > 0 || v.unreported) failures.push(`${input.label}: ${v.wrong} wrong rows${v.unreported ? ', loss not reported' : ''}`);
  }
  return { cases, failures };
}

function* cuts(bytes: Uint8Array, step: number, from = 0): Generator<Input> {
  for (let cut = from; cut < bytes.length; cut += step) yield { label: `cut at ${cut}`, bytes: bytes.subarray(0, cut) };
}

/**
 * Cuts every `step` bytes, then (footer gone) every page doubled, dropped,
 * swapped with its neighbour across a chunk boundary. `whole`: the file cut
 * right after its last page gives back every row (the sweep is not passed by
 * recovering nothing).
 */
async function cutsAndPages(bytes: Uint8Array, step: number, whole = true): Promise<void> {
  const pages = await pagesOf(bytes);
  if (whole) {
    const got = await recoverRows(footerless(bytes, pages), { like: bytes });
    assert.ok(!(got instanceof Error));
    assert.deepStrictEqual(got.rows, await (await ParquetReader.open(bytes)).readRows());
  }
  const cut = await sweep(bytes, cuts(bytes, step), true);
  const { mutations, indistinguishable } = pageMutations(bytes, pages);
  const paged = await sweep(bytes, mutations, true);
  process.stderr.write(`  ${cut.cases} cuts, ${paged.cases} page mutations (${indistinguishable} swaps of interchangeable pages left out)\n`);
  assert.deepStrictEqual([...cut.failures, ...paged.failures].slice(0, 20), []);
}

it('every cut of a small file, and every page doubled, dropped or swapped: int64, double, dictionary strings', { timeout: 120_000 }, async () => {
  await cutsAndPages(await numbers({ rowGroupRows: 20 }, 40), 1);
});

it("three int64 columns (the reproducer's shape: no page tells whose it is)", { timeout: 120_000 }, async () => {
  await cutsAndPages(await sameTypes(), 5, false);
});

it('int64 and double without dictionaries, v2 pages, GZIP, no CRCs', { timeout: 120_000 }, async () => {
  await cutsAndPages(await numbers({ dictionary: false, pageVersion: 2, checksums: false, codec: 'GZIP' }), 13);
});

it('nested and nullable leaves, v1, SNAPPY, CRCs', { timeout: 120_000 }, async () => {
  await cutsAndPages(await mixed(), 37);
});

it('nested and nullable leaves, v2, ZSTD, no CRCs, no dictionaries', { timeout: 120_000 }, async () => {
  await cutsAndPages(await mixed({ pageVersion: 2, codec: 'ZSTD', checksums: false, dictionary: false }), 41);
});

it('one nullable column: cut anywhere, only its rows come back', { timeout: 120_000 }, async () => {
  const bytes = await oneColumn();
  const { failures } = await sweep(bytes, cuts(bytes, 3), true);
  assert.deepStrictEqual(failures.slice(0, 20), []);
});

it('a checkpointing writer cut anywhere: the checkpoint path (the scan before the first checkpoint)', { timeout: 120_000 }, async () => {
  const bytes = await mixed({ checkpointEvery: 1 });
  const { failures } = await sweep(bytes, cuts(bytes, 43), true);
  assert.deepStrictEqual(failures.slice(0, 20), []);
});

it('a damaged footer: every seventh byte of the footer changed (with a sibling to scan by when it no longer reads)', { timeout: 120_000 }, async () => {
  const bytes = await mixed({ pageIndex: false });
  const start = footerless(bytes, await pagesOf(bytes)).length;
  const flips = function* (): Generator<Input> {
    for (let i = start; i < bytes.length; i += 7) {
      const d = bytes.slice();
      d[i]! ^= 0x5a;
      yield { label: `byte ${i} changed`, bytes: d };
    }
  };
  // A name changed in the footer reads as another name: nothing in the file can tell. The values must still be the original's.
  const { failures } = await sweep(bytes, flips(), true, true);
  assert.deepStrictEqual(failures.slice(0, 20), []);
});

const oracle = withDuck();

it('a file DuckDB wrote (dictionaries where DuckDB chose them, no CRCs, three row groups)', { timeout: 120_000 }, async () => {
  const path = await oracle.files.write('sweep.parquet', `SELECT i::INTEGER AS id, i / 4 AS x, CASE WHEN i % 5 = 0 THEN NULL ELSE 'n' || (i % 7) END AS name,
    CASE WHEN i % 3 = 0 THEN NULL ELSE range(i % 4) END AS l FROM range(4500) t(i)`, 'ROW_GROUP_SIZE 2048, COMPRESSION SNAPPY');
  await cutsAndPages(new Uint8Array(readFileSync(path)), 211);
});
