/**
 * `--no-verify-checksums` on the commands that read pages and blocks (cat,
 * head, convert): files whose stored checksums do not match fail by default,
 * naming the page, and read whole with the option.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from './run-cli.js';

const DATA = '../shared/corpus/parquet-testing/data';
const EXPECTED = '../shared/corpus/expected/parquet-testing/data';
const TREVNI = '../shared/trevni-corpus';
/** Both corrupt-checksum files of the corpus, with the page the default read stops at. */
const CORRUPT = [
  { file: 'datapage_v1-corrupt-checksum.parquet', where: /row group 0, column a, page 0\)/ },
  { file: 'rle-dict-uncompressed-corrupt-checksum.parquet', where: /row group 0, column \w+, page 0\)/ },
];


const expected = (file: string) => readFileSync(join(EXPECTED, `${file}.jsonl`), 'utf8');

for (const { file, where } of CORRUPT) {
  test(`cat and head: ${file} fails on its checksum, and reads whole with --no-verify-checksums`, async () => {
    const path = join(DATA, file);
    const strict = await run('cat', path, '--json');
    assert.equal(strict.code, 1);
    assert.match(strict.err, /^parquetry: .*checksum.*\n$/i);
    assert.match(strict.err, where);
    const lax = await run('cat', path, '--json', '--no-verify-checksums');
    assert.equal(lax.code, 0, lax.err);
    assert.equal(lax.out, expected(file));
    assert.equal((await run('head', path, '--json')).code, 1);
    const head = await run('head', path, '-n', '3', '--json', '--no-verify-checksums');
    assert.equal(head.code, 0, head.err);
    assert.deepEqual(head.out.split('\n').slice(0, 3), expected(file).split('\n').slice(0, 3));
  });

  test(`convert: ${file} fails on its checksum, and rewrites with --no-verify-checksums`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parquetry-checksums-'));
    const strict = await run('convert', join(DATA, file), join(dir, 'strict.parquet'), '-q');
    assert.equal(strict.code, 1);
    assert.match(strict.err, where);
    const out = join(dir, 'lax.parquet');
    const lax = await run('convert', join(DATA, file), out, '-q', '--no-verify-checksums');
    assert.equal(lax.code, 0, lax.err);
    // A Parquet rewrite is lossless: it holds the rows the corpus expects.
    const rows = await run('cat', out, '--json');
    assert.equal(rows.code, 0, rows.err);
    assert.equal(rows.out, expected(file));
  });
}

test('Trevni: a block checksum that does not match fails by default; --no-verify-checksums reads the rows', async () => {
  // quirk_null_codec_crc32.trv: Java's writer stored CRCs of zero; the rows are those of types_null_null.trv.
  const quirk = join(TREVNI, 'quirk_null_codec_crc32.trv');
  const strict = await run('cat', quirk, '--json');
  assert.equal(strict.code, 1);
  assert.match(strict.err, /^parquetry: .*stored 00000000/);
  const reference = await run('cat', join(TREVNI, 'types_null_null.trv'), '--json');
  assert.equal(reference.code, 0, reference.err);
  const lax = await run('cat', quirk, '--json', '--no-verify-checksums');
  assert.equal(lax.code, 0, lax.err);
  assert.equal(lax.out, reference.out);
  const converted = await run('convert', quirk, '-', '--to', 'jsonl', '-q', '--no-verify-checksums');
  assert.equal(converted.code, 0, converted.err);
  assert.equal((await run('convert', quirk, '-', '--to', 'jsonl', '-q')).code, 1);
});

test('convert refuses --no-verify-checksums for a text input, which has no checksums', async () => {
  const csv = join(mkdtempSync(join(tmpdir(), 'parquetry-checksums-')), 'a.csv');
  writeFileSync(csv, 'a\n1\n');
  const r = await run('convert', csv, '-', '--to', 'jsonl', '--no-verify-checksums');
  assert.equal(r.code, 1);
  assert.match(r.err, /--no-verify-checksums applies to Parquet and Trevni inputs only/);
});
