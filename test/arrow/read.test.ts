/**
 * Parquet to Arrow, checked against arrow-rs (parquet-wasm) on every corpus
 * file both read, on the shredded-variant files and on a DuckDB file of every
 * type: the same Arrow types (a Dictionary counts as its value type) and the
 * same values, row by row. Then what only we do: dictionaries kept, a
 * fallback chunk, projection, row groups, offset/limit and filters, which
 * must select exactly the rows `rows()` gives.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as wasm from 'parquet-wasm';
import { tableFromIPC, Type, type Table } from 'apache-arrow';
import { BufferSink, defineSchema, field, openParquet, ParquetWriter, writeParquet } from '../../src/node/index.js';
import { CORPUS, DATA, collect, show } from '../reader/helpers.js';
import { arrowOf, assertSameTable, norm, everyTypeFixture } from './compare.js';

function arrowRs(file: string): Table {
  return arrowRsBytes(readFileSync(file));
}

function arrowRsBytes(bytes: Uint8Array): Table {
  return tableFromIPC(wasm.readParquet(bytes).intoIPCStream());
}

/** Files arrow-rs cannot read (it fails on them), and one where it reads no rows of a valid file. */
const ARROW_RS_FAILS = new Set(['dict-page-offset-zero.parquet', 'large_string_map.brotli.parquet', 'nation.dict-malformed.parquet', 'repeated_no_annotation.parquet']);

test('every corpus file reads to the Arrow types and values arrow-rs gives', async () => {
  let compared = 0;
  for (const name of readdirSync(DATA).filter((n) => n.endsWith('.parquet')).sort()) {
    if (ARROW_RS_FAILS.has(name)) continue;
    assertSameTable(await arrowOf(join(DATA, name)), arrowRs(join(DATA, name)), name);
    compared++;
  }
  assert.ok(compared >= 55, `only ${compared} files compared`);
});

test('the geospatial files, and the bad_data files arrow-rs reads, read to what arrow-rs gives', async () => {
  let compared = 0;
  for (const dir of [join(DATA, 'geospatial'), join(CORPUS, 'parquet-testing', 'bad_data')]) {
    for (const name of readdirSync(dir).filter((n) => n.endsWith('.parquet')).sort()) {
      let theirs: Table;
      try {
        theirs = arrowRs(join(dir, name));
      } catch {
        continue; // arrow-rs refuses it: nothing to compare with
      }
      assertSameTable(await arrowOf(join(dir, name)), theirs, name);
      compared++;
    }
  }
  assert.ok(compared >= 11, `only ${compared} files compared`);
});

test('shredded VARIANT files read as the struct arrow-rs gives', async () => {
  const dir = join(CORPUS, 'parquet-testing', 'shredded_variant');
  const files = readdirSync(dir).filter((n) => n.endsWith('.parquet')).sort();
  assert.ok(files.length > 100);
  for (const name of files) assertSameTable(await arrowOf(join(dir, name)), arrowRs(join(dir, name)), name);
});

const fixture = everyTypeFixture();

test('a DuckDB file of every type reads to what arrow-rs gives', async () => {
  assertSameTable(await arrowOf(fixture.file), arrowRs(fixture.file), 'every-type');
});

test('INTERVAL keeps months, days and milliseconds (MonthDayNano)', async () => {
  const table = await arrowOf(fixture.file, { columns: ['iv'] });
  const rows = await collect(await openParquet(fixture.file), { columns: ['iv'] });
  for (let i = 0; i < table.numRows; i++) {
    const [months, days, lo, hi] = table.getChild('iv')!.get(i) as Int32Array;
    const want = rows[i]!.iv as { months: number; days: number; millis: number };
    assert.deepEqual([months, days], [want.months, want.days], `row ${i}`);
    assert.equal(BigInt(hi!) * 2n ** 32n + BigInt(lo! >>> 0), BigInt(want.millis) * 1_000_000n, `row ${i}`);
  }
  assert.ok(rows.some((r) => (r.iv as { months: number }).months > 0), 'some interval has months');
});

