/**
 * The Trevni salvage read and recover, by a damage campaign: every block of
 * every checksummed column of corpus files (versions 2 and 1) and of files
 * written here (nested arrays with children and grandchildren, small blocks
 * so the columns' blocks cut rows at different places, every codec) is
 * damaged in turn; the rows lost must be exactly those the block descriptors
 * say (the block's, and for its descendants the rest of their blocks), the
 * report must name the block, and everything returned must equal the
 * undamaged file's rows.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ParquetryError } from '../../src/errors.js';
import { BufferSink } from '../../src/io/sink.js';
import { MISSING, type Span } from '../../src/loss.js';
import { mergeSpans } from '../../src/loss.js';
import { TrevniReader } from '../../src/trevni/reader.js';
import { checkTrevni, recoverTrevni } from '../../src/trevni/recover.js';
import { PARENT_LOST, openTrevniForSalvage, salvageTrevniRows } from '../../src/trevni/salvage.js';
import type { TrevniColumn } from '../../src/trevni/types.js';
import { TrevniWriter, type TrevniColumnSpec } from '../../src/trevni/writer.js';
import type { TrevniVersion } from '../../src/trevni/version.js';
import { TREVNI_CORPUS, TREVNI_V1_CORPUS } from './corpus-util.js';

const COLUMNS: TrevniColumnSpec[] = [
  { name: 'id', type: 'long' },
  { name: 'name', type: 'string' },
  { name: 'tags', type: 'string', array: true },
  { name: 'pts', type: 'int', array: true },
  { name: 'pts.x', type: 'double', parent: 'pts' },
  { name: 'pts.ys', type: 'string', array: true, parent: 'pts' },
  { name: 'pts.ys.z', type: 'fixed32', parent: 'pts.ys' },
];

/** A file of 400 rows over COLUMNS, blocks of 600 bytes so each column is cut at its own rows. */
async function ownFile(version: TrevniVersion, codec: string): Promise<Uint8Array> {
  const sink = new BufferSink();
  const w = await TrevniWriter.open(sink, COLUMNS, { codec, checksum: 'crc32', version, blockSize: 600, metadata: [{ key: 'made.by', value: new TextEncoder().encode('recover.test') }] });
  for (let r = 0; r < 400; r++) {
    const n = r % 4;
    const ys = Array.from({ length: n }, (_, k) => Array.from({ length: (r + k) % 3 }, (_, j) => `y${r}.${k}.${j}`));
    await w.writeRow([
      BigInt(r) * 1000003n,
      `name-${r}`.repeat(1 + (r % 5)),
      Array.from({ length: r % 6 }, (_, k) => `t${k}`),
      Array.from({ length: n }, (_, k) => r * 10 + k),
      Array.from({ length: n }, (_, k) => r + k / 8),
      ys,
      ys.flat().map((_, j) => r * 7 + j),
    ]);
  }
  await w.close();
  return sink.bytes();
}

async function allRows(bytes: Uint8Array): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for await (const row of (await TrevniReader.open(bytes)).rows()) out.push(row);
  return out;
}

/** Whether salvage's records() gives `row`: no field lost it, or a field holding data (any but a null column without array) kept it. */
function yielded(r: TrevniReader, lostAt: (field: string, row: number) => boolean, row: number): boolean {
  const fields = r.roots.map((c) => r.columns[c]!);
  return fields.every((f) => !lostAt(f.name, row)) || fields.some((f) => (f.type !== 'null' || f.array) && !lostAt(f.name, row));
}

function rootOf(r: TrevniReader, c: TrevniColumn): TrevniColumn {
  while (c.parentIndex >= 0) c = r.columns[c.parentIndex]!;
  return c;
}

/**
 * The rows a damaged block of `col` costs its field, from the descriptors
 * alone: the block's rows; a descendant cannot place its values past a row
 * its parent lost, so it loses from there to the end of its block holding
 * the parent's last lost row, and so on down.
 */
async function expectedLoss(r: TrevniReader, col: TrevniColumn, span: Span): Promise<Span> {
  let end = span.end;
  const walk = async (c: TrevniColumn, parentEnd: number) => {
    for (const k of c.children) {
      const blocks = await r.blocks(k);
      const holding = blocks.find((b) => b.numRows > 0 && b.firstRow <= parentEnd - 1 && parentEnd - 1 < b.firstRow + b.numRows)!;
      const e = holding.firstRow + holding.numRows;
      end = Math.max(end, e);
      await walk(r.columns[k]!, e);
    }
  };
  await walk(col, span.end);
  return { start: span.start, end };
}

