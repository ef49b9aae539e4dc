/**
 * Writing encrypted Parquet, both ways: the writer's `encryption` option
 * (each module sealed as a row group is emitted, streamed to the sink) and
 * encryptParquet over a file our writer wrote. Every mode reads back
 * exactly with the right keys, fails cleanly with wrong or missing ones, and
 * a flipped byte in any GCM module is caught.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BufferSink } from '../../src/io/sink.js';
import { writeRecords } from '../../src/parquet/write/write-records.js';
import { DecryptionError, encryptParquet, InMemoryKms, InvalidArgumentError, kmsKeyRetriever, MissingKeyError, wrapKeyMetadata, ParquetReader, ParquetryError, ParquetWriter, defineSchema, field, type EncryptionOptions, type Sink } from '../../src/index.js';

const ascii = (s: string): Uint8Array => new TextEncoder().encode(s);
const FOOTER = ascii('0123456789012345');
const K1 = ascii('1234567890123450');
const K2 = ascii('12345678901234501234567890123450');

const records = Array.from({ length: 3000 }, (_, i) => ({ id: BigInt(i), name: `n${i % 37}`, score: i % 5 === 0 ? null : i / 8, tags: i % 3 === 0 ? [] : [`t${i}`, `u${i % 4}`] }));

/** Several row groups, pages and a bloom filter: every kind of module. */
async function plainFile(encryption?: EncryptionOptions): Promise<Uint8Array> {
  const sink = new BufferSink();
  await writeRecords(sink, records, { pageRowLimit: 500, rowGroupSize: 20_000, bloomFilters: { name: true }, ...(encryption ? { encryption } : {}) });
  return sink.bytes();
}

/** The two ways to an encrypted file. */
const WAYS: [string, (options: EncryptionOptions) => Promise<Uint8Array>][] = [
  ['the writer', (options) => plainFile(options)],
  ['encryptParquet', async (options) => encryptParquet(await plainFile(), options)],
];

const MODES: [string, EncryptionOptions][] = [
  ['uniform, GCM', { footerKey: FOOTER }],
  ['uniform, GCM-CTR', { footerKey: FOOTER, algorithm: 'AES_GCM_CTR_V1' }],
  ['column keys, encrypted footer', { footerKey: FOOTER, columnKeys: { name: K1, score: K2 } }],
  ['column keys, plaintext footer, CTR', { footerKey: FOOTER, columnKeys: { name: K1, score: { key: K2, keyMetadata: ascii('k2') } }, plaintextFooter: true, algorithm: 'AES_GCM_CTR_V1' }],
  ['uniform, plaintext footer, stored AAD prefix', { footerKey: FOOTER, plaintextFooter: true, aadPrefix: 'tester' }],
  ['column keys, AAD prefix not stored', { footerKey: FOOTER, columnKeys: { id: K1, 'tags.list.element': K2 }, aadPrefix: 'tester', storeAadPrefix: false }],
];

const jsonOf = (rows: unknown[]): string => JSON.stringify(rows, (_, v) => (typeof v === 'bigint' ? `${v}n` : v));

for (const [name, options] of MODES) for (const [way, encrypt] of WAYS) {
  test(`${name}, by ${way}: reads back exactly with the keys, and only with them`, async () => {
    const enc = await encrypt(options);
    const columnKeys = Object.fromEntries(Object.entries(options.columnKeys ?? {}).map(([k, v]) => [k, v instanceof Uint8Array ? v : v.key]));
    const decryption = { footerKey: FOOTER, columnKeys, ...(options.storeAadPrefix === false ? { aadPrefix: options.aadPrefix } : {}) };
    const reader = await ParquetReader.open(enc, { decryption });
    assert.equal(jsonOf(await reader.readRows()), jsonOf(records));
    // A plaintext footer shows encrypted columns without statistics; with their keys, the sealed metadata restores them.
    for (const c of reader.file.metadata.rowGroups[0]!.columns) assert.ok(c.metaData?.statistics, `${c.metaData?.pathInSchema.join('.')} has statistics`);
    // Filters use the decrypted page indexes and bloom filter.
    const hits = await reader.readRows({ filter: { column: 'name', op: '=', value: 'n5' }, columns: ['id'] });
    assert.deepEqual(hits.map((r) => r.id), records.filter((r) => r.name === 'n5').map((r) => r.id));
    assert.equal((await reader.file.readBloomFilter(0, 'name'))?.mightContain('n5'), true);
    await assert.rejects(ParquetReader.open(enc, { decryption: { ...decryption, footerKey: K1 } }), DecryptionError);
    if (options.columnKeys) {
      const [col] = Object.keys(options.columnKeys);
      const partial = await ParquetReader.open(enc, { decryption: { ...decryption, columnKeys: {} } });
      await assert.rejects(partial.readRows({ columns: [col!] }), (e: unknown) => e instanceof MissingKeyError && e.context.column === col);
    }
  });
}

