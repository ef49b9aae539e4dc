/**
 * Writing encrypted Parquet (encryptParquet over a file our writer wrote):
 * every mode reads back exactly with the right keys, fails cleanly with
 * wrong or missing ones, and a flipped byte in any GCM module is caught.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BufferSink } from '../../src/io/sink.js';
import { writeRecords } from '../../src/parquet/write/write-records.js';
import { DecryptionError, encryptParquet, InMemoryKms, kmsKeyRetriever, MissingKeyError, wrapKeyMetadata, ParquetReader, ParquetryError, type EncryptionOptions } from '../../src/index.js';

const ascii = (s: string): Uint8Array => new TextEncoder().encode(s);
const FOOTER = ascii('0123456789012345');
const K1 = ascii('1234567890123450');
const K2 = ascii('12345678901234501234567890123450');

const records = Array.from({ length: 3000 }, (_, i) => ({ id: BigInt(i), name: `n${i % 37}`, score: i % 5 === 0 ? null : i / 8, tags: i % 3 === 0 ? [] : [`t${i}`, `u${i % 4}`] }));

async function plainFile(): Promise<Uint8Array> {
  const sink = new BufferSink();
  await writeRecords(sink, records, { pageRowLimit: 500, rowGroupSize: 20_000, bloomFilters: { name: true } });
  return sink.bytes();
}

const MODES: [string, EncryptionOptions][] = [
  ['uniform, GCM', { footerKey: FOOTER }],
  ['uniform, GCM-CTR', { footerKey: FOOTER, algorithm: 'AES_GCM_CTR_V1' }],
  ['column keys, encrypted footer', { footerKey: FOOTER, columnKeys: { name: K1, score: K2 } }],
  ['column keys, plaintext footer, CTR', { footerKey: FOOTER, columnKeys: { name: K1, score: { key: K2, keyMetadata: ascii('k2') } }, plaintextFooter: true, algorithm: 'AES_GCM_CTR_V1' }],
  ['uniform, plaintext footer, stored AAD prefix', { footerKey: FOOTER, plaintextFooter: true, aadPrefix: 'tester' }],
  ['column keys, AAD prefix not stored', { footerKey: FOOTER, columnKeys: { id: K1, 'tags.list.element': K2 }, aadPrefix: 'tester', storeAadPrefix: false }],
];

const jsonOf = (rows: unknown[]): string => JSON.stringify(rows, (_, v) => (typeof v === 'bigint' ? `${v}n` : v));

for (const [name, options] of MODES) {
  test(`${name}: reads back exactly with the keys, and only with them`, async () => {
    const plain = await plainFile();
    const enc = await encryptParquet(plain, options);
    const columnKeys = Object.fromEntries(Object.entries(options.columnKeys ?? {}).map(([k, v]) => [k, v instanceof Uint8Array ? v : v.key]));
    const decryption = { footerKey: FOOTER, columnKeys, ...(options.storeAadPrefix === false ? { aadPrefix: options.aadPrefix } : {}) };
    const reader = await ParquetReader.open(enc, { decryption });
    assert.equal(jsonOf(await reader.readRows()), jsonOf(records));
    // A plaintext footer shows encrypted columns without statistics; with their keys, the sealed metadata restores them.
    for (const c of reader.metadata.rowGroups[0]!.columns) assert.ok(c.metaData?.statistics, `${c.metaData?.pathInSchema.join('.')} has statistics`);
    // Filters use the decrypted page indexes and bloom filter.
    const hits = await reader.readRows({ filter: { column: 'name', op: '=', value: 'n5' }, columns: ['id'] });
    assert.deepEqual(hits.map((r) => r.id), records.filter((r) => r.name === 'n5').map((r) => r.id));
    assert.equal((await reader.readBloomFilter(0, 'name'))?.mightContain('n5'), true);
    await assert.rejects(ParquetReader.open(enc, { decryption: { ...decryption, footerKey: K1 } }), DecryptionError);
    if (options.columnKeys) {
      const [col] = Object.keys(options.columnKeys);
      const partial = await ParquetReader.open(enc, { decryption: { ...decryption, columnKeys: {} } });
      await assert.rejects(partial.readRows({ columns: [col!] }), (e: unknown) => e instanceof MissingKeyError && e.context.column === col);
    }
  });
}

test('every byte of a sample across a GCM-encrypted file, flipped, is caught as a typed error, never read as values', async () => {
  const plain = await plainFile();
  const enc = await encryptParquet(plain, { footerKey: FOOTER, columnKeys: { name: K1 } });
  const want = jsonOf(records);
  let typed = 0;
  // Every 97th byte past the magic: page headers, pages, indexes, bloom filters, column metadata and the footer.
  for (let at = 4; at < enc.length - 8; at += 97) {
    const t = Uint8Array.from(enc);
    t[at]! ^= 0x01;
    try {
      const r = await ParquetReader.open(t, { decryption: { footerKey: FOOTER, columnKeys: { name: K1 } } });
      const rows = await r.readRows();
      await r.readRows({ filter: { column: 'name', op: '=', value: 'n5' } });
      // Plaintext columns are outside the encryption's protection; nothing encrypted may change silently.
      assert.equal(jsonOf(rows.map((x) => x.name)), jsonOf(records.map((x) => x.name)), `byte ${at} changed values unnoticed`);
    } catch (e) {
      assert.ok(e instanceof ParquetryError, `byte ${at}: ${String(e)}`);
      typed++;
    }
  }
  assert.ok(typed > 0);
  assert.notEqual(want, '');
});

test('nonces are fresh: encrypting the same file twice gives different bytes', async () => {
  const plain = await plainFile();
  const a = await encryptParquet(plain, { footerKey: FOOTER });
  const b = await encryptParquet(plain, { footerKey: FOOTER });
  assert.notDeepEqual(a.subarray(4, 64), b.subarray(4, 64));
});

test('keys wrapped through a KMS on write (PKMT1 key metadata, single and double wrapping) read back through the KMS alone', async () => {
  const kms = new InMemoryKms({ kf: FOOTER, kc1: K1 });
  const plain = await plainFile();
  for (const doubleWrapping of [true, false]) {
    // Fresh data keys; the file carries them wrapped by the master keys.
    const dek = globalThis.crypto.getRandomValues(new Uint8Array(16));
    const cek = globalThis.crypto.getRandomValues(new Uint8Array(32));
    const enc = await encryptParquet(plain, {
      footerKey: dek,
      footerKeyMetadata: await wrapKeyMetadata(kms, dek, 'kf', { isFooterKey: true, doubleWrapping }),
      columnKeys: { name: { key: cek, keyMetadata: await wrapKeyMetadata(kms, cek, 'kc1', { doubleWrapping }) } },
    });
    const reader = await ParquetReader.open(enc, { decryption: { keyRetriever: kmsKeyRetriever({ kms }) } });
    assert.equal(jsonOf(await reader.readRows()), jsonOf(records));
    const other = new InMemoryKms({ kf: K1, kc1: K1 });
    await assert.rejects(ParquetReader.open(enc, { decryption: { keyRetriever: kmsKeyRetriever({ kms: other }) } }), DecryptionError);
  }
});

test('writeParquet and openWriter take `encryption` (Node entry), and the file reads back with the key', async () => {
  const { writeParquet, openParquet } = await import('../../src/node/index.js');
  const { mkdtempSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const path = join(mkdtempSync(join(tmpdir(), 'parquetry-enc-')), 'out.parquet');
  await writeParquet(path, records, { encryption: { footerKey: FOOTER, columnKeys: { name: K1 } } });
  const reader = await openParquet(path, { decryption: { footerKey: FOOTER, columnKeys: { name: K1 } } });
  assert.equal(jsonOf(await reader.readRows()), jsonOf(records));
  await reader.close();
  await assert.rejects(openParquet(path), MissingKeyError);
});