interface Original {
  rows: Record<string, unknown>[];
  /** The same rows as canonical JSON lines: a cheaper comparison for large files. */
  lines: string[];
}

async function original(bytes: Uint8Array): Promise<Original> {
  return { rows: await allRows(bytes), lines: await allLines(bytes) };
}

async function allLines(bytes: Uint8Array): Promise<string[]> {
  const out: string[] = [];
  for await (const line of (await TrevniReader.open(bytes)).canonicalRows()) out.push(line);
  return out;
}

/**
 * Salvages `damaged`, then checks the report, the recovered file against
 * the undamaged rows and the lost span expected, and (`records`) every
 * salvaged row with its MISSING field.
 */
async function checkDamage(damaged: Uint8Array, orig: Original, version: TrevniVersion, field: string, lost: Span, where: string, named: (l: { column: string; block?: number; error: { name: string } }) => boolean, records = true): Promise<void> {
  const original = orig.rows;
  const s = await openTrevniForSalvage(damaged);
  try {
    assert.ok(s.losses.some((l) => named(l) && l.error.name !== PARENT_LOST), `${where}: the damage is not named: ${JSON.stringify(s.losses)}`);
    assert.deepStrictEqual(s.lost.flatMap((spans, i) => spans.map((sp) => [s.reader.columns[s.reader.roots[i]!]!.name, sp])), [[field, lost]], where);
    if (!records) return;
    let n = 0;
    for await (const row of salvageTrevniRows(s)) {
      const inLost = row.row >= lost.start && row.row < lost.end;
      assert.equal(row.record[field] === MISSING, inLost, `${where}: row ${row.row}`);
      const expected = { ...original[row.row]! };
      if (inLost) expected[field] = MISSING;
      assert.deepStrictEqual(row.record, expected, `${where}: row ${row.row}`);
      n++;
    }
    assert.equal(n, original.filter((_, row) => yielded(s.reader, (name) => name === field && row >= lost.start && row < lost.end, row)).length);
  } finally {
    await s.reader.close();
  }
  const sink = new BufferSink();
  const report = await recoverTrevni(damaged, sink);
  const out = sink.bytes();
  assert.equal((await TrevniReader.open(out)).format.version, version);
  const kept = orig.lines.filter((_, i) => i < lost.start || i >= lost.end);
  assert.deepStrictEqual(await allLines(out), kept, where);
  assert.equal(report.rowsRecovered, kept.length);
  assert.equal(report.rowsLost, original.length - kept.length);
  assert.equal(report.whole, false);
}

/**
 * Damages, one at a time, every block of every checksummed column (a byte
 * in the middle of its data flipped), or with `ends` only each column's
 * first and last block (large files); `records` checks the salvaged rows one
 * by one, MISSING fields and all (the recovered file is checked always).
 */
async function campaign(bytes: Uint8Array, label: string, ends = false, records = !ends): Promise<number> {
  const r = await TrevniReader.open(bytes);
  const orig = await original(bytes);
  assert.equal((await checkTrevni(bytes)).whole, true, `${label} is whole before damage`);
  let cases = 0;
  for (const col of r.columns) {
    if (col.checksum === 'null') continue;
    const blocks = await r.blocks(col.index);
    for (let b = 0; b < blocks.length; b++) {
      if (ends && b > 0 && b < blocks.length - 1) continue;
      const blk = blocks[b]!;
      if (blk.compressedSize === 0) continue;
      const damaged = bytes.slice();
      damaged[blk.offset + (blk.compressedSize >> 1)] ^= 0x41;
      const span = { start: blk.firstRow, end: blk.firstRow + blk.numRows };
      const lost = await expectedLoss(r, col, span);
      await checkDamage(damaged, orig, r.format.version, rootOf(r, col).name, lost, `${label}: column ${col.name}, block ${b}`, (l) => l.column === col.name && l.block === b, records);
      cases++;
    }
  }
  return cases;
}

for (const version of [2, 1] as const) {
  for (const codec of ['null', 'deflate', 'snappy']) {
    test(`damage campaign: every block of a nested version ${version} file (${codec} codec, crc32) costs exactly its rows`, async () => {
      const bytes = await ownFile(version, codec);
      const r = await TrevniReader.open(bytes);
      // The columns' blocks must cut rows at different places, and a grandchild's at places its parent's do not, or the campaign proves little.
      const cuts = await Promise.all(r.columns.map(async (c) => (await r.blocks(c.index)).map((b) => b.firstRow).join(',')));
      assert.ok(new Set(cuts).size >= 5, cuts.join(' | '));
      assert.ok((await r.blocks('pts.ys.z')).length >= 3);
      // The salvaged rows are checked one by one for one codec: the codecs differ in the blocks, not in how rows are placed.
      const cases = await campaign(bytes, `version ${version} ${codec}`, false, codec === 'deflate');
      assert.ok(cases >= 30, `${cases} cases`);
    });
  }
}

