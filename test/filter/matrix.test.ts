/**
 * The generated matrix: for corpus files with a page index or several row
 * groups, and for files written by DuckDB, parquet-wasm and parquetry, every
 * operator on every testable column with literals drawn from the data (and
 * outside it), plus random and/or/not trees: the filtered read must equal the
 * full read filtered by the reference evaluator; on the written files a
 * subset must also equal DuckDB's WHERE.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { openParquet, type Filter, type LeafNode, type ParquetReader, type SchemaNode } from '../../src/node/index.js';
import { corpusFiles, written } from './fixtures.js';
import { deepSame } from '../writer/oracles.js';
import { compoundFilters, kindOf, leafFilters, leafValues, refEval, sampleLiterals, toSql, type Kind } from './reference.js';
import { rng } from '../writer/gen.js';

function key(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => {
    if (typeof x === 'bigint') return `${x}n`;
    if (typeof x === 'number' && !Number.isFinite(x)) return String(x);
    if (Object.is(x, -0)) return '-0';
    if (x instanceof Uint8Array) return `hex:${Buffer.from(x).toString('hex')}`;
    return x;
  });
}

/** Leaves outside VARIANT groups that the reference can test. */
function testableLeaves(reader: ParquetReader): LeafNode[] {
  const out: LeafNode[] = [];
  const walk = (n: SchemaNode): void => {
    if (n.isLeaf) {
      if (kindOf(n)) out.push(n);
    } else if (n.kind !== 'variant') for (const c of n.children) walk(c);
  };
  walk(reader.schema.root);
  return out;
}

interface Matrix {
  reader: ParquetReader;
  filters: Filter[];
  kinds: Map<string, { kind: Kind; path: string[] }>;
  all: Record<string, unknown>[];
}

async function matrix(path: string, seed: number, maxLeaves: number, maxSingles: number, compounds: number): Promise<Matrix> {
  // The bytes in memory: hundreds of reads of one file test the filter, not the file source (its own tests do).
  const reader = await openParquet(readFileSync(path));
  const all = await reader.readRows();
  const rand = rng(seed);
  let leaves = testableLeaves(reader);
  while (leaves.length > maxLeaves) leaves.splice(Math.floor(rand() * leaves.length), 1);
  const kinds = new Map<string, { kind: Kind; path: string[] }>();
  const singles: Filter[] = [];
  for (const leaf of leaves) {
    const kind = kindOf(leaf)!;
    kinds.set(leaf.path.join('.'), { kind, path: leaf.path });
    const values = all.flatMap((r) => leafValues(r, leaf.path));
    singles.push(...leafFilters(leaf.path as unknown as string, kind, sampleLiterals(kind, values, rand)));
  }
  // A random subset of the single-leaf filters keeps the run short; the compound ones draw from all of them.
  const some = [...singles];
  while (some.length > maxSingles) some.splice(Math.floor(rand() * some.length), 1);
  return { reader, kinds, all, filters: [...some, ...compoundFilters(singles, compounds, rand)] };
}

/** Whether `got` are the rows of `want` (indexes into m.all), compared as values, not as key() text: a matrix compares millions of cells. */
function sameRows(m: Matrix, got: Record<string, unknown>[], want: number[]): boolean {
  return got.length === want.length && got.every((r, i) => deepSame(r, m.all[want[i]!]));
}

async function checkAgainstReference(m: Matrix, label: string): Promise<void> {
  for (const filter of m.filters) {
    const want = m.all.flatMap((r, i) => (refEval(filter, r, m.kinds) === 1 ? [i] : []));
    const got = await m.reader.readRows({ filter });
    if (!sameRows(m, got, want)) {
      const wantRows = want.map((i) => m.all[i]);
      assert.fail(`${label}: filter ${key(filter)}: got ${got.length} rows, want ${want.length}\n got ${key(got).slice(0, 400)}\nwant ${key(wantRows).slice(0, 400)}`);
    }
    // With a limit the scan stops early, a window of rows at a time (scanRowGroupUntil): the same rows, sliced.
    const offset = Math.floor(want.length / 3);
    const limit = 1 + (want.length % 7);
    const part = await m.reader.readRows({ filter, offset, limit });
    const wantPart = want.slice(offset, offset + limit);
    if (!sameRows(m, part, wantPart)) assert.equal(key(part), key(wantPart.map((i) => m.all[i])), `${label}: filter ${key(filter)} offset ${offset} limit ${limit}`);
  }
}

