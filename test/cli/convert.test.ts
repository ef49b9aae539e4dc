/**
 * `parquetry convert`, run as a user runs it (a child process): text to
 * Parquet and back, checked with parquetry and with DuckDB reading the same
 * files; options visible in the footer; bad input; a large input's memory.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseCsvSync } from 'csv-parse/sync';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { openParquet } from '../../src/node/index.js';
import { ByteCursor } from '../../src/bytes/cursor.js';
import { decodePageHeader } from '../../src/parquet/metadata/index.js';
import { ArraySplitter, parseJson } from '../../src/convert/read-json.js';
import { ExactNumber } from '../../src/schema/exact-number.js';
import type { Item } from '../../src/convert/source.js';
import { parseType, parseTypeOverride, schemaFromJsonText, toBuilder } from '../../src/convert/types.js';
import { parseByteSize } from '../../src/cli/convert-options.js';
import { csvCell, csvQuote, jsonText } from '../../src/convert/write-text.js';
import { formatReport } from '../../src/cli/convert-progress.js';
import { layoutProblems } from '../writer/pages.js';
import { runWith } from './run-cli.js';
import { CLI } from './bin.js';

const FIX = join('test', 'fixtures', 'convert');

interface Result {
  code: number;
  out: string;
  err: string;
}

function convert(args: string[], input?: string): Promise<Result> {
  return runWith(['convert', ...args], { input });
}

async function ok(run: Promise<Result>): Promise<Result> {
  const r = await run;
  assert.equal(r.code, 0, `exit ${r.code}: ${r.err}`);
  return r;
}

async function rows(path: string, options: Parameters<Awaited<ReturnType<typeof openParquet>>['readRows']>[0] = {}) {
  const reader = await openParquet(path);
  try {
    return await reader.readRows(options);
  } finally {
    await reader.close();
  }
}

async function footer(path: string) {
  const reader = await openParquet(path);
  try {
    return { metadata: reader.file.metadata, leaves: reader.schema.leaves, numRows: reader.numRows };
  } finally {
    await reader.close();
  }
}

function sql(s: string): string {
  return `'${s.replaceAll("'", "''")}'`;
}

/** The data page headers of every column chunk. */
function pageTypes(path: string, metadata: Awaited<ReturnType<typeof footer>>['metadata']): string[][] {
  const bytes = new Uint8Array(readFileSync(path));
  const out: string[][] = [];
  for (const rg of metadata.rowGroups) {
    for (const c of rg.columns) {
      const md = c.metaData!;
      let at = Number(md.dictionaryPageOffset ?? md.dataPageOffset);
      const end = at + Number(md.totalCompressedSize);
      const types: string[] = [];
      while (at < end) {
        const cursor = new ByteCursor(bytes, at, bytes.length);
        const h = decodePageHeader(cursor);
        types.push(String(h.type));
        at = cursor.pos + h.compressedPageSize;
      }
      out.push(types);
    }
  }
  return out;
}

let dir = '';
let instance: DuckDBInstance;
let duck: DuckDBConnection;

async function duckRows(query: string): Promise<Record<string, unknown>[]> {
  const r = await duck.runAndReadAll(query);
  return r.getRowObjectsJson() as Record<string, unknown>[];
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'parquetry-convert-'));
  instance = await DuckDBInstance.create(':memory:', { threads: '1' });
  duck = await instance.connect();
  await duck.run(`SET TimeZone = 'UTC'`);
});