/** Corpus files with checksums; the large ones (10,000 rows and more) get each column's first and last block damaged. */
const CORPUS_CASES = [
  [TREVNI_CORPUS, 'multiblock_deflate_crc32.trv', true],
  [TREVNI_CORPUS, 'avro_multiblock_deflate.trv', true],
  [TREVNI_CORPUS, 'avro_maps.trv', false],
  [TREVNI_CORPUS, 'column_overrides.trv', false],
  [TREVNI_CORPUS, 'types_bzip2_crc32.trv', false],
  [TREVNI_V1_CORPUS, 'multiblock_deflate_crc32.trv', true],
  [TREVNI_V1_CORPUS, 'column_overrides.trv', false],
] as const;

for (const [dir, file, ends] of CORPUS_CASES) {
  test(`damage campaign over ${dir === TREVNI_V1_CORPUS ? 'version 1 ' : ''}corpus ${file}`, { timeout: 300_000 }, async () => {
    assert.ok(await campaign(new Uint8Array(readFileSync(join(dir, file))), file, ends) > 0);
  });
}

test('without a checksum, a block whose deflate data is gone is found by inflating it, and costs exactly its rows', async () => {
  const bytes = new Uint8Array(readFileSync(join(TREVNI_CORPUS, 'column_overrides.trv')));
  const r = await TrevniReader.open(bytes);
  const col = r.column('nosum');
  assert.equal(col.checksum, 'null');
  assert.equal(col.codec, 'deflate');
  const [blk] = await r.blocks(col.index);
  const damaged = bytes.slice();
  // A zero byte starts a stored deflate block, whose zero length and zero complement disagree.
  damaged.fill(0, blk!.offset, blk!.offset + blk!.compressedSize);
  await checkDamage(damaged, await original(bytes), 2, 'nosum', { start: 0, end: r.numRows }, 'nosum', (l) => l.column === 'nosum' && l.block === 0);
});

test("a column whose block descriptors are unreadable loses every row of its field; its descendants' blocks are named as lost with it", async () => {
  const bytes = await ownFile(2, 'deflate');
  const r = await TrevniReader.open(bytes);
  const orig = await original(bytes);
  for (const col of r.columns) {
    const damaged = bytes.slice();
    // The block count, first in the column's bytes, claims more blocks than the file holds.
    new DataView(damaged.buffer).setInt32(col.start, 0x7fffffff, true);
    await checkDamage(damaged, orig, 2, rootOf(r, col).name, { start: 0, end: r.numRows }, `descriptors of ${col.name}`, (l) => l.column === col.name && l.block === undefined);
    const report = await checkTrevni(damaged);
    const below = r.columns.filter((c) => c.index !== col.index && rootOf(r, c) === rootOf(r, col) && c.index > col.index && isBelow(r, c, col));
    for (const c of below) assert.ok(report.losses.some((l) => l.column === c.name && l.error.name === PARENT_LOST), `${c.name} under ${col.name}`);
  }
});

function isBelow(r: TrevniReader, c: TrevniColumn, ancestor: TrevniColumn): boolean {
  for (let p = c.parentIndex; p >= 0; p = r.columns[p]!.parentIndex) if (p === ancestor.index) return true;
  return false;
}

test('damage in two fields at once: a row survives only when every field is intact there', async () => {
  const bytes = await ownFile(2, 'snappy');
  const r = await TrevniReader.open(bytes);
  const original = await allRows(bytes);
  const a = (await r.blocks('name'))[1]!;
  const b = (await r.blocks('tags'))[2]!;
  const damaged = bytes.slice();
  damaged[a.offset + 3] ^= 1;
  damaged[b.offset + 3] ^= 1;
  const lostA = (i: number) => i >= a.firstRow && i < a.firstRow + a.numRows;
  const lostB = (i: number) => i >= b.firstRow && i < b.firstRow + b.numRows;
  const sink = new BufferSink();
  const report = await recoverTrevni(damaged, sink);
  assert.deepStrictEqual(await allRows(sink.bytes()), original.filter((_, i) => !lostA(i) && !lostB(i)));
  assert.deepStrictEqual(report.fieldsLost, [
    { field: 'name', rows: [{ start: a.firstRow, end: a.firstRow + a.numRows }] },
    { field: 'tags', rows: [{ start: b.firstRow, end: b.firstRow + b.numRows }] },
  ]);
  assert.equal(report.rowsLost, original.filter((_, i) => lostA(i) || lostB(i)).length);
});

