/**
 * `--where` texts select exactly DuckDB's rows. DuckDB writes the files
 * (strings with unicode and case pairs, nulls, ints at their limits, doubles
 * with NaN, ±0 and infinities, decimals, dates, timestamps in ms/us/ns and
 * with time zone, booleans) in small row groups, once in id order and once
 * sorted by a string column; a third file is the first rewritten by
 * parquetry's writer with small pages and a page index. For each file a
 * generated matrix of WHERE texts (every operator on every column with
 * literals from the data and at the edges, NULL included, and random
 * AND/OR/NOT combinations) is evaluated by DuckDB and by parquetry; the rows
 * (by id, in file order) must be equal. DuckDB evaluates each text as an
 * aggregate's FILTER over the whole file, its semantics without its scan's
 * pruning (which, as docs/float-statistics.md notes, can lose NaN rows).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BufferSink, openParquet, ParquetReader, ParquetWriter, defineSchema, field as f } from '../../src/node/index.js';
import { convert } from '../../src/node/entries/convert.js';
import { parseWhere } from '../../src/parquet/filter/where.js';
import { DuckFiles } from '../reader/helpers.js';
import { CountingSource } from './fixtures.js';
import { rng } from '../writer/gen.js';

const N = 6000;
/** Texts compared per file: a seeded sample of the matrix, a different one per file. */
const PER_FILE = 1000;

const WORDS = [
  'apple', 'Apple', 'APPLE', 'école', 'ÉCOLE', 'Straße', 'STRASSE', 'straße', 'ß', 'ẞ', 'Σίσυφος', 'ΣΊΣΥΦΟΣ', 'ς',
  '😀 smile', 'smile 😀', 'a_b', 'a%b', 'a\\b', '100%', '_x', '', 'İstanbul', 'istanbul', 'Kelvin', '\u212Aelvin', 'ǅungla', 'ﬀ', 'ᾀᾳ', 'zz\uffff',
];
const sqlString = (s: string): string => `'${s.replaceAll("'", "''")}'`;

const QUERY = `
  SELECT i AS id,
    CASE WHEN i % 10 = 3 THEN NULL ELSE list_element([${WORDS.map(sqlString).join(', ')}], (hash(i) % ${WORDS.length})::INTEGER + 1)
      || CASE WHEN i % 3 = 0 THEN '' ELSE (i % 7)::VARCHAR END END AS s,
    CASE WHEN i % 9 = 4 THEN NULL ELSE list_element(['a', 'Ab', 'b', 'zz', 'é', 'éa', 'ê', '😀', '\uffff'], (i * 9 // ${N})::INTEGER + 1) || lpad((i % 100)::VARCHAR, 3, '0') END AS k,
    CASE WHEN i % 13 = 0 THEN NULL ELSE ((i * 7919) % 20001 - 10000)::INTEGER END AS i32,
    CASE i WHEN 1 THEN 9223372036854775807 WHEN 2 THEN -9223372036854775808 ELSE i::BIGINT * 1000000007 - 5000000000000 END AS i64,
    CASE i % 17 WHEN 0 THEN 'NaN'::DOUBLE WHEN 1 THEN -0.0::DOUBLE WHEN 2 THEN 0.0::DOUBLE WHEN 3 THEN NULL
      WHEN 4 THEN 'inf'::DOUBLE WHEN 5 THEN '-inf'::DOUBLE ELSE (i % 1000) / 8.0 - 60 END::DOUBLE AS dbl,
    CASE WHEN i % 11 = 0 THEN NULL ELSE (((i * 31) % 2000) - 1000) / 100 END::DECIMAL(10, 2) AS dec,
    (i * 12345.678901)::DECIMAL(38, 6) AS dec38,
    CASE WHEN i % 8 = 0 THEN NULL ELSE DATE '1969-12-20' + (i % 400)::INTEGER END AS dt,
    TIMESTAMP '1969-12-31 23:00:00' + to_microseconds(i::BIGINT * 123456789) AS ts,
    (TIMESTAMP '1969-12-31 23:00:00' + to_microseconds(i::BIGINT * 123456789))::TIMESTAMP_MS AS ts_ms,
    make_timestamp_ns(i::BIGINT * 123456789123 - 3600000000000) AS ts_ns,
    (TIMESTAMP '1969-12-31 23:00:00' + to_microseconds(i::BIGINT * 98765432))::TIMESTAMPTZ AS tstz,
    CASE WHEN i % 5 = 0 THEN NULL ELSE i % 2 = 0 END AS b
  FROM range(${N}) t(i)`;

