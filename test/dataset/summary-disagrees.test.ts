/**
 * A `_metadata` summary that disagrees with its parts' own footers about
 * what their pages mean or where their rows are: a field renamed (fuzz
 * seed 20261129 case 34907: the rows came back under the new name, with
 * no `id`), retyped, its repetition changed, columns reordered, a row
 * group's row count changed, a chunk moved. Read as a directory, as the
 * summary's URL, and by the single-file reader (by path and by URL), each
 * is an IncompatibleFilesError naming the part; under `badFiles: 'skip'`
 * the parts that disagree are listed and every row that comes back is one
 * written, under its own name.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IncompatibleFilesError, openDataset, openParquet, ParquetReader, writeParquet } from '../../src/node/index.js';
import { summarize, summaryFileBytes } from '../../src/node/entries/dataset.js';
import type { FileMetaData } from '../../src/parquet/metadata/index.js';
import { useServer } from './http-server.js';

let base = '';
const served = useServer(() => base);
const footers = new Map<string, FileMetaData>();
const written: Record<string, unknown>[] = [];

before(async () => {
  base = mkdtempSync(join(tmpdir(), 'pq-summary-disagrees-'));
  mkdirSync(join(base, 'ds'), { recursive: true });
  for (const [path, start] of [['a.parquet', 0], ['b.parquet', 10]] as const) {
    const rows = Array.from({ length: 4 }, (_, i) => ({ id: BigInt(start + i), name: `n${start + i}`, score: start + i + 0.5 }));
    footers.set(path, await writeParquet(join(base, 'ds', path), rows, { rowGroupRows: 2 }));
    written.push(...rows);
  }
});
after(() => rmSync(base, { recursive: true, force: true }));

type Edit = (m: FileMetaData, part: string) => void;

/** Damage to the summary: what it says of every part (schema) or of one part's row groups. */
const EDITS: [string, Edit][] = [
  ['a field renamed', (m) => void (m.schema[1]!.name = 'idx')],
  ['a field renamed, its chunks too', (m) => {
    m.schema[1]!.name = 'idx';
    for (const g of m.rowGroups) g.columns[0]!.metaData!.pathInSchema = ['idx'];
  }],
  ['a field retyped', (m) => void (m.schema[3]!.type = 'INT64')],
  ['a field made required', (m) => void (m.schema[1]!.repetitionType = 'REQUIRED')],
  ['a field made repeated', (m) => void (m.schema[1]!.repetitionType = 'REPEATED')],
  ['a field given another logical type', (m) => void (m.schema[2]!.logicalType = { type: 'JSON' })],
  ['two columns swapped', (m) => {
    [m.schema[1], m.schema[2]] = [m.schema[2]!, m.schema[1]!];
    for (const g of m.rowGroups) [g.columns[0], g.columns[1]] = [g.columns[1]!, g.columns[0]!];
  }],
  ['a row group of a.parquet counting a row more', (m, part) => {
    if (part === 'a.parquet') m.rowGroups[0]!.numRows++;
  }],
  ['a chunk of a.parquet counting a value less', (m, part) => {
    if (part === 'a.parquet') m.rowGroups[1]!.columns[1]!.metaData!.numValues--;
  }],
  ['a chunk of b.parquet sized wrongly', (m, part) => {
    if (part === 'b.parquet') m.rowGroups[0]!.columns[2]!.metaData!.totalCompressedSize += 3;
  }],
];

function writeSummary(edit: Edit): void {
  const parts = [...footers].map(([path, meta]) => {
    const copy = structuredClone(meta);
    edit(copy, path);
    return { path, metadata: copy };
  });
  // The summary's schema is its first part's: the edit applies to every part alike where it is a schema edit.
  writeFileSync(join(base, 'ds', '_metadata'), summaryFileBytes(summarize(parts).metadata));
}

const key = (r: Record<string, unknown>) => JSON.stringify(r, (_, v) => (typeof v === 'bigint' ? `${v}n` : v));

test('a summary that disagrees with its parts gives no rows: refused naming the part, or skipping, the part listed and only written rows back', async () => {
  const all = new Set(written.map(key));
  const summary = join(base, 'ds', '_metadata');
  for (const [what, edit] of EDITS) {
    writeSummary(edit);
    const url = `${served.origin}/ds/_metadata`;
    const refused = (e: unknown) => e instanceof IncompatibleFilesError && /disagrees with/.test(e.message);
    for (const [how, input] of [['directory', join(base, 'ds')], ['URL', [url]]] as const) {
      await assert.rejects(openDataset(input).then((ds) => ds.readRows()), refused, `${what}, ${how}`);
      const ds = await openDataset(input, { badFiles: 'skip' }).catch((e: Error) => e);
      if (ds instanceof Error) {
        // Every part skipped: nothing to read, said so.
        assert.ok(ds.message, `${what}, ${how}, skipping`);
        continue;
      }
      const rows = await ds.readRows().catch((e: Error) => e);
      if (rows instanceof Error) continue;
      for (const r of rows) assert.ok(all.has(key(r)), `${what}, ${how}, skipping: ${key(r)} is no row written`);
      assert.ok(ds.skipped.some((s) => /disagrees with/.test(s.reason)), `${what}, ${how}, skipping: ${JSON.stringify(ds.skipped)}`);
    }
    await assert.rejects(openParquet(summary).then((r) => r.readRows()), refused, `${what}, openParquet`);
    await assert.rejects(ParquetReader.open(new URL(url)).then((r) => r.readRows()), refused, `${what}, ParquetReader.open(URL)`);
  }
});

test('a summary that agrees with its parts reads every row, by every way', async () => {
  writeSummary(() => {});
  const sorted = (rows: Record<string, unknown>[]) => rows.map(key).sort();
  const want = sorted(written);
  assert.deepEqual(sorted(await (await openDataset(join(base, 'ds'))).readRows()), want);
  assert.deepEqual(sorted(await (await openDataset([`${served.origin}/ds/_metadata`])).readRows()), want);
  assert.deepEqual(sorted(await (await openParquet(join(base, 'ds', '_metadata'))).readRows()), want);
  assert.deepEqual(sorted(await (await ParquetReader.open(new URL(`${served.origin}/ds/_metadata`))).readRows()), want);
});
