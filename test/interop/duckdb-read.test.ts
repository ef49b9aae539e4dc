/**
 * Interop: Parquet files written by DuckDB read exactly.
 *
 * DuckDB (in memory) writes files covering every type it can put in Parquet,
 * nulls everywhere, nesting, several row groups, every codec it offers and
 * both PARQUET_VERSIONs. parquetry reads each file and its rows, in canonical
 * form, are compared value by value with DuckDB's own reading of the same
 * file (see duck-compare.ts for the exact comparison form).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection, type DuckDBType, type DuckDBValue } from '@duckdb/node-api';
import { CorruptFileError, openParquet } from '../../src/node/index.js';
import { canonicalRow } from '../../src/node/entries/inspect.js';
import { canonText, duckText, showDifference } from './duck-compare.js';
import { ALL_TYPES_COLUMNS, EDGE_COLUMNS, VARIANT_SQL, selectColumns } from './duckdb-tables.js';

const ROWS = 5000; // DuckDB cuts row groups at 2048 rows at the least: 3 row groups
const CODECS = ['UNCOMPRESSED', 'SNAPPY', 'GZIP', 'ZSTD', 'BROTLI', 'LZ4', 'LZ4_RAW'];
const VERSIONS = ['V1', 'V2'];

let dir = '';
let instance: DuckDBInstance;
let duck: DuckDBConnection;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'parquetry-duckdb-'));
  instance = await DuckDBInstance.create(':memory:', { threads: '2' });
  duck = await instance.connect();
  await duck.run(`SET TimeZone = 'UTC'`);
  await duck.run(`CREATE TABLE all_types AS ${selectColumns(ALL_TYPES_COLUMNS, ROWS)}`);
});

after(() => {
  duck?.closeSync();
  instance?.closeSync();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const sqlString = (s: string) => `'${s.replaceAll("'", "''")}'`;

async function write(name: string, query: string, options: string): Promise<string> {
  const path = join(dir, name);
  await duck.run(`COPY (${query}) TO ${sqlString(path)} (FORMAT PARQUET${options ? `, ${options}` : ''})`);
  return path;
}

/** Row groups in the file, as DuckDB counts them (parquet_metadata chokes on some statistics; this does not). */
async function rowGroupCount(path: string): Promise<number> {
  const r = await duck.runAndReadAll(`SELECT num_row_groups FROM parquet_file_metadata(${sqlString(path)})`);
  return Number(r.getRows()[0]![0]);
}

interface DuckTable {
  names: string[];
  types: DuckDBType[];
  rows: DuckDBValue[][];
}

async function duckRead(path: string): Promise<DuckTable> {
  const r = await duck.runAndReadAll(`SELECT * FROM read_parquet(${sqlString(path)})`);
  return { names: r.columnNames(), types: r.columnTypes(), rows: r.getRows() };
}

/**
 * Fraction digits the canonical form must print for each top-level TIME/TIMESTAMP leaf, from the
 * file's own schema as DuckDB reports it (3, 6, 9 for MILLIS, MICROS, NANOS). Value comparison alone
 * cannot see this: DuckDB reads TIMESTAMP(MILLIS) back as microseconds.
 */
async function fractionDigits(path: string): Promise<Map<string, number>> {
  const r = await duck.runAndReadAll(`SELECT name, type, num_children, converted_type, logical_type FROM parquet_schema(${sqlString(path)})`);
  const out = new Map<string, number>();
  const stack: number[] = [];
  for (const [name, type, children, converted, logical] of r.getRows() as (string | bigint | null)[][]) {
    while (stack.length && stack[stack.length - 1] === 0) stack.pop();
    const depth = stack.length;
    if (stack.length) stack[stack.length - 1]!--;
    const kids = Number(children ?? 0);
    if (kids > 0 || type === null) stack.push(kids);
    if (depth !== 1 || type === null) continue;
    const lt = String(logical ?? '');
    let digits: number | undefined;
    if (/^(Timestamp|Time)Type/.test(lt)) digits = lt.includes('MILLIS=MilliSeconds') ? 3 : lt.includes('MICROS=MicroSeconds') ? 6 : lt.includes('NANOS=NanoSeconds') ? 9 : undefined;
    else if (/^(TIMESTAMP|TIME)_MILLIS$/.test(String(converted))) digits = 3;
    else if (/^(TIMESTAMP|TIME)_MICROS$/.test(String(converted))) digits = 6;
    if (digits !== undefined) out.set(String(name), digits);
  }
  return out;
}

