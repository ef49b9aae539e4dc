/**
 * Reading encrypted Parquet from the command line: --footer-key,
 * --column-key, --aad-prefix and --key-file (a file or env:NAME) on the
 * reading commands, --no-verify-signature, and convert to plaintext.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runWith, type CliResult } from './run-cli.js';

const DATA = '../shared/corpus/parquet-testing/data';
const hex = (s: string): string => Buffer.from(s, 'ascii').toString('hex');
const FOOTER = hex('0123456789012345');
const DOUBLE = hex('1234567890123450');
const FLOAT = hex('1234567890123451');

function run(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return runWith(args, { env });
}

test('cat reads an encrypted file with keys in hex, and names what is missing', async () => {
  const file = join(DATA, 'encrypt_columns_and_footer_aad.parquet.encrypted');
  const ok = await run(['cat', file, '--json', '--columns', 'int32_field,double_field', '--limit', '3', '--footer-key', FOOTER, '--column-key', `double_field:${DOUBLE}`, '--column-key', `float_field:${FLOAT}`, '--aad-prefix', 'tester']);
  assert.equal(ok.code, 0, ok.err);
  assert.deepEqual(ok.out.trim().split('\n').map((l) => JSON.parse(l).double_field), [0, 1.1111111, 2.2222222]);
  const missing = await run(['cat', file, '--columns', 'float_field', '--footer-key', FOOTER, '--aad-prefix', 'tester']);
  assert.notEqual(missing.code, 0);
  assert.match(missing.err, /float_field/);
  const none = await run(['schema', file]);
  assert.notEqual(none.code, 0);
  assert.match(none.err, /encrypted footer/);
});

test('--key-file takes keys from a file or an environment variable; convert writes the plaintext', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'parquetry-keys-'));
  const keys = `# corpus keys\nfooter ${FOOTER}\ncolumn double_field ${DOUBLE}\ncolumn float_field ${FLOAT}\n`;
  writeFileSync(join(dir, 'keys'), keys);
  const file = join(DATA, 'encrypt_columns_and_footer.parquet.encrypted');
  const a = await run(['head', file, '-n', '2', '--json', '--key-file', join(dir, 'keys')]);
  assert.equal(a.code, 0, a.err);
  const b = await run(['head', file, '-n', '2', '--json', '--key-file', 'env:PQ_KEYS'], { PQ_KEYS: keys });
  assert.equal(b.out, a.out);
  const out = join(dir, 'plain.parquet');
  const c = await run(['convert', file, out, '--from', 'parquet', '--key-file', join(dir, 'keys')]);
  assert.equal(c.code, 0, c.err);
  const d = await run(['head', out, '-n', '2', '--json']);
  assert.equal(d.out, a.out);
});

test('--no-verify-signature reads the plaintext columns of a signed footer without the footer key', async () => {
  const file = join(DATA, 'encrypt_columns_plaintext_footer.parquet.encrypted');
  const r = await run(['cat', file, '--json', '--columns', 'int32_field', '--limit', '2', '--no-verify-signature']);
  assert.equal(r.code, 0, r.err);
  assert.deepEqual(r.out.trim().split('\n').map((l) => JSON.parse(l).int32_field), ['00:00:00.000', '00:00:00.001']); // TIME(MILLIS)
});

test('convert writes encrypted Parquet: uniform, per-column with a plaintext footer, CTR, unstored AAD prefix', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'parquetry-enc-out-'));
  const csv = join(dir, 'in.csv');
  writeFileSync(csv, 'id,name,score\n' + Array.from({ length: 50 }, (_, i) => `${i},n${i % 7},${i / 4}`).join('\n') + '\n');
  const K = hex('abcdefghijklmnop');
  const cases: [string[], string[]][] = [
    [['--encrypt-footer-key', FOOTER], ['--footer-key', FOOTER]],
    [['--encrypt-footer-key', FOOTER, '--encrypt-column', `name:${K}`, '--plaintext-footer', '--algorithm', 'AES_GCM_CTR_V1'], ['--footer-key', FOOTER, '--column-key', `name:${K}`]],
    [['--encrypt-footer-key', FOOTER, '--aad-prefix', 'pfx', '--no-store-aad-prefix'], ['--footer-key', FOOTER, '--aad-prefix', 'pfx']],
  ];
  let first: string | undefined;
  for (const [i, [write, read]] of cases.entries()) {
    const out = join(dir, `out${i}.parquet`);
    const w = await run(['convert', csv, out, '-q', ...write]);
    assert.equal(w.code, 0, w.err);
    const r = await run(['cat', out, '--json', ...read]);
    assert.equal(r.code, 0, r.err);
    first ??= r.out;
    assert.equal(r.out, first);
    assert.equal(r.out.trim().split('\n').length, 50);
    assert.notEqual((await run(['cat', out, '--json'])).code, 0);
  }
  const stray = await run(['convert', csv, join(dir, 'x.parquet'), '--plaintext-footer']);
  assert.notEqual(stray.code, 0);
  assert.match(stray.err, /--encrypt-footer-key/);
  const checkpoints = await run(['convert', csv, join(dir, 'y.parquet'), '--encrypt-footer-key', FOOTER, '--checkpoint-every', '1']);
  assert.notEqual(checkpoints.code, 0);
  assert.match(checkpoints.err, /--checkpoint-every cannot be combined with --encrypt-footer-key/);
  assert.equal(existsSync(join(dir, 'y.parquet')), false);
});

test('pages decrypts the page headers of the chunks it has keys for, and names the chunks it skips', async () => {
  const file = join(DATA, 'encrypt_columns_plaintext_footer.parquet.encrypted');
  const some = await run(['pages', file, '--footer-key', FOOTER, '--column-key', `double_field:${DOUBLE}`]);
  assert.equal(some.code, 0, some.err);
  assert.equal(some.err, 'parquetry: skipped row group 0, column float_field: encrypted, and its key was not given (--column-key float_field:HEX)\n');
  assert.match(some.out, /^row group 0, column double_field \(encrypted\): 2 pages, bytes \d+\.\.\d+, 50 values$/m);
  assert.match(some.out, /^row group 0, column int32_field: 2 pages/m);
  assert.doesNotMatch(some.out, /float_field/);
  const all = await run(['pages', file, '--json', '--footer-key', FOOTER, '--column-key', `double_field:${DOUBLE}`, '--column-key', `float_field:${FLOAT}`]);
  assert.equal(all.code, 0, all.err);
  assert.equal(all.err, '');
  const pages = all.out.trim().split('\n').map((l) => JSON.parse(l) as { column: string; type: string });
  assert.deepEqual(pages.filter((p) => p.column === 'float_field').map((p) => p.type), ['dictionary', 'data v1']);
});

test('footer of an encrypted footer: its FileCryptoMetaData (algorithm, key metadata) first, then the FileMetaData decrypted', async () => {
  const keys = ['--footer-key', FOOTER, '--column-key', `double_field:${DOUBLE}`, '--column-key', `float_field:${FLOAT}`];
  for (const [name, algorithm] of [['encrypt_columns_and_footer', 'AES_GCM_V1'], ['encrypt_columns_and_footer_ctr', 'AES_GCM_CTR_V1']] as const) {
    const r = await run(['footer', join(DATA, `${name}.parquet.encrypted`), '--json', ...keys]);
    assert.equal(r.code, 0, r.err);
    const f = JSON.parse(r.out);
    assert.deepEqual(Object.keys(f).slice(0, 2), ['file_crypto_metadata', 'version']);
    assert.deepEqual(Object.keys(f.file_crypto_metadata.encryption_algorithm), [algorithm]);
    assert.equal(Buffer.from(f.file_crypto_metadata.key_metadata, 'hex').toString(), 'kf', "parquet-testing's footer key id");
    assert.equal(f.num_rows, '50');
  }
});

test('a missing key is named in the options of the command line, not the library\'s (decryption.footerKey)', async () => {
  const aad = join(DATA, 'encrypt_columns_and_footer_aad.parquet.encrypted');
  const noFooter = await run(['schema', aad]);
  assert.equal(noFooter.err, `parquetry: the file has an encrypted footer: give its key with --footer-key HEX or --key-file FILE (file ${aad})\n`);
  const noColumn = await run(['cat', aad, '--columns', 'float_field', '--footer-key', FOOTER, '--aad-prefix', 'tester']);
  assert.equal(noColumn.err, `parquetry: column float_field is encrypted and no key was given for it: give --column-key float_field:HEX or a --key-file line 'column float_field HEX' (file ${aad}, row group 0, column float_field)\n`);
  const dir = mkdtempSync(join(tmpdir(), 'parquetry-enc-prefix-'));
  const unstored = join(dir, 'unstored.parquet');
  const w = await run(['convert', join(DATA, 'alltypes_plain.parquet'), unstored, '--encrypt-footer-key', FOOTER, '--aad-prefix', 'tester', '--no-store-aad-prefix', '-q']);
  assert.equal(w.code, 0, w.err);
  const noPrefix = await run(['schema', unstored, '--footer-key', FOOTER]);
  assert.equal(noPrefix.err, `parquetry: the file was encrypted with an AAD prefix it does not store: give it with --aad-prefix TEXT (file ${unstored})\n`);
  const signed = join(DATA, 'encrypt_columns_plaintext_footer.parquet.encrypted');
  const noSigner = await run(['schema', signed]);
  assert.equal(noSigner.err, `parquetry: the footer is encrypted (or signed) and no footer key was given: give it with --footer-key HEX or --key-file FILE, or read a signed footer's plaintext columns with --no-verify-signature (file ${signed})\n`);
});

test('check and recover say they do not decrypt, keys given or not', async () => {
  const file = join(DATA, 'encrypt_columns_and_footer.parquet.encrypted');
  const dir = mkdtempSync(join(tmpdir(), 'parquetry-enc-check-'));
  for (const args of [['check', file], ['check', file, '--footer-key', FOOTER], ['recover', file, join(dir, 'out.parquet'), '--footer-key', FOOTER]]) {
    const r = await run(args);
    assert.equal(r.code, 1);
    assert.equal(r.err, `parquetry: ${args[0]} does not decrypt: ${file} is an encrypted Parquet file (read it with the other commands and the keys, or convert it to plaintext)\n`);
  }
});
