/**
 * Parquet modular encryption, read side, over the 13 encrypted files of
 * parquet-testing (keys in its data/README.md, as ASCII strings).
 *
 * Expected rows: arrow-rs `verify_encryption_test_data` (parquet/tests/encryption/
 * encryption_util.rs), which checks these same files and mirrors Arrow C++'s
 * test-encryption-util and parquet-java's TestEncryptionOptions generators:
 * row i has boolean_field = i % 2 == 0, int32_field = i, int64_field =
 * [2i·10^12, (2i+1)·10^12], float_field = i·1.1f (float32), double_field =
 * i·1.1111111, ba_field null on odd rows and starting "parquet" on even ones,
 * flba_field ten bytes of value i; 50 rows in one row group. Its
 * `verify_column_indexes` gives float_field's column index: one page, min 0, max 53.9.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DecryptionError, InMemoryKms, kmsKeyRetriever, MissingKeyError, openParquet, type DecryptionOptions } from '../../src/node/index.js';
import { ascii, DATA, DOUBLE, FILES, FLOAT, FOOTER, keys } from './encrypted-corpus.js';

/** data/aes256: 32-character keys; every column has its own (kc1..kc8 in the README's order). */
const AES256_FOOTER = ascii('01234567890123456789012345678901');
const AES256_COLUMNS = Object.fromEntries(
  ['double_field', 'float_field', 'boolean_field', 'int32_field', 'ba_field', 'flba_field', 'int64_field.list.element', 'int96_field'].map((c, i) => [c, ascii(`1234567890123456789012345678901${i + 2}`)]),
);

const AES256_FILES = [
  'uniform_encryption.parquet.encrypted',
  'encrypt_columns_and_footer.parquet.encrypted',
  'encrypt_columns_and_footer_ctr.parquet.encrypted',
  'encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted',
  'encrypt_columns_plaintext_footer.parquet.encrypted',
];

function checkTestData(rows: Record<string, unknown>[]): void {
  assert.equal(rows.length, 50);
  rows.forEach((r, i) => {
    assert.equal(r.boolean_field, i % 2 === 0, `row ${i}`);
    assert.equal(r.int32_field, i);
    assert.deepEqual(r.int64_field, [BigInt(2 * i) * 10n ** 12n, BigInt(2 * i + 1) * 10n ** 12n]);
    assert.notEqual(r.int96_field, null);
    assert.equal(r.float_field, Math.fround(Math.fround(i) * Math.fround(1.1)));
    assert.equal(r.double_field, i * 1.1111111);
    if (i % 2 === 1) assert.equal(r.ba_field, null);
    else assert.equal(new TextDecoder().decode((r.ba_field as Uint8Array).subarray(0, 7)), 'parquet');
    assert.deepEqual(r.flba_field, new Uint8Array(10).fill(i));
  });
}

for (const f of FILES) {
  test(`reads ${f} to the writers' test data`, async () => {
    const reader = await openParquet(join(DATA, f), { decryption: keys(f) });
    checkTestData(await reader.readRows());
  });
}

for (const f of AES256_FILES) {
  test(`reads aes256/${f} (AES-256 keys) to the writers' test data`, async () => {
    const decryption: DecryptionOptions = { footerKey: AES256_FOOTER, columnKeys: AES256_COLUMNS, ...(f.includes('aad') ? { aadPrefix: 'tester' } : {}) };
    const reader = await openParquet(join(DATA, 'aes256', f), { decryption });
    checkTestData(await reader.readRows());
  });
}

test('a key retriever gets each key from the key metadata the file stores (kf, kc1, kc2)', async () => {
  const byId: Record<string, Uint8Array> = { kf: FOOTER, kc1: DOUBLE, kc2: FLOAT };
  const seen: string[] = [];
  const keyRetriever = (meta: Uint8Array | undefined): Uint8Array | undefined => {
    const id = new TextDecoder().decode(meta);
    seen.push(id);
    return byId[id];
  };
  const reader = await openParquet(join(DATA, 'encrypt_columns_and_footer.parquet.encrypted'), { decryption: { keyRetriever } });
  checkTestData(await reader.readRows());
  assert.deepEqual([...new Set(seen)].sort(), ['kc1', 'kc2', 'kf']);
});

