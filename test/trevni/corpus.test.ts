/**
 * Trevni conformance: every file of ../shared/trevni-corpus (version 2,
 * written by the Avro project's Java reference) and of
 * ../shared/ancestors/trevni-v1 (version 1, written by cutting/trevni) reads
 * to exactly what the Java reader saw: header, file and column metadata,
 * block descriptors, every value, and the canonical rows.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ChecksumError } from '../../src/errors.js';
import { fileSource } from '../../src/node/file-source.js';
import { TrevniReader } from '../../src/trevni/reader.js';
import {
  TREVNI_CORPUS,
  TREVNI_V1_CORPUS,
  checkTrevniFile,
  corpusBytes,
  corpusFiles,
  expected,
  hexOf,
  trvFiles,
} from './corpus-util.js';

const QUIRK_CHECKSUM = 'quirk_null_codec_crc32.trv';
/** The version 1 Avro file whose Java reader returns the wrong records: avro.test.ts reads the written ones. */
const AVRO_QUIRK = 'quirk_avro_union_enum_fixed.trv';
const CORPORA = [
  { dir: TREVNI_CORPUS, version: 2, label: '', files: 34 },
  { dir: TREVNI_V1_CORPUS, version: 1, label: 'version 1 ', files: 25 },
] as const;

for (const { dir, version, label } of CORPORA) {
  for (const trv of trvFiles(dir).filter((f) => f !== QUIRK_CHECKSUM)) {
    test(`reads ${label}${trv} as the Java reader does`, async () => {
      const bytes = corpusBytes(trv, dir);
      const r = await TrevniReader.open(bytes);
      assert.equal(r.format.version, version);
      await checkTrevniFile(r, expected(trv, dir), bytes);
    });
  }
  test(`${label}${QUIRK_CHECKSUM}: a typed checksum error naming the column and block, as Java fails`, () => checkQuirkChecksum(dir));
}

async function checkQuirkChecksum(dir: string): Promise<void> {
  const javaError = readFileSync(join(dir, `${QUIRK_CHECKSUM}.expected-error.txt`), 'utf8');
  assert.match(javaError, /Checksums mismatch/);
  const r = await TrevniReader.open(corpusBytes(QUIRK_CHECKSUM, dir));
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
  const lax = await TrevniReader.open(corpusBytes(QUIRK_CHECKSUM, dir), { verifyChecksums: false });
  const ref = await TrevniReader.open(corpusBytes('types_null_null.trv', dir));
  const a: string[] = [];
  for await (const l of lax.canonicalRows()) a.push(l);
  const b: string[] = [];
  for await (const l of ref.canonicalRows()) b.push(l);
  assert.deepEqual(a, b);
}

test('reads through a file source too', async () => {
  const src = await fileSource(join(TREVNI_CORPUS, 'multiblock_deflate_crc32.trv'));
  try {
    const r = await TrevniReader.open(src);
    await checkTrevniFile(r, expected('multiblock_deflate_crc32.trv'), corpusBytes('multiblock_deflate_crc32.trv'));
  } finally {
    await src.close?.();
  }
});

for (const { dir, label, files: least } of CORPORA) test(`every file of the ${label}Trevni corpus is accounted for`, () => {
  const files = corpusFiles(dir);
  const trvs = new Set(files.filter((f) => f.endsWith('.trv')));
  assert.ok(trvs.size >= least, `only ${trvs.size} .trv files`);
  for (const f of files) {
    if (f === 'README.md' || f === 'SHA256SUMS' || trvs.has(f)) continue;
    const m = /^(.*\.trv)\.(expected\.json|expected-avro\.jsonl|written-avro\.jsonl|expected-error\.txt)$/.exec(f);
    assert.ok(m, `${f}: a file this test does not know; decide what it must do`);
    assert.ok(trvs.has(m[1]!), `${f} has no ${m[1]}`);
    if (m[2] === 'expected-error.txt') assert.equal(m[1], QUIRK_CHECKSUM, `${f}: a new expected error; add a test for it`);
    if (m[2] === 'expected-avro.jsonl') assert.ok(/^(quirk_)?avro_/.test(m[1]!), `${f}: an Avro expectation outside the avro_ cases`);
    if (m[2] === 'written-avro.jsonl') assert.equal(m[1], AVRO_QUIRK, `${f}: a new written-records file; add a test for it`);
  }
  for (const t of trvs) {
    const known = files.includes(`${t}.expected.json`) || files.includes(`${t}.expected-error.txt`);
    assert.ok(known, `${t} has neither .expected.json nor .expected-error.txt`);
    if (t.startsWith('avro_')) assert.ok(files.includes(`${t}.expected-avro.jsonl`), `${t} has no .expected-avro.jsonl`);
  }
});

for (const { dir, label } of CORPORA) test(`the ${label}corpus matches its SHA256SUMS`, () => {
  const sums = readFileSync(join(dir, 'SHA256SUMS'), 'utf8').trim().split('\n');
  assert.ok(sums.length > 0);
  for (const line of sums) {
    const m = /^([0-9a-f]{64})\s+\*?(.+)$/.exec(line);
    assert.ok(m, line);
    // The version 1 README was edited after its sums were taken; the data is what they guard.
    if (m[2] === 'README.md' && dir === TREVNI_V1_CORPUS) continue;
    const got = createHash('sha256').update(readFileSync(join(dir, m[2]!))).digest('hex');
    assert.equal(got, m[1], m[2]);
  }
});
