/**
 * Property: for random schemas (structs, lists and maps nested up to depth
 * 3 over random leaf types, random optionality) and random data for them,
 * written under random options (codec, page version, dictionary, small pages
 * and row groups, checksums), parquetry reads back exactly what was written,
 * and DuckDB reads the same row count and the same values.
 *
 * Fixed seed and bounded runs, so it is the same test every time and ends in
 * well under a minute on two cores. Leaf types DuckDB cannot read (BSON) are
 * left out, so DuckDB compares every column.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { defineSchema, field as f, openWriter, type WriterOptions } from '../../src/node/index.js';
import type { AnyField } from '../../src/schema/builder.js';
import { planRecord } from '../../src/shred/plan.js';
import { makeRecords } from './gen.js';
import { Duck, checkDuckValues, checkParquetry, sqlString } from './oracles.js';

// Fixed, so every run is the same test; PARQUETRY_PROPERTY_SEED / _RUNS explore further by hand.
const SEED = Number(process.env.PARQUETRY_PROPERTY_SEED ?? 20240531);
const RUNS = Number(process.env.PARQUETRY_PROPERTY_RUNS ?? 400);

let dir = '';
let duck: Duck;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'parquetry-writer-property-'));
  duck = await Duck.create();
});

after(() => {
  duck?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Leaf declarations, by name (so a failing case prints readably). */
const LEAVES: Record<string, () => AnyField> = {
  boolean: () => f.boolean(),
  int8: () => f.int8(),
  int16: () => f.int16(),
  int32: () => f.int32(),
  int64: () => f.int64(),
  uint8: () => f.uint8(),
  uint16: () => f.uint16(),
  uint32: () => f.uint32(),
  uint64: () => f.uint64(),
  float: () => f.float(),
  double: () => f.double(),
  float16: () => f.float16(),
  int96: () => f.int96(),
  binary: () => f.binary(),
  fixed3: () => f.fixed(3),
  string: () => f.string(),
  enum: () => f.enum(),
  json: () => f.json(),
  uuid: () => f.uuid(),
  dec_4_2: () => f.decimal(4, 2),
  dec_18_6_bin: () => f.decimal(18, 6, { storage: 'BYTE_ARRAY' }),
  dec_38_10: () => f.decimal(38, 10),
  dec_9_0_i64: () => f.decimal(9, 0, { storage: 'INT64' }),
  date: () => f.date(),
  time_ms: () => f.time('MILLIS'),
  time_ns_local: () => f.time('NANOS', { utc: false }),
  ts_us: () => f.timestamp('MICROS'),
  ts_ns: () => f.timestamp('NANOS'),
  ts_ms_local: () => f.timestamp('MILLIS', { utc: false }),
  interval: () => f.interval(),
  null: () => f.null(),
};
const KEYS: Record<string, () => AnyField> = { string: () => f.string(), int32: () => f.int32(), int64: () => f.int64(), date: () => f.date(), uuid: () => f.uuid() };

/** A field and a readable description of it. */
interface Decl {
  fb: AnyField;
  text: string;
}

const NAMES = ['a', 'b', 'x y', 'ünï', 'key', 'value', 'element', 'list'];

function optionality(d: Decl, required: boolean): Decl {
  if (!required || d.text === 'null') return d;
  return { fb: d.fb.required(), text: `${d.text}!` };
}

const leafArb: fc.Arbitrary<Decl> = fc.tuple(fc.constantFrom(...Object.keys(LEAVES)), fc.boolean())
  .map(([name, req]) => optionality({ fb: LEAVES[name]!(), text: name }, req));