test('the bloom-filter file reads (its page CRCs cover the stored page modules), and its encrypted bloom filters and page indexes are decrypted before use', async () => {
  const reader = await openParquet(join(DATA, 'encrypt_columns_and_footer_bloom_filter.parquet.encrypted'), { decryption: keys('') });
  const rows = await reader.readRows();
  assert.equal(rows.length, reader.numRows);
  const bf = await reader.file.readBloomFilter(0, 'double_field');
  assert.ok(bf);
  const present = rows[7]!.double_field;
  assert.equal(bf.mightContain(present), true);
  const filtered = await reader.readRows({ filter: { column: 'double_field', op: '=', value: present } });
  assert.deepEqual(filtered, rows.filter((r) => r.double_field === present));
});

test('page indexes of an encrypted column are decrypted (float_field: one page, min 0, max 53.9)', async () => {
  const reader = await openParquet(join(DATA, 'encrypt_columns_and_footer.parquet.encrypted'), { decryption: keys('') });
  const pages = await reader.file.pageIndex(0, 'float_field');
  assert.equal(pages?.length, 1);
  assert.ok(pages![0]!.min === 0);
  assert.ok(Math.abs((pages![0]!.max as number) - 53.9) < 1e-5);
  const some = await reader.readRows({ filter: { column: 'float_field', op: '<', value: 2 } });
  assert.deepEqual(some.map((r) => r.int32_field), [0, 1]);
});

test('without a column key, the other columns read and the missing one names itself', async () => {
  for (const f of ['encrypt_columns_and_footer.parquet.encrypted', 'encrypt_columns_plaintext_footer.parquet.encrypted']) {
    const reader = await openParquet(join(DATA, f), { decryption: { footerKey: FOOTER, columnKeys: { double_field: DOUBLE } } });
    const rows = await reader.readRows({ columns: ['int32_field', 'double_field'] });
    assert.deepEqual(rows.map((r) => r.double_field), rows.map((_, i) => i * 1.1111111));
    await assert.rejects(reader.readRows({ columns: ['float_field'] }), (e: unknown) => e instanceof MissingKeyError && e.context.column === 'float_field' && /float_field/.test(e.message));
  }
});

test('a plaintext footer without its key: plaintext columns read when signature checking is turned off', async () => {
  const f = join(DATA, 'encrypt_columns_plaintext_footer.parquet.encrypted');
  await assert.rejects(openParquet(f), MissingKeyError);
  const reader = await openParquet(f, { decryption: { verifyFooterSignature: false } });
  const rows = await reader.readRows({ columns: ['int32_field'] });
  assert.deepEqual(rows.map((r) => r.int32_field), rows.map((_, i) => i));
  await assert.rejects(reader.readRows({ columns: ['double_field'] }), (e: unknown) => e instanceof MissingKeyError && e.context.column === 'double_field');
});

test('wrong keys and AAD prefixes fail as DecryptionError naming the module', async () => {
  const wrong = ascii('0000000000000000');
  await assert.rejects(openParquet(join(DATA, 'uniform_encryption.parquet.encrypted'), { decryption: { footerKey: wrong } }), (e: unknown) => e instanceof DecryptionError && /footer/.test(e.message));
  await assert.rejects(openParquet(join(DATA, 'encrypt_columns_plaintext_footer.parquet.encrypted'), { decryption: { footerKey: wrong } }), (e: unknown) => e instanceof DecryptionError && /signature/.test(e.message));
  await assert.rejects(openParquet(join(DATA, 'encrypt_columns_and_footer.parquet.encrypted'), { decryption: { footerKey: FOOTER, columnKeys: { double_field: FLOAT } } }), (e: unknown) => e instanceof DecryptionError && e.context.column === 'double_field' && /column metadata/.test(e.message));
  await assert.rejects(openParquet(join(DATA, 'encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted'), { decryption: { footerKey: FOOTER } }), (e: unknown) => e instanceof MissingKeyError && /aadPrefix/.test(e.message));
  await assert.rejects(openParquet(join(DATA, 'encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted'), { decryption: { ...keys(''), aadPrefix: 'other' } }), DecryptionError);
});

