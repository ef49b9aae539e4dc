/**
 * `pages`, `check-stats` and `footer` on a `_metadata` file (writeSummaryFiles): its
 * column chunks live in the parts (`file_path`), and the commands follow
 * them, showing each page where it lies in its part, as the part shows it;
 * `footer` shows the footer as stored.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineSchema, field, openParquet, writeParquet } from '../../src/node/index.js';
import { writeSummaryFiles } from '../../src/node/entries/dataset.js';
import { footerOf } from '../dataset/setup.js';
import { ok } from './run-cli.js';

let dir = '';
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pq-file-path-'));
  mkdirSync(join(dir, 'k=1'));
  mkdirSync(join(dir, 'k=2'));
  const schema = defineSchema({ id: field.int64().required(), s: field.string() });
  for (const k of [1, 2]) {
    const rows = Array.from({ length: 3000 }, (_, i) => ({ id: BigInt(k * 10_000 + i), s: i % 9 === 0 ? null : `value ${k} ${i % 50}` }));
    await writeParquet(join(dir, `k=${k}`, 'part-0.parquet'), rows, { schema, rowGroupSize: 20_000, pageRowLimit: 700 });
  }
  await writeSummaryFiles(dir);
});
after(() => rmSync(dir, { recursive: true, force: true }));

type Page = Record<string, unknown> & { file?: string };

test('pages of a _metadata: every part\'s pages, each at its offset in its part, the part named', async () => {
  const meta = await footerOf(join(dir, '_metadata'));
  assert.ok(meta.rowGroups.every((rg) => rg.columns.every((c) => c.filePath !== undefined)), 'the summary\'s chunks all name their part');
  const got = (await ok('pages', '--json', join(dir, '_metadata'))).trim().split('\n').map((l) => JSON.parse(l) as Page);
  const want: Page[] = [];
  let rowGroup = 0;
  for (const part of ['k=1/part-0.parquet', 'k=2/part-0.parquet']) {
    const pages = (await ok('pages', '--json', join(dir, part))).trim().split('\n').map((l) => JSON.parse(l) as Page);
    const groups = (await footerOf(join(dir, part))).rowGroups.length;
    for (const p of pages) want.push({ ...p, rowGroup: (p.rowGroup as number) + rowGroup, file: part });
    rowGroup += groups;
  }
  assert.ok(want.length > 8, `${want.length} pages`);
  assert.deepEqual(got, want);
  const text = await ok('pages', join(dir, '_metadata'));
  assert.match(text, /row group 0, column id in k=1\/part-0\.parquet: /);
});

test('check-stats of a _metadata checks the parts\' statistics, page indexes and bloom filters as the parts do', async () => {
  const summary = JSON.parse(await ok('check-stats', '--json', join(dir, '_metadata'))) as { checked: Record<string, number>; lies: unknown[] };
  const parts = await Promise.all(['k=1', 'k=2'].map(async (k) => JSON.parse(await ok('check-stats', '--json', join(dir, k, 'part-0.parquet'))) as { checked: Record<string, number> }));
  assert.deepEqual(summary.lies, []);
  for (const what of Object.keys(summary.checked)) assert.equal(summary.checked[what], parts[0]!.checked[what]! + parts[1]!.checked[what]!, what);
  assert.ok(summary.checked['offset index']! > 0 && summary.checked.statistics! > 0);
});

test('openParquet of a _metadata reads part of a row group through the parts\' offset indexes, at their own offsets', async () => {
  const summary = await openParquet(join(dir, '_metadata'));
  const parts = await Promise.all(['k=1', 'k=2'].map((k) => openParquet(join(dir, k, 'part-0.parquet'))));
  try {
    const all = [...await parts[0]!.readRows(), ...await parts[1]!.readRows()];
    assert.deepEqual(await summary.readRows({ offset: 1500, limit: 2000 }), all.slice(1500, 3500));
    assert.deepEqual(await summary.readRows({ filter: { and: [{ column: 'id', op: '>=', value: 10_650n }, { column: 'id', op: '<=', value: 20_720n }] } }), all.filter((r) => (r.id as bigint) >= 10_650n && (r.id as bigint) <= 20_720n));
    assert.deepEqual((await summary.file.readOffsetIndex(parts[0]!.file.metadata.rowGroups.length, 'id'))!.pageLocations.map((l) => summary.file.locate(l.offset).offset), (await parts[1]!.file.readOffsetIndex(0, 'id'))!.pageLocations.map((l) => l.offset));
  } finally {
    await Promise.all([summary, ...parts].map((r) => r.close()));
  }
});

test('footer of a _metadata: the footer as stored, file_path and the offsets in the parts, as each part\'s own footer has them', async () => {
  const summary = JSON.parse(await ok('footer', '--json', join(dir, '_metadata')));
  const chunks = summary.row_groups.flatMap((rg: { columns: Record<string, any>[] }) => rg.columns);
  assert.deepEqual([...new Set(chunks.map((c: Record<string, unknown>) => c.file_path))], ['k=1/part-0.parquet', 'k=2/part-0.parquet']);
  for (const part of ['k=1/part-0.parquet', 'k=2/part-0.parquet']) {
    const own = JSON.parse(await ok('footer', '--json', join(dir, part))).row_groups.flatMap((rg: { columns: unknown[] }) => rg.columns);
    assert.deepEqual(chunks.filter((c: Record<string, unknown>) => c.file_path === part).map(({ file_path: _, ...c }: Record<string, unknown>) => c), own);
  }
});
