/**
 * `parquetry convert` to and from RedElm (.redelm): every corpus file to
 * Parquet gives the corpus's records (compared through the canonical form
 * both print), Parquet files to RedElm and back keep every value (types
 * RedElm lacks as mapped), CSV to RedElm, --codec and --columns, errors.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ok, run } from './run-cli.js';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RedElmReader } from '../../src/redelm/reader.js';
import { openParquet } from '../../src/node/index.js';
import { REDELM_CORPUS, canonicalFromCorpus, corpusFile, expectedLines, redelmCases } from '../redelm/corpus-util.js';

let dir = '';
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'parquetry-convert-redelm-'));
});
after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('every corpus file to Parquet holds the corpus records', async () => {
  for (const name of redelmCases()) {
    const out = join(dir, `${name}.parquet`);
    await ok('convert', '--quiet', join(REDELM_CORPUS, `${name}.redelm`), out);
    const plan = (await RedElmReader.open(corpusFile(`${name}.redelm`))).plan();
    const expected = expectedLines(name).map((l) => canonicalFromCorpus(plan, JSON.parse(l)) + '\n').join('');
    assert.equal(await ok('cat', '--json', out), expected, name);
  }
});

test('Parquet to RedElm and back keeps every value, and the RedElm file reads as its records', async () => {
  const src = join('..', 'shared', 'corpus', 'parquet-testing', 'data', 'alltypes_plain.parquet');
  const redelm = join(dir, 'alltypes.redelm');
  const back = join(dir, 'alltypes.parquet');
  await ok('convert', '--quiet', '--codec', 'snappy', src, redelm);
  await ok('convert', '--quiet', redelm, back);
  const rows = async (p: string) => {
    const r = await openParquet(p);
    const out: unknown[] = [];
    for await (const row of r.rows()) out.push(row);
    await r.close();
    return out;
  };
  const original = await rows(src);
  // The INT96 timestamps come back as INT64 nanoseconds (docs/redelm.md's mapping): the same bigints as the reader gives for INT96.
  assert.deepStrictEqual(await rows(back), original);
  assert.equal(JSON.parse(await ok('meta', '--json', redelm)).codec, 'org.apache.hadoop.io.compress.SnappyCodec');
});

test('CSV to RedElm, with --columns on the way back', async () => {
  const csv = join(dir, 'in.csv');
  writeFileSync(csv, 'id,name,score\n1,ann,1.5\n2,,2.25\n');
  const redelm = join(dir, 'in.redelm');
  await ok('convert', '--quiet', csv, redelm);
  assert.equal(await ok('cat', '--json', redelm), '{"id":1,"name":"ann","score":1.5}\n{"id":2,"name":null,"score":2.25}\n');
  const jsonl = join(dir, 'out.jsonl');
  await ok('convert', '--quiet', '--columns', 'score', redelm, jsonl);
  assert.equal(await ok('cat', '--json', redelm, '--columns', 'score'), '{"score":1.5}\n{"score":2.25}\n');
});

test('a codec RedElm does not have is a usage error before anything is written', async () => {
  const r = await run('convert', join(REDELM_CORPUS, 'tiny_gzip.redelm'), join(dir, 'x.redelm'), '--codec', 'zstd');
  assert.equal(r.code, 1);
  assert.match(r.err, /--codec.*'zstd' is invalid: must be gzip, default or snappy for RedElm output/);
  assert.equal(existsSync(join(dir, 'x.redelm')), false);
});

test('--redelm-footer json writes the design page\'s form, read back the same; it applies to RedElm output only', async () => {
  const out = join(dir, 'json-footer.redelm');
  await ok('convert', '--quiet', '--redelm-footer', 'json', join(REDELM_CORPUS, 'paper_gzip.redelm'), out);
  assert.equal(JSON.parse(await ok('meta', '--json', out)).footerForm, 'json');
  assert.equal(await ok('cat', '--json', out), await ok('cat', '--json', join(REDELM_CORPUS, 'paper_gzip.redelm')));
  const r = await run('convert', join(REDELM_CORPUS, 'paper_gzip.redelm'), join(dir, 'x.parquet'), '--redelm-footer', 'json');
  assert.equal(r.code, 1);
  assert.match(r.err, /--redelm-footer applies to RedElm output only/);
});
