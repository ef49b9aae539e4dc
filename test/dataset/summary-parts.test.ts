/**
 * A `_metadata` that disagrees with its parts by naming one of their row
 * groups twice (in any spelling of the part's path), or by naming a part
 * that is not there: an error, or under `badFiles: 'skip'` the row group or
 * part left out and listed, every other row once. Read as a directory, as a
 * list naming the summary, and as the summary's URL on a local server (a
 * missing part answers 404); the single-file reader refuses the duplicate
 * too. The rows expected are the ones written, not our reader's.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CorruptFileError, IncompatibleFilesError, IOError, openDataset, openParquet, ParquetReader, ParquetryError, writeParquet } from '../../src/node/index.js';
import { summarize, summaryFileBytes, type Dataset } from '../../src/node/entries/dataset.js';
import type { FileMetaData } from '../../src/parquet/metadata/index.js';
import { footerBytes } from '../../src/parquet/write/footer-bytes.js';
import { useServer } from './http-server.js';

let base = '';
const served = useServer(() => base);
const footers = new Map<string, FileMetaData>();
/** Each part's rows, by row group, as written. */
const written = new Map<string, bigint[][]>();

before(async () => {
  base = mkdtempSync(join(tmpdir(), 'pq-summary-parts-'));
  mkdirSync(join(base, 'ds', 'sub'), { recursive: true });
  // a.parquet: three row groups of two rows; the others one row group each.
  for (const [path, start, groups] of [['a.parquet', 0n, 3], ['sub/b.parquet', 10n, 1], ['c.parquet', 20n, 1]] as const) {
    const ids = Array.from({ length: groups }, (_, g) => [start + BigInt(2 * g), start + BigInt(2 * g + 1)]);
    footers.set(path, await writeParquet(join(base, 'ds', path), ids.flat().map((id) => ({ id, name: `n${id}` })), { rowGroupRows: 2 }));
    written.set(path, ids);
    assert.equal(footers.get(path)!.rowGroups.length, groups);
  }
});
after(() => rmSync(base, { recursive: true, force: true }));

/** A summary entry: `spelling` naming `part`'s row groups `groups` (all by default). */
type Named = { spelling: string; part: string; groups?: number[] };

function writeSummary(named: Named[]): void {
  const parts = named.map(({ spelling, part, groups }) => {
    const meta = footers.get(part)!;
    const rowGroups = (groups ?? meta.rowGroups.map((_, g) => g)).map((g) => meta.rowGroups[g]!);
    return { path: spelling, metadata: { ...meta, rowGroups, numRows: rowGroups.reduce((n, rg) => n + rg.numRows, 0) } };
  });
  writeFileSync(join(base, 'ds', '_metadata'), summaryFileBytes(summarize(parts).metadata));
}

/** The ids of the (part, row group) pairs named, each once, sorted: what a right read returns. */
function once(named: Named[]): bigint[] {
  const seen = new Set<string>();
  const ids: bigint[] = [];
  for (const { part, groups } of named) {
    const all = written.get(part)!;
    for (const g of groups ?? all.map((_, i) => i)) {
      if (seen.has(`${part} ${g}`)) continue;
      seen.add(`${part} ${g}`);
      ids.push(...all[g]!);
    }
  }
  return ids.sort((x, y) => (x < y ? -1 : 1));
}

const sorted = (ds: Dataset) => ds.readRows().then((rows) => rows.map((r) => r.id as bigint).sort((x, y) => (x < y ? -1 : 1)));

/** The three ways a summary is read as a dataset. */
function inputs(): [string, string | string[]][] {
  return [['directory', join(base, 'ds')], ['list', [join(base, 'ds', '_metadata')]], ['URL', [`${served.origin}/ds/_metadata`]]];
}

const DUPLICATES: Named[][] = [
  [{ spelling: 'a.parquet', part: 'a.parquet' }, { spelling: 'a.parquet', part: 'a.parquet' }],
  [{ spelling: 'a.parquet', part: 'a.parquet' }, { spelling: './a.parquet', part: 'a.parquet' }],
  [{ spelling: 'sub/../a.parquet', part: 'a.parquet' }, { spelling: 'c.parquet', part: 'c.parquet' }, { spelling: 'a.parquet', part: 'a.parquet' }],
  [{ spelling: 'sub/b.parquet', part: 'sub/b.parquet' }, { spelling: 'sub//b.parquet', part: 'sub/b.parquet' }],
  [{ spelling: 'sub/./b.parquet', part: 'sub/b.parquet' }, { spelling: 'x/y/../../sub/b.parquet', part: 'sub/b.parquet' }],
  // One row group of three named again, after the others.
  [{ spelling: 'a.parquet', part: 'a.parquet' }, { spelling: 'a.parquet', part: 'a.parquet', groups: [1] }],
  // Interleaved: a row group named again after another part's.
  [{ spelling: 'a.parquet', part: 'a.parquet', groups: [0] }, { spelling: 'sub/b.parquet', part: 'sub/b.parquet' }, { spelling: 'a.parquet', part: 'a.parquet', groups: [0, 2] }],
];

