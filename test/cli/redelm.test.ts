/**
 * schema, meta, cat and head on RedElm files, recognised by their magic:
 * `cat --json` prints the corpus's records in the canonical Parquet form.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ok, run } from './run-cli.js';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RedElmReader } from '../../src/redelm/reader.js';
import { REDELM_CORPUS, canonicalFromCorpus, corpusFile, expectedLines } from '../redelm/corpus-util.js';

const file = (name: string) => join(REDELM_CORPUS, `${name}.redelm`);

for (const name of ['paper_snappy', 'primitives_default', 'nested_gzip', 'quirk_required_group_gzip', 'variant_jsonfooter_paper_gzip']) {
  test(`cat --json ${name} prints the corpus's records in canonical form`, async () => {
    const plan = (await RedElmReader.open(corpusFile(`${name}.redelm`))).plan();
    const expected = expectedLines(name).map((l) => canonicalFromCorpus(plan, JSON.parse(l)) + '\n').join('');
    assert.equal(ok('cat', '--json', file(name)), expected);
  });
}

test('schema prints the footer\'s message type', () => {
  assert.equal(ok('schema', file('paper_gzip')), readFileSync(join(REDELM_CORPUS, 'paper_gzip.schema.txt'), 'utf8'));
});

test('meta --json shows the footer: codec, form, blocks, row groups', () => {
  const meta = JSON.parse(ok('meta', '--json', file('pig_block_gzip')));
  const layout = JSON.parse(readFileSync(join(REDELM_CORPUS, 'pig_block_gzip.layout.json'), 'utf8'));
  assert.equal(meta.format, 'redelm');
  assert.equal(meta.codec, 'org.apache.hadoop.io.compress.GzipCodec');
  assert.equal(meta.footerForm, 'java');
  assert.equal(meta.numRows, 5);
  assert.deepEqual(meta.metaDataBlocks, layout.metaDataBlocks.map((b: { name: string; dataOffset: number; length: number }) => ({ name: b.name, offset: b.dataOffset, length: b.length })));
});

test('head -n takes the first records; --columns projects', () => {
  const lines = ok('cat', '--json', '--limit', '2', '--offset', '1099', '--columns', 'seq', file('multi_rowgroup_gzip')).trim().split('\n');
  assert.deepEqual(lines.map((l) => JSON.parse(l)), [{ seq: 1099 }, { seq: 1100 }]);
  assert.match(ok('head', '-n', '1', file('tiny_gzip')), /^a +g\n-+ +-+\n1 +\{s: \["x", "yz"\]\}\n$/);
});

test('Parquet-only commands name the format; a corrupt RedElm file is a one-line error', () => {
  const r = run('pages', file('tiny_gzip'));
  assert.equal(r.code, 1);
  assert.match(r.err, /is a RedElm file/);
  const dir = mkdtempSync(join(tmpdir(), 'redelm-cli-'));
  try {
    const cut = join(dir, 'cut.redelm');
    writeFileSync(cut, corpusFile('tiny_gzip.redelm').subarray(0, 40));
    const bad = run('cat', cut);
    assert.equal(bad.code, 1);
    assert.match(bad.err, /^parquetry: .*RedElm.*\(file .*cut\.redelm, offset \d+\)\n$/);
  } finally {
    rmSync(dir, { recursive: true });
  }
});
