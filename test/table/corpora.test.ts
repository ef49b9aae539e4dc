/**
 * Every format's shared corpus read through `openTable`, against the
 * independent truth each corpus carries: the Parquet conformance corpus's
 * expected rows (DuckDB and other readers), what the Java Trevni readers
 * saw (version 2 and 1: per-column values, and trevni-avro's records), the
 * RedElm prototype's records, DuckDB's reading of a Hive dataset it wrote
 * and of CSV, JSON Lines and JSON it reads. `numRows` is the rows yielded.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { ChecksumError, MissingKeyError, openTable, type Table } from '../../src/node/index.js';
import { CORPUS, expectedText, firstDifference, manifest } from '../conformance/corpus.js';
import { TREVNI_CORPUS, TREVNI_V1_CORPUS, canonicalRowsFromExpected, expected, trvFiles } from '../trevni/corpus-util.js';
import { REDELM_CORPUS, expectedLines, inConvention, redelmCases } from '../redelm/corpus-util.js';
import { assertAgrees, SALES, useDuck } from '../dataset/helpers.js';
import { AVRO_SCHEMA_KEY, branchName, parseAvroSchema, type AvroSchema } from '../../src/trevni/avro.js';
import { TrevniReader } from '../../src/trevni/reader.js';
import { metaGet } from '../../src/trevni/types.js';
import type { Dataset } from '../../src/dataset/dataset.js';
import { allRows, asRowSource, canonicalText, tablePlan } from './helpers.js';

/** Reads every row, checking `numRows` against what was yielded. */
async function counted(table: Table, text: string): Promise<void> {
  assert.equal(text.split('\n').length - 1, table.numRows, 'numRows is the rows yielded');
}

const CORRUPT_CRC = /corrupt-checksum/;

test('the Parquet corpus: every file with expected rows, through openTable', async () => {
  let files = 0;
  for (const entry of manifest().filter((e) => e.expected)) {
    const path = join(CORPUS, entry.path);
    await using table = await openTable(path, CORRUPT_CRC.test(entry.path) ? { verifyChecksums: false } : {});
    assert.equal(table.format, 'parquet');
    const text = await canonicalText(table);
    const want = expectedText(entry);
    assert.ok(text === want, `${entry.path}: ${firstDifference(text, want)}`);
    await counted(table, text);
    files++;
  }
  assert.ok(files >= 75, `${files} files`);
});

test('Parquet errors stay typed through openTable: a checksum, a missing key', async () => {
  const crc = manifest().find((e) => CORRUPT_CRC.test(e.path) && e.expected)!;
  await using t = await openTable(join(CORPUS, crc.path));
  await assert.rejects(canonicalText(t), ChecksumError);
  const encrypted = manifest().find((e) => e.path.endsWith('.encrypted'))!;
  await assert.rejects(openTable(join(CORPUS, encrypted.path)), MissingKeyError);
});

const TREVNI = [{ dir: TREVNI_CORPUS, version: 2 }, { dir: TREVNI_V1_CORPUS, version: 1 }] as const;
const QUIRKS = /^quirk_/;

test('Trevni version 2 and 1 files of plain columns: the rows the Java reader saw', async () => {
  for (const { dir, version } of TREVNI) {
    for (const trv of trvFiles(dir).filter((f) => !f.startsWith('avro_') && !QUIRKS.test(f))) {
      await using table = await openTable(join(dir, trv));
      assert.equal(table.format, 'trevni');
      const text = await canonicalText(table);
      const want = canonicalRowsFromExpected(expected(trv, dir)).map((l) => l + '\n').join('');
      assert.ok(text === want, `version ${version} ${trv}: ${firstDifference(text, want)}`);
      await counted(table, text);
    }
  }
});

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const SPECIAL: Record<string, number> = { NaN: NaN, Infinity: Infinity, '-Infinity': -Infinity };

/** Our row's value in the corpus's Avro JSON conventions (its README): long as text, bytes and fixed as hex, unions wrapped by branch, maps as objects. */
function ours(s: AvroSchema, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  switch (s.type) {
    case 'long': return String(v);
    case 'bytes':
    case 'fixed': return hex(v as Uint8Array);
    case 'record': return Object.fromEntries(s.fields.map((f) => [f.name, ours(f.type, (v as Record<string, unknown>)[f.name])]));
    case 'array': return (v as unknown[]).map((x) => ours(s.items, x));
    case 'map': return Object.fromEntries((v as { key: string; value: unknown }[]).map((e) => [e.key, ours(s.values, e.value)]));
    case 'union': {
      const others = s.branches.filter((b) => b.type !== 'null');
      if (others.length === 1) return { [branchName(others[0]!)]: ours(others[0]!, v) };
      const o = v as Record<string, unknown>;
      const b = others.find((x) => o[branchName(x)] !== null && o[branchName(x)] !== undefined);
      return b ? { [branchName(b)]: ours(b, o[branchName(b)]) } : null;
    }
    default: return v;
  }
}

