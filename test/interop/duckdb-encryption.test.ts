/**
 * Parquet modular encryption against DuckDB (1.5, `@duckdb/node-api`), the
 * one other reader and writer here: it reads the corpus's uniformly
 * encrypted file with the footer key, and we read what it writes with its
 * ENCRYPTION_CONFIG. DuckDB has no per-column keys. Its own files depart from
 * the spec (no aad_file_unique, every module authenticated with an empty
 * AAD, no crypto_metadata on the column chunks): parquetry reads them so.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { writeFileSync } from 'node:fs';
import { DecryptionError, encryptParquet, openParquet } from '../../src/node/index.js';
import { BufferSink } from '../../src/io/sink.js';
import { writeRecords } from '../../src/parquet/write/write-records.js';

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

// DuckDB 1.5.6 reads chunks of one data page only: with several, its tag check fails ("Computed AES tag
// differs"), while parquetry reads both and parquet-java's 3-page chunks (the bloom-filter corpus file)
// authenticate with ordinals 0, 1, 2 as the spec says; so these chunks hold one page each.
test('DuckDB reads what parquetry encrypts uniformly (the one mode it supports)', async () => {
  const records = Array.from({ length: 2000 }, (_, i) => ({ id: i, s: `v${i % 13}`, x: i % 7 === 0 ? null : i / 8 }));
  const sink = new BufferSink();
  await writeRecords(sink, records);
  // DuckDB refuses AES_GCM_CTR_V1 ("only AES_GCM_V1 is supported").
  for (const algorithm of ['AES_GCM_V1'] as const) {
    const path = join(dir, `ours-${algorithm}.parquet`);
    writeFileSync(path, await encryptParquet(sink.bytes(), { footerKey, algorithm }));
    const duck = (await db.runAndReadAll(`SELECT id, s, x FROM read_parquet('${path}', encryption_config = {footer_key: 'k'}) ORDER BY id`)).getRowObjects();
    assert.deepEqual(duck.map((r) => ({ id: Number(r.id), s: r.s, x: r.x })), records, algorithm);
  }
});
