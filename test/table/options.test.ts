/**
 * One options vocabulary on every format's table: the same rows written as
 * Parquet, a dataset, Trevni v2, v1 and the draft, RedElm, CSV, JSON
 * Lines and a JSON array, each read with the same columns/offset/limit/filter/signal and
 * value options, against the rows the test computes itself; what a format
 * cannot honour is a typed error naming the option; `await using` closes
 * the file (descriptors counted in /proc/self/fd).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { convert } from '../../src/node/entries/convert.js';
import { defineSchema, field, InvalidArgumentError, LimitError, openTable, UnsupportedOptionError, writeParquet, type Table, type TableFormatName } from '../../src/node/index.js';
import { openRedElm } from '../../src/node/entries/redelm.js';
import { openTrevni } from '../../src/node/entries/trevni.js';
import type { LeafKind } from '../../src/schema/logical.js';
import type { Plan } from '../../src/shred/plan.js';
import { allRows, tablePlan } from './helpers.js';

const N = 23;
const schema = defineSchema({
  id: field.int64().required(),
  name: field.string(),
  score: field.double(),
  tags: field.list(field.string().required()),
  day: field.date(),
  at: field.timestamp('MICROS', { utc: true }),
  price: field.decimal(9, 2),
});
const records = Array.from({ length: N }, (_, i) => ({
  id: BigInt(i * 3 - 7),
  name: i % 5 === 0 ? null : `n${i}`,
  score: i % 4 === 0 ? null : i / 4,
  tags: i % 3 === 0 ? [] : [`t${i}`, `u${i}`],
  day: i % 6 === 0 ? null : 19000 + i * 40,
  at: i % 7 === 0 ? null : 1_700_000_000_000_000n + BigInt(i) * 3_600_000_001n,
  price: i % 8 === 0 ? null : `${i * 7 - 50}.${String(i).padStart(2, '0')}`,
}));

let dir = '';
const inputs = new Map<string, { path: string; format: TableFormatName; filters: boolean }>();

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'parquetry-table-'));
  const parquet = join(dir, 't.parquet');
  await writeParquet(parquet, records, { schema, rowGroupRows: 5 });
  mkdirSync(join(dir, 'ds'));
  await writeParquet(join(dir, 'ds', 'a.parquet'), records.slice(0, 10), { schema });
  await writeParquet(join(dir, 'ds', 'b.parquet'), records.slice(10), { schema });
  inputs.set('parquet', { path: parquet, format: 'parquet', filters: true });
  inputs.set('dataset', { path: join(dir, 'ds'), format: 'dataset', filters: true });
  for (const [name, options] of [['trevni', {}], ['trevni-v1', { trevniVersion: 1 }], ['trevni-draft', { trevniVersion: 'draft', columns: ['id', 'name', 'score', 'tags'] }]] as const) {
    const path = join(dir, `${name}.trv`);
    // The draft has no temporal types.
    await convert(parquet, path, { to: 'trevni', ...options });
    inputs.set(name, { path, format: 'trevni', filters: false });
  }
  await convert(parquet, join(dir, 't.redelm'), { to: 'redelm' });
  inputs.set('redelm', { path: join(dir, 't.redelm'), format: 'redelm', filters: false });
  // Text loses the list (CSV) and the types (inferred again); the rows to compare are the table's own.
  await convert(parquet, join(dir, 't.jsonl'));
  inputs.set('jsonl', { path: join(dir, 't.jsonl'), format: 'jsonl', filters: true });
  await convert(parquet, join(dir, 't.json'));
  inputs.set('json', { path: join(dir, 't.json'), format: 'json', filters: true });
  await convert(parquet, join(dir, 't.csv'), { columns: ['id', 'name', 'score', 'day'] });
  inputs.set('csv', { path: join(dir, 't.csv'), format: 'csv', filters: true });
});

after(() => rmSync(dir, { recursive: true, force: true }));

/** `row` cut to the table's projection, in its order. */
function project(table: Table, columns: string[], row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(tablePlan(table, columns).fields.map((f) => [f.name, row[f.name]]));
}

