/**
 * Parquet modular encryption against DuckDB (1.5, `@duckdb/node-api`), the
 * one other reader and writer here: it reads the corpus's uniformly
 * encrypted file with the footer key, and we read what it writes with its
 * ENCRYPTION_CONFIG. DuckDB has no per-column keys and no AES_GCM_CTR_V1.
 *
 * DuckDB departs from Encryption.md in two ways, both pinned down here
 * module by module (docs/decisions/encryption-read.md has the summary):
 * - its writer stores no aad_file_unique and seals every module with an
 *   empty AAD, marks no chunk with crypto_metadata, and writes no page CRCs,
 *   page index or bloom filter in encrypted files; parquetry reads them so,
 *   with several pages per chunk too;
 * - its reader (ColumnReader::ReadPageHeaders) restarts the page ordinal at
 *   0 for every page it reads, where the spec (4.4.2) numbers a chunk's data
 *   pages 0, 1, 2...: it authenticates every data page and header as page 0,
 *   or, in a chunk with a dictionary, every one after the first as a
 *   dictionary page header and a data page without an ordinal; and a chunk
 *   with a bloom filter has its first header read as a bloom filter header.
 *   So it reads spec files (ours, parquet-java's, Arrow's) only when every
 *   chunk has one data page and no bloom filter. `duckdbAads` models that
 *   reading: a spec file re-sealed with those AADs is what DuckDB reads.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { DecryptionError, encryptParquet, openParquet, type EncryptionOptions } from '../../src/node/index.js';
import { BufferSink } from '../../src/io/sink.js';
import { bufferSource } from '../../src/io/source.js';
import { ByteCursor } from '../../src/bytes/cursor.js';
import { readFooter } from '../../src/parquet/footer.js';
import { decodeFileCryptoMetaData, decodePageHeader } from '../../src/parquet/metadata/index.js';
import { moduleAad, ModuleType } from '../../src/parquet/crypto/aad.js';
import { AesKey, gcmDecrypt, gcmEncrypt } from '../../src/parquet/crypto/cipher.js';
import { moduleAt } from '../../src/parquet/crypto/decryptor.js';
import { writeRecords } from '../../src/parquet/write/write-records.js';
import type { WriterOptions } from '../../src/parquet/write/writer.js';

const FOOTER_KEY = '0123456789012345';
const footerKey = new TextEncoder().encode(FOOTER_KEY);
const UNIFORM = '../shared/corpus/parquet-testing/data/uniform_encryption.parquet.encrypted';
let instance: DuckDBInstance;
let db: DuckDBConnection;
let dir: string;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'parquetry-duck-enc-'));
  instance = await DuckDBInstance.create(':memory:');
  db = await instance.connect();
  // DuckDB 1.5 refuses to decrypt with its built-in mbedtls unless told to (no httpfs/OpenSSL here).
  await db.run("SET force_mbedtls_unsafe = 'true'");
  await db.run(`PRAGMA add_parquet_key('k', '${FOOTER_KEY}')`);
});

after(() => {
  db?.closeSync();
  instance?.closeSync();
  rmSync(dir, { recursive: true, force: true });
});

const records = Array.from({ length: 2000 }, (_, i) => ({ id: i, s: `v${i % 13}`, x: i % 7 === 0 ? null : i / 8 }));

/** `records` written by our writer, encrypted as it writes. */
async function encryptedFile(options: WriterOptions, encryption: EncryptionOptions = { footerKey }): Promise<Uint8Array> {
  const sink = new BufferSink();
  await writeRecords(sink, records, { ...options, encryption });
  return sink.bytes();
}

/** DuckDB's rows of `path` (or its error), in the shape of `records`. */
async function duckRows(path: string): Promise<unknown> {
  return shaped((await db.runAndReadAll(`SELECT id, s, x FROM read_parquet('${path}', encryption_config = {footer_key: 'k'}) ORDER BY id`)).getRowObjects());
}

/** Rows with `id` as a number (the writer infers INT64, read as bigint by both). */
function shaped(rows: Record<string, unknown>[]): unknown {
  return rows.map((r) => ({ id: Number(r.id), s: r.s, x: r.x }));
}

