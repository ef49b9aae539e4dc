/**
 * The RedElm corpus (files written by the prototype's own Java code): every
 * file reads back exactly the records the corpus lists, its footer equals
 * the one `RedElmMetaData.toPrettyJSON` printed, and its metadata blocks
 * are where the generator's layout says. Re-encoding the `RedElm` block
 * gives the Java bytes (serialization and JSON alike).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RedElmReader } from '../../src/redelm/reader.js';
import { encodeRedElmMetaData } from '../../src/redelm/metadata.js';
import { REDELM_CORPUS, corpusFile, expectedLines, inConvention, redelmCases } from './corpus-util.js';

const cases = redelmCases();

test('the corpus has the cases its README lists', () => {
  assert.equal(cases.length, 24);
});

for (const name of cases) {
  test(`${name}: records`, async () => {
    const reader = await RedElmReader.open(corpusFile(`${name}.redelm`));
    const plan = reader.plan();
    const rows: unknown[] = [];
    for await (const row of reader.rows()) rows.push(inConvention(plan, row, 'ours'));
    const expected = expectedLines(name).map((l) => inConvention(plan, JSON.parse(l), 'theirs'));
    assert.equal(reader.numRows, expected.length);
    assert.deepStrictEqual(rows, expected);
  });

  test(`${name}: footer and layout`, async () => {
    const bytes = corpusFile(`${name}.redelm`);
    const reader = await RedElmReader.open(bytes);
    const layout = JSON.parse(readFileSync(join(REDELM_CORPUS, `${name}.layout.json`), 'utf8'));
    assert.equal(reader.footerIndex, layout.footerIndex);
    assert.deepStrictEqual(
      reader.metaDataBlocks.map((b) => ({ name: b.name, dataOffset: b.offset, length: b.data.length })),
      layout.metaDataBlocks.map((b: { name: string; dataOffset: number; length: number }) => ({ name: b.name, dataOffset: b.dataOffset, length: b.length })),
    );
    assert.equal(reader.metadata.schema, readFileSync(join(REDELM_CORPUS, `${name}.schema.txt`), 'utf8'));
    const footerJson = join(REDELM_CORPUS, `${name}.footer.json`);
    if (existsSync(footerJson)) {
      const ours = JSON.parse(new TextDecoder().decode(encodeRedElmMetaData(reader.metadata, 'json')));
      assert.deepStrictEqual(ours, JSON.parse(readFileSync(footerJson, 'utf8')));
    }
    assert.deepStrictEqual(encodeRedElmMetaData(reader.metadata, reader.footerForm), new Uint8Array(reader.metaDataBlocks[0]!.data));
  });
}

test('the JSON-footer variant reads as its Java twin', async () => {
  const java = await RedElmReader.open(corpusFile('paper_gzip.redelm'));
  const json = await RedElmReader.open(corpusFile('variant_jsonfooter_paper_gzip.redelm'));
  assert.equal(java.footerForm, 'java');
  assert.equal(json.footerForm, 'json');
  assert.deepStrictEqual(json.metadata, java.metadata);
});

test('the Pig block is kept as opaque bytes after the RedElm block', async () => {
  const reader = await RedElmReader.open(corpusFile('pig_block_gzip.redelm'));
  assert.deepStrictEqual(reader.metaDataBlocks.map((b) => b.name), ['RedElm', 'Pig']);
  assert.match(new TextDecoder().decode(reader.metaDataBlocks[1]!.data), /^\{"pigSchema":/);
});

test('offset, limit and columns cut across row groups', async () => {
  const reader = await RedElmReader.open(corpusFile('multi_rowgroup_gzip.redelm'));
  const all: Record<string, unknown>[] = [];
  for await (const row of reader.rows()) all.push(row);
  const part: Record<string, unknown>[] = [];
  for await (const row of reader.rows({ offset: 1090, limit: 30, columns: ['seq', 'items'] })) part.push(row);
  assert.deepStrictEqual(part, all.slice(1090, 1120).map((r) => ({ seq: r.seq, items: r.items })));
});