after(() => {
  duck?.closeSync();
  instance?.closeSync();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A fresh empty directory, to see exactly what a run leaves. */
function freshDir(prefix: string): string {
  return mkdtempSync(join(dir, prefix));
}

describe('CSV to Parquet', () => {
  test('values read back the same with parquetry and DuckDB', async () => {
    const out = join(dir, 'types.parquet');
    const r = await ok(convert([join(FIX, 'types.csv'), out]));
    assert.match(r.err, /^wrote 4 rows in 1 row group, [\d.]+ (B|KiB) to .*types\.parquet \(\d+\.\d s\)\n$/);

    const mine = await rows(out, { temporal: 'iso' });
    assert.deepEqual(mine, [
      { id: 1n, name: 'apple', price: 1.5, ok: true, day: '2024-01-31', ts: '2024-01-31T10:00:00.000000Z', zip: '007', note: 'hello, world' },
      { id: 2n, name: 'say "hi"', price: 2, ok: false, day: '2024-02-29', ts: '2024-02-01T11:30:00.123456Z', zip: '01234', note: null },
      { id: 3n, name: 'multi\nline', price: null, ok: true, day: null, ts: '2024-02-01T22:00:00.000000Z', zip: '99999', note: 'x' },
      { id: -4n, name: null, price: 1000, ok: false, day: '1999-12-31', ts: null, zip: '00', note: null },
    ]);

    const theirs = await duckRows(`SELECT id, name, price, ok, day::VARCHAR AS day, strftime(ts, '%Y-%m-%dT%H:%M:%S.%fZ') AS ts, zip, note FROM read_parquet(${sql(out)})`);
    assert.deepEqual(theirs, mine.map((row) => ({ ...row, id: String(row.id) })));
    const types = await duckRows(`SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet(${sql(out)}))`);
    assert.deepEqual(types.map((t) => t.column_type), ['BIGINT', 'VARCHAR', 'DOUBLE', 'BOOLEAN', 'DATE', 'TIMESTAMP WITH TIME ZONE', 'VARCHAR', 'VARCHAR']);
  });

  test('integers beyond 64 bits make a DOUBLE column with a warning; the --type it suggests keeps every digit', async () => {
    const out = join(dir, 'wide.parquet');
    const csv = 'id,big\n1,18446744073709551615\n2,-5\n';
    const r = await ok(convert(['-', out, '--from', 'csv'], csv));
    assert.match(r.err, /parquetry: warning: column "big" has integers beyond 64 bits \(18446744073709551615\): it is written as DOUBLE.*--type 'big=decimal\(38,0\)'/);
    assert.deepEqual(await rows(out), [{ id: 1n, big: 18446744073709552000 }, { id: 2n, big: -5 }]);
    const exact = await ok(convert(['-', out, '--from', 'csv', '--type', 'big=decimal(38,0)'], csv));
    assert.doesNotMatch(exact.err, /warning/);
    assert.deepEqual(await rows(out), [{ id: 1n, big: '18446744073709551615' }, { id: 2n, big: '-5' }]);
    assert.doesNotMatch((await ok(convert(['-', out, '--from', 'csv'], 'x\n1.5\n9223372036854775807\n'))).err, /warning/);
  });

  test('a header with a repeated or empty name: the columns are renamed, and a warning says how', async () => {
    const out = join(dir, 'renamed.parquet');
    const r = await ok(convert(['-', out, '--from', 'csv'], 'a,a,,b\n1,2,3,4\n'));
    assert.match(r.err, /parquetry: warning: header column 2 repeats the name "a": it is named "a_2"\n/);
    assert.match(r.err, /parquetry: warning: header column 3 has no name: it is named "c3"\n/);
    assert.deepEqual(await rows(out), [{ a: 1n, a_2: 2n, c3: 3n, b: 4n }]);
    assert.doesNotMatch((await ok(convert(['-', out, '--from', 'csv', '--quiet'], 'a,a\n1,2\n'))).err, /warning/);
  });

  test('each column gets the narrowest type that fits every sampled value', async () => {
    const out = join(dir, 'narrow.parquet');
    await ok(convert([join(FIX, 'narrow.csv'), out]));
    const { leaves } = await footer(out);
    const kinds = Object.fromEntries(leaves.map((l) => [l.path.join('.'), l.kind]));
    assert.deepEqual(kinds, {
      b: { kind: 'boolean' },
      i: { kind: 'int', bitWidth: 64, signed: true },
      d: { kind: 'float' },
      dt: { kind: 'date' },
      ts_local: { kind: 'timestamp', unit: 'MICROS', utc: false },
      ts_zoned: { kind: 'timestamp', unit: 'MICROS', utc: true },
      ts_nanos: { kind: 'timestamp', unit: 'NANOS', utc: false },
      mixed: { kind: 'string' },
      padded: { kind: 'string' },
      empty: { kind: 'string' },
      huge: { kind: 'float' },
    });
    const types = await duckRows(`SELECT column_type FROM (DESCRIBE SELECT * FROM read_parquet(${sql(out)}))`);
    assert.deepEqual(types.map((t) => t.column_type), [
      'BOOLEAN', 'BIGINT', 'DOUBLE', 'DATE', 'TIMESTAMP', 'TIMESTAMP WITH TIME ZONE', 'TIMESTAMP_NS', 'VARCHAR', 'VARCHAR', 'VARCHAR', 'DOUBLE',
    ]);
    const mine = await rows(out, { temporal: 'iso' });
    assert.deepEqual(mine.map((r) => [r.b, r.i, r.d, r.ts_zoned, r.ts_nanos, r.padded, r.huge]), [
      [true, 1n, 1, '2024-01-01T10:00:00.000000Z', '2024-01-01T10:00:00.123456789', '007', 1e20],
      [false, -2n, 2.5, '2024-01-01T04:30:00.000000Z', '2024-01-01T10:00:00.000000000', '1', 1],
      [true, 3n, 1000, '2024-01-01T11:00:00.000001Z', '2024-01-01T00:00:00.000000000', '2', -1],
    ]);
  });

  test('--type, --schema, TSV, --no-header, --delimiter and stdin', async () => {
    const typed = join(dir, 'typed.parquet');
    const tr = await ok(convert([join(FIX, 'types.csv'), typed, '--type', 'id=int32!', '--type', 'price=decimal(9,2)', '--type', 'zip=int32', '--type', 'ts=timestamp(NANOS,utc)', '--skip-bad-rows']));
    // A decimal takes an exponent, exactly (1e3 is 1000.00, as DuckDB casts it); the row starts on line 6, after a quoted line break.
    assert.doesNotMatch(tr.err, /skipped/);
    const t = await footer(typed);
    const byName = Object.fromEntries(t.leaves.map((l) => [l.path[0], l]));
    assert.equal(byName.id!.element.repetitionType, 'REQUIRED');
    assert.equal(byName.id!.physicalType, 'INT32');
    assert.deepEqual(byName.price!.kind, { kind: 'decimal', precision: 9, scale: 2 });
    assert.deepEqual(byName.ts!.kind, { kind: 'timestamp', unit: 'NANOS', utc: true });
    assert.deepEqual((await rows(typed)).map((r) => [r.id, r.price, r.zip]), [[1, '1.50', 7], [2, '2.00', 1234], [3, null, 99999], [-4, '1000.00', 0]]);
    // A decimal with more fractional digits than its scale is still a bad row, never rounded.
    const rounded = await ok(convert([join(FIX, 'types.csv'), join(dir, 'scale0.parquet'), '--type', 'price=decimal(9,0)', '--skip-bad-rows']));
    assert.match(rounded.err, /^parquetry: skipped .*types\.csv:2: column price: expected a DECIMAL\(9, 0\) value: .* got "1\.5" \(string\): more than 0 fractional digits \(values are not rounded\)/);

    // A schema file, with nested columns read from JSON text in the cells.
    const declared = join(dir, 'declared.parquet');
    await ok(convert([join(FIX, 'schema.csv'), declared, '--schema', join(FIX, 'schema.json')]));
    assert.deepEqual(await rows(declared, { temporal: 'iso' }), [
      { id: 1n, price: '12.30', ts: '2024-01-31T10:00:00.123Z', day: '2024-01-31', tags: ['a', 'b'], addr: { city: 'Lima', zip: 15001 }, attrs: [{ key: 'k', value: 1n }] },
      { id: 2n, price: '-0.05', ts: null, day: null, tags: [], addr: null, attrs: null },
    ]);
    const schemaText = (await runWith(['schema', declared])).out;
    assert.match(schemaText, /required int64 id;/);
    assert.match(schemaText, /required byte_array element \(STRING\);/);
    assert.match(schemaText, /optional group attrs \(MAP\)/);

    // TSV by extension; a header name with a space; a quoted tab.
    const tsv = join(dir, 'tabs.parquet');
    await ok(convert([join(FIX, 'tabs.tsv'), tsv]));
    assert.deepEqual(await rows(tsv, { temporal: 'iso' }), [{ a: 1n, 'b c': 'x y', c: '2024-01-01' }, { a: 2n, 'b c': 'q\tq', c: null }]);

    // No header: c1..cN; from stdin with --from and a delimiter.
    const piped = join(dir, 'piped.parquet');
    await ok(convert(['-', piped, '--from', 'csv', '--no-header', '--delimiter', ';'], '1;a\n2;b\n'));
    assert.deepEqual(await rows(piped), [{ c1: 1n, c2: 'a' }, { c1: 2n, c2: 'b' }]);
  });
});

describe('JSON to Parquet', () => {
  const expected = [
    {
      id: 1n, name: 'br]ack,et"s {', tags: ['x', 'y'], addr: { city: 'Lima', geo: { lat: -12.05, lon: -77.04 } },
      scores: [1, 2.5], big: 9007199254740993n, items: [{ sku: 'p1', qty: 2n }],
    },
    { id: 2n, name: null, tags: [], addr: { city: 'Pune', geo: null }, scores: null, big: -9223372036854775808n, items: [] },
    { id: 3n, name: null, tags: ['z', null], addr: null, scores: [3], big: 1n, items: [{ sku: 'p2', qty: null }] },
  ];

  for (const file of ['nested.jsonl', 'nested.json']) {
    test(`${file}: objects become structs, arrays lists, big integers stay exact`, async () => {
      const out = join(dir, `${file}.parquet`);
      const r = await ok(convert([join(FIX, file), out]));
      assert.match(r.err, /^wrote 3 rows in 1 row group/);
      const { leaves } = await footer(out);
      assert.deepEqual(leaves.map((l) => l.path.join('.')), [
        'id', 'name', 'tags.list.element', 'addr.city', 'addr.geo.lat', 'addr.geo.lon', 'scores.list.element', 'big',
        'items.list.element.sku', 'items.list.element.qty',
      ]);
      assert.deepEqual(await rows(out), expected);
      const theirs = await duckRows(`SELECT id, name, tags, addr, scores, big, items FROM read_parquet(${sql(out)})`);
      assert.deepEqual(theirs, [
        { id: '1', name: 'br]ack,et"s {', tags: ['x', 'y'], addr: { city: 'Lima', geo: { lat: -12.05, lon: -77.04 } }, scores: [1, 2.5], big: '9007199254740993', items: [{ sku: 'p1', qty: '2' }] },
        { id: '2', name: null, tags: [], addr: { city: 'Pune', geo: null }, scores: null, big: '-9223372036854775808', items: [] },
        { id: '3', name: null, tags: ['z', null], addr: null, scores: [3], big: '1', items: [{ sku: 'p2', qty: null }] },
      ]);
    });
  }

  test('from stdin, with --type reaching into structs and lists', async () => {
    const out = join(dir, 'stdin-json.parquet');
    const text = readFileSync(join(FIX, 'nested.jsonl'), 'utf8');
    const r2 = await ok(convert(['-', out, '--from', 'ndjson', '--type', 'addr.geo.lat=float', '--type', 'scores.element=float'], text));
    assert.match(r2.err, /wrote 3 rows/);
    const { leaves } = await footer(out);
    const lat = leaves.find((l) => l.path.join('.') === 'addr.geo.lat')!;
    assert.equal(lat.physicalType, 'FLOAT');
    assert.equal(leaves.find((l) => l.path.join('.') === 'scores.list.element')!.physicalType, 'FLOAT');
  });

  test('a field first seen after the sample is warned about', async () => {
    const input = '{"a":1}\n{"a":2,"b":"x"}\n';
    const r = await ok(convert(['-', join(dir, 'late.parquet'), '--from', 'jsonl', '--sample', '1'], input));
    assert.match(r.err, /warning: field "b" first appears after the sampled rows/);
  });
});

describe('Parquet to text, against DuckDB reading the same file', () => {
  let source = '';
  let expectedText: Array<Array<string | null>> = [];
  const columns = ['i', 'big', 'd', 'dec', 'dt', 'ts', 's', 'bl', 'l', 'st', 'b'];

  before(async () => {
    source = join(dir, 'duck-types.parquet');
    await duck.run(`COPY (SELECT * FROM (VALUES
      (1, 9007199254740993::BIGINT, 2.5::DOUBLE, 1.10::DECIMAL(9,2), DATE '2024-01-31', TIMESTAMP '2024-01-31 10:00:00.123456', 'plain', '\\x01\\xFF'::BLOB, [1, 2], {'a': 1, 'b': 'x'}, true),
      (2, NULL, -0.5, -12.30, NULL, TIMESTAMP '1969-12-31 23:59:59', 'has, comma "quote"' || chr(10) || 'newline', ''::BLOB, [], NULL, false),
      (3, -5, NULL, NULL, DATE '1970-01-01', NULL, NULL, NULL, NULL, {'a': NULL, 'b': 'y'}, NULL),
      (4, 0, 1e300, 0.05, DATE '0001-01-01', TIMESTAMP '2262-04-11 23:47:16', 'ünï ☃', 'abc'::BLOB, [NULL], {'a': -7, 'b': ''}, true)
    ) t(i, big, d, dec, dt, ts, s, bl, l, st, b)) TO ${sql(source)} (FORMAT PARQUET)`);
    // DuckDB's text of each value, in the forms convert writes.
    const r = await duck.runAndReadAll(`SELECT i::VARCHAR, big::VARCHAR, d::VARCHAR, dec::VARCHAR, dt::VARCHAR,
      strftime(ts, '%Y-%m-%dT%H:%M:%S.%f'), s, lower(hex(bl)), to_json(l)::VARCHAR, to_json(st)::VARCHAR, b::VARCHAR
      FROM read_parquet(${sql(source)})`);
    expectedText = r.getRows().map((row) => row.map((v) => (v === null ? null : String(v))));
  });

  test('CSV: header of top-level names; values as text; null as an empty cell', async () => {
    const out = join(dir, 'duck.csv');
    const r = await ok(convert([source, out]));
    assert.match(r.err, /^wrote 4 rows, [\d.]+ (B|KiB) to .*duck\.csv/);
    const text = readFileSync(out, 'utf8');
    const cells = parseCsvSync(text, { cast: (v, ctx) => (v === '' && !ctx.quoting ? null : v) }) as Array<Array<string | null>>;
    assert.deepEqual(cells[0], columns);
    const fixDouble = (row: Array<string | null>) => row.map((v, i) => (i === 2 && v !== null ? String(Number(v)) : v));
    assert.deepEqual(cells.slice(1), expectedText.map(fixDouble));
    // Exactly what a reader sees: quoting only where needed.
    assert.equal(text.split('\n')[1], '1,9007199254740993,2.5,1.10,2024-01-31,2024-01-31T10:00:00.123456,plain,01ff,"[1,2]","{""a"":1,""b"":""x""}",true');
  });

  test('JSON Lines: safe integers as numbers, others as strings; binary as hex', async () => {
    const out = join(dir, 'duck.jsonl');
    await ok(convert([source, out]));
    const lines = readFileSync(out, 'utf8').split('\n');
    assert.equal(lines.pop(), '');
    const mine = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const int = (v: string | null) => (v === null ? null : Number.isSafeInteger(Number(v)) ? Number(v) : v);
    const expected = expectedText.map((row) => ({
      i: int(row[0]!), big: int(row[1]!), d: row[2] === null ? null : Number(row[2]), dec: row[3], dt: row[4], ts: row[5], s: row[6], bl: row[7],
      l: row[8] === null ? null : JSON.parse(row[8]!), st: row[9] === null ? null : JSON.parse(row[9]!), b: row[10] === null ? null : row[10] === 'true',
    }));
    assert.deepEqual(mine, expected);
    assert.equal(lines[0], '{"i":1,"big":"9007199254740993","d":2.5,"dec":"1.10","dt":"2024-01-31","ts":"2024-01-31T10:00:00.123456","s":"plain","bl":"01ff","l":[1,2],"st":{"a":1,"b":"x"},"b":true}');
  });

  test('to stdout, TSV, a JSON array, and back to Parquet', async () => {
    const jsonl = await ok(convert([source, '-', '--to', 'jsonl']));
    assert.equal(jsonl.out, readFileSync(join(dir, 'duck.jsonl'), 'utf8'));
    assert.match(jsonl.err, /to stdout/);
    const tsv = await ok(convert([source, '-', '--to', 'tsv', '--no-header']));
    // Quoted where a value holds a quote, whatever the delimiter.
    assert.equal(tsv.out.split('\n')[0], '1\t9007199254740993\t2.5\t1.10\t2024-01-31\t2024-01-31T10:00:00.123456\tplain\t01ff\t[1,2]\t"{""a"":1,""b"":""x""}"\ttrue');
    const json = join(dir, 'duck.json');
    await ok(convert([source, json]));
    const arr = JSON.parse(readFileSync(json, 'utf8')) as unknown[];
    assert.equal(arr.length, 4);
    // JSON Lines back to Parquet: the same values (types as inferred from JSON).
    const back = join(dir, 'duck-back.parquet');
    await ok(convert([join(dir, 'duck.jsonl'), back, '--type', 'big=int64', '--type', 'dec=decimal(9,2)', '--type', 'ts=timestamp(MICROS,local)', '--type', 'dt=date']));
    const again = await rows(back, { temporal: 'iso' });
    const orig = await rows(source, { temporal: 'iso' });
    assert.deepEqual(again.map((r) => [r.i, r.big, r.dec, r.dt, r.ts, r.s]), orig.map((r) => [BigInt(r.i as number), r.big, r.dec, r.dt, r.ts, r.s]));
  });
});

describe('writer options reach the file', () => {
  let csv = '';
  before(() => {
    csv = join(dir, 'opts.csv');
    const lines = ['id,word,score'];
    for (let i = 0; i < 20_000; i++) lines.push(`${i},word-${(i * 7919) % 20_000}-${'x'.repeat(i % 17)},${i / 4}`);
    writeFileSync(csv, lines.join('\n') + '\n');
  });

  test('--codec, --compression-level, --page-version, --row-group-rows, --page-size', async () => {
    const out = join(dir, 'opts.parquet');
    await ok(convert([csv, out, '--codec', 'zstd', '--compression-level', '9', '--page-version', '2', '--row-group-rows', '5000', '--page-size', '1KiB']));
    const { metadata } = await footer(out);
    assert.equal(metadata.version, 2);
    assert.deepEqual(metadata.rowGroups.map((g) => Number(g.numRows)), [5000, 5000, 5000, 5000]);
    for (const g of metadata.rowGroups) for (const c of g.columns) assert.equal(c.metaData!.codec, 'ZSTD');
    const pages = pageTypes(out, metadata);
    for (const chunk of pages) for (const t of chunk) assert.match(t, /^(DATA_PAGE_V2|DICTIONARY_PAGE)$/);
    // 1 KiB pages: 5000 dictionary indices of 13 bits need several.
    assert.ok(pages.some((chunk) => chunk.filter((t) => t === 'DATA_PAGE_V2').length >= 3), JSON.stringify(pages));
    const [sum] = await duckRows(`SELECT count(*)::INTEGER AS n, sum(id)::BIGINT AS s FROM read_parquet(${sql(out)})`);
    assert.deepEqual(sum, { n: 20_000, s: String((19_999 * 20_000) / 2) });

    const v1 = join(dir, 'opts-v1.parquet');
    await ok(convert([csv, v1, '--page-version', '1', '--row-group-size', '64KiB']));
    const m1 = (await footer(v1)).metadata;
    assert.ok(m1.rowGroups.length > 3, `${m1.rowGroups.length} row groups`);
    for (const chunk of pageTypes(v1, m1)) for (const t of chunk) assert.match(t, /^(DATA_PAGE|DICTIONARY_PAGE)$/);
  });

  for (const codec of ['UNCOMPRESSED', 'SNAPPY', 'GZIP', 'BROTLI', 'ZSTD', 'LZ4_RAW']) {
    test(`--codec ${codec}`, async () => {
      const out = join(dir, `codec-${codec}.parquet`);
      await ok(convert([csv, out, '--codec', codec]));
      const { metadata } = await footer(out);
      for (const g of metadata.rowGroups) for (const c of g.columns) assert.equal(c.metaData!.codec, codec);
      const [r] = await duckRows(`SELECT count(*)::INTEGER AS n, max(word) AS w FROM read_parquet(${sql(out)})`);
      assert.equal(r!.n, 20_000);
    });
  }

  test('pages carry a CRC-32 by default, as parquet-java writes them; --no-checksums leaves them out', async () => {
    const crcs = async (path: string) => {
      const { metadata } = await footer(path);
      return layoutProblems(new Uint8Array(readFileSync(path)), metadata, true);
    };
    const withCrc = join(dir, 'crc.parquet');
    await ok(convert([csv, withCrc, '--page-size', '4KiB']));
    assert.deepEqual(await crcs(withCrc), []);
    const without = join(dir, 'no-crc.parquet');
    await ok(convert([csv, without, '--page-size', '4KiB', '--no-checksums']));
    const missing = await crcs(without);
    assert.ok(missing.length > 3 && missing.every((m) => / has no crc$/.test(m)), missing.join('\n'));
    assert.deepEqual(await rows(without), await rows(withCrc));
    const r = await convert(['examples/fixtures/sample.parquet', join(dir, 'x.csv'), '--no-checksums']);
    assert.equal(r.code, 1);
    assert.match(r.err, /--no-checksums applies to Parquet output only/);
  });

  test('the default codec is SNAPPY; Parquet to Parquet rewrites with new options and keeps the rows', async () => {
    const snappy = join(dir, 'default.parquet');
    await ok(convert([csv, snappy]));
    assert.equal((await footer(snappy)).metadata.rowGroups[0]!.columns[0]!.metaData!.codec, 'SNAPPY');
    const rewritten = join(dir, 'rewritten.parquet');
    await ok(convert(['examples/fixtures/sample.parquet', rewritten, '--codec', 'GZIP', '--row-group-rows', '6', '--page-version', '2']));
    const { metadata } = await footer(rewritten);
    assert.deepEqual(metadata.rowGroups.map((g) => Number(g.numRows)), [6, 6, 6, 2]);
    assert.equal(metadata.rowGroups[0]!.columns[0]!.metaData!.codec, 'GZIP');
    assert.deepEqual(await rows(rewritten), await rows('examples/fixtures/sample.parquet'));
  });

  test('options that do not apply, and bad values, are refused', async () => {
    const r = await convert(['examples/fixtures/sample.parquet', join(dir, 'x.csv'), '--codec', 'zstd']);
    assert.equal(r.code, 1);
    assert.match(r.err, /--codec applies to Parquet output only/);
    assert.match((await convert([csv, join(dir, 'x.parquet'), '--codec', 'lzo'])).err, /must be UNCOMPRESSED, SNAPPY/);
    assert.match((await convert([csv, join(dir, 'x.parquet'), '--row-group-size', '12 parsecs'])).err, /must be a size in bytes/);
    assert.match((await convert([csv, join(dir, 'x.parquet'), '--page-version', '3'])).err, /must be 1 or 2/);
    assert.match((await convert([csv, join(dir, 'x.txt')])).err, /cannot tell the format of .*x\.txt/);
    assert.match((await convert([csv, join(dir, 'x.csv')])).err, /CSV input to Parquet only/);
    assert.match((await convert([csv, join(dir, 'x.parquet'), '--type', 'score=decimal(x)'])).err, /bad type "decimal\(x\)"/);
    assert.match((await convert([csv, join(dir, 'x.parquet'), '--type', 'nope=int64'])).err, /override "nope" matches no CSV column \(the header: id, word, score\)/);
    assert.ok(!existsSync(join(dir, 'x.parquet')));
  });

  test('--compression-level is checked with the other options, against the codec, before any input is read', async () => {
    const refused = async (args: string[], message: string) => {
      const d = freshDir('level-');
      // A usage error, not a bad row (`opts.csv:20001: ZSTD compression level …` when the first row group was written).
      const r = await convert([csv, join(d, 'x.parquet'), ...args]);
      assert.equal(r.code, 1, r.err);
      assert.match(r.err, new RegExp(`^parquetry: ${message.replace(/[()]/g, '\\$&')}( \\(see .*\\))?\n$`));
      assert.deepEqual(readdirSync(d), []);
    };
    await refused(['--codec', 'ZSTD', '--compression-level', '99'], '--compression-level: ZSTD compression level must be an integer from -131072 to 22, got 99');
    await refused(['--codec', 'gzip', '--compression-level', '10'], '--compression-level: GZIP compression level must be an integer from 0 to 9, got 10');
    await refused(['--codec', 'BROTLI', '--compression-level', '-1'], '--compression-level: BROTLI compression level must be an integer from 0 to 11, got -1');
    for (const codec of ['SNAPPY', 'UNCOMPRESSED', 'LZ4_RAW']) {
      await refused(['--codec', codec, '--compression-level', '1'], `--compression-level applies to the GZIP, BROTLI and ZSTD codecs only; ${codec} has no levels`);
    }
    await refused(['--compression-level', '1'], '--compression-level applies to the GZIP, BROTLI and ZSTD codecs only; SNAPPY has no levels (it is the default: give --codec)');
    // Trevni's codecs take no level (deflate is written at zlib's level 6, as Java does).
    await refused(['--to', 'trevni', '--codec', 'deflate', '--compression-level', '1'], '--compression-level applies to Parquet output only');
    // The bounds themselves are accepted.
    await ok(convert([csv, join(dir, 'level.parquet'), '--codec', 'ZSTD', '--compression-level', '-5', '--row-group-rows', '5000']));
    await ok(convert([csv, join(dir, 'level.parquet'), '--codec', 'GZIP', '--compression-level', '0', '--row-group-rows', '5000']));
  });
});

describe('bad input', () => {
  /** Runs into an empty directory and returns what is left there. */
  async function attempt(input: string, args: string[] = [], out = 'out.parquet') {
    const d = freshDir('bad-');
    const r = await convert([input, join(d, out), ...args]);
    return { ...r, left: readdirSync(d), dir: d };
  }

  test('a value that does not fit its column: exit 1, line and column, nothing left behind', async () => {
    const r = await attempt(join(FIX, 'bad.csv'), ['--sample', '2']);
    assert.equal(r.code, 1);
    assert.match(r.err, /^parquetry: .*bad\.csv:4: column price: cannot read CSV cell "abc" as a number/);
    assert.deepEqual(r.left, []);
  });

  test('a CSV row with the wrong number of fields', async () => {
    const r = await attempt(join(FIX, 'bad.csv'));
    assert.equal(r.code, 1);
    // The sample holds every row, so "abc" made price a string; the short row is the first problem.
    assert.match(r.err, /bad\.csv:5: expected 3 fields, got 2/);
    assert.deepEqual(r.left, []);
  });

  test('JSON Lines: an unparseable line, a non-object, a wrong type', async () => {
    const r = await attempt(join(FIX, 'bad.jsonl'), ['--sample', '2']);
    assert.equal(r.code, 1);
    assert.match(r.err, /bad\.jsonl:3: not valid JSON/);
    assert.deepEqual(r.left, []);
    const skipped = await attempt(join(FIX, 'bad.jsonl'), ['--sample', '2', '--skip-bad-rows']);
    assert.equal(skipped.code, 0, skipped.err);
    assert.match(skipped.err, /skipped .*bad\.jsonl:3: not valid JSON/);
    assert.match(skipped.err, /skipped .*bad\.jsonl:4: expected a JSON object, got an array/);
    assert.match(skipped.err, /skipped .*bad\.jsonl:5: column id: expected an INT64 integer/);
    assert.match(skipped.err, /wrote 3 rows in 1 row group, .*; skipped 3 bad input rows\n$/);
    assert.deepEqual(skipped.left, ['out.parquet']);
  });

  test('a JSON array with a malformed element', async () => {
    const r = await attempt(join(FIX, 'bad.json'));
    assert.equal(r.code, 1);
    assert.match(r.err, /bad\.json:3: not valid JSON/);
    assert.deepEqual(r.left, []);
    const s = await attempt(join(FIX, 'bad.json'), ['--skip-bad-rows']);
    assert.equal(s.code, 0, s.err);
    assert.deepEqual(await rows(join(s.dir, 'out.parquet')), [{ id: 1n }, { id: 3n }]);
    const unclosed = await convert(['-', join(s.dir, 'u.parquet'), '--from', 'json'], '[{"a":1},\n{"a":2}');
    assert.equal(unclosed.code, 1);
    assert.match(unclosed.err, /stdin:2: the input ends inside the JSON array/);
  });

  test('--skip-bad-rows goes on, counts and lists the skipped rows', async () => {
    const r = await attempt(join(FIX, 'bad.csv'), ['--sample', '2', '--skip-bad-rows']);
    assert.equal(r.code, 0, r.err);
    const listed = r.err.split('\n').filter((l) => l.startsWith('parquetry: skipped'));
    // The bad quote on line 7 is that row alone: reading goes on at its line break (csv-parse read on to the end of the input).
    assert.deepEqual(listed.map((l) => /bad\.csv:(\d+):/.exec(l)?.[1]), ['4', '5', '6', '7']);
    assert.match(listed[0]!, /column price: cannot read CSV cell "abc" as a number/);
    assert.match(listed[1]!, /expected 3 fields, got 2/);
    assert.match(listed[2]!, /expected 3 fields, got 4/);
    assert.match(listed[3]!, /malformed CSV: Invalid Closing Quote/);
    assert.match(r.err, /; skipped 4 bad input rows\n$/);
    const back = await rows(join(r.dir, 'out.parquet'));
    assert.deepEqual(back, [{ id: 1n, price: 1.5, name: 'a' }, { id: 2n, price: 2.5, name: 'b' }, { id: 7n, price: 7.5, name: 'g' }]);
  });

  test('CSV and JSON Lines outputs leave nothing when the input fails', async () => {
    const d = freshDir('text-out-');
    const missing = await convert([join(dir, 'no-such.parquet'), join(d, 'out.csv')]);
    assert.equal(missing.code, 1);
    assert.match(missing.err, /^parquetry: cannot read .*no-such\.parquet: no such file\n$/);
    const corrupt = join(d, 'corrupt.parquet');
    const good = readFileSync('examples/fixtures/sample.parquet');
    // A file whose footer is fine but whose first page is garbage: fails after the output was opened.
    const bytes = Buffer.from(good);
    for (let i = 4; i < 200; i++) bytes[i] = 0xff;
    writeFileSync(corrupt, bytes);
    for (const out of ['out.csv', 'out.jsonl', 'out.parquet']) {
      const r = await convert([corrupt, join(d, out)]);
      assert.equal(r.code, 1, r.err);
    }
    assert.deepEqual(readdirSync(d), ['corrupt.parquet']);
  });
});

describe('interrupted', () => {
  test('Ctrl-C leaves no file and no temporary file', async () => {
    const d = freshDir('interrupt-');
    const child = spawn(process.execPath, [...CLI, 'convert', '-', join(d, 'out.parquet'), '--from', 'csv', '--sample', '1'], {
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      // Rows, and then no end of input: the writer is open, its temporary file beside OUT.
      child.stdin.write('id,name\n1,a\n2,b\n3,c\n4,d\n');
      for (let i = 0; i < 200 && readdirSync(d).length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      assert.equal(readdirSync(d).length, 1, 'the temporary file');
      child.kill('SIGINT');
      assert.equal(await exited, 130, err);
      assert.match(err, /interrupted/);
      assert.deepEqual(readdirSync(d), []);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });
});

/** Waits until process `pid` has a file whose path ends with `name` open (as /proc/PID/fd shows), or `ms` pass. */
async function holdsOpen(pid: number, name: string, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      if (readdirSync(`/proc/${pid}/fd`).some((fd) => { try { return readlinkSync(`/proc/${pid}/fd/${fd}`).endsWith(name); } catch { return false; } })) return;
    } catch {
      return; // no /proc: the wait after this is all there is
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('interrupted while opening', () => {
  test('Ctrl-C while OUT is a FIFO no one reads yet ends the program, leaving the FIFO', { timeout: 30_000 }, async () => {
    const d = freshDir('interrupt-fifo-');
    const fifo = join(d, 'out.csv');
    execFileSync('mkfifo', [fifo]);
    const child = spawn(process.execPath, [...CLI, 'convert', 'examples/fixtures/sample.parquet', fifo], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      // Opening a FIFO for writing waits for a reader: the program is stuck there until interrupted. Interrupt it
      // only once it has opened its input (its handler is installed by then): on a loaded machine starting the
      // program can take longer than any fixed wait.
      await holdsOpen(child.pid!, 'sample.parquet', 20_000);
      await new Promise((r) => setTimeout(r, 1000));
      assert.equal(child.exitCode, null, 'still waiting for a reader');
      child.kill('SIGINT');
      const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('still running 5 s after SIGINT'), 5000))]);
      assert.equal(code, 130, err);
      assert.ok(lstatSync(fifo).isFIFO());
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });
});

describe('a large input', () => {
  test('200,000 CSV rows stream into several row groups in bounded memory', async (t) => {
    const csv = join(dir, 'large.csv');
    const parts: string[] = ['id,name,price,qty,flag,day,ts,note\n'];
    for (let i = 0; i < 200_000; i++) {
      parts.push(`${i},name ${i % 1000},${(i * 0.25).toFixed(2)},${i % 97},${i % 2 ? 'true' : 'false'},2024-01-${String(1 + (i % 28)).padStart(2, '0')},2024-01-01T00:00:${String(i % 60).padStart(2, '0')}Z,"note, ${i}"\n`);
    }
    writeFileSync(csv, parts.join(''));
    const out = join(dir, 'large.parquet');
    const args = [...CLI, 'convert', csv, out, '--row-group-size', '1MB', '--progress'];
    const timed = existsSync('/usr/bin/time');
    const r = timed
      ? spawnSync('/usr/bin/time', ['-f', 'maxrss=%M', process.execPath, ...args], { encoding: 'utf8' })
      : spawnSync(process.execPath, args, { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const report = /wrote 200,000 rows in (\d+) row groups, ([\d.]+ MiB) to .*large\.parquet \(([\d.]+) s\)/.exec(r.stderr);
    assert.ok(report, r.stderr);
    assert.ok(Number(report[1]) > 1, `${report[1]} row groups`);
    // --progress draws the line even though stderr is a pipe here, and erases it at the end.
    assert.match(r.stderr, /\r\x1b\[Kconverting .*large\.csv {2}\d+% {2}[\d,]+ rows {2}[\d,]+ rows\/s/);
    assert.match(r.stderr, /\r\x1b\[Kwrote 200,000 rows/);
    const rss = /maxrss=(\d+)/.exec(r.stderr);
    t.diagnostic(`${report[1]} row groups, ${report[2]}, ${report[3]} s${rss ? `, peak RSS ${(Number(rss[1]) / 1024).toFixed(0)} MiB (child process)` : ''}`);
    if (rss) assert.ok(Number(rss[1]) < 1024 * 1024, `peak RSS ${rss[1]} KiB`); // loose: the input alone is 16 MB

    const { metadata, numRows } = await footer(out);
    assert.equal(numRows, 200_000);
    assert.equal(metadata.rowGroups.length, Number(report[1]));
    const [agg] = await duckRows(`SELECT count(*)::INTEGER AS n, sum(id)::BIGINT AS s, sum(qty)::BIGINT AS q, count(DISTINCT day)::INTEGER AS d,
      min(ts)::VARCHAR AS t0, max(note) AS note FROM read_parquet(${sql(out)})`);
    let q = 0;
    for (let i = 0; i < 200_000; i++) q += i % 97;
    assert.deepEqual(agg, { n: 200_000, s: String((199_999 * 200_000) / 2), q: String(q), d: 28, t0: '2024-01-01 00:00:00+00', note: 'note, 99999' });
  });

  test('without a terminal there is no progress line; --quiet prints nothing', async () => {
    const r = await ok(convert([join(FIX, 'types.csv'), join(dir, 'q.parquet')]));
    assert.doesNotMatch(r.err, /\r/);
    const q = await ok(convert([join(FIX, 'types.csv'), join(dir, 'q.parquet'), '--quiet']));
    assert.equal(q.err, '');
  });
});

describe('pieces', () => {
  test('the JSON array splitter finds the same elements however the text is cut', () => {
    const text = '\ufeff [ {"a":"x]\\"},{[","b":[1,{"c":"}"}]},\n\n{"a":"\\\\"} ,{"z":null}\n]\n ';
    const whole: unknown[] = [];
    const s = new ArraySplitter();
    const out: Item<Record<string, unknown>>[] = [];
    s.feed(text, out);
    s.finish();
    const pick = (o: Item<Record<string, unknown>>) => [o.line, 'record' in o ? o.record : o.error];
    for (const o of out) whole.push(pick(o));
    assert.deepEqual(whole, [[1, { a: 'x]"},{[', b: [1, { c: '}' }] }], [3, { a: '\\' }], [3, { z: null }]]);
    for (let cut = 1; cut < text.length; cut++) {
      const s2 = new ArraySplitter();
      const o2: typeof out = [];
      s2.feed(text.slice(0, cut), o2);
      s2.feed(text.slice(cut), o2);
      s2.finish();
      assert.deepEqual(o2.map(pick), whole, `cut at ${cut}`);
    }
  });

  test('big JSON integers are exact bigints; others stay numbers', () => {
    assert.deepEqual(parseJson('{"a":12345678901234567890,"b":"12345678901234567890","c":1.5e300,"d":9007199254740991,"e":[-9223372036854775808]}'), {
      a: 12345678901234567890n, b: '12345678901234567890', c: 1.5e300, d: 9007199254740991, e: [-9223372036854775808n],
    });
  });

  test('JSON numbers a double would change are kept as their text (ExactNumber); the others are numbers', () => {
    const exact = (t: string) => new ExactNumber(t);
    const text = '{"a":1123456789012345678.0000000001,"b":0.1,"c":[1.50,-2.5e-3,123456789.123456789],"d":1e400,"e":-1e-400,'
      + '"f":"1.00000000000000000001","g":0.30000000000000004,"h":1234567890.123456,"i":5e-324,"j":-0.0,"k":12345678901234567.5}';
    assert.deepEqual(parseJson(text), {
      a: exact('1123456789012345678.0000000001'), b: 0.1, c: [1.5, -0.0025, exact('123456789.123456789')], d: exact('1e400'), e: exact('-1e-400'),
      f: '1.00000000000000000001', g: 0.30000000000000004, h: 1234567890.123456, i: 5e-324, j: -0, k: exact('12345678901234567.5'),
    });
    // Malformed numbers are still JSON.parse's to refuse.
    assert.throws(() => parseJson('{"a":1.2.3e400}'), SyntaxError);
    assert.throws(() => parseJson('{"a":01.5555555555555555}'), SyntaxError);
  });

  test('type syntax', () => {
    const spec = (t: string) => toBuilder(parseType(t));
    assert.equal(spec('int64!').repetition, 'REQUIRED');
    assert.deepEqual(spec('decimal(9,2)').spec, { node: 'leaf', type: 'INT32', convertedType: 'DECIMAL', scale: 2, precision: 9, logicalType: { type: 'DECIMAL', scale: 2, precision: 9 } });
    assert.deepEqual((spec('timestamp(NANOS,local)').spec as { logicalType: unknown }).logicalType, { type: 'TIMESTAMP', isAdjustedToUTC: false, unit: 'NANOS' });
    assert.equal(spec('list(string!)').spec.node, 'list');
    assert.equal(spec('map(string, list(int32))!').repetition, 'REQUIRED');
    assert.throws(() => parseType('int65'), /unknown type "int65"/);
    assert.throws(() => parseType('decimal(3,4)'), /scale/);
    const [path, node] = parseTypeOverride('addr={"city":"string!"}');
    assert.equal(path, 'addr');
    assert.equal(node.t, 'struct');
    const fields = schemaFromJsonText('[["2","int32"],["1",{"$list":"string","$required":true}]]', 'x.json');
    assert.deepEqual(fields.map(([n]) => n), ['2', '1']);
    assert.throws(() => schemaFromJsonText('{"a":"int64","a2":{"$lst":"x"}}', 'x.json'), /unknown key "\$lst"/);
  });

  test('sizes, quoting, value text, the report', () => {
    assert.equal(parseByteSize('64MB'), 64_000_000);
    assert.equal(parseByteSize('128MiB'), 128 * 1024 * 1024);
    assert.equal(parseByteSize('1.5k'), 1536);
    assert.equal(parseByteSize('4096'), 4096);
    assert.equal(csvQuote('a,b', ','), '"a,b"');
    assert.equal(csvQuote('say "hi"', ','), '"say ""hi"""');
    assert.equal(csvQuote('a\tb', ','), 'a\tb');
    assert.equal(csvQuote('a\tb', '\t'), '"a\tb"');
    assert.equal(csvQuote('x\ry', ','), '"x\ry"');
    assert.equal(csvQuote('', ','), '""');
    assert.equal(csvCell(null, ','), '');
    assert.equal(csvCell(2n ** 70n, ','), '1180591620717411303424');
    assert.equal(csvCell(NaN, ','), 'NaN');
    assert.equal(csvCell(new Uint8Array([0, 255]), ','), '00ff');
    assert.equal(csvCell({ a: [1n, 2n ** 64n], b: new Uint8Array([1]) }, ','), '"{""a"":[1,18446744073709551616],""b"":""01""}"');
    assert.equal(jsonText({ a: [1n, 2n ** 64n], f: [Infinity, -0], b: new Uint8Array([10]) }, false), '{"a":[1,"18446744073709551616"],"f":["Infinity",0],"b":"0a"}');
    assert.equal(formatReport({ rows: 2_000_000, rowGroups: 16, bytes: 48.2 * 1024 * 1024, to: 'out.parquet', seconds: 3.14, skipped: 0 }),
      'wrote 2,000,000 rows in 16 row groups, 48.2 MiB to out.parquet (3.1 s)');
    assert.equal(formatReport({ rows: 1, rowGroups: undefined, bytes: 10, to: 'o.csv', seconds: 0.04, skipped: 1 }),
      'wrote 1 row, 10 B to o.csv (0.0 s); skipped 1 bad input row');
  });
});
