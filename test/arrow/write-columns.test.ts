/**
 * Arrow to Parquet column by column: generated tables of many types, with
 * nulls at every level, several batches and slices, are written by
 * writeParquet and must read back equal to the table that went in, by
 * parquetry, by arrow-rs (parquet-wasm) and by DuckDB (which compares our
 * file with the one parquet-wasm writes from the same table). A bad value
 * mid-table keeps the rows before it and names its row, as row-by-row
 * writing does.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as wasm from 'parquet-wasm';
import * as arrow from 'apache-arrow';
import { InvalidArgumentError, openParquet, openWriter, writeParquet } from '../../src/node/index.js';
import { show } from '../reader/helpers.js';
import { arrowOf, everyTypeFixture, norm } from './compare.js';
import { rng } from '../writer/gen.js';

const fixture = everyTypeFixture();

const field = (name: string, type: arrow.DataType, nullable = true) => new arrow.Field(name, type, nullable);

/** Columns of many types; `nulls` is the share of nulls at each nullable level. */
function table(rows: number, seed: number, nulls: number): arrow.Table {
  const r = rng(seed);
  const maybe = <T>(v: () => T): T | null => (r() < nulls ? null : v());
  const int = (lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
  const col = <T>(make: () => T) => Array.from({ length: rows }, make);
  const word = () => ['a', 'bb', 'ccc', 'é', 'zz€', ''][int(0, 5)]! + (r() < 0.5 ? String(int(0, 40)) : '');
  const point = new arrow.Struct([field('x', new arrow.Int32()), field('tags', new arrow.List(field('item', new arrow.Utf8())))]);
  const kv = new arrow.Map_(new arrow.Field('entries', new arrow.Struct<any>([field('key', new arrow.Utf8(), false), field('value', new arrow.Float64())]), false));
  const columns: Record<string, arrow.Vector> = {
    i8: arrow.vectorFromArray(col(() => maybe(() => int(-128, 127))), new arrow.Int8()),
    u8: arrow.vectorFromArray(col(() => maybe(() => int(0, 255))), new arrow.Uint8()),
    i16: arrow.vectorFromArray(col(() => maybe(() => int(-32768, 32767))), new arrow.Int16()),
    u16: arrow.vectorFromArray(col(() => maybe(() => int(0, 65535))), new arrow.Uint16()),
    i32: arrow.vectorFromArray(col(() => maybe(() => int(-2e9, 2e9))), new arrow.Int32()),
    i32req: arrow.makeVector(Int32Array.from(col(() => int(-5, 5)))),
    u32: arrow.vectorFromArray(col(() => maybe(() => int(0, 4294967295))), new arrow.Uint32()),
    i64: arrow.vectorFromArray(col(() => maybe(() => BigInt(int(-1e9, 1e9)) * 9_000_000_000n)), new arrow.Int64()),
    u64: arrow.vectorFromArray(col(() => maybe(() => BigInt(int(0, 1e9)) * 18_000_000_000n)), new arrow.Uint64()),
    f32: arrow.vectorFromArray(col(() => maybe(() => [0, -0, 1.5, NaN, Infinity, r() * 100][int(0, 5)]!)), new arrow.Float32()),
    f64: arrow.vectorFromArray(col(() => maybe(() => (r() < 0.1 ? -0 : r() * 1e6 - 5e5))), new arrow.Float64()),
    dec: arrow.makeVector(arrow.makeData({ type: new arrow.Decimal(2, 12, 128), length: rows, nullCount: 0, data: Uint32Array.from({ length: rows * 4 }, (_, i) => (i % 4 === 0 ? int(0, 1e9) : 0)) })),
    d32: arrow.vectorFromArray(col(() => maybe(() => new Date(Date.UTC(1960 + int(0, 100), int(0, 11), int(1, 28))))), new arrow.DateDay()),
    d64: arrow.vectorFromArray(col(() => maybe(() => new Date(Date.UTC(2000, 0, int(1, 9000))))), new arrow.DateMillisecond()),
    tss: arrow.vectorFromArray(col(() => maybe(() => int(0, 2e9) * 1000)), new arrow.TimestampSecond('UTC')),
    tsms: arrow.vectorFromArray(col(() => maybe(() => int(0, 2e9) * 1000 + int(0, 999))), new arrow.TimestampMillisecond()),
    tsus: arrow.vectorFromArray(col(() => maybe(() => int(0, 2e9) * 1000)), new arrow.TimestampMicrosecond('Europe/Paris')),
    tsns: arrow.vectorFromArray(col(() => maybe(() => int(0, 2e9) * 1000)), new arrow.TimestampNanosecond('UTC')),
    t32: arrow.vectorFromArray(col(() => maybe(() => int(0, 86_399_999))), new arrow.TimeMillisecond()),
    t64: arrow.vectorFromArray(col(() => maybe(() => BigInt(int(0, 86_399_999)) * 1000n)), new arrow.TimeMicrosecond()),
    s: arrow.vectorFromArray(col(() => maybe(word)), new arrow.Utf8()),
    sreq: arrow.makeVector(arrow.vectorFromArray(col(word), new arrow.Utf8()).data[0]!),
    ls: arrow.vectorFromArray(col(() => maybe(word)), new arrow.LargeUtf8()),
    bin: arrow.vectorFromArray(col(() => maybe(() => Uint8Array.from({ length: int(0, 20) }, () => int(0, 255)))), new arrow.Binary()),
    fixed: arrow.vectorFromArray(col(() => maybe(() => Uint8Array.from({ length: 3 }, () => int(0, 255)))), new arrow.FixedSizeBinary(3)),
    dict: arrow.vectorFromArray(col(() => maybe(word)), new arrow.Dictionary(new arrow.Utf8(), new arrow.Int16())),
    dictInt: arrow.vectorFromArray(col(() => maybe(() => int(0, 30) * 1000)), new arrow.Dictionary(new arrow.Int32(), new arrow.Int32())),
    flag: arrow.vectorFromArray(col(() => maybe(() => r() < 0.5)), new arrow.Bool()),
    none: arrow.vectorFromArray(col(() => null), new arrow.Null()),
    li: arrow.vectorFromArray(col(() => maybe(() => Array.from({ length: int(0, 4) }, () => maybe(() => int(-9, 9))))), new arrow.List(field('item', new arrow.Int32()))),
    lls: arrow.vectorFromArray(col(() => maybe(() => Array.from({ length: int(0, 3) }, () => maybe(() => Array.from({ length: int(0, 3) }, () => maybe(word)))))), new arrow.List(field('item', new arrow.List(field('item', new arrow.Utf8()))))),
    pts: arrow.vectorFromArray(col(() => maybe(() => Array.from({ length: int(0, 3) }, () => maybe(() => ({ x: maybe(() => int(0, 99)), tags: maybe(() => Array.from({ length: int(0, 2) }, () => maybe(word))) }))))), new arrow.List(field('item', point))),
    st: arrow.vectorFromArray(col(() => maybe(() => ({ x: maybe(() => int(0, 99)), tags: maybe(() => [word()]) }))), point),
    m: arrow.vectorFromArray(col(() => maybe(() => new Map(Array.from({ length: int(0, 3) }, (_, k) => [`k${k}${word()}`, maybe(() => r())])))), kv),
  };
  return new arrow.Table(columns);
}

/**
 * What `t` reads back as: its seconds column `name` as the milliseconds it
 * is written as, and a Null column nullable (Arrow JS marks a Null vector's
 * field not nullable, though it holds nulls only).
 */
function asMilliseconds(t: arrow.Table, name: string): arrow.Table {
  const type = new arrow.TimestampMillisecond('UTC');
  const schema = new arrow.Schema(t.schema.fields.map((f) => (f.name === name ? field(name, type, f.nullable) : f.type.typeId === arrow.Type.Null ? field(f.name, f.type) : f)));
  const k = t.schema.fields.findIndex((f) => f.name === name);
  return new arrow.Table(t.batches.map((b) => {
    const children = [...b.data.children];
    const s = children[k]!;
    children[k] = arrow.makeData({ type, length: s.length, nullCount: s.nullCount, nullBitmap: s.nullBitmap, offset: s.offset, data: (s.values as BigInt64Array).map((v) => v * 1000n) });
    return new arrow.RecordBatch(schema, arrow.makeData({ type: new arrow.Struct(schema.fields), length: b.numRows, nullCount: 0, children }));
  }));
}

/** Same rows, field by field (names in order, then every value); the Arrow types a reader picks (List field names, Large or not) aside. */
function assertSameValues(ours: arrow.Table, theirs: arrow.Table, label: string): void {
  assert.equal(ours.numRows, theirs.numRows, `${label}: rows`);
  assert.deepEqual(ours.schema.fields.map((f) => f.name), theirs.schema.fields.map((f) => f.name), `${label}: fields`);
  for (const f of theirs.schema.fields) {
    const a = ours.getChild(f.name)!;
    const b = theirs.getChild(f.name)!;
    for (let i = 0; i < b.length; i++) {
      const x = show(norm(a.get(i)));
      const y = show(norm(b.get(i)));
      if (x !== y) assert.fail(`${label}: ${f.name}[${i}] is ${x}, written ${y}`);
    }
  }
}

/** The table written by parquet-wasm (arrow-rs), for DuckDB to compare ours with; less its Null column, whose IPC form arrow-rs refuses. */
function wasmFile(t: arrow.Table, path: string): string {
  const names = t.schema.fields.filter((f) => f.type.typeId !== arrow.Type.Null).map((f) => f.name);
  writeFileSync(path, wasm.writeParquet(wasm.Table.fromIPCStream(arrow.tableToIPC(t.select(names), 'stream'))));
  return path;
}

async function duckSame(ours: string, theirs: string, label: string): Promise<void> {
  const mine = `SELECT * EXCLUDE (none) FROM '${ours}'`;
  // arrow-rs writes Date64 as plain INT64 milliseconds, parquetry as a DATE.
  const rs = `SELECT * REPLACE (epoch_ms(d64)::DATE AS d64, to_timestamp(tss) AS tss) FROM '${theirs}'`;
  for (const [a, b] of [[mine, rs], [rs, mine]]) {
    const r = await fixture.duck.duck.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM (${a} EXCEPT ALL ${b})`);
    assert.equal(r.getRowObjects()[0]!.n, 0, `${label}: DuckDB finds rows of ${a} missing from ${b}`);
  }
}

for (const [rows, seed, nulls, batches] of [[3000, 1, 0.2, 3], [5000, 2, 0, 1], [700, 3, 0.7, 2]] as const) {
  test(`${rows} rows, seed ${seed}, ${nulls * 100}% nulls per level, ${batches} batch(es), sliced: parquetry, arrow-rs and DuckDB read back the table`, async () => {
    const whole = table(rows + 20, seed, nulls).slice(7, rows + 7);
    // Batches of their own (a Table of several), each a slice of the one before.
    const step = Math.ceil(rows / batches);
    const t = new arrow.Table(Array.from({ length: batches }, (_, b) => whole.slice(b * step, Math.min(rows, (b + 1) * step))).flatMap((x) => x.batches));
    assert.equal(t.numRows, rows);
    const out = join(fixture.duck.dir, `cols-${seed}.parquet`);
    // Small pages and row groups, so slices are cut short by page and row-group limits.
    await writeParquet(out, t, { rowGroupRows: 1100, pageSize: 4096 });
    // Parquet has no seconds: they are written (and read back) as milliseconds.
    const expected = asMilliseconds(t, 'tss');
    assertSameValues(await arrowOf(out), expected, 'parquetry');
    assertSameValues(arrow.tableFromIPC(wasm.readParquet(readFileSync(out)).intoIPCStream()), expected, 'arrow-rs');
    await duckSame(out, wasmFile(t, join(fixture.duck.dir, `cols-${seed}-rs.parquet`)), 'DuckDB');
    const plain = join(fixture.duck.dir, `cols-${seed}-plain.parquet`);
    await writeParquet(plain, t, { dictionary: false, pageVersion: 2 });
    assertSameValues(await arrowOf(plain), expected, 'parquetry, plain, v2 pages');
  });
}

test('a bad value mid-table keeps the rows before it and names its row, as row-by-row writing does', async () => {
  const n = 10_000;
  const bad = 6_789;
  const values = Array.from({ length: n }, (_, i) => (i === bad ? null : i));
  const t = new arrow.Table({ a: arrow.vectorFromArray(values, new arrow.Int32()), s: arrow.vectorFromArray(values.map((v) => `x${v}`), new arrow.Utf8()) });
  const out = join(fixture.duck.dir, 'bad.parquet');
  const w = await openWriter(out, [{ name: 'root', numChildren: 2 }, { name: 'a', type: 'INT32', repetitionType: 'REQUIRED' }, { name: 's', type: 'BYTE_ARRAY', convertedType: 'UTF8', repetitionType: 'REQUIRED' }] as never);
  await assert.rejects(w.writeArrow(t), (e: unknown) => e instanceof InvalidArgumentError && e.message.includes(`record ${bad}`) && /field a: a null in a required field/.test(e.message));
  await w.close();
  const rows = await (await openParquet(out)).readRows();
  assert.equal(rows.length, bad);
  assert.deepEqual(rows.at(-1), { a: bad - 1, s: `x${bad - 1}` });
  // A value out of the column's range (a uint32 past INT32's) is refused the same way.
  const w2 = await openWriter(join(fixture.duck.dir, 'bad2.parquet'), [{ name: 'root', numChildren: 1 }, { name: 'a', type: 'INT32', repetitionType: 'OPTIONAL' }] as never);
  const u = new arrow.Table({ a: arrow.vectorFromArray(Array.from({ length: n }, (_, i) => (i === bad ? 2 ** 31 : i)), new arrow.Uint32()) });
  await assert.rejects(w2.writeArrow(u), (e: unknown) => e instanceof InvalidArgumentError && e.message.includes(`record ${bad}`));
  await w2.abort();
  // A dictionary index outside the dictionary (negative, or past its end) names its row, never writes another entry.
  for (const key of [-1, 3]) {
    const keys = Int8Array.from({ length: n }, (_, i) => (i === bad ? key : i % 3));
    const dict = arrow.makeVector(arrow.makeData({ type: new arrow.Dictionary(new arrow.Utf8(), new arrow.Int8()), length: n, nullCount: 0, data: keys, dictionary: arrow.vectorFromArray(['a', 'b', 'c'], new arrow.Utf8()) }));
    const w3 = await openWriter(join(fixture.duck.dir, 'bad3.parquet'), [{ name: 'root', numChildren: 1 }, { name: 'd', type: 'BYTE_ARRAY', convertedType: 'UTF8', repetitionType: 'OPTIONAL' }] as never);
    await assert.rejects(w3.writeArrow(new arrow.Table({ d: dict })), (e: unknown) => e instanceof InvalidArgumentError && e.message.includes(`record ${bad}`) && e.message.includes(`dictionary index ${key}`));
    await w3.abort();
  }
});