/** Reads `path` with parquetry and DuckDB and fails with every difference (up to a limit) named by file, row and column. */
async function compareFile(path: string, label: string): Promise<void> {
  const expected = await duckRead(path);
  const digits = await fractionDigits(path);
  const reader = await openParquet(path);
  const problems: string[] = [];
  const perColumn = new Map<string, number>();
  const note = (column: string, text: string) => {
    perColumn.set(column, (perColumn.get(column) ?? 0) + 1);
    if (problems.length < 12) problems.push(text);
  };
  try {
    assert.equal(reader.numRows, expected.rows.length, `${label}: numRows ${reader.numRows}, DuckDB reads ${expected.rows.length} rows`);
    const plan = reader.plan();
    let r = 0;
    for await (const row of reader.rows()) {
      const line = canonicalRow(plan, row);
      const parsed = JSON.parse(line) as Record<string, unknown>;
      const want = expected.rows[r];
      if (!want) {
        note('(rows)', `${label} row ${r}: parquetry has more rows than DuckDB`);
        r++;
        continue;
      }
      if (Object.keys(parsed).join('\u0000') !== expected.names.join('\u0000')) {
        note('(keys)', `${label} row ${r}: keys ${JSON.stringify(Object.keys(parsed))}, DuckDB has ${JSON.stringify(expected.names)}`);
      }
      expected.names.forEach((name, c) => {
        const type = expected.types[c]!;
        const d = duckText(type, want[c]!);
        const p = canonText(type, Object.getOwnPropertyDescriptor(parsed, name)?.value, want[c]!);
        if (d !== p) note(name, `${label} row ${r} column ${name} (DuckDB type ${type.toString()}): ${showDifference(p, d)}`);
        const unitDigits = digits.get(name);
        const text = Object.getOwnPropertyDescriptor(parsed, name)?.value;
        if (unitDigits !== undefined && typeof text === 'string') {
          const got = /\.(\d+)Z?$/.exec(text)?.[1]?.length ?? 0;
          if (got !== unitDigits) note(name, `${label} row ${r} column ${name}: ${JSON.stringify(text)} has ${got} fraction digits, its unit asks for ${unitDigits}`);
        }
      });
      r++;
    }
    if (r !== expected.rows.length) note('(rows)', `${label}: parquetry gave ${r} rows, DuckDB ${expected.rows.length}`);
  } finally {
    await reader.close();
  }
  if (problems.length) {
    const summary = [...perColumn].map(([c, n]) => `${c}: ${n}`).join(', ');
    assert.fail(`${label}: values differ from DuckDB's reading (differences per column: ${summary})\n  ${problems.join('\n  ')}`);
  }
}

test('the comparison form tells apart what must differ', async () => {
  // The oracle checked against itself: wrong canonical forms must not compare equal.
  const r = await duck.runAndReadAll(`SELECT 9007199254740993::BIGINT a, 5::BIGINT b, 1.10::DECIMAL(4,2) c, TIMESTAMP '1969-12-31 23:59:59.999999' d,
    TIMESTAMPTZ '2024-01-01 00:00:00+00' e, {'x': 1, 'y': 2} f, DATE '0044-03-15 (BC)' g, unhex('00ff') h, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::UUID i`);
  const [t, v] = [r.columnTypes(), r.getRows()[0]!];
  const same = (c: number, canon: unknown) => duckText(t[c]!, v[c]!) === canonText(t[c]!, canon, v[c]!);
  assert.ok(same(0, '9007199254740993') && !same(0, 9007199254740992) && !same(0, '9007199254740992'));
  assert.ok(same(1, 5) && !same(1, '5'), 'a safe integer must be a JSON number');
  assert.ok(same(2, '1.10') && !same(2, '1.1') && !same(2, 1.1));
  assert.ok(same(3, '1969-12-31T23:59:59.999999') && !same(3, '1969-12-31T23:59:59.999999Z') && !same(3, '1970-01-01T00:00:00.000000'));
  assert.ok(same(3, '1969-12-31T23:59:59.999999000'), 'digits beyond the unit are a separate check (fractionDigits)');
  assert.ok(same(4, '2024-01-01T00:00:00.000000Z') && !same(4, '2024-01-01T00:00:00.000000'));
  assert.ok(same(5, { x: 1, y: 2 }) && !same(5, { y: 2, x: 1 }) && !same(5, { x: 1 }));
  assert.ok(same(6, '-000043-03-15') && !same(6, '0044-03-15'));
  assert.ok(same(7, { $binary: '00ff' }) && !same(7, { $binary: '00fe' }) && !same(7, '00ff'));
  assert.ok(same(8, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11') && !same(8, 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'));
});

