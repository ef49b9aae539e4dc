/**
 * The library's convert() with RedElm on either side: a RedElm input known
 * by its magic, whatever its name; RedElm output with its codec and footer
 * form; bytes in, a Sink out, as in a browser.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { convert } from '../../src/convert/convert.js';
import { InvalidArgumentError } from '../../src/errors.js';
import { BufferSink } from '../../src/io/sink.js';
import { ParquetReader } from '../../src/parquet/reader.js';
import { RedElmReader } from '../../src/redelm/reader.js';
import { corpusFile } from './corpus-util.js';

async function rows(r: { rows(): AsyncIterable<Record<string, unknown>> }): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for await (const row of r.rows()) out.push(row);
  return out;
}

test('RedElm bytes (known by their magic) to Parquet and back to RedElm, the records kept', async () => {
  const original = await RedElmReader.open(corpusFile('paper_snappy.redelm'));
  const parquet = new BufferSink();
  const report = await convert(corpusFile('paper_snappy.redelm'), parquet, { to: 'parquet', name: 'no-extension' });
  assert.equal(report.numRows, 2);
  assert.deepStrictEqual(await rows(await ParquetReader.open(parquet.bytes())), await rows(original));

  const redelm = new BufferSink();
  await convert(parquet.bytes(), redelm, { to: 'redelm', codec: 'snappy', redelmFooter: 'json' });
  const back = await RedElmReader.open(redelm.bytes());
  assert.equal(back.codecClassName, 'org.apache.hadoop.io.compress.SnappyCodec');
  assert.equal(back.footerForm, 'json');
  assert.deepStrictEqual(await rows(back), await rows(original));
});

test('a codec RedElm does not have is refused before anything is written', async () => {
  await assert.rejects(convert(corpusFile('tiny_gzip.redelm'), new BufferSink(), { to: 'redelm', codec: 'zstd' }), InvalidArgumentError);
});
