/**
 * Trevni conformance: every file of ../shared/trevni-corpus (written by the
 * Java reference) reads to exactly what the Java reader saw: header, file
 * and column metadata, block descriptors, every value, and the canonical rows.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ChecksumError } from '../../src/errors.js';
import { fileSource } from '../../src/node/file-source.js';
import { TrevniReader } from '../../src/trevni/reader.js';
import { metaText } from '../../src/trevni/types.js';
import {
  TREVNI_CORPUS,
  canonicalRowsFromExpected,
  corpusBytes,
  corpusFiles,
  expected,
  hexOf,
  mapShape,
  normalizeActual,
  normalizeExpected,
  shapeDepth,
  trvFiles,
  type ExpectedFile,
} from './corpus-util.js';

const QUIRK_CHECKSUM = 'quirk_null_codec_crc32.trv';

/** Compares a file's structure and values with its .expected.json. */
async function checkFile(r: TrevniReader, e: ExpectedFile, bytes: Uint8Array): Promise<void> {
  assert.equal(hexOf(r.magic), e.magic);
  assert.equal(r.fileLength, e.fileLength);
  assert.equal(bytes.length, e.fileLength);
  assert.equal(r.rowCount, e.rowCount);
  assert.equal(r.columns.length, e.columnCount);
  assert.deepEqual(
    r.metadata.map((m) => ({ key: m.key, utf8: metaText(m.value), hex: hexOf(m.value) })),
    e.metadata,
  );
  for (const ec of e.columns) {
    const c = r.column(ec.name);
    const where = `column ${ec.name}`;
    assert.deepEqual(
      { index: c.index, name: c.name, type: c.type, array: c.array, parent: c.parent, hasIndexValues: c.hasIndexValues, codec: c.codec, checksum: c.checksum, start: c.start },
      { index: ec.index, name: ec.name, type: ec.type, array: ec.array, parent: ec.parent, hasIndexValues: ec.hasIndexValues, codec: ec.codec, checksum: ec.checksum, start: ec.start },
      where,
    );
    assert.deepEqual(
      c.metadata.map((m) => ({ key: m.key, utf8: metaText(m.value), hex: hexOf(m.value) })),
      ec.metadata,
      where,
    );
    const blocks = await r.blocks(ec.name);
    assert.equal(blocks.length, ec.blockCount, where);
    const actualBlocks = [];
    for (let i = 0; i < blocks.length; i++) {
      const b = blocks[i]!;
      const o: Record<string, unknown> = {
        rowCount: b.rowCount,
        uncompressedSize: b.uncompressedSize,
        compressedSize: b.compressedSize,
        offset: b.offset,
        checksum: hexOf(await r.storedChecksum(ec.name, i)),
      };
      if (c.hasIndexValues) o.firstValue = normalizeActual(c.type, b.firstValue!);
      actualBlocks.push(o);
    }
    assert.deepEqual(actualBlocks, ec.blocks.map((b) => ('firstValue' in b ? { ...b, firstValue: normalizeExpected(ec.type, b.firstValue) } : b)), where);
    const depth = shapeDepth(ec);
    const actual = (await r.readColumn(ec.name)).map((v) => mapShape(v, depth, (x) => normalizeActual(c.type, x as never)));
    const want = ec.values.map((v) => mapShape(v, depth, (x) => normalizeExpected(ec.type, x)));
    assert.equal(actual.length, want.length, where);
    for (let row = 0; row < want.length; row++) assert.deepStrictEqual(actual[row], want[row], `${where}, row ${row}`);
  }
  // Canonical rows, against rows assembled here from the expected columns.
  const rows: string[] = [];
  for await (const line of r.canonicalRows()) rows.push(line);
  const want = canonicalRowsFromExpected(e);
  assert.equal(rows.length, want.length);
  for (let i = 0; i < want.length; i++) assert.equal(rows[i], want[i], `canonical row ${i}`);
}

for (const trv of trvFiles().filter((f) => f !== QUIRK_CHECKSUM)) {
  test(`reads ${trv} as the Java reader does`, async () => {
    const bytes = corpusBytes(trv);
    const r = await TrevniReader.open(bytes);
    await checkFile(r, expected(trv), bytes);
  });
}

