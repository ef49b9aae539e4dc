/**
 * One file reached twice: by a footer whose column chunks name another file
 * of the dataset (`file_path`), or by two spellings of its path (a symbolic
 * link, `x/../a.parquet`) in a list, a directory or a `_metadata`. Read
 * twice its rows would come twice: refused with an IncompatibleFilesError
 * naming the file, or under `badFiles: 'skip'` left out and listed, every
 * other row once. The rows expected are the ones written.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IncompatibleFilesError, openDataset, writeParquet } from '../../src/node/index.js';
import { summarize, summaryFileBytes, type Dataset } from '../../src/node/entries/dataset.js';
import type { FileMetaData } from '../../src/parquet/metadata/index.js';
import { footerBytes } from '../../src/parquet/write/footer-bytes.js';

let base = '';
const footers = new Map<string, FileMetaData>();

before(async () => {
  base = mkdtempSync(join(tmpdir(), 'pq-same-file-'));
  mkdirSync(join(base, 'ds', 'sub'), { recursive: true });
  for (const [name, start] of [['a.parquet', 0n], ['b.parquet', 10n]] as const) {
    footers.set(name, await writeParquet(join(base, 'ds', name), [0n, 1n, 2n, 3n].map((i) => ({ id: start + i })), { rowGroupRows: 2 }));
  }
});
after(() => rmSync(base, { recursive: true, force: true }));

const ids = (ds: Dataset) => ds.readRows().then((rows) => rows.map((r) => r.id as bigint).sort((x, y) => (x < y ? -1 : 1)));
const A = [0n, 1n, 2n, 3n];
const B = [10n, 11n, 12n, 13n];

/** A file of no pages whose footer names `target`'s row groups by `file_path`, as a summary does. */
function pointer(path: string, filePath: string, target: string): void {
  const meta = footers.get(target)!;
  const rowGroups = meta.rowGroups.map((rg) => ({ ...rg, columns: rg.columns.map((c) => ({ ...c, filePath })) }));
  writeFileSync(path, Buffer.concat([Buffer.from('PAR1'), footerBytes({ ...meta, rowGroups })]));
}

test("a part whose footer puts its chunks in another part of the directory is refused, naming it; skipping, every row once", async () => {
  const dir = join(base, 'ds');
  for (const spelling of ['a.parquet', './a.parquet', 'sub/../a.parquet']) {
    pointer(join(dir, 'c.parquet'), spelling, 'a.parquet');
    for (const input of [dir, [join(dir, 'a.parquet'), join(dir, 'b.parquet'), join(dir, 'c.parquet')]]) {
      await assert.rejects(openDataset(input).then((ds) => ds.readRows()), (e: unknown) => e instanceof IncompatibleFilesError && e.message.includes('c.parquet') && /twice/.test(e.message), spelling);
      const ds = await openDataset(input, { badFiles: 'skip' });
      assert.deepEqual(await ids(ds), [...A, ...B], spelling);
      assert.deepEqual(ds.skipped.map((s) => s.path), [join(dir, 'c.parquet')], spelling);
    }
  }
  rmSync(join(dir, 'c.parquet'));
});

test('one file listed under two spellings (a symbolic link, x/../a.parquet): refused naming the second; skipping, its rows once', async () => {
  const dir = join(base, 'ds');
  symlinkSync(join(dir, 'a.parquet'), join(dir, 'link.parquet'));
  try {
    for (const second of [join(dir, 'link.parquet'), join(dir, 'sub', '..', 'a.parquet'), `${dir}/./a.parquet`]) {
      const input = [join(dir, 'a.parquet'), join(dir, 'b.parquet'), second];
      await assert.rejects(openDataset(input).then((ds) => ds.readRows()), (e: unknown) => e instanceof IncompatibleFilesError && /twice/.test(e.message), second);
      const ds = await openDataset(input, { badFiles: 'skip' });
      assert.deepEqual(await ids(ds), [...A, ...B], second);
      assert.equal(ds.skipped.length, 1, second);
    }
    // A directory holding a link to one of its files lists that file twice.
    await assert.rejects(openDataset(dir).then((ds) => ds.readRows()), IncompatibleFilesError);
    assert.deepEqual(await ids(await openDataset(dir, { badFiles: 'skip' })), [...A, ...B]);
  } finally {
    rmSync(join(dir, 'link.parquet'));
  }
});

test('a _metadata naming a row group through a link and through the file is refused as twice; each named once is no duplicate', async () => {
  const dir = join(base, 'ds');
  symlinkSync(join(dir, 'a.parquet'), join(dir, 'link.parquet'));
  const summary = (named: [string, number[]][]) => {
    const parts = named.map(([path, groups]) => {
      const meta = footers.get('a.parquet')!;
      const rowGroups = groups.map((g) => meta.rowGroups[g]!);
      return { path, metadata: { ...meta, rowGroups, numRows: rowGroups.reduce((n, rg) => n + rg.numRows, 0) } };
    });
    writeFileSync(join(dir, '_metadata'), summaryFileBytes(summarize(parts).metadata));
  };
  try {
    summary([['a.parquet', [0, 1]], ['link.parquet', [1]]]);
    await assert.rejects(openDataset(dir).then((ds) => ds.readRows()), (e: unknown) => e instanceof IncompatibleFilesError && /_metadata/.test(e.message) && /twice/.test(e.message));
    const ds = await openDataset(dir, { badFiles: 'skip' });
    assert.deepEqual(await ids(ds), A);
    assert.ok(ds.skipped.length === 1 && ds.skipped[0]!.path.endsWith('_metadata'), JSON.stringify(ds.skipped));
    summary([['link.parquet', [1]], ['a.parquet', [0]]]);
    assert.deepEqual(await ids(await openDataset(dir)), A);
  } finally {
    rmSync(join(dir, 'link.parquet'));
    rmSync(join(dir, '_metadata'));
  }
});
