/**
 * A Trevni table's `columns` read only the columns they need: for every
 * file of the version 2 and 1 corpora and for generated wide files (plain
 * columns, Avro records with nested, repeated, keyed, optional and renamed
 * fields, and the wiki draft's dialect), `rows({ columns })` is the full read cut to those
 * top-level fields (in the schema's order, whatever order they are asked
 * in), over ranges at the start and the end; and a source that counts bytes shows a
 * one-column read of a wide file fetching a small part of what a full read
 * fetches.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openTable, type Table } from '../../src/node/index.js';
import { BufferSink } from '../../src/io/sink.js';
import { TrevniWriter } from '../../src/trevni/writer.js';
import { AvroTrevniWriter } from '../../src/trevni/avro.js';
import { TrevniDraftWriter } from '../../src/trevni/draft/writer.js';
import { buildSchema, type SchemaElementLike } from '../../src/schema/tree.js';
import { TREVNI_CORPUS, TREVNI_V1_CORPUS, trvFiles } from '../trevni/corpus-util.js';
import { allRows } from './helpers.js';

type Row = Record<string, unknown>;

/** A source over `data` that counts the bytes it is asked for. */
function counting(data: Uint8Array, name: string): { source: { byteLength: number; name: string; read(o: number, n: number): Promise<Uint8Array> }; bytes: () => number } {
  let bytes = 0;
  return {
    bytes: () => bytes,
    source: {
      byteLength: data.length,
      name,
      async read(offset, length) {
        bytes += length;
        return data.slice(offset, offset + length);
      },
    },
  };
}

/** The top-level fields of `row` named in `names`, in the schema's field order. */
function cut(row: Row, names: readonly string[], order: readonly string[]): Row {
  const keep = new Set(names);
  return Object.fromEntries(order.filter((n) => keep.has(n)).map((n) => [n, row[n]]));
}

/** Selections of a table's top-level fields: each alone, every other one. */
function selections(fields: readonly string[]): string[][] {
  const out = fields.map((f) => [f]);
  if (fields.length > 2) out.push(fields.filter((_, i) => i % 2 === 1));
  return out;
}

/** Each selection read through `columns` equals the full read of the same rows cut to it. */
async function assertProjections(open: () => Promise<Table>, label: string): Promise<number> {
  await using t = await open();
  const fields = t.schema.root.children.map((c) => c.name);
  const full = new Map<string, Promise<Row[]>>();
  let checked = 0;
  const check = async (names: string[], range: { offset?: number; limit?: number }) => {
    const key = JSON.stringify(range);
    if (!full.has(key)) full.set(key, allRows(t, range));
    const want = (await full.get(key)!).map((r) => cut(r, names, fields));
    const got = await allRows(t, { columns: names, ...range });
    assert.deepStrictEqual(got, want, `${label} columns ${JSON.stringify(names)} ${key}`);
    for (const r of got) assert.deepStrictEqual(Object.keys(r), Object.keys(want[0]!), `${label}: key order`);
    checked++;
  };
  // The first and last fields (asked last first) over the first rows and the last; every selection over the first rows, to keep the test fast.
  if (fields.length) {
    const ends = [fields[fields.length - 1]!, fields[0]!];
    await check(ends, { limit: 1500 });
    await check(ends, { offset: Math.max(0, t.numRows - 3), limit: 2 });
  }
  for (const names of selections(fields)) await check(names, { limit: 300 });
  return checked;
}

/** Whether a full read of the file succeeds (the quirks the corpus keeps fail it, so have nothing to compare with). */
async function readsWhole(path: string): Promise<boolean> {
  const t = await openTable(path);
  try {
    await allRows(t);
    return true;
  } catch {
    return false;
  } finally {
    await t.close();
  }
}

test('the Trevni corpora, version 2 and 1: each selection of columns is the full read cut to it', async () => {
  let files = 0;
  for (const dir of [TREVNI_CORPUS, TREVNI_V1_CORPUS]) {
    for (const trv of trvFiles(dir)) {
      const path = join(dir, trv);
      if (!(await readsWhole(path))) continue;
      await assertProjections(() => openTable(path), path);
      files++;
    }
  }
  assert.ok(files >= 55, `${files} files`);
});

const WIDE_COLUMNS = 40;
const WIDE_ROWS = 4000;

async function widePlain(): Promise<Uint8Array> {
  const sink = new BufferSink();
  const w = await TrevniWriter.open(sink, Array.from({ length: WIDE_COLUMNS }, (_, i) => ({ name: `c${i}`, type: i % 2 ? 'long' as const : 'string' as const })));
  for (let r = 0; r < WIDE_ROWS; r++) await w.writeRow(Array.from({ length: WIDE_COLUMNS }, (_, i) => (i % 2 ? BigInt(r * i) : `row ${r} column ${i}`)));
  await w.close();
  return sink.bytes();
}