describe('filtered reads equal the reference on corpus files', () => {
  corpusFiles().forEach((path, i) => {
    test(basename(path), async () => {
      const m = await matrix(path, 1000 + i, 6, 80, 20);
      try {
        await checkAgainstReference(m, basename(path));
      } finally {
        await m.reader.close();
      }
    });
  });
});

type SqlType = 'int' | 'double' | 'str' | 'dec' | 'date' | 'ts' | 'bool';
const SQL_TYPES: Record<string, SqlType> = {
  id: 'int', i32: 'int', i64: 'int', n: 'int', 'st.a': 'int', dbl: 'double', s: 'str', u: 'str', 'st.b': 'str',
  dec: 'dec', dt: 'date', ts: 'ts', b: 'bool',
};

function sqlLiteral(column: string, v: unknown): string | undefined {
  const t = SQL_TYPES[column];
  if (t === undefined) return v === undefined ? 'unknown column' : undefined;
  if (typeof v === 'number' && Number.isNaN(v)) return t === 'str' || t === 'bool' ? undefined : `'NaN'::DOUBLE`;
  switch (t) {
    case 'int':
      return typeof v === 'number' || typeof v === 'bigint' ? String(v) : typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v) ? v : undefined;
    case 'dec':
      return (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'string') && /^-?\d+(\.\d+)?$/.test(String(v)) ? String(v) : undefined;
    case 'double':
      return typeof v === 'number' ? `'${v}'::DOUBLE` : undefined;
    case 'str':
      return typeof v === 'string' ? `'${v.replaceAll("'", "''")}'` : undefined;
    case 'date':
      return typeof v === 'number' && Number.isInteger(v) ? `DATE '${new Date(v * 86_400_000).toISOString().slice(0, 10)}'` : undefined;
    case 'ts':
      return typeof v === 'bigint' || (typeof v === 'number' && Number.isInteger(v)) ? `make_timestamp(${v}::BIGINT)` : undefined;
    case 'bool':
      return typeof v === 'boolean' ? String(v).toUpperCase() : undefined;
  }
}

describe('filtered reads on written files', () => {
  after(async () => (await written()).duck.close());
  for (const which of ['duckdb', 'wasm', 'own'] as const) {
    test(`${which}: reference and DuckDB WHERE`, async () => {
      const files = await written();
      const path = files[which];
      const m = await matrix(path, which.length * 77, 20, 200, 60);
      try {
        await checkAgainstReference(m, which);
        // DuckDB's WHERE on the rows loaded into a table: its Parquet scan prunes row groups with
        // min/max that (as the spec says) leave NaN out, so `dbl > max` loses the NaN rows there.
        await files.duck.duck.run(`CREATE OR REPLACE TABLE t AS SELECT * FROM read_parquet('${path}')`);
        let compared = 0;
        for (const filter of m.filters) {
          const sql = toSql(filter, sqlLiteral);
          if (sql === undefined) continue;
          const duck = await files.duck.duck.runAndReadAll(`SELECT id FROM t WHERE ${sql} ORDER BY id`);
          const want = duck.getRows().map((r) => Number(r[0]));
          const got = (await m.reader.readRows({ columns: ['id'], filter })).map((r) => Number(r.id)).sort((a, b) => a - b);
          assert.deepEqual(got, want, `${which}: ${sql}`);
          compared++;
        }
        assert.ok(compared > 100, `only ${compared} filters compared with DuckDB`);
      } finally {
        await m.reader.close();
      }
    });
  }
});
