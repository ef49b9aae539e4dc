/**
 * parquet-testing's shredded_variant corpus, the Parquet side: each file's
 * `var` column, read and reassembled by the reader, must equal the decoding of
 * the case's `.variant.bin`; the error cases must end in a typed error.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openParquet, ParquetryError } from '../../src/node/index.js';
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

async function readVar(file: string): Promise<unknown[]> {
  const reader = await openParquet(join(DIR, file));
  try {
    return (await reader.readRows()).map((r) => r.var);
  } finally {
    await reader.close();
  }
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
