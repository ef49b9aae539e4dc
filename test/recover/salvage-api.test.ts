/**
 * `salvage`, the one salvage read: the format told by the magic (Parquet,
 * Trevni of both versions; RedElm and the Trevni draft refused), batches
 * whose rows are the original's at the rows their spans name, `wholeOnly`
 * in both formats, a report true to the batches, options one format cannot
 * honour refused, paths in Node, and the file closed when reading ends.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BufferSink, ParquetReader, UnsupportedError, UnsupportedOptionError, InvalidArgumentError, defineSchema, field, bufferSource } from '../../src/node/index.js';
import { MISSING, salvage, type Salvage, type SalvageOptions } from '../../src/node/entries/recover.js';
import { TrevniDraftWriter, TrevniReader, TrevniWriter } from '../../src/node/entries/trevni.js';
import { RedElmWriter } from '../../src/node/entries/redelm.js';
import { salvagedRows } from './salvaged.js';
import { writeFile } from './fixtures.js';

/** Every row back, by its place (row group and row), and the report, checked against the batches. */
async function readAll(s: Salvage): Promise<Map<string, Record<string, unknown>>> {
  const rows = new Map<string, Record<string, unknown>>();
  for await (const r of salvagedRows(s)) {
    const at = `${r.rowGroup ?? ''}:${r.row}`;
    assert.ok(!rows.has(at), `${at} twice`);
    rows.set(at, r.record);
  }
  const r = s.report;
  assert.equal(r.rowsRecovered, rows.size);
  assert.equal(r.rowsLost, r.numRows - rows.size);
  assert.equal(r.rowsWithNulls, [...rows.values()].filter((x) => Object.values(x).includes(MISSING)).length);
  return rows;
}

/** A Trevni file of `version` whose second block of `name` is damaged under its CRC, with its rows and the rows that block held. */
async function damagedTrevni(version: 1 | 2) {
  const sink = new BufferSink();
  const w = await TrevniWriter.open(sink, [{ name: 'id', type: 'long' }, { name: 'name', type: 'string' }], { checksum: 'crc32', codec: 'deflate', version, blockSize: 512 });
  for (let i = 0; i < 3000; i++) await w.writeRow([BigInt(i), `name ${i}`]);
  await w.close();
  const bytes = sink.bytes();
  const reader = await TrevniReader.open(bytes);
  const original: Record<string, unknown>[] = [];
  for await (const row of reader.rows()) original.push(row);
  const b = (await reader.blocks('name'))[1]!;
  bytes[b.offset + 2] ^= 0x10;
  return { bytes, original, lost: { start: b.firstRow, end: b.firstRow + b.numRows } };
}

for (const version of [2, 1] as const) {
  test(`a damaged Trevni file (version ${version}) is told by its magic: the lost block's rows with name MISSING, or left out with wholeOnly`, async () => {
    const { bytes, original, lost } = await damagedTrevni(version);
    for (const wholeOnly of [false, true]) {
      const s = await salvage(bytes, { wholeOnly });
      assert.equal(s.format, 'trevni');
      const rows = await readAll(s);
      const inLost = (i: number) => i >= lost.start && i < lost.end;
      assert.equal(rows.size, wholeOnly ? original.length - (lost.end - lost.start) : original.length);
      for (const [at, row] of rows) {
        const i = Number(at.slice(1));
        assert.deepStrictEqual(row, inLost(i) ? { ...original[i], name: MISSING } : original[i], `row ${i}`);
      }
      assert.deepStrictEqual(s.report.losses.map((l) => [l.column, l.block, l.rows]), [['name', 1, lost]]);
      assert.equal(s.report.whole, false);
    }
  });
}

test('a damaged Parquet file: a batch per row group, the damaged page\'s rows with name MISSING, or left out with wholeOnly, the rest of its row group kept', async () => {
  const bytes = await writeFile();
  const reader = await ParquetReader.open(bytes);
  const original = await reader.readRows();
  const oi = (await reader.file.readOffsetIndex(1, 'name'))!;
  const page = oi.pageLocations[3]!;
  const lost = { start: page.firstRowIndex, end: oi.pageLocations[4]!.firstRowIndex };
  const d = bytes.slice();
  d[page.offset + page.compressedPageSize - 2] ^= 0x11;
  for (const wholeOnly of [false, true]) {
    const s = await salvage(d, { wholeOnly });
    assert.equal(s.format, 'parquet');
    const rows = await readAll(s);
    const inLost = (rg: number, r: number) => rg === 1 && r >= lost.start && r < lost.end;
    assert.equal(rows.size, wholeOnly ? original.length - (lost.end - lost.start) : original.length);
    for (const [at, row] of rows) {
      const [rg, r] = at.split(':').map(Number) as [number, number];
      const o = original[rg * 1000 + r]!;
      assert.deepStrictEqual(row, inLost(rg, r) ? { ...o, name: MISSING } : o, at);
    }
    assert.deepStrictEqual(s.report.losses.map((l) => [l.rowGroup, l.column, l.page, l.rows]), [[1, 'name', 3, lost]]);
    assert.deepStrictEqual([s.report.foundBy, s.report.rowGroups, s.report.whole], ['footer', 3, false]);
  }
  // Whole: every row, nothing lost.
  const whole = await salvage(bytes);
  assert.equal((await readAll(whole)).size, original.length);
  assert.deepStrictEqual([whole.report.losses, whole.report.whole], [[], true]);
});

test('what one format cannot honour is refused, and files without a salvage read say so', async () => {
  const { bytes } = await damagedTrevni(2);
  for (const o of [{ like: bytes }, { schema: [] }, { codec: 'SNAPPY' }, { int64: 'number' }, { temporal: 'iso' }] as SalvageOptions[]) {
    await assert.rejects(salvage(bytes, o), (e: unknown) => e instanceof UnsupportedOptionError && e.option === Object.keys(o)[0] && e.format === 'trevni', JSON.stringify(Object.keys(o)));
  }
  const draft = new BufferSink();
  const w = await TrevniDraftWriter.open(draft, defineSchema({ id: field.int64().required() }).schema);
  await w.write({ id: 1n });
  await w.close();
  await assert.rejects(salvage(draft.bytes()), (e: unknown) => e instanceof UnsupportedError && /draft's dialect has no salvage read/.test(e.message));
  const redelm = new BufferSink();
  const r = await RedElmWriter.open(redelm, 'message m {\n  required int32 a;\n}\n');
  await r.write({ a: 1 });
  await r.close();
  await assert.rejects(salvage(redelm.bytes()), (e: unknown) => e instanceof UnsupportedError && /RedElm file has no salvage read/.test(e.message));
});

test('a salvage read is read once, closes its source when reading ends or breaks off, and takes paths in Node', async () => {
  const bytes = await writeFile();
  let closed = 0;
  const source = { ...bufferSource(bytes), close: async () => void closed++ };
  const s = await salvage(source);
  for await (const _ of s) break;
  assert.equal(closed, 1);
  await assert.rejects(async () => {
    for await (const _ of s) assert.fail('a second read');
  }, InvalidArgumentError);
  await s.close();
  assert.equal(closed, 1);
  const dir = mkdtempSync(join(tmpdir(), 'parquetry-salvage-'));
  try {
    const { bytes: trv, original } = await damagedTrevni(1);
    writeFileSync(join(dir, 'bad.trv'), trv);
    await using t = await salvage(join(dir, 'bad.trv'));
    assert.equal((await readAll(t)).size, original.length);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
