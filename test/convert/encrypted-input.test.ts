/**
 * `convert` in code from Parquet files written with modular encryption (the
 * corpus's, by parquet-java and Arrow C++; keys in parquet-testing's
 * data/README.md as ASCII strings) to plaintext outputs, with the reader's
 * `decryption` options: the output holds what the reader gives with the same keys.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BufferSink, MissingKeyError, openParquet, type DecryptionOptions } from '../../src/node/index.js';
import { convert } from '../../src/node/entries/convert.js';
import { convert as portableConvert } from '../../src/entries/convert.js';
import { DATA, DOUBLE, FILES, FLOAT, FOOTER, keys } from '../parquet/encrypted-corpus.js';

/** The corpus files the reader tests read, and the one whose chunks have bloom filters and several pages. */
const INPUTS = [...FILES, 'encrypt_columns_and_footer_bloom_filter.parquet.encrypted'];

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'parquetry-convert-enc-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

async function decryptedRows(file: string, decryption: DecryptionOptions, columns?: string[]): Promise<Record<string, unknown>[]> {
  return (await openParquet(join(DATA, file), { decryption })).readRows(columns ? { columns } : {});
}

for (const f of INPUTS) {
  test(`convert(${f}) with its keys writes a plaintext Parquet file of the same rows`, async () => {
    const out = join(dir, `${f}.parquet`);
    const report = await convert(join(DATA, f), out, { decryption: keys(f) });
    const expected = await decryptedRows(f, keys(f));
    assert.equal(report.numRows, expected.length);
    assert.equal(readFileSync(out).subarray(-4).toString(), 'PAR1');
    const reader = await openParquet(out);
    assert.equal(reader.file.metadata.encryptionAlgorithm, undefined);
    assert.deepEqual(await reader.readRows(), expected);
  });
}

test('the portable convert decrypts bytes into JSON Lines, and a key retriever works there too', async () => {
  const f = 'encrypt_columns_and_footer.parquet.encrypted';
  const byId: Record<string, Uint8Array> = { kf: FOOTER, kc1: DOUBLE, kc2: FLOAT };
  const sink = new BufferSink();
  await portableConvert(new Uint8Array(readFileSync(join(DATA, f))), sink, { to: 'jsonl', columns: ['int32_field', 'double_field'], decryption: { keyRetriever: (meta) => byId[new TextDecoder().decode(meta)] } });
  const lines = new TextDecoder().decode(sink.bytes()).trim().split('\n').map((l) => JSON.parse(l) as { double_field: number });
  assert.deepEqual(lines.map((l) => l.double_field), (await decryptedRows(f, keys(f))).map((r) => r.double_field));
});

test('without keys the conversion fails with MissingKeyError and leaves nothing; a column without its key is named, the others convert', async () => {
  const f = 'encrypt_columns_and_footer.parquet.encrypted';
  const out = join(dir, 'none.parquet');
  await assert.rejects(convert(join(DATA, f), out), MissingKeyError);
  assert.equal(existsSync(out), false);
  const footerOnly = { footerKey: FOOTER };
  await assert.rejects(convert(join(DATA, f), out, { decryption: footerOnly }), (e: unknown) => e instanceof MissingKeyError && e.context.column === 'float_field');
  assert.equal(existsSync(out), false);
  const columns = ['int32_field', 'ba_field'];
  await convert(join(DATA, f), out, { decryption: footerOnly, columns });
  assert.deepEqual(await (await openParquet(out)).readRows(), await decryptedRows(f, footerOnly, columns));
});

test('convert re-encrypts: an encrypted input to an encrypted output under other keys, the writer sealing as it goes', async () => {
  const f = 'encrypt_columns_and_footer.parquet.encrypted';
  const out = join(dir, 'reencrypted.parquet');
  const other = { footerKey: DOUBLE, columnKeys: { int32_field: FLOAT } };
  await convert(join(DATA, f), out, { decryption: keys(f), encryption: { ...other, plaintextFooter: true } });
  assert.deepEqual(await (await openParquet(out, { decryption: other })).readRows(), await decryptedRows(f, keys(f)));
  await assert.rejects((await openParquet(out, { decryption: { footerKey: DOUBLE } })).readRows(), (e: unknown) => e instanceof MissingKeyError && e.context.column === 'int32_field');
});
