/** `parquetry check`, `parquetry recover` and `convert --checkpoint-every`: the library's salvage read on the command line. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ParquetReader } from '../../src/index.js';
import { MISSING } from '../../src/node/entries/recover.js';
import { CHECKPOINT_MARKER } from '../../src/parquet/write/checkpoint.js';
import { writeFile } from '../recover/fixtures.js';
import { run } from './run-cli.js';

/** `recover`'s exit status when anything was lost, or (no footer) may have been: not 1 (errors, usage errors) nor 70 (internal errors). */
const LOSS = 3;


let dir = '';
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'parquetry-recover-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('check says whole or damaged by its exit status; recover writes the intact rows with the lost field as null', async () => {
  const bytes = await writeFile();
  const whole = join(dir, 'whole.parquet');
  writeFileSync(whole, bytes);
  const ok = await run('check', whole);
  assert.equal(ok.code, 0, ok.err);
  assert.match(ok.out, /^whole/);
  const reader = await ParquetReader.open(bytes);
  const oi = (await reader.file.readOffsetIndex(1, 'name'))!;
  const page = oi.pageLocations[3]!;
  const damaged = bytes.slice();
  damaged[page.offset + page.compressedPageSize - 2] ^= 0x11;
  const bad = join(dir, 'bad.parquet');
  writeFileSync(bad, damaged);
  const checked = await run('check', bad, '--json');
  assert.equal(checked.code, 1, checked.err);
  const report = JSON.parse(checked.out);
  assert.equal(report.whole, false);
  assert.deepStrictEqual(report.losses.map((l: { rowGroup: number; column: string; page: number; rows: unknown; error: { name: string } }) => [l.rowGroup, l.column, l.page, l.rows, l.error.name]),
    [[1, 'name', 3, { start: page.firstRowIndex, end: oi.pageLocations[4]!.firstRowIndex }, 'ChecksumError']]);
  const out = join(dir, 'out.parquet');
  const rec = await run('recover', bad, out);
  assert.equal(rec.code, LOSS, rec.err);
  assert.match(rec.out, /written as null where lost: name/);
  const original = await reader.readRows();
  const got = await (await ParquetReader.open(new Uint8Array(readFileSync(out)))).readRows();
  const lost = (i: number) => i >= 1000 + page.firstRowIndex && i < 1000 + oi.pageLocations[4]!.firstRowIndex;
  assert.deepStrictEqual(got, original.map((r, i) => (lost(i) ? { ...r, name: null } : r)));
  assert.ok(!got.some((r) => Object.values(r).includes(MISSING)));
  // --whole-only: the rows the damaged page held are left out, every other row written as it was, its row group's too.
  const wholeOut = join(dir, 'whole-only.parquet');
  const w = await run('recover', bad, wholeOut, '--whole-only', '--json');
  assert.equal(w.code, LOSS, w.err);
  assert.deepStrictEqual(JSON.parse(w.out).fieldsNulled, []);
  const kept = await (await ParquetReader.open(new Uint8Array(readFileSync(wholeOut)))).readRows();
  assert.deepStrictEqual(kept, original.filter((_, i) => !lost(i)));
});

test('convert --checkpoint-every writes checkpoints; recover restores a cut copy', async () => {
  const src = join(dir, 'src.parquet');
  writeFileSync(src, await writeFile({}, 4000));
  const dst = join(dir, 'ckpt.parquet');
  const c = await run('convert', src, dst, '--checkpoint-every', '2', '--row-group-rows', '1000');
  assert.equal(c.code, 0, c.err);
  const bytes = new Uint8Array(readFileSync(dst));
  const frames: number[] = [];
  for (let i = 0; i + 16 <= bytes.length; i++) if (CHECKPOINT_MARKER.every((b, k) => bytes[i + k] === b)) frames.push(i);
  assert.equal(frames.length, 2);
  const cut = join(dir, 'cut.parquet');
  writeFileSync(cut, bytes.subarray(0, frames[1]! + 10));
  const out = join(dir, 'cut-recovered.parquet');
  const rec = await run('recover', cut, out, '--json');
  assert.equal(rec.code, LOSS, rec.err);
  assert.equal(JSON.parse(rec.out).rowsRecovered, 2000);
  const original = await (await ParquetReader.open(new Uint8Array(readFileSync(src)))).readRows();
  assert.deepStrictEqual(await (await ParquetReader.open(new Uint8Array(readFileSync(out)))).readRows(), original.slice(0, 2000));
});