function fieldArb(depth: number): fc.Arbitrary<Decl> {
  if (depth === 0) return leafArb;
  const sub = fieldArb(depth - 1);
  const struct = fc.tuple(fc.uniqueArray(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 3 }), fc.array(sub, { minLength: 3, maxLength: 3 }), fc.boolean())
    .map(([names, subs, req]) => optionality({
      fb: f.struct(names.map((n, i) => [n, subs[i]!.fb] as const)),
      text: `struct<${names.map((n, i) => `${n}: ${subs[i]!.text}`).join(', ')}>`,
    }, req));
  const list = fc.tuple(sub, fc.boolean()).map(([e, req]) => optionality({ fb: f.list(e.fb), text: `list<${e.text}>` }, req));
  const map = fc.tuple(fc.constantFrom(...Object.keys(KEYS)), sub, fc.boolean())
    .map(([k, v, req]) => optionality({ fb: f.map(KEYS[k]!(), v.fb), text: `map<${k}, ${v.text}>` }, req));
  return fc.oneof({ arbitrary: leafArb, weight: 3 }, { arbitrary: struct, weight: 1 }, { arbitrary: list, weight: 1 }, { arbitrary: map, weight: 1 });
}

const schemaArb = fc.array(fieldArb(3), { minLength: 1, maxLength: 5 });

const optionsArb: fc.Arbitrary<WriterOptions> = fc.record({
  codec: fc.constantFrom('UNCOMPRESSED', 'SNAPPY', 'GZIP', 'BROTLI', 'ZSTD', 'LZ4_RAW' as const),
  pageVersion: fc.constantFrom(1 as const, 2 as const),
  dictionary: fc.boolean(),
  pageSize: fc.integer({ min: 32, max: 4096 }),
  pageRowLimit: fc.integer({ min: 1, max: 40 }),
  rowGroupRows: fc.integer({ min: 1, max: 80 }),
  dictionaryPageSize: fc.integer({ min: 16, max: 2048 }),
  checksums: fc.boolean(),
}).map((o) => (o.codec === 'BROTLI' ? { ...o, compressionLevel: 1 } : o));

const dataArb = fc.record({
  rows: fc.oneof({ arbitrary: fc.constant(0), weight: 1 }, { arbitrary: fc.integer({ min: 1, max: 300 }), weight: 9 }),
  seed: fc.integer({ min: 1, max: 1_000_000 }),
  nullRate: fc.constantFrom(0, 0.1, 0.5, 1),
  emptyRate: fc.constantFrom(0, 0.2, 1),
});

let fileNo = 0;
let leaves = 0;
let values = 0;

test('random schemas and data round-trip through parquetry and DuckDB', { timeout: 600_000 }, async () => {
  await fc.assert(
    fc.asyncProperty(schemaArb, optionsArb, dataArb, async (decls, options, data) => {
      const fields = decls.map((d, i) => [`c${i}`, d.fb] as [string, AnyField]);
      const schema = defineSchema(fields);
      const { expected, input } = makeRecords(fields, data.rows, data.seed, { nullRate: data.nullRate, emptyRate: data.emptyRate, maxLen: 3 });
      const label = `property-${fileNo++} {${decls.map((d, i) => `c${i}: ${d.text}`).join('; ')}} ${JSON.stringify(options)} ${JSON.stringify(data)}`;
      const path = join(dir, `p${fileNo}.parquet`);
      const w = await openWriter(path, schema, options);
      await w.writeMany(input);
      await w.close();
      await checkParquetry(path, label, expected);
      const n = await duck.objects(`SELECT count(*) AS n FROM read_parquet(${sqlString(path)})`);
      assert.equal(Number(n[0]!.n), data.rows, `${label}: DuckDB's row count`);
      await checkDuckValues(duck, path, label, expected, planRecord(schema.schema.root));
      rmSync(path);
      leaves += schema.schema.leaves.length;
      values += data.rows * schema.schema.leaves.length;
    }),
    { seed: SEED, numRuns: RUNS, endOnFailure: true },
  );
  // The property ran on real work: many files, columns and values.
  assert.equal(fileNo, RUNS);
  assert.ok(leaves > RUNS * 3 && values > RUNS * 100, `${leaves} leaf columns, ${values} leaf values`);
});