type Kind = 'int' | 'double' | 'decimal' | 'string' | 'date' | 'timestamp' | 'bool';
const COLUMNS: Record<string, Kind> = {
  s: 'string', k: 'string', i32: 'int', i64: 'int', dbl: 'double', dec: 'decimal', dec38: 'decimal',
  dt: 'date', ts: 'timestamp', ts_ms: 'timestamp', ts_ns: 'timestamp', tstz: 'timestamp', b: 'bool',
};

const EDGES: Record<Kind, string[]> = {
  int: ['0', '-1', '1.5', '-0.5', '1e3', '2147483648', '9223372036854775807', '-9223372036854775808', '99999999999999999999', 'NULL'],
  double: ['0', '-0.0', "'NaN'", "'inf'", "'-inf'", '1e308', '-1e-300', '0.125', '-59.875', 'NULL'],
  decimal: ['0', '1.5', '-10.00', '10.005', '123456789.123', '-0.01', '0.0000001', 'NULL'],
  string: ["''", "'a'", "'apple'", "'Apple'", "'é'", "'ß'", "'😀'", "'zz'", "'\uffff'", 'NULL'],
  date: ["DATE '1970-01-01'", "DATE '1969-12-31'", "TIMESTAMP '1970-01-05 12:00:00'", "TIMESTAMP '1970-01-05'", "TIMESTAMPTZ '1970-01-05 01:00:00+02'", "'1970-01-05'", 'NULL'],
  timestamp: [
    "DATE '1970-01-01'", "TIMESTAMP '1970-01-01 00:00:00.0000005'", "TIMESTAMP '1969-12-31 23:59:59.9999999'", "TIMESTAMP '1970-01-02 10:17:36.789'",
    "TIMESTAMP '1970-01-01 10:00:00+05'", "TIMESTAMPTZ '1970-01-01 10:00:00+05'", "TIMESTAMPTZ '1970-01-01T03:25:45.6789Z'", 'NULL',
  ],
  bool: ['TRUE', 'FALSE', 'NULL'],
};

/** A literal for a value DuckDB printed as text. */
function literal(kind: Kind, text: string): string {
  switch (kind) {
    case 'string': return sqlString(text);
    case 'date': return `DATE '${text}'`;
    case 'timestamp': return `TIMESTAMP '${text.replace(/[+-]\d\d$/, '')}'`;
    case 'double': return /^-?\d/.test(text) ? text : sqlString(text);
    case 'bool': return text.toUpperCase();
    default: return text;
  }
}

/** LIKE patterns, ILIKE patterns and substrings from a string value. */
function patterns(v: string, r: () => number): { like: string[]; sub: string[] } {
  const cps = [...v];
  const cut = Math.max(1, Math.floor(r() * cps.length));
  const pre = cps.slice(0, cut).join('');
  const suf = cps.slice(cut).join('');
  const mid = cps.slice(Math.floor(cut / 2), cut + 1).join('');
  const under = cps.map((c, i) => (i % 2 === 1 ? '_' : c)).join('');
  return {
    like: [v, `${pre}%`, `%${suf}`, `%${mid}%`, under, `${pre}_%`, `${pre.toUpperCase()}%`, `%${mid.toLowerCase()}%`],
    sub: [pre, mid, suf],
  };
}