test('a summary naming a row group of a part twice, in any spelling of its path, is refused; skipping, its rows come once', async () => {
  for (const named of DUPLICATES) {
    writeSummary(named);
    const label = JSON.stringify(named.map((n) => `${n.spelling}${n.groups ? `[${n.groups}]` : ''}`));
    for (const [how, input] of inputs()) {
      await assert.rejects(openDataset(input).then((ds) => ds.readRows()), (e: unknown) => e instanceof IncompatibleFilesError && /_metadata/.test(e.message) && /twice/.test(e.message), `${label} ${how}`);
      const ds = await openDataset(input, { badFiles: 'skip' });
      assert.deepEqual(await sorted(ds), once(named), `${label} ${how}, skipping`);
      assert.ok(ds.skipped.length >= 1 && ds.skipped.every((s) => s.path.endsWith('_metadata') && /twice/.test(s.reason)), `${label} ${how}: ${JSON.stringify(ds.skipped)}`);
    }
    // The single-file reader of the summary, by path and by URL.
    await assert.rejects(openParquet(join(base, 'ds', '_metadata')), IncompatibleFilesError, label);
    await assert.rejects(ParquetReader.open(new URL(`${served.origin}/ds/_metadata`)), IncompatibleFilesError, label);
  }
});

test('a part named once per row group, in any order and between other parts, is no duplicate: every row once', async () => {
  for (const named of [
    [{ spelling: 'a.parquet', part: 'a.parquet' }],
    [{ spelling: 'a.parquet', part: 'a.parquet', groups: [0] }, { spelling: 'a.parquet', part: 'a.parquet', groups: [1] }, { spelling: './a.parquet', part: 'a.parquet', groups: [2] }],
    [{ spelling: 'a.parquet', part: 'a.parquet', groups: [2] }, { spelling: 'c.parquet', part: 'c.parquet' }, { spelling: 'sub/../a.parquet', part: 'a.parquet', groups: [0, 1] }, { spelling: 'sub/b.parquet', part: 'sub/b.parquet' }],
  ] satisfies Named[][]) {
    writeSummary(named);
    for (const [how, input] of inputs()) assert.deepEqual(await sorted(await openDataset(input)), once(named), `${how} ${JSON.stringify(named)}`);
    for (const open of [() => openParquet(join(base, 'ds', '_metadata')), () => ParquetReader.open(new URL(`${served.origin}/ds/_metadata`))]) {
      const reader = await open();
      try {
        assert.deepEqual((await reader.readRows()).map((r) => r.id as bigint).sort((x, y) => (x < y ? -1 : 1)), once(named));
      } finally {
        await reader.close();
      }
    }
  }
});