test('a tampered byte in the footer, a page header or a page is detected, never read as values', async () => {
  const path = join(DATA, 'uniform_encryption.parquet.encrypted');
  const bytes = readFileSync(path);
  const plain = await openParquet(bytes, { decryption: { footerKey: FOOTER } });
  const meta = plain.file.metadata.rowGroups[0]!.columns[5]!.metaData!; // double_field: dictionary page, then one data page
  const start = meta.dictionaryPageOffset ?? meta.dataPageOffset;
  const headerLen = bytes.readUInt32LE(start);
  const spots: [number, RegExp][] = [
    [start + 4 + 20, /page header 0/], // inside the page header's ciphertext
    [start + 8 + headerLen + 30, /page 0/], // inside the page's ciphertext
    [start + 8 + headerLen + 4 + 2, /page 0/], // the page's nonce
  ];
  for (const [at, what] of spots) {
    const t = Uint8Array.from(bytes);
    t[at]! ^= 1;
    const r = await openParquet(t, { decryption: { footerKey: FOOTER } });
    await r.readRows({ columns: ['int32_field'] }); // other columns are untouched
    await assert.rejects(r.readRows({ columns: ['double_field'] }), (e: unknown) => e instanceof DecryptionError && what.test(e.message) && e.context.column === 'double_field' && e.context.rowGroup === 0);
  }
  const footerLen = bytes.readUInt32LE(bytes.length - 8);
  for (let k = 0; k < 40; k++) {
    const t = Uint8Array.from(bytes);
    t[bytes.length - 8 - footerLen + Math.floor((footerLen * k) / 40)]! ^= 0x10;
    await assert.rejects(openParquet(t, { decryption: { footerKey: FOOTER } }), (e: unknown) => e instanceof DecryptionError || e instanceof Error && e.name !== 'TypeError');
  }
});

test('external key material (parquet-java key tools, double wrapping) through a KMS client', async () => {
  // parquet-java's InMemoryKMS with the README's master keys kf, kc1, kc2.
  const kms = new InMemoryKms({ kf: FOOTER, kc1: DOUBLE, kc2: FLOAT });
  const externalMaterial = JSON.parse(readFileSync(join(DATA, '_KEY_MATERIAL_FOR_external_key_material_java.parquet.encrypted.json'), 'utf8')) as Record<string, string>;
  const file = join(DATA, 'external_key_material_java.parquet.encrypted');
  const reader = await openParquet(file, { decryption: { keyRetriever: kmsKeyRetriever({ kms, externalMaterial }) } });
  // Arrow C++ key_management_test.cc ReadParquetMRExternalKeyMaterialFile: 100 rows, integers = row, strings = "a".."j" cycling + row.
  const rows = await reader.readRows();
  assert.deepEqual(rows, Array.from({ length: 100 }, (_, i) => ({ integers: i, strings: 'abcdefghij'[i % 10]! + i })));
  await assert.rejects(openParquet(file, { decryption: { keyRetriever: kmsKeyRetriever({ kms }) } }), (e: unknown) => e instanceof MissingKeyError && /externalMaterial/.test(e.message));
  const wrongKms = new InMemoryKms({ kf: DOUBLE, kc1: DOUBLE, kc2: FLOAT });
  await assert.rejects(openParquet(file, { decryption: { keyRetriever: kmsKeyRetriever({ kms: wrongKms, externalMaterial }) } }), DecryptionError);
});

test('toArrow reads encrypted columns through the same decryption (AES_GCM_CTR_V1 pages)', async () => {
  const reader = await openParquet(join(DATA, 'encrypt_columns_and_footer_ctr.parquet.encrypted'), { decryption: keys('') });
  const table = await reader.toArrow({ columns: ['int32_field', 'float_field', 'double_field'] });
  assert.equal(table.numRows, 50);
  for (let i = 0; i < 50; i++) {
    assert.equal(table.getChild('double_field')!.get(i), i * 1.1111111);
    assert.equal(table.getChild('float_field')!.get(i), Math.fround(Math.fround(i) * Math.fround(1.1)));
  }
  await reader.close();
});