test('columns, offset, limit and batches: the slice of the whole table, on every format; numRows is the rows yielded', async () => {
  for (const [name, { path, format }] of inputs) {
    await using table = await openTable(path);
    assert.equal(table.format, format, name);
    const all = await allRows(table);
    assert.equal(all.length, table.numRows, name);
    assert.equal(all.length, N, name);
    const names = tablePlan(table).fields.map((f) => f.name);
    for (const columns of [[names[0]!], [names[1]!, names[0]!], names.slice(-2)]) {
      for (const [offset, limit] of [[0, undefined], [3, 5], [0, 0], [N - 2, 10], [N + 3, 1], [7, undefined]] as const) {
        const want = all.slice(offset, limit === undefined ? undefined : offset + limit).map((r) => project(table, columns, r));
        const got = await allRows(table, { columns, offset, ...(limit !== undefined ? { limit } : {}) });
        assert.deepStrictEqual(got, want, `${name} ${columns} ${offset} ${limit}`);
        const batches: Record<string, unknown>[][] = [];
        for await (const b of table.rowBatches({ columns, offset, batchSize: 4, ...(limit !== undefined ? { limit } : {}) })) batches.push(b);
        assert.ok(batches.every((b) => b.length <= 4 && b.length > 0), name);
        assert.deepStrictEqual(batches.flat(), want, `${name} batches`);
      }
    }
    await assert.rejects(allRows(table, { columns: ['nope'] }), InvalidArgumentError, name);
    await assert.rejects(allRows(table, { offset: -1 }), InvalidArgumentError, name);
    const arrow = await table.toArrow({ columns: [names[0]!], offset: 2, limit: 5 });
    assert.equal(arrow.numRows, 5, name);
    assert.deepEqual(arrow.schema.fields.map((f) => f.name), [names[0]], name);
    assert.deepEqual([...arrow.getChildAt(0)!].map(String), all.slice(2, 7).map((r) => String(r[names[0]!])), name);
  }
});

test('a filter (Filter or --where text) keeps the rows it says where the format filters; Trevni and RedElm refuse it, typed', async () => {
  for (const [name, { path, filters }] of inputs) {
    await using table = await openTable(path);
    const all = await allRows(table);
    const where = 'id >= 5 AND id < 40';
    if (!filters) {
      for (const filter of [where, { column: 'id', op: '>=', value: 5 } as const]) {
        assert.throws(() => table.rows({ filter }), (e: unknown) => e instanceof UnsupportedOptionError && e.option === 'filter' && e.format === 'redelm' === (name === 'redelm'), name);
      }
      await assert.rejects(table.toArrow({ filter: where }), UnsupportedOptionError, name);
      continue;
    }
    const want = all.filter((r) => Number(r.id) >= 5 && Number(r.id) < 40);
    assert.ok(want.length > 3 && want.length < N);
    assert.deepStrictEqual(await allRows(table, { filter: where }), want, name);
    assert.deepStrictEqual(await allRows(table, { filter: { and: [{ column: 'id', op: '>=', value: 5 }, { column: 'id', op: '<', value: 40 }] }, offset: 1, limit: 2 }), want.slice(1, 3), name);
    assert.equal((await table.toArrow({ filter: where })).numRows, want.length, name);
  }
});

test('a signal stops a read: aborted before, or between batches, the read throws its reason', async () => {
  for (const [name, { path }] of inputs) {
    await using table = await openTable(path);
    const before = new AbortController();
    before.abort();
    await assert.rejects(allRows(table, { signal: before.signal }), { name: 'AbortError' }, name);
    await assert.rejects(table.toArrow({ signal: before.signal }), { name: 'AbortError' }, name);
    const during = new AbortController();
    let seen = 0;
    await assert.rejects(async () => {
      for await (const b of table.rowBatches({ batchSize: 2, signal: during.signal })) {
        seen += b.length;
        during.abort();
      }
    }, { name: 'AbortError' }, name);
    assert.equal(seen, 2, name);
  }
  // The open of a text input reads it whole: a signal stops that too.
  const c = new AbortController();
  c.abort();
  await assert.rejects(openTable(inputs.get('csv')!.path, { signal: c.signal }), { name: 'AbortError' });
});

test('columns(): the selected leaves\' vectors, every row once, where the format has column vectors', async () => {
  let checked = 0;
  for (const [name, { path }] of inputs) {
    await using table = await openTable(path);
    const columns = table.columns?.bind(table);
    if (!columns) continue;
    const all = await allRows(table);
    const first = tablePlan(table).fields[0]!.name;
    let rows = 0;
    let values = 0;
    for await (const batch of columns({ columns: [first] })) {
      assert.deepEqual(batch.path, [first], name);
      rows += batch.rows;
      values += batch.data.valueCount;
    }
    assert.equal(rows, table.numRows, name);
    assert.equal(values, all.filter((r) => r[first] !== null).length, name);
    const stopped = new AbortController();
    stopped.abort();
    await assert.rejects(async () => {
      for await (const _ of columns({ signal: stopped.signal }));
    }, { name: 'AbortError' }, name);
    checked++;
  }
  assert.equal(checked, 5, 'Parquet, the dataset, CSV, JSON Lines and JSON');
});

