/**
 * One locator for every reader of chunk bytes: a chunk whose stated bytes
 * leave the file's data is refused the same way (a CorruptFileError naming
 * row group, column and offset) by every consumer; and the fetch planner's
 * one gap rule, against an independent statement of it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { COALESCE_GAP, planFetches, type ByteRange } from '../../src/io/coalesce.js';
import { CorruptFileError, ParquetReader, encryptParquet } from '../../src/index.js';
import { chunkPages, selectChunks } from '../../src/entries/inspect.js';
import type { FileMetaData } from '../../src/parquet/metadata/index.js';
import { withFooter, writeFile } from '../recover/fixtures.js';

const FOOTER_KEY = new Uint8Array(16).fill(1);

/** Damage to one chunk's stated bytes: each puts them (partly) outside the file's data. */
const damages: [string, (m: FileMetaData, size: number) => void][] = [
  ['size past the end', (m, size) => void (m.rowGroups[1]!.columns[1]!.metaData!.totalCompressedSize = size)],
  ['size into the footer length and magic', (m, size) => {
    const c = m.rowGroups[1]!.columns[1]!.metaData!;
    c.totalCompressedSize = size - 4 - (c.dictionaryPageOffset ?? c.dataPageOffset);
  }],
  ['negative size', (m) => void (m.rowGroups[1]!.columns[1]!.metaData!.totalCompressedSize = -5)],
  ['offset inside the magic', (m) => {
    const c = m.rowGroups[1]!.columns[1]!.metaData!;
    c.dataPageOffset = 2;
    c.dictionaryPageOffset = undefined;
  }],
  ['offset past the end', (m, size) => {
    const c = m.rowGroups[1]!.columns[1]!.metaData!;
    c.dataPageOffset = size + 100;
    c.dictionaryPageOffset = undefined;
  }],
];

test('every reader of chunk bytes refuses a chunk outside the file\'s data, naming row group, column and offset', async () => {
  const plain = await writeFile();
  const reader = await ParquetReader.open(plain);
  const footerAt = plain.length - 8 - new DataView(plain.buffer, plain.byteOffset).getUint32(plain.length - 8, true);
  for (const [name, damage] of damages) {
    // The damage is stated against the damaged file's own length (its footer re-encoded may differ in length).
    let bytes = plain;
    for (let size = -1; size !== bytes.length; ) {
      size = bytes.length;
      bytes = withFooter(plain, (m) => damage(m, size), reader.file.metadata, footerAt);
    }
    const r = await ParquetReader.open(bytes);
    const refused = (e: unknown): boolean => {
      assert.ok(e instanceof CorruptFileError, `${name}: ${String(e)}`);
      assert.match(e.message, /column chunk bytes -?\d+\.\.-?\d+ lie outside the file's data/, name);
      assert.equal(e.context.rowGroup, 1, name);
      assert.equal(e.context.column, 'name', name);
      assert.equal(typeof e.context.offset, 'number', name);
      return true;
    };
    await assert.rejects(r.readRows(), refused, `readRows: ${name}`);
    await assert.rejects(r.readRows({ offset: 1000, limit: 3 }), refused, `readRows from row group 1: ${name}`);
    await assert.rejects(async () => {
      for await (const _ of r.columns({ columns: ['name'] })) void _;
    }, refused, `columns: ${name}`);
    await assert.rejects(r.file.readDictionary(1, 'name'), refused, `readDictionary: ${name}`);
    await assert.rejects(r.readRows({ filter: { column: 'name', op: '=', value: 'name-3' } }), refused, `filtered: ${name}`);
    const [ref] = selectChunks(r.file, ['name'], 1);
    await assert.rejects(chunkPages(r.file, r.file.bytes, ref!), refused, `chunkPages: ${name}`);
    await assert.rejects(encryptParquet(bytes, { footerKey: FOOTER_KEY }), (e: unknown) => e instanceof CorruptFileError && /outside the file's data/.test(e.message) && e.context.rowGroup === 1, `encryptParquet: ${name}`);
    // The other row groups still read: the rule is the chunk's.
    assert.equal((await r.readRows({ rowGroups: [0, 2] })).length, 2000, name);
  }
});

test('a row group of no rows is never located into: its chunks\' offsets may be 0', async () => {
  const plain = await writeFile({}, 2000);
  const reader = await ParquetReader.open(plain);
  const footerAt = plain.length - 8 - new DataView(plain.buffer, plain.byteOffset).getUint32(plain.length - 8, true);
  const bytes = withFooter(plain, (m) => {
    const empty = structuredClone(m.rowGroups[0]!);
    empty.numRows = 0;
    for (const c of empty.columns) Object.assign(c.metaData!, { dataPageOffset: 0, dictionaryPageOffset: undefined, totalCompressedSize: 0, numValues: 0 });
    m.rowGroups.splice(1, 0, empty);
  }, reader.file.metadata, footerAt);
  const r = await ParquetReader.open(bytes);
  assert.deepEqual(await r.readRows(), await reader.readRows());
  assert.equal(await r.file.readDictionary(1, 'name'), null);
  const [ref] = selectChunks(r.file, ['name'], 1);
  assert.deepEqual((await chunkPages(r.file, r.file.bytes, ref!)).pages, []);
  let batches = 0;
  for await (const b of r.columns({ columns: ['id'] })) batches += b.rowGroup === 1 ? 1 : 0;
  assert.equal(batches, 0);
});

/** The gap rule as documented, on two ranges in file order: one request when the gap is at most 64 KiB and no longer than the range after it. */
function joins(a: ByteRange, b: ByteRange): boolean {
  const gap = b.start - a.end;
  return gap <= 0 || (gap <= COALESCE_GAP && gap <= b.end - b.start);
}

test('the fetch planner merges exactly the neighbours the gap rule joins, and never fetches more than twice the bytes wanted', () => {
  let seed = 20261129;
  const rand = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  for (let round = 0; round < 500; round++) {
    // Disjoint ranges in a shuffled order, gaps from 0 to past the rule's limit.
    const sorted: ByteRange[] = [];
    let at = rand(100);
    for (let i = 0, n = 1 + rand(12); i < n; i++) {
      const len = 1 + rand(rand(2) ? 200_000 : 2_000);
      sorted.push({ start: at, end: at + len });
      at += len + [0, rand(1000), rand(70_000), rand(200_000)][rand(4)]!;
    }
    const ranges = sorted.map((r) => ({ r, k: rand(1000) })).sort((a, b) => a.k - b.k).map((x) => x.r);
    const plan = planFetches(ranges);
    // Each range served once, by a request holding it.
    const served = plan.flatMap((f) => f.members).sort((a, b) => a - b);
    assert.deepEqual(served, ranges.map((_, i) => i));
    for (const f of plan) for (const i of f.members) assert.ok(f.start <= ranges[i]!.start && ranges[i]!.end <= f.end);
    // Requests are the runs of neighbours the rule joins.
    let expected = 1;
    for (let i = 1; i < sorted.length; i++) if (!joins(sorted[i - 1]!, sorted[i]!)) expected++;
    assert.equal(plan.length, expected, `round ${round}`);
    const wanted = sorted.reduce((n, r) => n + r.end - r.start, 0);
    const fetched = plan.reduce((n, f) => n + f.end - f.start, 0);
    assert.ok(fetched <= 2 * wanted, `round ${round}: ${fetched} bytes fetched for ${wanted}`);
  }
});