test('a whole file is copied byte for byte; a damaged header loses the file with a typed error', async () => {
  const bytes = new Uint8Array(readFileSync(join(TREVNI_V1_CORPUS, 'multiblock_deflate_crc32.trv')));
  const sink = new BufferSink();
  const report = await recoverTrevni(bytes, sink);
  assert.equal(report.whole, true);
  assert.deepStrictEqual(sink.bytes(), bytes);
  const bad = bytes.slice();
  bad[3] = 9;
  await assert.rejects(recoverTrevni(bad, new BufferSink()), (e: unknown) => e instanceof ParquetryError && e.context.offset === 0);
});

test('a header row count the blocks contradict loses every column, each named; nothing is guessed', async () => {
  const bytes = await ownFile(1, 'deflate');
  const r = await TrevniReader.open(bytes);
  const bad = bytes.slice();
  new DataView(bad.buffer).setBigInt64(4, BigInt(r.numRows + 1), true);
  const sink = new BufferSink();
  const report = await recoverTrevni(bad, sink);
  assert.equal(report.rowsRecovered, 0);
  // Each column's own descriptors disagree with the header.
  assert.deepStrictEqual(report.losses.filter((l) => l.block === undefined).map((l) => l.column).sort(), r.columns.map((c) => c.name).sort());
  assert.equal((await TrevniReader.open(sink.bytes())).numRows, 0);
});

/** Null columns of 10 rows each, their header and blocks then claiming 2^31 - 1 rows (a null takes no bytes, so nothing contradicts it). */
async function nullColumns(names: string[]): Promise<Uint8Array> {
  const sink = new BufferSink();
  const w = await TrevniWriter.open(sink, names.map((name) => ({ name, type: 'null' as const })), { checksum: 'crc32' });
  for (let i = 0; i < 10; i++) await w.writeRow(names.map(() => null));
  await w.close();
  const bytes = sink.bytes();
  const dv = new DataView(bytes.buffer, bytes.byteOffset);
  dv.setBigInt64(4, 2n ** 31n - 1n, true);
  for (const c of (await TrevniReader.open(bytes)).columns) dv.setInt32(c.start + 4, 2 ** 31 - 1, true);
  return bytes;
}

test('a null column claiming 2^31 rows in a block of no bytes is checked block by block, not row by row', { timeout: 60_000 }, async () => {
  const report = await checkTrevni(await nullColumns(['n']));
  assert.equal(report.numRows, 2 ** 31 - 1);
  assert.equal(report.blocks, 1);
  assert.equal(report.whole, true);
});

test('recover passes over lost rows in stretches: 2^31 lost rows of a null column cost no loop', { timeout: 60_000 }, async () => {
  const bytes = await nullColumns(['a', 'b']);
  const r = await TrevniReader.open(bytes);
  const b = (await r.blocks('b'))[0]!;
  // The CRC-32 stored after b's (empty) block.
  bytes[b.offset + b.compressedSize] ^= 1;
  const sink = new BufferSink();
  const report = await recoverTrevni(bytes, sink);
  assert.equal(report.rowsRecovered, 0);
  assert.deepStrictEqual(report.fieldsLost, [{ field: 'b', rows: [{ start: 0, end: 2 ** 31 - 1 }] }]);
  assert.equal((await TrevniReader.open(sink.bytes())).numRows, 0);
});

/**
 * The rows each root field loses when the file is cut at `cut`, from the
 * undamaged file's descriptors: a column whose descriptors are cut loses
 * every row; a block cut (and every one after it) loses its rows, and its
 * descendants what expectedLoss says.
 */
async function truncationLoss(r: TrevniReader, cut: number): Promise<Map<string, Span[]>> {
  const lost = new Map<string, Span[]>(r.roots.map((i) => [r.columns[i]!.name, []]));
  for (const col of r.columns) {
    const spans = lost.get(rootOf(r, col).name)!;
    const blocks = await r.blocks(col.index);
    const descriptorsEnd = blocks.length > 0 ? blocks[0]!.offset : col.start + 4;
    if (descriptorsEnd > cut) {
      spans.push({ start: 0, end: r.numRows });
      continue;
    }
    for (const b of blocks) if (b.offset + b.compressedSize + b.checksumSize > cut) spans.push(await expectedLoss(r, col, { start: b.firstRow, end: b.firstRow + b.numRows }));
  }
  return new Map([...lost].map(([k, v]) => [k, mergeSpans(v)]));
}