const AVRO_FIELDS = 12;

async function wideAvro(): Promise<Uint8Array> {
  const fields: unknown[] = [];
  for (let i = 0; i < AVRO_FIELDS; i++) {
    fields.push(
      { name: `n${i}`, type: 'long' },
      { name: `s${i}`, type: 'string', 'parquetry.name': `s ${i}` },
      { name: `a${i}`, type: { type: 'array', items: 'int' } },
      { name: `m${i}`, type: { type: 'map', values: 'string' } },
      { name: `o${i}`, type: ['null', 'double'] },
      { name: `r${i}`, type: { type: 'record', name: `R${i}`, fields: [{ name: 'x', type: 'int' }, { name: 'y', type: ['null', 'string'] }] } },
    );
  }
  const sink = new BufferSink();
  const w = await AvroTrevniWriter.open(sink, JSON.stringify({ type: 'record', name: 'Wide', fields }));
  for (let r = 0; r < WIDE_ROWS / 4; r++) {
    const rec: Row = {};
    for (let i = 0; i < AVRO_FIELDS; i++) {
      rec[`n${i}`] = BigInt(r - i);
      rec[`s${i}`] = `row ${r} field ${i}`;
      rec[`a${i}`] = Array.from({ length: (r + i) % 4 }, (_, k) => r + k);
      rec[`m${i}`] = Object.fromEntries(Array.from({ length: (r * i) % 3 }, (_, k) => [`k${k}`, `v${r}`]));
      rec[`o${i}`] = (r + i) % 3 ? null : r / 2;
      rec[`r${i}`] = { x: r * i, y: r % 2 ? `y${r}` : null };
    }
    await w.write(rec);
  }
  await w.close();
  return sink.bytes();
}

const DRAFT_FIELDS = 20;

/** A wide file of the wiki draft's dialect: optional, repeated and nested fields. */
async function wideDraft(): Promise<Uint8Array> {
  const elements: SchemaElementLike[] = [{ name: 'schema', numChildren: DRAFT_FIELDS * 3 }];
  for (let i = 0; i < DRAFT_FIELDS; i++) {
    elements.push(
      { name: `id${i}`, type: 'INT64', repetitionType: 'REQUIRED' },
      { name: `name${i}`, type: 'BYTE_ARRAY', repetitionType: 'OPTIONAL', convertedType: 'UTF8' },
      { name: `tags${i}`, repetitionType: 'OPTIONAL', convertedType: 'LIST', numChildren: 1 },
      { name: 'list', repetitionType: 'REPEATED', numChildren: 1 },
      { name: 'element', type: 'INT32', repetitionType: 'OPTIONAL' },
    );
  }
  const sink = new BufferSink();
  const w = await TrevniDraftWriter.open(sink, buildSchema(elements));
  for (let r = 0; r < WIDE_ROWS / 2; r++) {
    const rec: Row = {};
    for (let i = 0; i < DRAFT_FIELDS; i++) {
      rec[`id${i}`] = BigInt(r * i);
      rec[`name${i}`] = (r + i) % 3 ? `row ${r} field ${i}` : null;
      rec[`tags${i}`] = (r + i) % 5 ? Array.from({ length: (r + i) % 4 }, (_, k) => (k === 1 ? null : r + k)) : null;
    }
    await w.write(rec);
  }
  await w.close();
  return sink.bytes();
}

test('generated wide files, plain, Avro and draft: each selection is the full read cut to it', async () => {
  for (const [label, bytes] of [['plain', await widePlain()], ['avro', await wideAvro()], ['draft', await wideDraft()]] as const) {
    const checked = await assertProjections(() => openTable(bytes), label);
    assert.ok(checked > 20, `${label}: ${checked} selections`);
  }
});

test('a one-column read of a wide file fetches a small part of the bytes a full read fetches', async (t) => {
  for (const [label, bytes, column] of [['plain', await widePlain(), 'c7'], ['avro', await wideAvro(), 'a3'], ['draft', await wideDraft(), 'tags4']] as const) {
    const fullCount = counting(bytes, label);
    await using full = await openTable(fullCount.source);
    const all = await allRows(full);
    const oneCount = counting(bytes, label);
    await using one = await openTable(oneCount.source);
    const rows = await allRows(one, { columns: [column] });
    assert.deepStrictEqual(rows, all.map((r) => ({ [column]: r[column] })));
    t.diagnostic(`${label} (${bytes.length} bytes): full read ${fullCount.bytes()} bytes, columns [${column}] ${oneCount.bytes()} bytes`);
    assert.ok(oneCount.bytes() * 4 < fullCount.bytes(), `${label}: one column ${oneCount.bytes()} bytes, all ${fullCount.bytes()}`);
  }
});
