/**
 * Filters on paths inside a shredded VARIANT (`payload.a.b`): every filter's
 * rows equal an independent evaluation over the values written (the path's
 * value, compared when it is an integer as the shredded column is; unknown
 * for other types, missing paths and nulls), over files where some values at
 * the path sit in the residual `value` column (doubles, strings, an int16
 * typed value, objects, a non-object payload). And the typed column's
 * statistics prune: a selective filter reads a fraction of the file, while a
 * row group whose matching value is in the residual column is not skipped.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BufferSink, ParquetReader, ParquetWriter, defineSchema, field, variant, type Filter } from '../../src/index.js';
import { CountingSource } from './fixtures.js';
import { VariantValue } from '../../src/index.js';
import { InvalidArgumentError } from '../../src/errors.js';

const SHAPE = field.struct({ a: field.struct({ b: field.int64() }), s: field.string() });

/** Row i: mostly { a: { b: i } }, with every other kind of value at a.b every few rows. */
function payload(i: number): unknown {
  switch (i % 23) {
    case 3: return { a: { b: i + 0.5 } };
    case 5: return { a: { b: `s${i}` } };
    case 7: return { a: { b: variant.int16(i % 30000) } };
    case 9: return { a: { c: i } };
    case 11: return { a: 'not an object' };
    case 13: return null;
    case 15: return 'not an object either';
    case 17: return { a: { b: null } };
    case 19: return { a: { b: { deep: i } } };
    default: return { a: { b: i }, s: `x${i}` };
  }
}

async function file(n: number, rowGroupRows: number, rows = payload): Promise<Uint8Array> {
  const sink = new BufferSink();
  const w = await ParquetWriter.open(sink, defineSchema({ id: field.int32().required(), payload: field.variant({ shredded: SHAPE }) }), { rowGroupRows, pageRowLimit: 50 });
  for (let i = 0; i < n; i++) await w.write({ id: i, payload: rows(i) });
  await w.close();
  return sink.bytes();
}

type Tri = boolean | undefined;

/** The path's value: undefined when missing, else what was written there. */
function at(v: unknown): unknown {
  if (!v || typeof v !== 'object' || v instanceof VariantValue) return undefined;
  const a = (v as { a?: unknown }).a;
  if (!a || typeof a !== 'object' || a instanceof VariantValue) return undefined;
  return Object.hasOwn(a, 'b') ? (a as { b: unknown }).b : undefined;
}

/** The integer at the path, when it compares with the int64 column; undefined otherwise. */
function int(x: unknown): number | undefined {
  if (typeof x === 'number' && Number.isSafeInteger(x)) return x;
  if (x instanceof VariantValue && (x.type === 'int8' || x.type === 'int16' || x.type === 'int32')) return x.value as number;
  return undefined;
}

function evalFilter(f: Filter, v: unknown): Tri {
  if ('and' in f) {
    const r = f.and.map((p) => evalFilter(p, v));
    return r.includes(false) ? false : r.includes(undefined) ? undefined : true;
  }
  if ('or' in f) {
    const r = f.or.map((p) => evalFilter(p, v));
    return r.includes(true) ? true : r.includes(undefined) ? undefined : false;
  }
  if ('not' in f) {
    const r = evalFilter(f.not, v);
    return r === undefined ? undefined : !r;
  }
  const x = at(v);
  if (f.op === 'is null') return x === undefined;
  if (f.op === 'is not null') return x !== undefined;
  const n = int(x);
  if (n === undefined) return undefined;
  switch (f.op) {
    case '=': return n === f.value;
    case '!=': return n !== f.value;
    case '<': return n < (f.value as number);
    case '<=': return n <= (f.value as number);
    case '>': return n > (f.value as number);
    case '>=': return n >= (f.value as number);
    case 'in': return f.values.includes(n);
    case 'not in': return !f.values.includes(n);
  }
}

const col = 'payload.a.b';
const FILTERS: Filter[] = [
  { column: col, op: '>', value: 500 },
  { column: col, op: '<=', value: 10 },
  { column: col, op: '=', value: 7 },
  { column: col, op: '!=', value: 8 },
  { column: col, op: 'in', values: [1, 7, 30, 31] },
  { column: col, op: 'not in', values: [1, 2] },
  { column: col, op: 'is null' },
  { column: col, op: 'is not null' },
  { not: { column: col, op: '>', value: 100 } },
  { or: [{ column: col, op: '<', value: 3 }, { column: 'id', op: '=', value: 200 }] },
];

test('filters on a shredded variant path give exactly the rows an independent evaluation gives', async () => {
  const n = 600;
  const bytes = await file(n, 64);
  const reader = await ParquetReader.open(bytes);
  for (const f of FILTERS) {
    const got = (await reader.readRows({ filter: f, columns: ['id'] })).map((r) => r.id);
    const want = Array.from({ length: n }, (_, i) => i).filter((i) => (f === FILTERS[9] && i === 200) || evalFilter(f, payload(i)) === true);
    assert.deepEqual(got, want, JSON.stringify(f));
  }
});

test('the typed column prunes; a row group with the value in the residual column is still read', async () => {
  const n = 30_000;
  // Values outside the typed column only in the first row group: the others hold a null residual column.
  const sparse = (i: number) => (i < 2000 ? payload(i) : { a: { b: i }, s: `row ${i}` });
  const bytes = await file(n, 2000, sparse);
  const full = new CountingSource(bytes);
  await (await ParquetReader.open(full)).readRows({ filter: { column: col, op: '>=', value: 0 }, columns: ['id'] });
  const counting = new CountingSource(bytes);
  const reader = await ParquetReader.open(counting);
  const f: Filter = { column: col, op: '>=', value: 29_900 };
  const rows = await reader.readRows({ filter: f, columns: ['id'] });
  assert.deepEqual(rows.map((r) => r.id), Array.from({ length: n }, (_, i) => i).filter((i) => evalFilter(f, sparse(i))));
  assert.ok(counting.bytes < full.bytes / 4, `read ${counting.bytes} bytes for a selective filter, ${full.bytes} for a filter every row passes`);
  // An int16 typed value (in the residual column) of the first row group matches: that group is read.
  const small = await reader.readRows({ filter: { column: col, op: '=', value: 7 }, columns: ['id'] });
  assert.deepEqual(small.map((r) => r.id), [7]);
});

test('a path that is not shredded is refused', async () => {
  const reader = await ParquetReader.open(await file(10, 10));
  await assert.rejects(reader.readRows({ filter: { column: 'payload.a.zz', op: '=', value: 1 } }), InvalidArgumentError);
  await assert.rejects(reader.readRows({ filter: { column: 'payload.a', op: '=', value: 1 } }), InvalidArgumentError);
});