const DAY_MS = 86_400_000;
const MICROS_PER_MS = 1000n;

/** The test's own reading of a default-form value under int64: number, temporal: iso|date, decimal: number. */
function expectedValue(kind: LeafKind, v: unknown, temporal: 'iso' | 'date'): unknown {
  switch (kind.kind) {
    case 'int': return kind.bitWidth === 64 ? Number(v) : v;
    case 'decimal': return Number(v);
    case 'date': return temporal === 'iso' ? new Date((v as number) * DAY_MS).toISOString().slice(0, 10) : new Date((v as number) * DAY_MS);
    case 'timestamp': {
      assert.equal(kind.unit, 'MICROS');
      const ms = Number((v as bigint) / MICROS_PER_MS);
      const micros = String((v as bigint) % 1_000_000n).padStart(6, '0');
      return temporal === 'iso' ? `${new Date(ms).toISOString().slice(0, 19)}.${micros}${kind.utc ? 'Z' : ''}` : new Date(ms);
    }
    default: return v;
  }
}

function expectedRow(plan: Plan[], names: string[], row: Record<string, unknown>, temporal: 'iso' | 'date'): Record<string, unknown> {
  const value = (p: Plan, v: unknown): unknown => {
    if (v === null || v === undefined) return v ?? null;
    switch (p.t) {
      case 'leaf': return expectedValue(p.leaf.kind, v, temporal);
      case 'list': return (v as unknown[]).map((x) => value(p.element, x));
      case 'struct': return Object.fromEntries(p.fields.map((f) => [f.name, value(f.plan, (v as Record<string, unknown>)[f.name])]));
      default: return v;
    }
  };
  return Object.fromEntries(names.map((n, i) => [n, value(plan[i]!, row[n])]));
}

test('the value options mean the same on every format: int64 as number, dates and timestamps as ISO text or Date, decimals as numbers', async () => {
  let temporalLeaves = 0;
  let decimalLeaves = 0;
  for (const [name, { path }] of inputs) {
    await using table = await openTable(path);
    const plan = tablePlan(table);
    const names = plan.fields.map((f) => f.name);
    const plain = await allRows(table);
    for (const temporal of ['iso', 'date'] as const) {
      const got = await allRows(table, { int64: 'number', decimal: 'number', temporal });
      assert.deepStrictEqual(got, plain.map((r) => expectedRow(plan.fields.map((f) => f.plan), names, r, temporal)), `${name} ${temporal}`);
    }
    temporalLeaves += table.schema.leaves.filter((l) => l.kind.kind === 'date' || l.kind.kind === 'timestamp').length;
    decimalLeaves += table.schema.leaves.filter((l) => l.kind.kind === 'decimal').length;
  }
  // Dates and timestamps survive into most formats (RedElm and the text formats lose some): the check has something to check.
  assert.ok(temporalLeaves >= 8, `${temporalLeaves} temporal leaves`);
  assert.ok(decimalLeaves >= 3, `${decimalLeaves} decimal leaves`);
});