test('recover --like finds the row groups of a file without footer or checkpoint by its page headers', async () => {
  const bytes = await writeFile({}, 3000);
  const reader = await ParquetReader.open(bytes);
  const g = reader.file.metadata.rowGroups[1]!;
  const cut = join(dir, 'no-footer.parquet');
  writeFileSync(cut, bytes.subarray(0, g.fileOffset! + g.totalCompressedSize! + 7));
  const sibling = join(dir, 'sibling.parquet');
  writeFileSync(sibling, await writeFile({}, 10));
  const out = join(dir, 'scanned.parquet');
  const rec = await run('recover', cut, out, '--like', sibling);
  assert.equal(rec.code, LOSS, rec.err);
  assert.match(rec.out, /found by scanning page headers/);
  assert.deepStrictEqual(await (await ParquetReader.open(new Uint8Array(readFileSync(out)))).readRows(), (await reader.readRows()).slice(0, 2000));
  // Without --like: the footer's error, and the way on.
  const bare = await run('recover', cut, join(dir, 'x.parquet'));
  assert.equal(bare.code, 1);
  assert.match(bare.err, /^parquetry: file does not end with the Parquet magic .*; with no checkpoint either, give --like FILE \(a file written the same way\) to find the row groups by their page headers \(file .*no-footer\.parquet, offset \d+\)\n$/);
  const json = JSON.parse((await run('recover', cut, join(dir, 'scanned2.parquet'), '--like', sibling, '--json')).out);
  assert.equal(json.lostFrom.offset, g.fileOffset! + g.totalCompressedSize!);
});

test('recover closes the --like file and the input when the destination cannot be created', { skip: !existsSync('/proc/self/fd') && 'no /proc/self/fd' }, async () => {
  const bytes = await writeFile({}, 3000);
  const reader = await ParquetReader.open(bytes);
  const g = reader.file.metadata.rowGroups[1]!;
  const cut = join(dir, 'no-footer-2.parquet');
  writeFileSync(cut, bytes.subarray(0, g.fileOffset! + g.totalCompressedSize! + 7));
  const sibling = join(dir, 'sibling-2.parquet');
  writeFileSync(sibling, await writeFile({}, 10));
  // Compared by number, not count: a handle an earlier test left to the garbage collector may be closed meanwhile.
  const open = () => new Set(readdirSync('/proc/self/fd'));
  const before = open();
  const rec = await run('recover', cut, join(dir, 'no-such-directory', 'out.parquet'), '--like', sibling);
  assert.notEqual(rec.code, 0, rec.out);
  assert.deepEqual([...open()].filter((fd) => !before.has(fd)), [], 'descriptors left open by a failed recover');
});

test('recover exits 0 for a whole file and 3 whenever data was lost or may have been: a file cut at byte 15 says from which byte', async () => {
  const bytes = await writeFile({}, 3000);
  const whole = join(dir, 'whole-for-status.parquet');
  writeFileSync(whole, bytes);
  const ok = await run('recover', whole, join(dir, 'whole-out.parquet'));
  assert.equal(ok.code, 0, ok.err);
  const cut = join(dir, 'cut15.parquet');
  writeFileSync(cut, bytes.subarray(0, 15));
  const r = await run('recover', cut, join(dir, 'cut15-out.parquet'), '--like', whole);
  assert.equal(r.code, LOSS, r.err);
  assert.match(r.out, /^wrote 0 of 0 rows found to /);
  assert.match(r.out, /\nlost: everything from byte 4 on \(how many rows is unknown\): no page header can be read at byte 4\n/);
});

test("the reproducer: a file cut at 576 bytes whose columns' pages cannot be told apart recovers no row, and says it lost data", async () => {
  const shared = join('..', 'shared', 'fuzz', 't3');
  const out = join(dir, 'repro.parquet');
  const r = await run('recover', join(shared, 'recover-scan-truncated-576.parquet'), out, '--like', join(shared, 'recover-scan-truncated.like.parquet'), '--json');
  assert.equal(r.code, LOSS, r.err);
  const report = JSON.parse(r.out);
  assert.equal(report.rowsRecovered, 0);
  assert.equal(report.lostFrom.offset, 4);
});

