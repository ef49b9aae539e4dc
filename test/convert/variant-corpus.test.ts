/**
 * parquet-testing's shredded_variant corpus (written by parquet-java), each
 * valid case converted Parquet to Parquet by our writer: the output keeps
 * the case's VARIANT group (shredded as the input was), reads back to the
 * variant of the case's `.variant.bin`, and, read with typed variants, to
 * the same types as the input file (which may store a narrower integer of
 * the `.variant.bin` in a wider typed_value column: case 138).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BufferSink, ParquetReader, bufferSource, convert } from '../../src/index.js';
import { decodeVariant, splitVariantBin } from '../../src/parquet/variant/index.js';

const DIR = join('..', 'shared', 'corpus', 'parquet-testing', 'shredded_variant');

interface Case {
  case_number: number;
  parquet_file?: string;
  variant_file?: string;
  variant_files?: (string | null)[];
  error_message?: string;
}

const cases: Case[] = JSON.parse(readFileSync(join(DIR, 'cases.json'), 'utf8'));
const valid = cases.filter((c) => c.parquet_file && !c.error_message);

function fromBin(file: string | null): unknown {
  if (file === null) return null;
  const { metadata, value } = splitVariantBin(readFileSync(join(DIR, file)));
  return decodeVariant(metadata, value);
}

function schemaText(r: ParquetReader): string {
  return JSON.stringify(r.metadata.schema.map((e) => [e.name, e.type, e.repetitionType, e.logicalType?.type, e.numChildren]));
}

test('every valid shredded_variant case keeps its VARIANT column and its values through convert', async () => {
  assert.ok(valid.length > 100);
  const failures: string[] = [];
  for (const c of valid) {
    const input = readFileSync(join(DIR, c.parquet_file!));
    const sink = new BufferSink();
    try {
      await convert(input, sink, { from: 'parquet', to: 'parquet' });
      const before = await ParquetReader.open(bufferSource(input));
      const after = await ParquetReader.open(bufferSource(sink.bytes()));
      assert.equal(schemaText(after), schemaText(before));
      assert.equal(after.metadata.schema.find((e) => e.name === 'var')?.logicalType?.type, 'VARIANT');
      assert.deepStrictEqual((await after.readRows()).map((r) => r.var), (c.variant_files ?? [c.variant_file!]).map(fromBin));
      assert.deepStrictEqual(await after.readRows({ variants: 'typed' }), await before.readRows({ variants: 'typed' }));
    } catch (e) {
      failures.push(`case ${c.case_number} (${c.parquet_file}): ${(e as Error).message.split('\n').slice(0, 6).join(' ')}`);
    }
  }
  assert.deepEqual(failures, []);
});