describe('DuckDB-written files, every type, nulls, nesting, 3 row groups', () => {
  for (const version of VERSIONS) {
    for (const codec of CODECS) {
      const name = `all_types_${codec}_${version}.parquet`;
      test(`${name} reads exactly as DuckDB reads it`, async () => {
        const path = await write(name, 'SELECT * FROM all_types ORDER BY id', `COMPRESSION ${codec}, PARQUET_VERSION ${version}, ROW_GROUP_SIZE 2048`);
        assert.equal(await rowGroupCount(path), 3, 'the file has 3 row groups');
        await compareFile(path, name);
      });
    }
  }
});

describe('DuckDB-written files, one column at a time', () => {
  // The same columns alone: a failure in one type cannot hide another.
  for (const [column] of ALL_TYPES_COLUMNS) {
    if (column === 'id') continue;
    test(`column ${column} (V2, ZSTD)`, async () => {
      const name = `col_${column}.parquet`;
      const path = await write(name, `SELECT id, "${column}" FROM all_types ORDER BY id`, 'COMPRESSION ZSTD, PARQUET_VERSION V2');
      await compareFile(path, name);
    });
  }
});

describe('DuckDB-written edge values', () => {
  for (const [column, expr] of EDGE_COLUMNS) {
    test(`edge ${column}`, async () => {
      const name = `edge_${column}.parquet`;
      const path = await write(name, `SELECT i::INTEGER AS id, ${expr} AS "${column}" FROM range(6) t(i) ORDER BY i`, '');
      await compareFile(path, name);
    });
  }
});

test('VARIANT (shredded by DuckDB) reads as DuckDB reads it', async () => {
  const path = await write('variant.parquet', VARIANT_SQL, '');
  await compareFile(path, 'variant.parquet');
});

test('GEOMETRY (GeoParquet WKB) reads as its WKB bytes', async () => {
  const path = await write('geometry.parquet', `SELECT i::INTEGER AS id, CASE WHEN i % 3 = 0 THEN NULL ELSE ('POINT(' || i || ' ' || -i || ')')::GEOMETRY END AS g FROM range(20) t(i)`, '');
  await compareFile(path, 'geometry.parquet');
});

test('a file with zero rows', async () => {
  const path = await write('empty.parquet', 'SELECT * FROM all_types WHERE false', '');
  const reader = await openParquet(path);
  try {
    assert.equal(reader.numRows, 0);
    let n = 0;
    for await (const _ of reader.rows()) n++;
    assert.equal(n, 0);
  } finally {
    await reader.close();
  }
  await compareFile(path, 'empty.parquet');
});

test('a larger file: 150000 rows in 3 row groups, dictionary and plain chunks (DuckDB 1.5 writes one data page per chunk)', async () => {
  const query = `SELECT i AS id, 'v' || (i % 1000) AS lo, md5(i::VARCHAR) AS hi, CASE WHEN i % 17 = 0 THEN NULL ELSE i * 1.5 END AS d,
    CASE WHEN i % 5 = 0 THEN NULL ELSE [i, i + 1] END AS l FROM range(150000) t(i) ORDER BY i`;
  const name = 'large.parquet';
  const path = await write(name, query, 'COMPRESSION SNAPPY, ROW_GROUP_SIZE 61440');
  assert.equal(await rowGroupCount(path), 3);
  await compareFile(path, name);
});

test('NULL fixed-size ARRAYs (DuckDB writes invalid levels for them, duckdb#24731): rows as DuckDB reads them, or a CorruptFileError', async () => {
  // DuckDB writes a NULL INTEGER[3] as three level entries (def 0, rep 0,1,1) where
  // Dremel has one; DuckDB reads its own file back, pyarrow refuses it. Either
  // reading is defensible; anything but exact rows or a typed error is not.
  const path = await write('null_array.parquet', `SELECT i::INTEGER AS id, (CASE WHEN i % 3 = 0 THEN NULL ELSE [i, NULL, -i] END)::INTEGER[3] AS a FROM range(9) t(i)`, '');
  try {
    await compareFile(path, 'null_array.parquet');
  } catch (e) {
    assert.ok(e instanceof CorruptFileError, `neither DuckDB's rows nor a CorruptFileError: ${(e as Error)?.stack}`);
    assert.match(e.message, /repetition level/);
  }
});

test('columns named "", "a.b", "with space", and struct fields constructor/toString read as DuckDB reads them', async () => {
  const path = await write('names.parquet', `SELECT i::INTEGER AS "a.b", 'x' || i AS "with space", {'constructor': 'c' || i, 'toString': i % 2 = 0, 'hasOwnProperty': i} AS "s",
    union_value(n := i::INTEGER)::UNION(n INTEGER) AS u FROM range(10) t(i)`, '');
  await compareFile(path, 'names.parquet');
});