/** The corpus's JSON with floats as numbers at their precision. */
function theirs(s: AvroSchema, v: unknown): unknown {
  if (v === null) return null;
  switch (s.type) {
    case 'float':
    case 'double': {
      const n = typeof v === 'string' ? SPECIAL[v]! : (v as number);
      return s.type === 'float' ? Math.fround(n) : n;
    }
    case 'record': return Object.fromEntries(s.fields.map((f) => [f.name, theirs(f.type, (v as Record<string, unknown>)[f.name])]));
    case 'array': return (v as unknown[]).map((x) => theirs(s.items, x));
    case 'map': return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, theirs(s.values, x)]));
    case 'union': {
      const [k, x] = Object.entries(v as Record<string, unknown>)[0]!;
      return { [k]: theirs(s.branches.find((b) => branchName(b) === k)!, x) };
    }
    default: return v;
  }
}

test('Trevni Avro files, version 2 and 1: the records trevni-avro\'s Java reader assembled', async () => {
  let files = 0;
  for (const { dir } of TREVNI) {
    for (const trv of trvFiles(dir).filter((f) => f.startsWith('avro_'))) {
      const reader = await TrevniReader.open(new Uint8Array(readFileSync(join(dir, trv))));
      const schema = parseAvroSchema(new TextDecoder().decode(metaGet(reader.metadata, AVRO_SCHEMA_KEY)!));
      await reader.close();
      await using table = await openTable(join(dir, trv));
      const rows = await allRows(table);
      assert.equal(rows.length, table.numRows);
      const got = rows.map((r) => ours(schema, schema.type === 'record' ? r : r.value));
      const want = readFileSync(join(dir, `${trv}.expected-avro.jsonl`), 'utf8').split('\n').filter((l) => l).map((l) => theirs(schema, JSON.parse(l)));
      assert.deepStrictEqual(got, want, `${dir} ${trv}`);
      files++;
    }
  }
  assert.ok(files >= 15, `${files} files`);
});

test('RedElm: every corpus file reads the records the prototype wrote', async () => {
  for (const name of redelmCases()) {
    await using table = await openTable(join(REDELM_CORPUS, `${name}.redelm`));
    assert.equal(table.format, 'redelm');
    const plan = tablePlan(table);
    const rows = (await allRows(table)).map((r) => inConvention(plan, r, 'ours'));
    const want = expectedLines(name).map((l) => inConvention(plan, JSON.parse(l), 'theirs'));
    assert.deepStrictEqual(rows, want, name);
    assert.equal(table.numRows, rows.length);
  }
});

let dir = '';
let duck: DuckDBConnection;
useDuck((files) => ({ dir, duck } = files));

test('a Hive dataset DuckDB wrote: the rows DuckDB reads, through a directory and a glob', async () => {
  const out = join(dir, 'sales');
  await duck.run(`COPY (${SALES}) TO '${out}' (FORMAT PARQUET, PARTITION_BY (region, cat, day))`);
  const sql = `SELECT * FROM read_parquet('${out}/**/*.parquet', hive_partitioning = true)`;
  for (const input of [out, `${out}/**/*.parquet`]) {
    await using table = await openTable(input);
    assert.equal(table.format, 'dataset');
    assert.equal(table.numRows, 200);
    assert.equal(await assertAgrees(duck, asRowSource(table) as unknown as Dataset, {}, sql), 200);
    await assertAgrees(duck, asRowSource(table) as unknown as Dataset, { filter: "qty > 50 AND cat LIKE 'a%'", offset: 3, limit: 10 } as object,
      `${sql} WHERE qty > 50 AND cat LIKE 'a%' LIMIT 10 OFFSET 3`);
  }
});

const CSV = `id,name,price,day,flag
1,apple,1.5,2024-01-02,true
2,"pear, green",,2024-02-29,false
3,,-0.25,,true
4,"quote ""q""",1e3,1999-12-31,
`;

test('CSV, TSV, JSON Lines and JSON: the rows DuckDB reads from the same text', async () => {
  const rows = [
    { id: 1, name: 'apple', price: 1.5 }, { id: 2, name: 'pear, green', price: null }, { id: 3, name: null, price: -0.25 }, { id: 40, name: 'x', price: 1000 },
  ];
  const files = {
    csv: CSV,
    tsv: CSV.replaceAll(',', '\t').replace('"pear\t green"', 'pear, green'),
    jsonl: rows.map((r) => JSON.stringify(r)).join('\n') + '\n',
    json: JSON.stringify(rows),
  };
  const reads: Record<string, string> = {
    csv: "read_csv('%', header = true)", tsv: "read_csv('%', header = true, delim = '\t')", jsonl: "read_json('%', format = 'newline_delimited')", json: "read_json('%', format = 'array')",
  };
  for (const [ext, text] of Object.entries(files)) {
    const path = join(dir, `t.${ext}`);
    writeFileSync(path, text);
    await using table = await openTable(path);
    assert.equal(table.format, ext);
    const n = await assertAgrees(duck, asRowSource(table) as unknown as Dataset, {}, `SELECT * FROM ${reads[ext]!.replace('%', path)}`);
    assert.equal(table.numRows, n, ext);
    // The same text by bytes and a format, and by its name.
    await using bytes = await openTable(new TextEncoder().encode(text), { format: ext as 'csv' });
    assert.equal(await canonicalText(bytes), await canonicalText(table));
    await using named = await openTable(new Blob([text]), { name: `x.${ext}` });
    assert.equal(named.numRows, n);
  }
});