test('dictionary chunks become Dictionary vectors, and a chunk that fell back to plain joins them', async () => {
  const file = join(fixture.duck.dir, 'fallback.parquet');
  // The first pages repeat five strings (dictionary-encoded); then unique strings outgrow the
  // dictionary page limit and the rest of the chunk is written plain. Row group 1 is plain throughout.
  const rows = Array.from({ length: 6000 }, (_, i) => ({ s: i < 2000 ? `v${i % 5}` : `unique-${i}`, n: i % 3 === 0 ? null : `n${i % 4}` }));
  await writeParquet(file, rows, { rowGroupRows: 4000, pageRowLimit: 500, dictionaryPageSize: 4096 });
  const written = await openParquet(file);
  const encodings = written.file.metadata.rowGroups.map((rg) => rg.columns[0]!.metaData!.encodingStats?.map((e) => `${e.pageType}:${e.encoding}`).sort().join(' '));
  await written.close();
  assert.match(encodings[0]!, /DATA_PAGE:PLAIN /, 'row group 0 falls back to plain pages');
  assert.match(encodings[0]!, /DATA_PAGE:RLE_DICTIONARY/, 'row group 0 starts dictionary-encoded');
  const reader = await openParquet(file);
  const first = await reader.toArrow({ rowGroups: [0] });
  assert.equal(first.schema.fields[0]!.type.typeId, Type.Dictionary);
  for (let i = 0; i < 4000; i++) assert.equal(first.getChild('s')!.get(i), rows[i]!.s, `s[${i}]`);
  // Over both row groups the column is not dictionary-encoded throughout: plain, as documented.
  const table = await reader.toArrow();
  assert.equal(table.schema.fields[0]!.type.typeId, Type.Utf8);
  const s = table.getChild('s')!;
  for (let i = 0; i < rows.length; i++) assert.equal(s.get(i), rows[i]!.s, `s[${i}]`);
  const n = table.getChild('n')!;
  for (let i = 0; i < rows.length; i++) assert.equal(n.get(i), rows[i]!.n, `n[${i}]`);
  const plain = await reader.toArrow({ dictionary: false });
  assert.equal(plain.schema.fields[0]!.type.typeId, Type.Utf8);
  for (let i = 0; i < rows.length; i++) assert.equal(plain.getChild('s')!.get(i), rows[i]!.s);
  await reader.close();
});

test('booleans, required and optional, from PLAIN and RLE pages of lengths that are not a multiple of 8', async () => {
  for (const pageVersion of [1, 2] as const) {
    const n = 1003;
    const flags = Array.from({ length: n }, (_, i) => ({ req: (i * 7919) % 3 === 0, opt: i % 5 === 0 ? null : (i * 104729) % 7 < 3 }));
    const sink = new BufferSink();
    const w = await ParquetWriter.open(sink, defineSchema({ req: field.boolean().required(), opt: field.boolean() }), { pageVersion, pageRowLimit: 333 });
    await w.writeMany(flags);
    await w.close();
    const table = await (await openParquet(sink.bytes())).toArrow();
    assert.deepEqual(table.getChild('req')!.toArray().slice(0, n), flags.map((f) => f.req), `v${pageVersion} required`);
    assert.deepEqual([...table.getChild('opt')!].slice(0, n), flags.map((f) => f.opt), `v${pageVersion} optional`);
    assert.deepEqual(table.getChild('opt')!.toArray().slice(0, n), flags.map((f) => f.opt), `v${pageVersion} optional`);
    assertSameTable(table, arrowRsBytes(sink.bytes()), `booleans v${pageVersion}`);
  }
});

test('a filter keeping values that are not neighbours in a plain string chunk: each value its own bytes', async () => {
  const sink = new BufferSink();
  const w = await ParquetWriter.open(sink, defineSchema({ n: field.int32().required(), s: field.string() }), { dictionary: false });
  await w.writeMany(Array.from({ length: 50 }, (_, n) => ({ n, s: n % 7 === 0 ? null : `value ${n}` })));
  await w.close();
  const reader = await openParquet(sink.bytes());
  const filter = { column: 'n', op: 'in' as const, values: [1, 3, 4, 5, 14, 20, 21, 40, 49] };
  const table = await reader.toArrow({ filter });
  assert.deepEqual([...table.getChild('s')!], (await reader.readRows({ filter })).map((r) => r.s));
});