test('open options a format cannot honour are typed errors naming them, never ignored', async () => {
  const cases: [string, object, string][] = [
    ['redelm', { decryption: { footerKey: new Uint8Array(16) } }, 'decryption'],
    ['parquet', { delimiter: ';' }, 'delimiter'],
    ['trevni', { decryption: { footerKey: new Uint8Array(16) } }, 'decryption'],
    ['redelm', { verifyChecksums: false }, 'verifyChecksums'],
    ['csv', { maxDecompressedBytes: 1 }, 'maxDecompressedBytes'],
    ['jsonl', { header: false }, 'header'],
    ['dataset', { sample: 3 }, 'sample'],
    ['parquet', { unionByName: true }, 'unionByName'],
  ];
  for (const [input, options, option] of cases) {
    await assert.rejects(openTable(inputs.get(input)!.path, options), (e: unknown) => e instanceof UnsupportedOptionError && e.option === option && e.code === 'UNSUPPORTED', `${input} ${option}`);
  }
  // One size limit for every binary format, honoured by each: a page, block or section over it is refused.
  for (const name of ['parquet', 'dataset', 'trevni', 'trevni-v1', 'trevni-draft', 'redelm']) {
    await assert.rejects(async () => {
      await using t = await openTable(inputs.get(name)!.path, { maxDecompressedBytes: 8 });
      await allRows(t);
    }, (e: unknown) => e instanceof LimitError && /maxDecompressedBytes/.test(e.message), name);
  }
  // Every format's own options are taken.
  await using lax = await openTable(inputs.get('trevni')!.path, { verifyChecksums: false, maxDecompressedBytes: 1 << 20 });
  assert.equal(lax.numRows, N);
  // A read option a read cannot honour is refused too: columns() gives whole chunks of stored values, Arrow its own types.
  for (const [name, { path }] of inputs) {
    await using t = await openTable(path);
    for (const option of [{ int64: 'number' }, { temporal: 'iso' }, { decimal: 'number' }] as const) {
      await assert.rejects(t.toArrow(option as object), (e: unknown) => e instanceof UnsupportedOptionError && e.option === Object.keys(option)[0], `${name} toArrow ${JSON.stringify(option)}`);
    }
    const columns = t.columns?.bind(t);
    if (!columns) continue;
    for (const option of [{ offset: 1 }, { limit: 2 }, { filter: 'id > 0' }, { int64: 'number' }]) {
      await assert.rejects(async () => {
        for await (const _ of columns(option as object));
      }, (e: unknown) => e instanceof UnsupportedOptionError && e.option === Object.keys(option)[0], `${name} columns ${JSON.stringify(option)}`);
    }
  }
  // Only the formats with column vectors have columns().
  for (const [name, { path, format }] of inputs) {
    await using t = await openTable(path);
    assert.equal(typeof t.columns === 'function', format !== 'trevni' && format !== 'redelm', name);
  }
});

test('an input with no magic and no known extension asks for a format; a given format is used', async () => {
  const path = join(dir, 'rows.data');
  writeFileSync(path, 'a,b\n1,2\n');
  await assert.rejects(openTable(path), (e: unknown) => e instanceof InvalidArgumentError && /give options.format/.test(e.message));
  await using t = await openTable(path, { format: 'csv' });
  assert.deepStrictEqual(await allRows(t), [{ a: 1n, b: 2n }]);
  // A bad row fails the open, naming its line, rather than being dropped.
  writeFileSync(path, 'a\n1\nx\n');
  await assert.rejects(openTable(path, { format: 'csv', types: ['a=int64'] }), (e: unknown) => e instanceof InvalidArgumentError && /:3/.test(e.message));
});

function openFds(): number {
  return readdirSync('/proc/self/fd').length;
}

test('await using closes every format\'s file; a failed open leaves none open', async () => {
  const start = openFds();
  for (const [name, { path, format }] of inputs) {
    {
      await using table = await openTable(path);
      await allRows(table, { limit: 1 });
      // A file is held open while its table is (a dataset opens its files as it reads; text is read at open).
      const held = format === 'dataset' || format === 'csv' || format === 'jsonl' || format === 'json' ? 0 : 1;
      assert.equal(openFds(), start + held, `${name} while open`);
    }
    assert.equal(openFds(), start, `${name} after the scope`);
  }
  const bad = join(dir, 'bad.parquet');
  writeFileSync(bad, 'PAR1 not really');
  await assert.rejects(openTable(bad));
  const trv = join(dir, 'bad.trv');
  writeFileSync(trv, new Uint8Array([0x54, 0x72, 0x76, 0x02, 1, 2, 3]));
  await assert.rejects(openTable(trv));
  assert.equal(openFds(), start, 'after failed opens');
});

test('openTrevni and openRedElm take a path as openParquet does, and read what the bytes read', async () => {
  for (const name of ['trevni', 'trevni-v1', 'trevni-draft']) {
    const path = inputs.get(name)!.path;
    const byPath = await openTrevni(path);
    const byBytes = await openTrevni(new Uint8Array(readFileSync(path)));
    try {
      assert.equal(byPath.constructor, byBytes.constructor, name);
      const rows = async (r: typeof byPath) => { const out: unknown[] = []; for await (const x of r.rows()) out.push(x); return out; };
      assert.deepStrictEqual(await rows(byPath), await rows(byBytes), name);
    } finally {
      await byPath.close();
      await byBytes.close();
    }
  }
  const r = await openRedElm(inputs.get('redelm')!.path);
  assert.equal(r.numRows, N);
  await r.close();
  await assert.rejects(openTrevni(join(dir, 'missing.trv')), /missing\.trv/);
});