/** Case mapping's edges, in every file: ß uppercases to ẞ, no final sigma, İ lowers to i, the Kelvin sign to k, ᾳ uppercases to ᾼ. */
const ALWAYS = [
  "upper(s) = 'STRAẞE'", "upper(s) LIKE '%ẞ%'", "upper(s) < 'STRAẞ'", "lower(s) LIKE 'σίσυφοσ%'", "lower(s) LIKE '%ς%'", "s ILIKE 'σίσυφοσ%'",
  "lower(s) LIKE 'i%'", "s ILIKE 'istanbul%'", "lower(s) LIKE 'kelvin%'", "s ILIKE 'KELVIN%'", "upper(s) LIKE 'ᾈᾼ%'", "upper(s) LIKE 'ǄUNGLA%'",
  "lower(s) LIKE 'ǆungla%'", "upper(s) LIKE 'ﬀ%'", "s ILIKE 'ẞ%'", "s ILIKE 'STRASSE%'",
  // A BOOLEAN column alone, and IS [NOT] TRUE / FALSE (its nulls are neither).
  'b', 'NOT b', '(b)', 'b AND i32 > 0', 'NOT b OR b IS NULL', 'b IS TRUE', 'b IS NOT TRUE', 'b IS FALSE', 'b IS NOT FALSE', 'NOT (b IS NOT TRUE)',
];

const CMP = ['=', '!=', '<>', '<', '<=', '>', '>='];
const FLIP: Record<string, string> = { '<': '>', '<=': '>=', '>': '<', '>=': '<=' };

/** The WHERE texts for one file: every operator on every column, then random combinations. */
function matrix(samples: Record<string, string[]>, seed: number): string[] {
  const r = rng(seed);
  const pick = <T>(a: T[]): T => a[Math.floor(r() * a.length)]!;
  const singles: string[] = [];
  for (const [col, kind] of Object.entries(COLUMNS)) {
    const lits = [...samples[col]!.map((t) => literal(kind, t)), ...EDGES[kind]];
    const ordered = kind !== 'bool';
    for (const lit of lits) {
      for (const op of CMP) if (ordered || op === '=' || op === '!=' || op === '<>') singles.push(`${col} ${op} ${lit}`);
      if (ordered) singles.push(`${lit} ${pick(Object.keys(FLIP))} ${col}`);
      singles.push(`${col} IS DISTINCT FROM ${lit}`, `${col} IS NOT DISTINCT FROM ${lit}`, `NOT (${col} ${pick(CMP)} ${lit})`);
    }
    singles.push(`${col} IS NULL`, `${col} IS NOT NULL`);
    for (let k = 0; k < 6; k++) {
      const [a, b] = [pick(lits), pick(lits)];
      singles.push(`${col} IN (${a}, ${b}, ${pick(lits)})`, `${col} NOT IN (${a}, ${b})`);
      if (ordered) singles.push(`${col} BETWEEN ${a} AND ${b}`, `${col} NOT BETWEEN ${a} AND ${b}`);
    }
    if (kind !== 'string') continue;
    for (const v of samples[col]!) {
      const { like, sub } = patterns(v, r);
      for (const p of like) {
        for (const op of ['LIKE', 'ILIKE', 'NOT LIKE', 'NOT ILIKE']) singles.push(`${col} ${op} ${sqlString(p)}`);
        singles.push(`lower(${col}) LIKE ${sqlString(p.toLowerCase())}`, `upper(${col}) NOT LIKE ${sqlString(p.toUpperCase())}`);
      }
      for (const x of sub) singles.push(`starts_with(${col}, ${sqlString(x)})`, `contains(${col}, ${sqlString(x)})`, `NOT contains(${col}, ${sqlString(x)})`);
      singles.push(`lower(${col}) = ${sqlString(v.toLowerCase())}`, `upper(${col}) >= ${sqlString(v.toUpperCase())}`, `${sqlString(v)} < lower(${col})`);
      singles.push(`upper(${col}) IN (${sqlString(v.toUpperCase())}, 'STRASSE', NULL)`, `lower(${col}) BETWEEN ${sqlString(v)} AND 'zz'`);
    }
    for (const p of ['%', '', '_', '__%', '%😀%', '%\\%', 'a\\%', '100!%%', '%ß%', 'ẞ%', 'é%', 'Σ%', 'σ%', 'ς%', 'ǆ%', 'İ%', 'K%', '😀%', 'a%b%', '%a%a%']) {
      for (const op of ['LIKE', 'ILIKE', 'NOT LIKE']) singles.push(`${col} ${op} ${sqlString(p)}`);
    }
    singles.push(`${col} LIKE '100!%%' ESCAPE '!'`, `${col} LIKE 'a\\_b' ESCAPE '\\'`, `${col} NOT ILIKE 'A$%B' ESCAPE '$'`, `${col} LIKE NULL`, `${col} ILIKE NULL`);
    singles.push(`starts_with(${col}, '')`, `contains(${col}, '')`, `starts_with(${col}, NULL)`, `contains(${col}, NULL)`, `lower(${col}) = NULL`);
  }
  const compound: string[] = [];
  for (let k = 0; k < PER_FILE / 10; k++) {
    const a = pick(singles);
    const b = pick(singles);
    const c = pick(singles);
    compound.push(pick([`(${a}) AND (${b})`, `(${a}) OR (${b}) AND NOT (${c})`, `NOT ((${a}) OR (${b}))`, `NOT (${a}) AND (${b} OR ${c})`]));
  }
  while (singles.length > PER_FILE - compound.length - ALWAYS.length) singles.splice(Math.floor(r() * singles.length), 1);
  return [...ALWAYS, ...singles, ...compound];
}

