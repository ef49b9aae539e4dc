/**
 * Parquet to Arrow, checked against arrow-rs (parquet-wasm) on every corpus
 * file both read, on the shredded-variant files and on a DuckDB file of every
 * type: the same Arrow types (a Dictionary counts as its value type) and the
 * same values, row by row. Then what only we do: dictionaries kept, a
 * fallback chunk, projection, row groups, offset/limit and filters, which
 * must select exactly the rows `rows()` gives.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as wasm from 'parquet-wasm';
import { tableFromIPC, Type, type DataType, type Table } from 'apache-arrow';
import { openParquet, writeParquet } from '../../src/node/index.js';
import { CORPUS, DATA, DuckFiles, collect, show } from '../reader/helpers.js';

/** Arrow values as plain JSON-able data, the same whichever side built them. */
function norm(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'number' && Number.isNaN(v)) return 'NaN';
  if (v instanceof Uint8Array) return `0x${Buffer.from(v).toString('hex')}`;
  if (ArrayBuffer.isView(v)) return Array.from(v as unknown as ArrayLike<unknown>, norm);
  if (v instanceof Map) return [...v].map(([k, x]) => [norm(k), norm(x)]);
  const o = v as { toJSON?: () => unknown; [Symbol.iterator]?: unknown; type?: unknown };
  if (typeof o === 'object' && o.type !== undefined && typeof o[Symbol.iterator] === 'function') return [...(o as Iterable<unknown>)].map(norm);
  if (typeof o === 'object' && typeof o.toJSON === 'function') return norm(o.toJSON());
  if (Array.isArray(v)) return v.map(norm);
  if (typeof v === 'object') return Object.fromEntries(Object.entries(v as object).map(([k, x]) => [k, norm(x)]));
  return v;
}

/** A type's text with every Dictionary replaced by its value type. */
function plainType(t: DataType): string {
  let s = String(t);
  for (let prev = ''; prev !== s; ) [prev, s] = [s, s.replace(/Dictionary<Int32, ([A-Za-z0-9]+)>/g, '$1')];
  return s;
}

function arrowRs(file: string): Table {
  return tableFromIPC(wasm.readParquet(readFileSync(file)).intoIPCStream());
}

function assertSameTable(ours: Table, theirs: Table, label: string): void {
  assert.equal(ours.numRows, theirs.numRows, `${label}: rows`);
  assert.deepEqual(ours.schema.fields.map((f) => f.name), theirs.schema.fields.map((f) => f.name), `${label}: fields`);
  for (const f of theirs.schema.fields) {
    const mine = ours.schema.fields.find((x) => x.name === f.name)!;
    const expectedType = f.type.typeId === Type.Interval ? 'Interval<MONTH_DAY_NANO>' : plainType(f.type);
    assert.equal(plainType(mine.type), expectedType, `${label}: type of ${f.name}`);
    if (f.type.typeId === Type.Interval) continue; // compared in its own test: arrow-rs drops the months
    const a = ours.getChild(f.name)!;
    const b = theirs.getChild(f.name)!;
    for (let i = 0; i < b.length; i++) {
      const x = show(norm(a.get(i)));
      const y = show(norm(b.get(i)));
      if (x !== y) assert.fail(`${label}: ${f.name}[${i}] is ${x}, arrow-rs reads ${y}`);
    }
  }
}

async function ourTable(file: string, options = {}): Promise<Table> {
  const reader = await openParquet(file, { verifyChecksums: false });
  try {
    return await reader.toArrow(options);
  } finally {
    await reader.close();
  }
}

/** Files arrow-rs cannot read (it fails on them), and one where it reads no rows of a valid file. */
const ARROW_RS_FAILS = new Set(['dict-page-offset-zero.parquet', 'large_string_map.brotli.parquet', 'nation.dict-malformed.parquet', 'repeated_no_annotation.parquet']);

test('every corpus file reads to the Arrow types and values arrow-rs gives', async () => {
  let compared = 0;
  for (const name of readdirSync(DATA).filter((n) => n.endsWith('.parquet')).sort()) {
    if (ARROW_RS_FAILS.has(name)) continue;
    assertSameTable(await ourTable(join(DATA, name)), arrowRs(join(DATA, name)), name);
    compared++;
  }
  assert.ok(compared >= 55, `only ${compared} files compared`);
});

test('shredded VARIANT files read as the struct arrow-rs gives', async () => {
  const dir = join(CORPUS, 'parquet-testing', 'shredded_variant');
  const files = readdirSync(dir).filter((n) => n.endsWith('.parquet')).sort();
  assert.ok(files.length > 100);
  for (const name of files) assertSameTable(await ourTable(join(dir, name)), arrowRs(join(dir, name)), name);
});

