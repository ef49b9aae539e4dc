/**
 * Interop: VARIANT columns written by parquetry, read by DuckDB. Unshredded,
 * shredded into a declared shape, and shredded by `shred: 'auto'`: DuckDB
 * must read every row to the values we wrote. Two comparisons: DuckDB's
 * JSON cast of the variant against the JSON of the values written (for
 * values JSON holds exactly), and DuckDB's typed variant values against our
 * reader's canonical form of the same file (duck-compare.ts), for every
 * type, typed values included.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { BufferSink, ParquetReader, bufferSource, defineSchema, field, variant, writeRecords } from '../../src/index.js';
import { canonicalRow } from '../../src/entries/inspect.js';
import type { AnyField } from '../../src/schema/builder.js';
import { canonText, duckText, showDifference } from './duck-compare.js';
import { DuckFiles } from '../reader/helpers.js';

let files: DuckFiles;
let duck: DuckDBConnection;

before(async () => {
  files = await DuckFiles.create();
  duck = files.duck;
});
after(() => files?.close());

/** JSON-exact values: safe integers, doubles, strings, booleans, null, arrays, objects. */
const jsonValue = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof({ depthSize: 'small' },
    fc.constant(null), fc.boolean(), fc.integer(), fc.maxSafeInteger(), fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Object.is(d, -0)),
    fc.string({ maxLength: 70 }),
    fc.array(tie('v'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom('a', 'b', 'c', 'é', 'key with space', 'Z'), tie('v'), { maxKeys: 4 }),
  ),
})).v;

/** Rows with objects of a steady shape (for shredding) and values that do not fit it. */
function jsonRows(): unknown[] {
  const shaped = fc.record({ a: fc.integer(), b: fc.string({ maxLength: 10 }), c: fc.array(fc.double({ noNaN: true, noDefaultInfinity: true }), { maxLength: 3 }) }, { requiredKeys: ['a'] });
  return [...fc.sample(shaped, { numRuns: 60, seed: 7 }), ...fc.sample(jsonValue, { numRuns: 60, seed: 11 })];
}

/** Values JSON cannot hold exactly, given as typed values and JS forms. */
const TYPED_ROWS: unknown[] = [
  variant.int8(-5), variant.int16(300), variant.int32(-70000), variant.int64(2n ** 60n), 2n ** 62n, variant.float(1.5), variant.double(2),
  variant.decimal('12.30'), variant.decimal8('-1234567890.12'), variant.decimal16('12345678901234567890.123'),
  variant.date('2024-11-07'), variant.time('12:33:54.123456'), variant.timestamp('2024-01-02T03:04:05.123456Z'),
  variant.timestamp('2024-01-02T03:04:05.123456', { utc: false }), variant.timestamp('2024-01-02T03:04:05.123456789', { unit: 'NANOS', utc: false }),
  // DuckDB has no nanosecond TIMESTAMPTZ: it reads this type at microseconds, so the sub-microsecond digits are zeros here.
  variant.timestamp('2024-01-02T03:04:05.123456000Z', { unit: 'NANOS' }),
  variant.uuid('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'), new Uint8Array([0, 255, 7]), new Date(Date.UTC(2020, 1, 29, 12)),
  { when: variant.date(19000), amount: variant.decimal('5.25'), tags: ['x', variant.int8(1)] }, 'a string of more than sixty-four bytes, so a long string and not a short one',
];

const SHAPES: Array<[string, AnyField | undefined, 'auto' | undefined]> = [
  ['unshredded', undefined, undefined],
  ['declared', field.struct({ a: field.int64(), b: field.string(), c: field.list(field.double()) }), undefined],
  ['auto', undefined, 'auto'],
];

async function writeFile(name: string, values: unknown[], shredded: AnyField | undefined, shred: 'auto' | undefined): Promise<string> {
  const sink = new BufferSink();
  const schema = defineSchema({ id: field.int32().required(), v: field.variant({ ...(shredded ? { shredded } : {}), ...(shred ? { shred } : {}) }) });
  await writeRecords(sink, values.map((v, id) => ({ id, v })), { schema, rowGroupRows: 50 });
  const path = join(files.dir, name);
  writeFileSync(path, sink.bytes());
  return path;
}

const sqlPath = (p: string) => `'${p.replaceAll("'", "''")}'`;

/** Keys sorted, so JSON texts compare whatever order each side lists them in. */
function sorted(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sorted);
  if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted((v as Record<string, unknown>)[k])]));
  return v;
}

async function typedComparison(path: string): Promise<string[]> {
  const r = await duck.runAndReadAll(`SELECT v FROM read_parquet(${sqlPath(path)}) ORDER BY id`);
  const [type] = r.columnTypes();
  const duckRows = r.getRows();
  const reader = await ParquetReader.open(bufferSource(readFileSync(path)));
  const plan = reader.plan();
  const problems: string[] = [];
  let i = 0;
  for await (const row of reader.rows()) {
    const ours = (JSON.parse(canonicalRow(plan, row)) as { v: unknown }).v;
    const want = duckRows[i]![0] as DuckDBValue;
    const d = duckText(type!, want);
    const p = canonText(type!, ours, want);
    if (d !== p) problems.push(`row ${i}: ${showDifference(p, d)}`);
    i++;
  }
  if (i !== duckRows.length) problems.push(`DuckDB reads ${duckRows.length} rows, parquetry ${i}`);
  return problems;
}

describe('DuckDB reads the VARIANT columns parquetry writes', () => {
  for (const [name, shredded, shred] of SHAPES) {
    test(`${name}: DuckDB's JSON of each variant is the JSON written`, async () => {
      const values = jsonRows();
      const path = await writeFile(`json-${name}.parquet`, values, shredded, shred);
      const r = await duck.runAndReadAll(`SELECT v::JSON::VARCHAR FROM read_parquet(${sqlPath(path)}) ORDER BY id`);
      const got = r.getRows().map(([j]) => (j === null ? null : sorted(JSON.parse(String(j)))));
      assert.deepEqual(got, values.map(sorted));
      assert.deepEqual(await typedComparison(path), []);
    });

    test(`${name}: every variant type, compared typed`, async () => {
      const path = await writeFile(`typed-${name}.parquet`, [...TYPED_ROWS, ...TYPED_ROWS.map((v) => ({ a: 1, b: 'x', c: [v] }))], shredded, shred);
      assert.deepEqual(await typedComparison(path), []);
    });
  }

  test('the auto shape shreds the steady fields', async () => {
    const path = await writeFile('json-auto-shape.parquet', jsonRows(), undefined, 'auto');
    const r = await duck.runAndReadAll(`SELECT path_in_schema FROM parquet_metadata(${sqlPath(path)}) WHERE row_group_id = 0 ORDER BY column_id`);
    const paths = r.getRows().map(([p]) => String(p));
    for (const p of ['v, typed_value, a, typed_value', 'v, typed_value, b, typed_value', 'v, typed_value, c, typed_value, list, element, typed_value']) assert.ok(paths.includes(p), `${p} in ${paths.join(' | ')}`);
  });
});