test('a summary naming a missing part: an IOError naming it; skipping, it is listed and the other parts\' rows come back (local and 404)', async () => {
  const named: Named[] = [{ spelling: 'a.parquet', part: 'a.parquet' }, { spelling: 'gone.parquet', part: 'c.parquet' }, { spelling: 'sub/b.parquet', part: 'sub/b.parquet' }];
  writeSummary(named);
  const want = once(named.filter((n) => n.spelling !== 'gone.parquet'));
  for (const [how, input] of inputs()) {
    await assert.rejects(openDataset(input).then((ds) => ds.readRows()), (e: unknown) => e instanceof IOError && e.message.includes('gone.parquet'), how);
    const ds = await openDataset(input, { badFiles: 'skip' });
    assert.deepEqual(await sorted(ds), want, how);
    assert.deepEqual(ds.skipped.map((s) => s.path.replace(/.*\/ds\//, '')), ['gone.parquet'], how);
    assert.deepEqual(await sorted(ds), want, `${how}, read again`);
    assert.equal(ds.skipped.length, 1, `${how}: listed once however often it is read`);
    // Every way of reading skips it alike.
    const again = await openDataset(input, { badFiles: 'skip' });
    assert.equal((await again.toArrow()).numRows, want.length, `${how} toArrow`);
    const columns = await openDataset(input, { badFiles: 'skip' });
    let values = 0;
    for await (const b of columns.columns({ columns: ['id'] })) values += b.numRows;
    assert.equal(values, want.length, `${how} columns`);
    assert.deepEqual(columns.skipped.map((s) => s.path.replace(/.*\/ds\//, '')), ['gone.parquet'], `${how} columns`);
  }
});

test('a list naming a file that is not there: an IOError, or skipping, listed and left out, first or later', async () => {
  for (const [how, at] of [['local', join(base, 'ds')], ['URL', `${served.origin}/ds`]] as const) {
    for (const files of [['a.parquet', 'gone.parquet', 'c.parquet'], ['gone.parquet', 'a.parquet', 'c.parquet']]) {
      const input = files.map((f) => `${at}/${f}`);
      await assert.rejects(openDataset(input).then((ds) => ds.readRows()), (e: unknown) => e instanceof IOError && e.message.includes('gone.parquet'), `${how} ${files}`);
      const ds = await openDataset(input, { badFiles: 'skip' });
      assert.deepEqual(await sorted(ds), once([{ spelling: '', part: 'a.parquet' }, { spelling: '', part: 'c.parquet' }]), `${how} ${files}`);
      assert.deepEqual(ds.skipped.map((s) => s.path), [`${at}/gone.parquet`], `${how} ${files}`);
    }
  }
});

test('over HTTP, spellings a server takes for one file (escapes, a query, a fragment) name one part: refused as twice', async () => {
  const url = `${served.origin}/ds/_metadata`;
  for (const other of ['a%2Eparquet', '%61.parquet', 'a.parquet?v=1', 'a.parquet#rows', 'sub/%2E%2E/a.parquet']) {
    const named: Named[] = [{ spelling: 'a.parquet', part: 'a.parquet' }, { spelling: other, part: 'a.parquet' }];
    writeSummary(named);
    if (other === 'sub/%2E%2E/a.parquet') {
      // An escaped dot segment is refused before it could be compared.
      await assert.rejects(openDataset([url]).then((ds) => ds.readRows()), /percent-decoded/, other);
      continue;
    }
    await assert.rejects(openDataset([url]).then((ds) => ds.readRows()), (e: unknown) => e instanceof IncompatibleFilesError && /twice/.test(e.message), other);
    await assert.rejects(ParquetReader.open(new URL(url)), IncompatibleFilesError, other);
    const ds = await openDataset([url], { badFiles: 'skip' });
    assert.deepEqual(await sorted(ds), once(named), other);
  }
});

test('a summary naming itself for a row group, in any spelling: refused (it holds no pages), or skipping, left out and listed', async () => {
  for (const self of ['_metadata', './_metadata', 'sub/../_metadata']) {
    const named: Named[] = [{ spelling: 'a.parquet', part: 'a.parquet' }, { spelling: self, part: 'c.parquet' }];
    writeSummary(named);
    await assert.rejects(openDataset(join(base, 'ds')), (e: unknown) => e instanceof IncompatibleFilesError && /names itself/.test(e.message), self);
    const ds = await openDataset(join(base, 'ds'), { badFiles: 'skip' });
    assert.deepEqual(await sorted(ds), once(named.slice(0, 1)), self);
    assert.deepEqual(ds.skipped.map((s) => s.path), [join(base, 'ds', '_metadata')], self);
    // Named in a list, the summary's own row groups are read from it as from any file: no pages there, so no rows but an error.
    await assert.rejects(openDataset([join(base, 'ds', '_metadata')]).then((d) => d.readRows()), ParquetryError, self);
  }
});

test('a file whose own footer lists one row group twice is corrupt, to the reader and to a dataset; skipping, its rows come once', async () => {
  const file = join(base, 'twice.parquet');
  const meta = footers.get('a.parquet')!;
  const bytes = readFileSync(join(base, 'ds', 'a.parquet'));
  const body = bytes.subarray(0, bytes.length - 8 - bytes.readUInt32LE(bytes.length - 8));
  // Row groups 0, 1, 2, then 1 again (empty row groups, whose offsets writers leave at 0, are never compared).
  const empty = { ...meta.rowGroups[0]!, numRows: 0, columns: meta.rowGroups[0]!.columns.map((c) => ({ ...c, metaData: { ...c.metaData!, dataPageOffset: 0, numValues: 0 } })) };
  const rowGroups = [...meta.rowGroups, empty, empty, meta.rowGroups[1]!];
  writeFileSync(file, Buffer.concat([body, footerBytes({ ...meta, rowGroups, numRows: rowGroups.reduce((n, rg) => n + rg.numRows, 0) })]));
  await assert.rejects(openParquet(file), (e: unknown) => e instanceof CorruptFileError && /row groups 1 and 5 are one row group/.test(e.message));
  await assert.rejects(openDataset([file]).then((ds) => ds.readRows()), CorruptFileError);
  const ds = await openDataset([file], { badFiles: 'skip' });
  assert.deepEqual(await sorted(ds), once([{ spelling: '', part: 'a.parquet' }]));
  assert.deepEqual(ds.skipped.map((s) => s.path), [file]);
});