let duck: DuckFiles;
let everyType: string;
before(async () => {
  duck = await DuckFiles.create();
  everyType = await duck.write('every-type.parquet', `SELECT i, (i % 100)::TINYINT AS ti, (i % 200)::UTINYINT AS uti, i::SMALLINT AS si, i::USMALLINT AS us,
      i::UINTEGER AS ui, i::UBIGINT * 1000000000000 AS ub, ((i % 600) * 1.5)::DECIMAL(4,1) AS d4, (i * 1.25)::DECIMAL(18,2) AS d18,
      (i * -1.125)::DECIMAL(38,3) AS d38, TIMESTAMPTZ '2024-01-01 00:00:00+00' + to_seconds(i) AS tstz, TIMESTAMP '2024-01-01' + to_milliseconds(i) AS ts,
      TIMESTAMP_MS '2024-01-01 00:00:01' AS tsms, TIMESTAMP_NS '2024-01-01 00:00:00.123456789' AS tsns, DATE '2024-01-01' + i::INTEGER AS dt,
      TIME '12:34:56.789' AS tm, md5(i::VARCHAR)::UUID AS u, CASE WHEN i % 5 = 0 THEN NULL ELSE 'v' || (i % 3) END AS s,
      CASE WHEN i % 4 = 0 THEN NULL ELSE [i, NULL, i + 1] END AS l, CASE WHEN i % 7 = 0 THEN [] ELSE [[i], NULL, []] END AS ll,
      {'a': i, 'b': CASE WHEN i % 2 = 0 THEN NULL ELSE 's' END, 'c': [i]} AS st, CASE WHEN i % 3 = 0 THEN NULL ELSE MAP {'k' || i: [i]} END AS m,
      i::FLOAT AS f, i::DOUBLE / 3 AS dd, i % 2 = 0 AS b, ('x' || i)::BLOB AS bl, INTERVAL (i) DAY + INTERVAL (i % 13) MONTH AS iv
    FROM range(5000) t(i)`, 'ROW_GROUP_SIZE 2048');
});
after(() => duck?.close());

test('a DuckDB file of every type reads to what arrow-rs gives', async () => {
  assertSameTable(await ourTable(everyType), arrowRs(everyType), 'every-type');
});

test('INTERVAL keeps months, days and milliseconds (MonthDayNano)', async () => {
  const table = await ourTable(everyType, { columns: ['iv'] });
  const rows = await collect(await openParquet(everyType), { columns: ['iv'] });
  for (let i = 0; i < table.numRows; i++) {
    const [months, days, lo, hi] = table.getChild('iv')!.get(i) as Int32Array;
    const want = rows[i]!.iv as { months: number; days: number; millis: number };
    assert.deepEqual([months, days], [want.months, want.days], `row ${i}`);
    assert.equal(BigInt(hi!) * 2n ** 32n + BigInt(lo! >>> 0), BigInt(want.millis) * 1_000_000n, `row ${i}`);
  }
  assert.ok(rows.some((r) => (r.iv as { months: number }).months > 0), 'some interval has months');
});

test('dictionary chunks become Dictionary vectors, and a chunk that fell back to plain joins them', async () => {
  const file = join(duck.dir, 'fallback.parquet');
  // The first pages repeat five strings (dictionary-encoded); then unique strings outgrow the
  // dictionary page limit and the rest of the chunk is written plain. Row group 1 is plain throughout.
  const rows = Array.from({ length: 6000 }, (_, i) => ({ s: i < 2000 ? `v${i % 5}` : `unique-${i}`, n: i % 3 === 0 ? null : `n${i % 4}` }));
  await writeParquet(file, rows, { rowGroupRows: 4000, pageRowLimit: 500, dictionaryPageSize: 4096 });
  const written = await openParquet(file);
  const encodings = written.metadata.rowGroups.map((rg) => rg.columns[0]!.metaData!.encodingStats?.map((e) => `${e.pageType}:${e.encoding}`).sort().join(' '));
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

test('projection, row groups, offset/limit and filters select exactly the rows rows() gives', async () => {
  const reader = await openParquet(everyType);
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
  const sizes = reader.metadata.rowGroups.map((rg) => rg.numRows);
  assert.ok(sizes.length >= 3, `${sizes.length} row groups`);
  for await (const b of reader.arrowBatches({ offset: 50 })) {
    assert.equal(b.numRows, sizes[batches]! - (batches === 0 ? 50 : 0));
    batches++;
  }
  assert.equal(batches, sizes.length);
  await reader.close();
});