for (const [way, encrypt] of WAYS) test(`every byte of a sample across a GCM-encrypted file (by ${way}), flipped, is caught as a typed error, never read as values`, async () => {
  const enc = await encrypt({ footerKey: FOOTER, columnKeys: { name: K1 } });
  assert.equal(new TextDecoder().decode(enc.subarray(0, 4)), 'PARE');
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

for (const [way, encrypt] of WAYS) test(`nonces are fresh: encrypting the same file twice (by ${way}) gives different bytes`, async () => {
  const a = await encrypt({ footerKey: FOOTER });
  const b = await encrypt({ footerKey: FOOTER });
  assert.notDeepEqual(a.subarray(4, 64), b.subarray(4, 64));
});

test('keys wrapped through a KMS on write (PKMT1 key metadata, single and double wrapping) read back through the KMS alone', async () => {
  const kms = new InMemoryKms({ kf: FOOTER, kc1: K1 });
  for (const doubleWrapping of [true, false]) {
    // Fresh data keys; the file carries them wrapped by the master keys.
    const dek = globalThis.crypto.getRandomValues(new Uint8Array(16));
    const cek = globalThis.crypto.getRandomValues(new Uint8Array(32));
    const enc = await plainFile({
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

/** A sink that keeps what it is given, and notes the largest single write. */
class WatchingSink implements Sink {
  readonly parts: Uint8Array[] = [];
  received = 0;
  largest = 0;
  write(bytes: Uint8Array): Promise<void> {
    this.parts.push(bytes.slice());
    this.received += bytes.length;
    this.largest = Math.max(this.largest, bytes.length);
    return Promise.resolve();
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
  abort(): Promise<void> {
    return Promise.resolve();
  }
  bytes(): Uint8Array {
    const out = new Uint8Array(this.received);
    let at = 0;
    for (const p of this.parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }
}

for (const [name, options] of MODES) {
  test(`${name}: the writer streams the encrypted file, each row group reaching the sink as it is flushed, in writes of at most a 64 KiB block`, async () => {
    const schema = defineSchema({ id: field.int64().required(), name: field.string(), score: field.double(), tags: field.list(field.string()) });
    const sink = new WatchingSink();
    const rowGroups = 24;
    const perGroup = 2000;
    const w = await ParquetWriter.open(sink, schema, { encryption: options, rowGroupRows: perGroup, pageRowLimit: 250, bloomFilters: { name: true } });
    const all: typeof records = [];
    const seen: number[] = [];
    for (let g = 0; g < rowGroups; g++) {
      const batch = Array.from({ length: perGroup }, (_, k) => records[(g * perGroup + k) % records.length]!);
      await w.writeMany(batch);
      all.push(...batch);
      seen.push(sink.received);
    }
    // Row group g is on its way out by the time the rows of g + 1 are written: nothing waits for close().
    seen.forEach((n, g) => assert.ok(g === 0 || n > seen[g - 1]!, `row group ${g - 1} reached the sink before close (${n} bytes)`));
    const beforeClose = sink.received;
    await w.close();
    assert.ok(beforeClose > 0.9 * sink.received, `${beforeClose} of ${sink.received} bytes before close`);
    // Page modules, headers and index modules gathered into blocks of at most 64 KiB (io/buffered-sink.ts), never the file whole.
    assert.ok(sink.largest <= 64 * 1024 && sink.received > 10 * sink.largest, `largest write ${sink.largest} of ${sink.received}`);
    const columnKeys = Object.fromEntries(Object.entries(options.columnKeys ?? {}).map(([k, v]) => [k, v instanceof Uint8Array ? v : v.key]));
    const reader = await ParquetReader.open(sink.bytes(), { decryption: { footerKey: FOOTER, columnKeys, ...(options.storeAadPrefix === false ? { aadPrefix: options.aadPrefix } : {}) } });
    assert.equal(reader.file.metadata.rowGroups.length, rowGroups);
    assert.equal(jsonOf(await reader.readRows()), jsonOf(all));
    await assert.rejects(ParquetReader.open(sink.bytes()), MissingKeyError);
  });
}

test('the writer refuses encryption with checkpoints, and column keys naming no leaf, before writing anything', async () => {
  const schema = defineSchema({ id: field.int64().required() });
  for (const options of [{ encryption: { footerKey: FOOTER }, checkpointEvery: 1 }, { encryption: { footerKey: FOOTER, columnKeys: { nope: K1 } } }, { encryption: { footerKey: ascii('short') } }]) {
    const sink = new WatchingSink();
    await assert.rejects(ParquetWriter.open(sink, schema, options), InvalidArgumentError);
    assert.equal(sink.received, 0);
  }
});

test('encryptParquet refuses a file whose chunk names another column than its schema does: the named column would stay plaintext (fuzz seed 20261130 case 76173)', async () => {
  const { withFooter } = await import('../recover/fixtures.js');
  const sink = new BufferSink();
  await writeRecords(sink, [{ id: 1n, name: 'a' }, { id: 2n, name: 'b' }]);
  const plain = sink.bytes();
  const reader = await ParquetReader.open(plain);
  const len = new DataView(plain.buffer, plain.byteOffset).getUint32(plain.length - 8, true);
  const misnamed = withFooter(plain, (m) => void (m.rowGroups[0]!.columns[0]!.metaData!.pathInSchema = ['other']), reader.file.metadata, plain.length - 8 - len);
  const key = new Uint8Array(16).fill(7);
  await assert.rejects(encryptParquet(misnamed, { footerKey: new Uint8Array(16).fill(1), columnKeys: { id: key } }), (e: unknown) => e instanceof ParquetryError && /column chunk 0 says it is column "other"/.test((e as Error).message));
  // The same file as written encrypts, the id column under its key.
  await encryptParquet(plain, { footerKey: new Uint8Array(16).fill(1), columnKeys: { id: key } });
});

test('encryptParquet refuses a page or chunk size that leaves its chunk, never walking the same bytes again (fuzz seed 20261130 case 174026: a page size of minus its header looped until the heap ran out)', { timeout: 60_000 }, async () => {
  const { ByteCursor } = await import('../../src/bytes/cursor.js');
  const { ByteWriter } = await import('../../src/bytes/writer.js');
  const { decodePageHeader } = await import('../../src/parquet/metadata/index.js');
  const { encodePageHeader } = await import('../../src/parquet/metadata/encode.js');
  const { withFooter } = await import('../recover/fixtures.js');
  const sink = new BufferSink();
  await writeRecords(sink, Array.from({ length: 100 }, (_, i) => ({ id: BigInt(i) })));
  const plain = sink.bytes();
  const c = new ByteCursor(plain, 4, plain.length, 0);
  const header = decodePageHeader(c);
  const headerEnd = c.pos;
  const encoded = (size: number): Uint8Array => {
    const w = new ByteWriter(64);
    encodePageHeader({ ...header, compressedPageSize: size }, w);
    return w.finish();
  };
  // The header's own length, settled: its size field's varint length depends on the size.
  let selfSize = -(headerEnd - 4);
  for (let k = 0; k < 4; k++) selfSize = -encoded(selfSize).length;
  const keys = { footerKey: new Uint8Array(16).fill(1) };
  for (const size of [-1, selfSize, -1000, -(2 ** 31), plain.length, header.compressedPageSize + 1]) {
    const h = encoded(size);
    const damaged = new Uint8Array(plain.length - (headerEnd - 4) + h.length);
    damaged.set(plain.subarray(0, 4));
    damaged.set(h, 4);
    damaged.set(plain.subarray(headerEnd), 4 + h.length);
    await assert.rejects(encryptParquet(damaged, keys), (e: unknown) => e instanceof ParquetryError, `page size ${size}`);
  }
  const reader = await ParquetReader.open(plain);
  const len = new DataView(plain.buffer, plain.byteOffset).getUint32(plain.length - 8, true);
  for (const total of [plain.length, -1]) {
    const damaged = withFooter(plain, (m) => void (m.rowGroups[0]!.columns[0]!.metaData!.totalCompressedSize = total), reader.file.metadata, plain.length - 8 - len);
    await assert.rejects(encryptParquet(damaged, keys), (e: unknown) => e instanceof ParquetryError && /outside the file/.test((e as Error).message), `chunk size ${total}`);
  }
});