/** Cuts on both sides of every column start, descriptor end and block end, and (with `every`) every `every` bytes. */
async function cutPoints(r: TrevniReader, every: number): Promise<number[]> {
  const cuts = new Set<number>();
  for (const col of r.columns) {
    cuts.add(col.start - 1).add(col.start).add(col.start + 4);
    for (const b of await r.blocks(col.index)) cuts.add(b.offset - 1).add(b.offset).add(b.offset + b.compressedSize + b.checksumSize - 1);
  }
  for (let c = r.headerLength - 1; every > 0 && c < r.fileLength; c += every) cuts.add(c);
  return [...cuts].filter((c) => c > 0 && c < r.fileLength).sort((a, b) => a - b);
}

/**
 * Cuts `bytes` at each point: what the remaining bytes wholly hold comes
 * back (salvageTrevniRows: lost fields MISSING, the rest equal to the undamaged
 * file's; recoverTrevni: the rows intact in every field), and a cut header
 * is a typed error.
 */
async function truncationCampaign(bytes: Uint8Array, every: number, records: (cut: number, i: number) => boolean): Promise<number> {
  const r = await TrevniReader.open(bytes);
  const orig = await original(bytes);
  let partial = 0;
  const cuts = await cutPoints(r, every);
  for (let i = 0; i < cuts.length; i++) {
    const cut = cuts[i]!;
    const damaged = bytes.slice(0, cut);
    if (cut < r.headerLength) {
      await assert.rejects(openTrevniForSalvage(damaged), (e: unknown) => e instanceof ParquetryError, `cut at ${cut}`);
      continue;
    }
    const expected = await truncationLoss(r, cut);
    const lostAt = (name: string, row: number) => expected.get(name)!.some((s) => s.start <= row && row < s.end);
    const s = await openTrevniForSalvage(damaged);
    try {
      assert.deepStrictEqual(new Map(s.reader.roots.map((c, k) => [s.reader.columns[c]!.name, s.lost[k]!])), expected, `cut at ${cut}`);
      if (records(cut, i)) {
        let n = 0;
        for await (const row of salvageTrevniRows(s)) {
          const want: Record<string, unknown> = { ...orig.rows[row.row]! };
          for (const name of expected.keys()) if (lostAt(name, row.row)) want[name] = MISSING;
          assert.deepStrictEqual(row.record, want, `cut at ${cut}: row ${row.row}`);
          n++;
        }
        assert.equal(n, orig.rows.filter((_, row) => yielded(s.reader, (name) => expected.has(name) && lostAt(name, row), row)).length);
      }
    } finally {
      await s.reader.close();
    }
    const sink = new BufferSink();
    const report = await recoverTrevni(damaged, sink);
    const kept = orig.lines.filter((_, row) => ![...expected.keys()].some((name) => lostAt(name, row)));
    assert.deepStrictEqual(await allLines(sink.bytes()), kept, `cut at ${cut}`);
    assert.equal(report.rowsRecovered, kept.length);
    if (kept.length > 0 && kept.length < orig.lines.length) partial++;
  }
  return partial;
}

for (const version of [2, 1] as const) {
  test(`a truncated version ${version} file gives back the columns and blocks wholly before the cut, at every block edge and every 97 bytes`, { timeout: 300_000 }, async () => {
    // Every 4th cut's rows are checked one by one; the recovered file is checked at every cut.
    const partial = await truncationCampaign(await ownFile(version, 'deflate'), 97, (_, i) => i % 4 === 0);
    assert.ok(partial > 10, `${partial} cuts kept some rows and lost others`);
  });
}

for (const [dir, file] of [[TREVNI_CORPUS, 'avro_maps.trv'], [TREVNI_CORPUS, 'column_overrides.trv'], [TREVNI_CORPUS, 'types_bzip2_crc32.trv'], [TREVNI_CORPUS, 'avro_multiblock_deflate.trv'], [TREVNI_V1_CORPUS, 'column_overrides.trv']] as const) {
  test(`truncated ${dir === TREVNI_V1_CORPUS ? 'version 1 ' : ''}corpus ${file}: what is wholly before each cut comes back`, { timeout: 300_000 }, async () => {
    await truncationCampaign(new Uint8Array(readFileSync(join(dir, file))), 0, (_, i) => i % 8 === 0);
  });
}
