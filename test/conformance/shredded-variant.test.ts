/**
 * parquet-testing's shredded_variant corpus, the Parquet side: each file's
 * `var` column, read and reassembled by the reader, must equal the decoding of
 * the case's `.variant.bin`; the error cases must end in a typed error. So
 * under every value option: a variant's values keep their JS forms whatever
 * the options (they apply to the other columns).
 *
 * Then each valid case converted Parquet to Parquet by our writer: the
 * output keeps the case's VARIANT group (shredded as the input was), reads
 * back to the variant of the case's `.variant.bin`, and, read with typed
 * variants, to the same types as the input file (which may store a narrower
 * integer of the `.variant.bin` in a wider typed_value column: case 138).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { convert as convertFiles } from '../../src/node/entries/convert.js';
import { openParquet, ParquetryError, type ReadOptions } from '../../src/node/index.js';
import { BufferSink, ParquetReader, bufferSource } from '../../src/index.js';
import { convert } from '../../src/entries/convert.js';
import { decodeVariant, splitVariantBin } from '../../src/parquet/variant/index.js';
import { canonicalVariant } from '../../src/text/canonical.js';

const DIR = join('..', 'shared', 'corpus', 'parquet-testing', 'shredded_variant');

interface Case {
  case_number: number;
  parquet_file?: string;
  variant_file?: string;
  variant_files?: (string | null)[];
  error_message?: string;
}

const cases: Case[] = JSON.parse(readFileSync(join(DIR, 'cases.json'), 'utf8'));

async function readRows(file: string, options: ReadOptions = {}): Promise<Array<Record<string, unknown>>> {
  const reader = await openParquet(join(DIR, file));
  try {
    return await reader.readRows(options);
  } finally {
    await reader.close();
  }
}

async function readVar(file: string): Promise<unknown[]> {
  return (await readRows(file)).map((r) => r.var);
}

function fromBin(file: string | null): string {
  if (file === null) return 'null';
  const { metadata, value } = splitVariantBin(readFileSync(join(DIR, file)));
  return canonicalVariant(decodeVariant(metadata, value));
}

test('the corpus has cases', () => assert.ok(cases.filter((c) => c.parquet_file).length > 100));

for (const c of cases.filter((c) => c.parquet_file)) {
  test(`shredded variant case ${c.case_number}`, async () => {
    if (c.error_message) {
      await assert.rejects(readVar(c.parquet_file!), (e: unknown) => e instanceof ParquetryError);
      return;
    }
    const files = c.variant_files ?? [c.variant_file!];
    const got = (await readVar(c.parquet_file!)).map(canonicalVariant);
    assert.deepEqual(got, files.map(fromBin));
  });
}

/** Every setting of every value option. */
const OPTION_SETTINGS: ReadOptions[] = [
  { int64: 'bigint' }, { int64: 'number' }, { decimal: 'string' }, { decimal: 'number' },
  { temporal: 'raw' }, { temporal: 'iso' }, { temporal: 'date' }, { int64: 'number', decimal: 'number', temporal: 'date' },
];

/** The `id` column (INT32) under an option: the same number whatever the option; anything else is not what the corpus holds. */
function idUnder(v: unknown): unknown {
  assert.ok(typeof v === 'number' && Number.isInteger(v), `id ${String(v)}`);
  return v;
}

for (const options of OPTION_SETTINGS) {
  test(`every shredded variant file under ${JSON.stringify(options)}`, async () => {
    for (const c of cases.filter((c) => c.parquet_file)) {
      const where = `case ${c.case_number} under ${JSON.stringify(options)}`;
      if (c.error_message) {
        await assert.rejects(readRows(c.parquet_file!, options), (e: unknown) => e instanceof ParquetryError, where);
        continue;
      }
      const lossless = await readRows(c.parquet_file!);
      const rows = await readRows(c.parquet_file!, options);
      assert.deepEqual(rows.map((r) => Object.keys(r)), lossless.map((r) => Object.keys(r)), where);
      assert.deepEqual(rows.map((r) => r.id), lossless.map((r) => idUnder(r.id)), where);
      // The variant against the case's .variant.bin, decoded apart from the shredded assembly.
      const files = c.variant_files ?? [c.variant_file!];
      assert.deepEqual(rows.map((r) => canonicalVariant(r.var)), files.map(fromBin), where);
    }
  });
}

function schemaText(r: ParquetReader): string {
  return JSON.stringify(r.file.metadata.schema.map((e) => [e.name, e.type, e.repetitionType, e.logicalType?.type, e.numChildren]));
}

test('every valid case keeps its VARIANT column and its values through convert', async () => {
  const failures: string[] = [];
  for (const c of cases.filter((c) => c.parquet_file && !c.error_message)) {
    const input = readFileSync(join(DIR, c.parquet_file!));
    const sink = new BufferSink();
    try {
      await convert(input, sink, { from: 'parquet', to: 'parquet' });
      const before = await ParquetReader.open(bufferSource(input));
      const after = await ParquetReader.open(bufferSource(sink.bytes()));
      assert.equal(schemaText(after), schemaText(before));
      assert.equal(after.file.metadata.schema.find((e) => e.name === 'var')?.logicalType?.type, 'VARIANT');
      const files = c.variant_files ?? [c.variant_file!];
      assert.deepEqual((await after.readRows()).map((r) => canonicalVariant(r.var)), files.map(fromBin));
      assert.deepStrictEqual(await after.readRows({ variants: 'typed' }), await before.readRows({ variants: 'typed' }));
    } catch (e) {
      failures.push(`case ${c.case_number} (${c.parquet_file}): ${(e as Error).message.split('\n').slice(0, 6).join(' ')}`);
    }
  }
  assert.deepEqual(failures, []);
});

test('a dataset of case files converts to one file keeping the variant types', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'parquetry-variant-ds-'));
  try {
    mkdirSync(join(dir, 'in'));
    for (const name of ['a', 'b']) copyFileSync(join(DIR, 'case-018.parquet'), join(dir, 'in', `${name}.parquet`));
    await convertFiles(join(dir, 'in'), join(dir, 'out.parquet'));
    const one = await readRows('case-018.parquet', { variants: 'typed' });
    const r = await openParquet(join(dir, 'out.parquet'));
    assert.deepStrictEqual(await r.readRows({ variants: 'typed' }), [...one, ...one]);
    await r.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