describe('--where equals DuckDB on DuckDB-written files', () => {
  let duck: DuckFiles;
  const files: Record<string, string> = {};
  before(async () => {
    duck = await DuckFiles.create();
    files.ordered = await duck.write('ordered.parquet', `${QUERY} ORDER BY id`, 'ROW_GROUP_SIZE 2048');
    files.sorted = await duck.write('sorted.parquet', `${QUERY} ORDER BY s, id`, 'ROW_GROUP_SIZE 2048');
    files.paged = join(duck.dir, 'paged.parquet');
    await convert(files.ordered, files.paged, { rowGroupRows: 4000, pageSize: 1024 });
  });
  after(() => duck?.close());

  async function samples(file: string, seed: number): Promise<Record<string, string[]>> {
    const r = rng(seed);
    const ids = Array.from({ length: 4 }, () => Math.floor(r() * N));
    const out: Record<string, string[]> = {};
    const rows = (await duck.duck.runAndReadAll(`SELECT ${Object.keys(COLUMNS).map((c) => `${c}::VARCHAR`).join(', ')} FROM read_parquet(${sqlString(file)}) WHERE id IN (${ids.join(', ')})`)).getRows();
    Object.keys(COLUMNS).forEach((c, j) => (out[c] = rows.map((row) => row[j]).filter((v): v is string => typeof v === 'string')));
    return out;
  }

  /** DuckDB's ids per text in file order (null: DuckDB refuses the text), many texts a query. */
  async function duckRows(file: string, texts: string[]): Promise<(number[] | null)[]> {
    const from = `FROM read_parquet(${sqlString(file)}, file_row_number = true)`;
    const idOf = (await duck.duck.runAndReadAll(`SELECT id ${from} ORDER BY file_row_number`)).getRows().map((row) => Number(row[0]));
    const one = (t: string): string => `list(file_row_number) FILTER (WHERE ${t})`;
    const ids = (v: unknown): number[] => (v === null ? [] : (v as { items: unknown[] }).items.map(Number).sort((a, b) => a - b).map((row) => idOf[row]!));
    const out: (number[] | null)[] = [];
    for (let at = 0; at < texts.length; at += 100) {
      const batch = texts.slice(at, at + 100);
      try {
        const row = (await duck.duck.runAndReadAll(`SELECT ${batch.map(one).join(', ')} ${from}`)).getRows()[0]!;
        out.push(...row.map(ids));
      } catch {
        for (const t of batch) {
          try {
            out.push(ids((await duck.duck.runAndReadAll(`SELECT ${one(t)} ${from}`)).getRows()[0]![0]));
          } catch {
            out.push(null);
          }
        }
      }
    }
    return out;
  }

  for (const [name, seed] of [['ordered', 1], ['sorted', 2], ['paged', 3]] as const) {
    test(`${name}: every text selects DuckDB's rows`, async () => {
      const file = files[name]!;
      const texts = matrix(await samples(file, seed), seed);
      const t0 = performance.now();
      const want = await duckRows(file, texts);
      const t1 = performance.now();
      const reader = await openParquet(file);
      let compared = 0;
      let refused = 0;
      let nonTrivial = 0;
      try {
        for (let k = 0; k < texts.length; k++) {
          if (want[k] === null) {
            refused++;
            continue;
          }
          const got = (await reader.readRows({ columns: ['id'], filter: parseWhere(texts[k]!) })).map((row) => Number(row.id));
          assert.deepEqual(got, want[k], `${name}: WHERE ${texts[k]}`);
          compared++;
          if (want[k]!.length > 0 && want[k]!.length < N) nonTrivial++;
        }
      } finally {
        await reader.close();
      }
      if (process.env.SHOW_TIMES) console.log(name, texts.length, 'duck', Math.round(t1 - t0), 'ours', Math.round(performance.now() - t1));
      assert.ok(compared > PER_FILE * 0.9, `only ${compared} texts compared (${refused} refused by DuckDB)`);
      assert.ok(refused < texts.length / 20, `DuckDB refused ${refused} of ${texts.length} texts`);
      assert.ok(nonTrivial > compared / 3, `only ${nonTrivial} of ${compared} texts select some rows but not all`);
    });
  }

  test('a prefix LIKE on a sorted column skips row groups (DuckDB file) and pages (page index)', async () => {
    const read = async (bytes: Uint8Array, where?: string): Promise<{ bytes: number; ids: number[] }> => {
      const src = new CountingSource(bytes);
      const reader = await ParquetReader.open(src);
      src.bytes = 0;
      const ids = (await reader.readRows({ columns: ['id', 'k'], filter: where === undefined ? undefined : parseWhere(where) })).map((row) => Number(row.id));
      return { bytes: src.bytes, ids };
    };
    const ordered = readFileSync(files.ordered!);
    const all = await read(ordered);
    // k's prefixes run in id order: 'a' in the first row group, 'é' in the second, '😀' in the third.
    for (const where of ["k LIKE 'é0%'", "k LIKE 'é%'", "k LIKE 'a%'", "starts_with(k, '😀')", "k LIKE '😀0%1'"]) {
      const some = await read(ordered, where);
      const want = (await duckRows(files.ordered!, [where]))[0]!;
      assert.deepEqual(some.ids, want, where);
      if (process.env.SHOW_TIMES) console.log(`${where}: ${some.bytes} of ${all.bytes} bytes`);
      assert.ok(want.length > 0 && some.bytes < all.bytes / 2, `${where}: read ${some.bytes} of ${all.bytes} bytes`);
    }
    // Page index: our writer, one row group, pages of 500 rows.
    const schema = defineSchema({ id: f.int32().required(), k: f.string() });
    const sink = new BufferSink();
    const w = await ParquetWriter.open(sink, schema, { pageRowLimit: 500, dictionary: false });
    const M = 60_000;
    const keys = Array.from({ length: M }, (_, i) => `${String.fromCodePoint(0x61 + Math.floor((i * 26) / M))}é${String(i).padStart(5, '0')}`);
    await w.writeMany(keys.map((k, id) => ({ id, k })));
    await w.close();
    const paged = sink.bytes();
    const full = await read(paged);
    for (const [where, match] of [["k LIKE 'cé%'", (k: string) => k.startsWith('cé')], ["k LIKE 'qé0%1'", (k: string) => /^qé0.*1$/.test(k)]] as const) {
      const some = await read(paged, where);
      assert.deepEqual(some.ids, keys.flatMap((k, i) => (match(k) ? [i] : [])), where);
      if (process.env.SHOW_TIMES) console.log(`${where}: ${some.bytes} of ${full.bytes} bytes`);
      assert.ok(some.bytes < full.bytes / 10, `${where}: read ${some.bytes} of ${full.bytes} bytes`);
    }
  });
});