test('a struct field named __proto__ is an own property and pollutes nothing', async () => {
  // Compared by hand: @duckdb/node-api itself builds struct values with plain assignment, so it cannot hold such a field.
  const path = await write('proto.parquet', `SELECT i::INTEGER AS id, {'__proto__': i::INTEGER, 'b': 'x'} AS s FROM range(5) t(i)`, '');
  const reader = await openParquet(path);
  try {
    let r = 0;
    for await (const row of reader.rows()) {
      const s = Object.getOwnPropertyDescriptor(row, 's')?.value as Record<string, unknown>;
      assert.ok(Object.hasOwn(s, '__proto__'), 'a struct field __proto__ is an own property');
      assert.equal(Object.getOwnPropertyDescriptor(s, '__proto__')?.value, r);
      assert.equal(Object.getPrototypeOf(s), Object.getPrototypeOf({}), 'the struct object keeps a plain prototype');
      assert.equal(canonicalRow(reader.plan(), row), `{"id":${r},"s":{"__proto__":${r},"b":"x"}}`);
      r++;
    }
    assert.equal(r, 5);
    assert.equal(({} as Record<string, unknown>).b, undefined, 'Object.prototype untouched');
  } finally {
    await reader.close();
  }
});

describe('reader.columns() on a flat DuckDB file', () => {
  test('gives, per row group and leaf, the values the rows hold', async () => {
    const path = await write('flat.parquet', `SELECT i::INTEGER AS id, CASE WHEN i % 3 = 0 THEN NULL ELSE i * 10 END::BIGINT AS n,
      CASE WHEN i % 4 = 0 THEN NULL ELSE 's' || (i % 7) END AS s, (i % 5 = 0) AS b, i / 8 AS d, (i % 250)::UTINYINT AS u
      FROM range(5000) t(i) ORDER BY i`, 'ROW_GROUP_SIZE 2048');
    const reader = await openParquet(path);
    try {
      const rows: Record<string, unknown>[] = [];
      for await (const row of reader.rows()) rows.push(row);
      const expected = await duckRead(path);
      assert.equal(rows.length, expected.rows.length);
      const names = reader.schema.leaves.map((l) => l.path.join('.'));
      assert.deepEqual(names, ['id', 'n', 's', 'b', 'd', 'u']);
      const seen = new Map<string, number>();
      let groups = 0;
      let base = 0;
      let lastGroup = -1;
      for await (const batch of reader.columns()) {
        if (batch.rowGroup !== lastGroup) {
          if (lastGroup >= 0) base += reader.file.metadata.rowGroups[lastGroup]!.numRows;
          lastGroup = batch.rowGroup;
          groups++;
        }
        const name = batch.path.join('.');
        const { data } = batch;
        assert.equal(data.length, batch.numRows, `${name}: one level entry per row in a flat column`);
        const values = columnValues(batch.leaf.kind.kind, data);
        let k = 0;
        for (let r = 0; r < batch.numRows; r++) {
          const isNull = data.def !== null && data.def[r]! < batch.leaf.defLevel;
          const got = isNull ? null : values(k++);
          const want = rows[base + r]![name];
          assert.deepEqual(got, want, `row group ${batch.rowGroup} row ${base + r} column ${name}: columns() gives ${String(got)}, rows() ${String(want)}`);
        }
        assert.equal(k, data.valueCount, `${name}: valueCount matches the non-null levels`);
        seen.set(name, (seen.get(name) ?? 0) + batch.numRows);
      }
      assert.ok(groups >= 2, 'several row groups');
      for (const n of names) assert.equal(seen.get(n), rows.length, `${n}: columns() covers every row`);
      // And with a projection and a row group selection.
      const only: string[] = [];
      for await (const batch of reader.columns({ columns: ['s'], rowGroups: [1] })) only.push(`${batch.rowGroup}:${batch.path.join('.')}`);
      assert.deepEqual(only, ['1:s']);
    } finally {
      await reader.close();
    }
  });
});

function isByteArraysForTest(v: unknown): v is { data: Uint8Array; offsets: Int32Array } {
  return typeof v === 'object' && v !== null && 'offsets' in v && 'data' in v;
}

/** The i-th non-null value of a flat column chunk, as rows() gives it with default options. */
function columnValues(kind: string, data: { values: unknown; dictionary: unknown; indices: Int32Array | null }): (i: number) => unknown {
  const dec = new TextDecoder();
  const physical = (vals: unknown) => (i: number): unknown => {
    if (isByteArraysForTest(vals)) return dec.decode(vals.data.subarray(vals.offsets[i]!, vals.offsets[i + 1]!));
    const a = vals as ArrayLike<number | bigint>;
    const v = a[i]!;
    if (kind === 'boolean') return v !== 0;
    return v;
  };
  if (data.indices && data.dictionary) {
    const dict = physical(data.dictionary);
    const idx = data.indices;
    return (i) => dict(idx[i]!);
  }
  return physical(data.values);
}