test(`${QUIRK_CHECKSUM}: a typed checksum error naming the column and block, as Java fails`, async () => {
  const javaError = readFileSync(join(TREVNI_CORPUS, `${QUIRK_CHECKSUM}.expected-error.txt`), 'utf8');
  assert.match(javaError, /Checksums mismatch/);
  const r = await TrevniReader.open(corpusBytes(QUIRK_CHECKSUM));
  // The Java writer stored 00000000 (the CRC-32 of nothing) after every block:
  // only empty blocks (the null-typed column) pass.
  let failures = 0;
  for (const c of r.columns) {
    const blocks = await r.blocks(c.name);
    for (let i = 0; i < blocks.length; i++) assert.equal(hexOf(await r.storedChecksum(c.name, i)), '00000000');
    if (blocks.every((b) => b.uncompressedSize === 0)) {
      await r.readColumn(c.name);
      continue;
    }
    failures++;
    await assert.rejects(r.readColumn(c.name), (e: unknown) => {
      assert.ok(e instanceof ChecksumError, String(e));
      assert.equal(e.context.column, c.name);
      assert.match(e.message, new RegExp(`block 0 of column ${c.name}`));
      assert.match(e.message, /stored 00000000/);
      return true;
    });
  }
  assert.equal(failures, r.columns.length - 1);
  await assert.rejects(async () => {
    for await (const _ of r.rows()) void _;
  }, ChecksumError);
  // Unverified, it holds the rows of types_null_null.
  const lax = await TrevniReader.open(corpusBytes(QUIRK_CHECKSUM), { verifyChecksums: false });
  const ref = await TrevniReader.open(corpusBytes('types_null_null.trv'));
  const a: string[] = [];
  for await (const l of lax.canonicalRows()) a.push(l);
  const b: string[] = [];
  for await (const l of ref.canonicalRows()) b.push(l);
  assert.deepEqual(a, b);
});

test('reads through a file source too', async () => {
  const src = await fileSource(join(TREVNI_CORPUS, 'multiblock_deflate_crc32.trv'));
  try {
    const r = await TrevniReader.open(src);
    await checkFile(r, expected('multiblock_deflate_crc32.trv'), corpusBytes('multiblock_deflate_crc32.trv'));
  } finally {
    await src.close?.();
  }
});

test('every file of the Trevni corpus is accounted for', () => {
  const files = corpusFiles();
  const trvs = new Set(files.filter((f) => f.endsWith('.trv')));
  assert.ok(trvs.size >= 34, `only ${trvs.size} .trv files`);
  for (const f of files) {
    if (f === 'README.md' || f === 'SHA256SUMS' || trvs.has(f)) continue;
    const m = /^(.*\.trv)\.(expected\.json|expected-avro\.jsonl|expected-error\.txt)$/.exec(f);
    assert.ok(m, `${f}: a file this test does not know; decide what it must do`);
    assert.ok(trvs.has(m[1]!), `${f} has no ${m[1]}`);
    if (m[2] === 'expected-error.txt') assert.equal(m[1], QUIRK_CHECKSUM, `${f}: a new expected error; add a test for it`);
    if (m[2] === 'expected-avro.jsonl') assert.ok(m[1]!.startsWith('avro_'), `${f}: an Avro expectation outside the avro_ cases`);
  }
  for (const t of trvs) {
    const known = files.includes(`${t}.expected.json`) || files.includes(`${t}.expected-error.txt`);
    assert.ok(known, `${t} has neither .expected.json nor .expected-error.txt`);
    if (t.startsWith('avro_')) assert.ok(files.includes(`${t}.expected-avro.jsonl`), `${t} has no .expected-avro.jsonl`);
  }
});

test('the corpus matches its SHA256SUMS', () => {
  const sums = readFileSync(join(TREVNI_CORPUS, 'SHA256SUMS'), 'utf8').trim().split('\n');
  assert.ok(sums.length > 0);
  for (const line of sums) {
    const m = /^([0-9a-f]{64})\s+\*?(.+)$/.exec(line);
    assert.ok(m, line);
    const got = createHash('sha256').update(readFileSync(join(TREVNI_CORPUS, m[2]!))).digest('hex');
    assert.equal(got, m[1], m[2]);
  }
});