function save(name: string, bytes: Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

/** The aad_file_unique of an AES_GCM_V1 file whose FileCryptoMetaData starts at `offset`. */
function fileUnique(file: Uint8Array, offset: number): Uint8Array | undefined {
  const alg = decodeFileCryptoMetaData(new ByteCursor(file, offset, file.length, 0)).encryptionAlgorithm;
  assert.equal(alg.type, 'AES_GCM_V1');
  return 'aadFileUnique' in alg ? alg.aadFileUnique : undefined;
}

/** An AAD suffix as DuckDB builds it: module type, row group, column, then the page ordinal unless it is negative. */
function aad(fileAad: Uint8Array, type: ModuleType, rowGroup: number, column: number, page: number): Uint8Array {
  const withPage = moduleAad(fileAad, ModuleType.DATA_PAGE, rowGroup, column, Math.max(page, 0));
  withPage[fileAad.length] = type;
  return page < 0 ? withPage.subarray(0, fileAad.length + 5) : withPage;
}

/**
 * The AADs DuckDB 1.5.6 checks a chunk's page headers and pages with: a
 * model of ColumnReader::ReadPageHeaders (the ordinal starts at 0 on every
 * call and grows only past a dictionary page) and ParquetCrypto's
 * GetModuleHeader / GetModule / GetFinalPageOrdinal.
 */
function duckdbAads(fileAad: Uint8Array, rowGroup: number, column: number, kinds: ('dictionary' | 'data')[], bloom: boolean): { header: Uint8Array; page: Uint8Array }[] {
  const dictionary = kinds[0] === 'dictionary';
  let ordinal = 0;
  return kinds.map((kind) => {
    const headerType = ordinal > 0 ? ModuleType.DATA_PAGE_HEADER : dictionary ? ModuleType.DICTIONARY_PAGE_HEADER : bloom ? ModuleType.BLOOM_FILTER_HEADER : ModuleType.DATA_PAGE_HEADER;
    const headerOrdinal = headerType === ModuleType.DATA_PAGE_HEADER ? ordinal - (dictionary || bloom ? 1 : 0) : -1;
    const pageType = bloom && headerOrdinal === 0 ? ModuleType.BLOOM_FILTER_BITSET : kind === 'dictionary' ? ModuleType.DICTIONARY_PAGE : ModuleType.DATA_PAGE;
    ordinal = kind === 'dictionary' ? ordinal + 1 : 0;
    return { header: aad(fileAad, headerType, rowGroup, column, headerOrdinal), page: aad(fileAad, pageType, rowGroup, column, pageType === ModuleType.DATA_PAGE ? headerOrdinal : -1) };
  });
}

/**
 * A uniformly encrypted file (our spec output) with every page header and
 * page re-sealed under `aads` instead of the spec's AADs; the layout stays.
 */
async function reseal(file: Uint8Array, aads: typeof duckdbAads): Promise<Uint8Array> {
  const key = new AesKey(footerKey, 'footer key');
  const { metadata, offset } = await readFooter(bufferSource(file), { footerKey });
  const fileAad = fileUnique(file, offset)!;
  const out = file.slice();
  for (const [rg, group] of metadata.rowGroups.entries()) {
    for (const [col, chunk] of group.columns.entries()) {
      const m = chunk.metaData!;
      const dictionary = m.dictionaryPageOffset !== undefined;
      const modules: { at: number; body: Uint8Array }[] = [];
      const start = dictionary ? m.dictionaryPageOffset! : m.dataPageOffset;
      for (let pos = start; pos < start + m.totalCompressedSize; ) {
        const body = moduleAt(file, pos, 'module', {});
        modules.push({ at: pos + 4, body });
        pos += 4 + body.length;
      }
      const kinds = modules.filter((_, i) => i % 2 === 0).map((_, i): 'dictionary' | 'data' => (i === 0 && dictionary ? 'dictionary' : 'data'));
      const spec = kinds.map((kind, i) => {
        const ordinal = dictionary ? i - 1 : i;
        return kind === 'dictionary'
          ? { header: moduleAad(fileAad, ModuleType.DICTIONARY_PAGE_HEADER, rg, col), page: moduleAad(fileAad, ModuleType.DICTIONARY_PAGE, rg, col) }
          : { header: moduleAad(fileAad, ModuleType.DATA_PAGE_HEADER, rg, col, ordinal), page: moduleAad(fileAad, ModuleType.DATA_PAGE, rg, col, ordinal) };
      });
      const target = aads(fileAad, rg, col, kinds, m.bloomFilterOffset !== undefined);
      for (const [i, { at, body }] of modules.entries()) {
        const which = i % 2 === 0 ? 'header' : 'page';
        const plain = await gcmDecrypt(key, body, spec[i >> 1]![which], which, {});
        out.set(await gcmEncrypt(key, plain, target[i >> 1]![which]), at);
      }
    }
  }
  return out;
}

test('DuckDB and parquetry read uniform_encryption.parquet.encrypted to the same values', async () => {
  const duck = (await db.runAndReadAll(`SELECT boolean_field, float_field, double_field, flba_field FROM read_parquet('${UNIFORM}', encryption_config = {footer_key: 'k'})`)).getRowObjects();
  const ours = await (await openParquet(UNIFORM, { decryption: { footerKey } })).readRows({ columns: ['boolean_field', 'float_field', 'double_field', 'flba_field'] });
  assert.equal(ours.length, duck.length);
  ours.forEach((r, i) => {
    const d = duck[i]!;
    assert.equal(r.boolean_field, d.boolean_field);
    assert.equal(r.float_field, d.float_field);
    assert.equal(r.double_field, d.double_field);
    assert.deepEqual(r.flba_field, new Uint8Array((d.flba_field as { bytes: Uint8Array }).bytes));
  });
});

test("DuckDB's encrypted output reads in parquetry, and only with its key", async () => {
  const path = join(dir, 'duck.parquet');
  await db.run(`COPY (SELECT i::INTEGER AS id, 'v' || i AS s, i / 4 AS d FROM range(5000) t(i)) TO '${path}' (ENCRYPTION_CONFIG {footer_key: 'k'})`);
  const reader = await openParquet(path, { decryption: { footerKey } });
  const rows = await reader.readRows();
  assert.deepEqual(rows, Array.from({ length: 5000 }, (_, i) => ({ id: i, s: `v${i}`, d: i / 4 })));
  await assert.rejects(openParquet(path, { decryption: { footerKey: new TextEncoder().encode('1234567890123450') } }), DecryptionError);
});

test("DuckDB's encrypted chunks of several pages read in parquetry; every module has an empty AAD", async () => {
  // DuckDB cuts a page at 100 MiB of plain values (MAX_UNCOMPRESSED_PAGE_SIZE, not settable): 26,500 values of ~4 KB make two.
  const path = join(dir, 'duck-pages.parquet');
  await db.run(`COPY (SELECT i::INTEGER AS id, (i % 3)::VARCHAR AS s, repeat('b', 4000) || i::VARCHAR AS u FROM range(26500) t(i)) TO '${path}' (ENCRYPTION_CONFIG {footer_key: 'k'})`);
  const file = new Uint8Array(readFileSync(path));
  const { metadata, offset } = await readFooter(bufferSource(file), { footerKey });
  assert.equal(fileUnique(file, offset), undefined);
  const u = metadata.rowGroups[0]!.columns[2]!;
  assert.equal(u.cryptoMetadata, undefined);
  assert.equal(u.columnIndexOffset, undefined);
  const key = new AesKey(footerKey, 'footer key');
  const headers = [];
  for (let pos = u.metaData!.dataPageOffset; pos < u.metaData!.dataPageOffset + u.metaData!.totalCompressedSize; ) {
    const h = moduleAt(file, pos, 'header', {});
    const plain = await gcmDecrypt(key, h, new Uint8Array(0), 'header', {});
    const header = decodePageHeader(new ByteCursor(plain, 0, plain.length, 0));
    headers.push(header);
    const page = moduleAt(file, pos + 4 + h.length, 'page', {});
    await gcmDecrypt(key, page, new Uint8Array(0), 'page', {});
    // DuckDB's compressed_page_size is the plaintext's; parquet-java and Arrow give the stored module's (length included).
    assert.equal(page.length, header.compressedPageSize + 28);
    pos += 4 + h.length + 4 + page.length;
  }
  assert.deepEqual(headers.map((h) => [h.type, h.crc]), [['DATA_PAGE', undefined], ['DATA_PAGE', undefined]]);
  let n = 0;
  for await (const row of (await openParquet(path, { decryption: { footerKey } })).rows()) {
    assert.deepEqual(row, { id: n, s: String(n % 3), u: 'b'.repeat(4000) + n }, `row ${n}`);
    n++;
  }
  assert.equal(n, 26500);
});

test('DuckDB reads what parquetry encrypts uniformly when every chunk has one data page and no bloom filter', async () => {
  const path = save('ours-one-page.parquet', await encryptedFile({}));
  assert.deepEqual(await duckRows(path), records);
  // encryptParquet seals the same modules the writer does.
  const sink = new BufferSink();
  await writeRecords(sink, records);
  assert.deepEqual(await duckRows(save('ours-moved.parquet', await encryptParquet(sink.bytes(), { footerKey }))), records);
  // DuckDB refuses AES_GCM_CTR_V1 ("only AES_GCM_V1 is supported").
  await assert.rejects(duckRows(save('ours-ctr.parquet', await encryptedFile({}, { footerKey, algorithm: 'AES_GCM_CTR_V1' }))));
});

const LAYOUTS: [string, WriterOptions][] = [
  ['four data pages a chunk', { pageRowLimit: 500, dictionary: false }],
  ['a dictionary and four data pages', { pageRowLimit: 500 }],
  ['one data page and a bloom filter', { dictionary: false, bloomFilters: { id: true, s: true, x: true } }],
  ['a dictionary, four data pages and a bloom filter', { pageRowLimit: 500, bloomFilters: { id: true, s: true, x: true } }],
];

for (const [layout, options] of LAYOUTS) {
  test(`DuckDB 1.5 rejects spec files with ${layout}, and reads them sealed with its own page AADs`, async () => {
    const spec = await encryptedFile(options);
    assert.deepEqual(shaped(await (await openParquet(spec, { decryption: { footerKey } })).readRows()), records);
    await assert.rejects(duckRows(save('spec.parquet', spec)), /Computed AES tag differs from read AES tag/);
    const duckish = await reseal(spec, duckdbAads);
    assert.deepEqual(await duckRows(save('duckish.parquet', duckish)), records);
    await assert.rejects((await openParquet(duckish, { decryption: { footerKey } })).readRows(), DecryptionError);
  });
}