test('check on a Trevni file: whole, then a damaged block named with its rows', async () => {
  const src = join(dir, 'for-trevni.parquet');
  writeFileSync(src, await writeFile({}, 3000));
  const trv = join(dir, 'out.trv');
  const c = await run('convert', src, trv, '--checksum', 'crc32');
  assert.equal(c.code, 0, c.err);
  const ok = await run('check', trv);
  assert.equal(ok.code, 0, ok.err + ok.out);
  assert.match(ok.out, /^whole/);
  const { TrevniReader } = await import('../../src/entries/trevni.js');
  const bytes = new Uint8Array(readFileSync(trv));
  const reader = await TrevniReader.open(bytes);
  const blocks = await reader.blocks(0);
  const b = blocks[blocks.length - 1]!;
  bytes[b.offset + Math.floor(b.compressedSize / 2)] ^= 0x20;
  const bad = join(dir, 'bad.trv');
  writeFileSync(bad, bytes);
  const r = await run('check', bad, '--json');
  assert.equal(r.code, 1, r.err);
  const report = JSON.parse(r.out);
  assert.deepStrictEqual(report.losses.map((l: { column: string; block: number; rows: unknown }) => [l.column, l.block, l.rows]),
    [[reader.columns[0]!.name, blocks.length - 1, { start: b.firstRow, end: b.firstRow + b.numRows }]]);
});

test('recover on a Trevni file (told by its magic) writes the rows intact in every field and names the lost block', async () => {
  const { TrevniReader, TrevniWriter } = await import('../../src/entries/trevni.js');
  const { BufferSink } = await import('../../src/io/sink.js');
  const sink = new BufferSink();
  const w = await TrevniWriter.open(sink, [{ name: 'id', type: 'long' }, { name: 'name', type: 'string' }], { checksum: 'crc32', codec: 'deflate', version: 1, blockSize: 512 });
  for (let i = 0; i < 3000; i++) await w.writeRow([BigInt(i), `name ${i}`]);
  await w.close();
  const bytes = sink.bytes();
  const reader = await TrevniReader.open(bytes);
  const rows = async (r: Awaited<ReturnType<typeof TrevniReader.open>>) => {
    const out: unknown[] = [];
    for await (const row of r.rows()) out.push(row);
    return out;
  };
  const original = await rows(reader);
  const b = (await reader.blocks('name'))[1]!;
  const lost = { start: b.firstRow, end: b.firstRow + b.numRows };
  bytes[b.offset + 2] ^= 0x10;
  const bad = join(dir, 'bad-recover.trv');
  writeFileSync(bad, bytes);
  const out = join(dir, 'recovered.trv');
  const r = await run('recover', bad, out);
  assert.equal(r.code, LOSS, r.err);
  assert.match(r.out, new RegExp(`^wrote ${original.length - b.numRows} of ${original.length} rows to `));
  assert.match(r.out, new RegExp(`\nlost: column name, block 1, bytes ${b.offset}\\.\\.${b.offset + b.compressedSize + 4}, rows ${lost.start}\\.\\.${lost.end}: (ChecksumError|CorruptFileError): `));
  assert.match(r.out, new RegExp(`fields that lost rows \\(those rows left out\\): name \\(${lost.start}\\.\\.${lost.end}\\)`));
  const recovered = await TrevniReader.open(new Uint8Array(readFileSync(out)));
  assert.equal(recovered.format.version, 1);
  assert.deepStrictEqual(await rows(recovered), original.filter((_, i) => i < lost.start || i >= lost.end));
  const json = JSON.parse((await run('recover', bad, join(dir, 'recovered2.trv'), '--json')).out);
  assert.deepStrictEqual(json.fieldsLost, [{ field: 'name', rows: [lost] }]);
  const like = await run('recover', bad, join(dir, 'x.trv'), '--like', bad);
  assert.notEqual(like.code, 0);
  assert.match(like.err, /--like is for Parquet files/);
  // --whole-only is what a Trevni recovery writes anyway: the same file.
  const wholeOnly = join(dir, 'recovered3.trv');
  assert.equal((await run('recover', bad, wholeOnly, '--whole-only')).code, LOSS);
  assert.deepStrictEqual(readFileSync(wholeOnly), readFileSync(out));
});