test('projection, row groups, offset/limit and filters select exactly the rows rows() gives', async () => {
  const reader = await openParquet(fixture.file);
  const cases = [
    { columns: ['l', 'st.c', 'm'] },
    { rowGroups: [2, 0] },
    { rowGroups: [1], offset: 2000, limit: 100 },
    { offset: 2000, limit: 120 },
    { offset: 99, limit: 2, columns: ['ll'] },
    { filter: { column: 'i', op: '>=', value: 4090n }, columns: ['i', 'l', 'm'] },
    { filter: { column: 's', op: '=', value: 'v1' }, offset: 3, limit: 40 },
    { filter: { column: 'i', op: '<', value: 0n } },
  ];
  for (const options of cases) {
    const table = await reader.toArrow(options as never);
    const expected = await collect(reader, options as never);
    assert.equal(table.numRows, expected.length, show(options));
    const names = table.schema.fields.map((f) => f.name);
    assert.deepEqual(names, Object.keys(expected[0] ?? Object.fromEntries(names.map((n) => [n, 0]))), show(options));
    for (let i = 0; i < expected.length; i++) {
      for (const name of names) {
        const got = table.getChild(name)!.get(i);
        const want = expected[i]![name];
        if (name === 'i') assert.equal(got, want, `${show(options)} row ${i}`);
        if (name === 's') assert.equal(got, want, `${show(options)} row ${i}`);
        if (name === 'l' || name === 'll') assert.equal(show(norm(got)), show(norm(want)), `${show(options)} row ${i} ${name}`);
      }
    }
  }
  let batches = 0;
  const sizes = reader.file.metadata.rowGroups.map((rg) => rg.numRows);
  assert.ok(sizes.length >= 3, `${sizes.length} row groups`);
  for await (const b of reader.arrowBatches({ offset: 50 })) {
    assert.equal(b.numRows, sizes[batches]! - (batches === 0 ? 50 : 0));
    batches++;
  }
  assert.equal(batches, sizes.length);
  await reader.close();
});

test('a list whose element is a list or a map names it as the file does (pyarrow writes "item"), as arrow-rs', async () => {
  const sink = new BufferSink();
  const elements = [
    { name: 'schema', numChildren: 2 },
    { name: 'll', repetitionType: 'OPTIONAL', convertedType: 'LIST', numChildren: 1 },
    { name: 'list', repetitionType: 'REPEATED', numChildren: 1 },
    { name: 'item', repetitionType: 'OPTIONAL', convertedType: 'LIST', numChildren: 1 },
    { name: 'list', repetitionType: 'REPEATED', numChildren: 1 },
    { name: 'item', repetitionType: 'OPTIONAL', type: 'INT32' },
    { name: 'lm', repetitionType: 'OPTIONAL', convertedType: 'LIST', numChildren: 1 },
    { name: 'list', repetitionType: 'REPEATED', numChildren: 1 },
    { name: 'entry', repetitionType: 'OPTIONAL', convertedType: 'MAP', numChildren: 1 },
    { name: 'key_value', repetitionType: 'REPEATED', numChildren: 2 },
    { name: 'key', repetitionType: 'REQUIRED', type: 'BYTE_ARRAY', convertedType: 'UTF8' },
    { name: 'value', repetitionType: 'OPTIONAL', type: 'INT32' },
  ];
  const w = await ParquetWriter.open(sink, elements as never);
  await w.writeMany([{ ll: [[1, null], null, []], lm: [[{ key: 'a', value: 1 }], null] }, { ll: null, lm: [] }]);
  await w.close();
  const table = await (await openParquet(sink.bytes())).toArrow();
  assertSameTable(table, arrowRsBytes(sink.bytes()), 'nested names');
  assert.equal(String(table.schema.fields[0]!.type.children[0]!.name), 'item');
});

test('ENUM reads as Binary, and a DECIMAL of more than 16 fixed bytes as 256-bit at any precision, as arrow-rs', async () => {
  const sink = new BufferSink();
  const decimal = { convertedType: 'DECIMAL', precision: 10, scale: 2, logicalType: { type: 'DECIMAL', precision: 10, scale: 2 } };
  const elements = [
    { name: 'schema', numChildren: 4 },
    { name: 'e', repetitionType: 'OPTIONAL', type: 'BYTE_ARRAY', convertedType: 'ENUM', logicalType: { type: 'ENUM' } },
    { name: 'legacy', repetitionType: 'OPTIONAL', type: 'BYTE_ARRAY', convertedType: 'ENUM' },
    { name: 'd17', repetitionType: 'OPTIONAL', type: 'FIXED_LEN_BYTE_ARRAY', typeLength: 17, ...decimal },
    { name: 'd16', repetitionType: 'OPTIONAL', type: 'FIXED_LEN_BYTE_ARRAY', typeLength: 16, ...decimal },
  ];
  const w = await ParquetWriter.open(sink, elements as never);
  await w.writeMany([{ e: 'x', legacy: 'y', d17: '-12.34', d16: '5.67' }, {}]);
  await w.close();
  const table = await (await openParquet(sink.bytes())).toArrow({ dictionary: false });
  assertSameTable(table, arrowRsBytes(sink.bytes()), 'enum and wide decimal');
  assert.deepEqual(table.schema.fields.map((f) => [f.type.typeId, (f.type as { bitWidth?: number }).bitWidth]), [[Type.Binary, undefined], [Type.Binary, undefined], [Type.Decimal, 256], [Type.Decimal, 128]]);
});
