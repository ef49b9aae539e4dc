/**
 * A read with a limit stops fetching once it has its rows: `limit`,
 * `offset`+`limit` and `filter`+`limit` (with statistics that prune and
 * without) fetch at most twice the bytes of the pages that hold the rows
 * they need, plus the footer's tail read, counted by a source that counts
 * bytes and requests, from memory and over HTTP. Files: ours without a page
 * index (the lazy page-by-page read), ours with one, DuckDB's, and the
 * corpus's by parquet-mr. The rows are those of a full read, sliced or
 * filtered in JS.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { serveRanges, type RangeServer } from './range-server.js';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { openParquet, writeParquet, type Filter } from '../../src/node/index.js';
import { BufferSink } from '../../src/io/sink.js';
import { ByteCursor } from '../../src/bytes/cursor.js';
import { decodePageHeader } from '../../src/parquet/metadata/index.js';
import { chunkStart } from '../../src/parquet/chunk-locator.js';
import { DATA } from './helpers.js';
import { DATA as ENCRYPTED_DATA, FILES as ENCRYPTED, keys } from '../parquet/encrypted-corpus.js';

/** The footer's tail read (footer.ts). */
const TAIL = 64 * 1024;

interface Count {
  bytes: number;
  requests: number;
}

function counting(data: Uint8Array): { source: { byteLength: number; read(o: number, n: number): Promise<Uint8Array> }; count: Count } {
  const count: Count = { bytes: 0, requests: 0 };
  return {
    count,
    source: {
      byteLength: data.length,
      async read(offset, length) {
        count.bytes += length;
        count.requests++;
        return data.slice(offset, offset + length);
      },
    },
  };
}

/** Each data page of a chunk, walked from its headers here: where it lies and its rows (unrepeated leaves: a page's values). */
function pagesOf(data: Uint8Array, meta: { dictionaryPageOffset?: number; dataPageOffset: number; numValues: number }): { start: number; end: number; first: number; rows: number }[] {
  const out: { start: number; end: number; first: number; rows: number }[] = [];
  let at = chunkStart(meta as never);
  let rows = 0;
  let dict: { start: number; end: number } | undefined;
  while (rows < meta.numValues) {
    const c = new ByteCursor(data, at, data.length, 0);
    const h = decodePageHeader(c);
    const end = c.pos + h.compressedPageSize;
    const n = h.dataPageHeader?.numValues ?? h.dataPageHeaderV2?.numValues;
    if (n === undefined) dict = { start: at, end };
    else {
      out.push({ start: at, end, first: rows, rows: n });
      rows += n;
    }
    at = end;
  }
  // A dictionary page is needed with any data page: counted with the first.
  if (dict && out[0]) out[0].start = dict.start;
  return out;
}

/** Rows [first, last] of row group `rg` per column. */
interface Needs {
  rg: number;
  rows: Record<string, [number, number]>;
}

/** Bytes of the pages holding the rows each column needs (and their dictionary pages). */
async function neededBytes(data: Uint8Array, { rg, rows }: Needs): Promise<number> {
  const reader = await openParquet(data);
  let n = 0;
  for (const [name, [first, last]] of Object.entries(rows)) {
    const leaf = reader.schema.leaves.find((l) => l.path.join('.') === name)!;
    const meta = reader.file.metadata.rowGroups[rg]!.columns[leaf.columnIndex]!.metaData!;
    const pages = pagesOf(data, meta);
    const hit = pages.filter((p) => p.first <= last && p.first + p.rows > first);
    const dictFirst = pages[0]!.start < meta.dataPageOffset && !hit.includes(pages[0]!) ? meta.dataPageOffset - pages[0]!.start : 0;
    n += dictFirst + hit.reduce((a, p) => a + p.end - p.start, 0);
  }
  return n;
}

const row = (i: number) => ({ id: BigInt(i), name: `name-${i}-${'x'.repeat(i % 37)}`, cat: `c${i % 10}` });

async function ours(options: Parameters<typeof writeParquet>[2]): Promise<Uint8Array> {
  const sink = new BufferSink();
  await writeParquet(sink, Array.from({ length: 200_000 }, (_, i) => row(i)), options);
  return sink.bytes();
}

async function duckdb(): Promise<Uint8Array> {
  const path = join(process.env.TMPDIR ?? '/tmp', `early-stop-${process.pid}.parquet`);
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  await c.run(`COPY (SELECT i::BIGINT AS id, 'name-' || i || '-' || repeat('x', (i % 37)::INT) AS name, 'c' || (i % 10) AS cat FROM range(200000) t(i)) TO '${path}' (FORMAT parquet, COMPRESSION snappy, ROW_GROUP_SIZE 50000)`);
  c.closeSync();
  return new Uint8Array(readFileSync(path));
}

const files: Record<string, Uint8Array> = {};

/** Reads `options` from memory through a counting source; the rows and what was fetched. */
async function counted(data: Uint8Array, options: Parameters<Awaited<ReturnType<typeof openParquet>>['readRows']>[0]): Promise<{ rows: unknown[]; count: Count }> {
  const { source, count } = counting(data);
  const reader = await openParquet(source);
  return { rows: await reader.readRows(options), count };
}

const NOT_PRUNABLE: Filter = { column: 'cat', op: '=', value: 'c7' };
const PRUNABLE: Filter = { column: 'id', op: '>=', value: 150_123 };

interface Case {
  what: string;
  options: { offset?: number; limit: number; filter?: Filter };
  /** The rows whose pages the read needs: a filter column's from the first row the page index (if any) cannot rule out. */
  needs: (data: Uint8Array, pageIndex: boolean) => Promise<Needs>;
  /** The rows a full read gives, of which this read wants a slice. */
  expect: (all: Record<string, unknown>[]) => Record<string, unknown>[];
}

/** Where row `i` of the file is: its row group and row there. */
async function place(data: Uint8Array, i: number): Promise<{ rg: number; at: number }> {
  const reader = await openParquet(data);
  let rg = 0;
  for (const g of reader.file.metadata.rowGroups) {
    if (i < g.numRows) return { rg, at: i };
    i -= g.numRows;
    rg++;
  }
  throw new Error('past the end');
}

const every = (first: number, last: number): Record<string, [number, number]> => ({ id: [first, last], name: [first, last], cat: [first, last] });

const CASES: Case[] = [
  { what: 'limit 3', options: { limit: 3 }, needs: async () => ({ rg: 0, rows: every(0, 2) }), expect: (all) => all.slice(0, 3) },
  {
    what: 'offset 150,500 + limit 1,000', options: { offset: 150_500, limit: 1000 },
    needs: async (d) => {
      const a = await place(d, 150_500);
      const b = await place(d, 151_499);
      assert.equal(a.rg, b.rg, 'the rows lie in one row group');
      return { rg: a.rg, rows: every(a.at, b.at) };
    },
    expect: (all) => all.slice(150_500, 151_500),
  },
  {
    what: 'filter (statistics cannot prune) + limit 3', options: { filter: NOT_PRUNABLE, limit: 3 },
    needs: async () => ({ rg: 0, rows: { ...every(7, 27), cat: [0, 27] } }),
    expect: (all) => all.filter((r) => r.cat === 'c7').slice(0, 3),
  },
  {
    what: 'filter (statistics prune) + limit 3', options: { filter: PRUNABLE, limit: 3 },
    needs: async (d, pageIndex) => {
      const a = await place(d, 150_123);
      return { rg: a.rg, rows: { ...every(a.at, a.at + 2), id: [pageIndex ? a.at : 0, a.at + 2] } };
    },
    expect: (all) => all.filter((r) => (r.id as bigint) >= 150_123n).slice(0, 3),
  },
];

before(async () => {
  files['ours, no page index'] = await ours({ codec: 'UNCOMPRESSED', pageRowLimit: 1000, dictionary: false, pageIndex: false });
  files['ours, snappy, dictionary, no page index'] = await ours({ codec: 'SNAPPY', pageRowLimit: 1000, pageIndex: false, rowGroupRows: 60_000 });
  files['ours, page index'] = await ours({ codec: 'UNCOMPRESSED', pageRowLimit: 1000, dictionary: false });
  files['DuckDB'] = await duckdb();
});

for (const name of ['ours, no page index', 'ours, snappy, dictionary, no page index', 'ours, page index', 'DuckDB']) {
  describe(`${name}: bytes fetched from memory`, () => {
    let all: Record<string, unknown>[];
    before(async () => {
      all = await (await openParquet(files[name]!)).readRows();
    });
    for (const c of CASES) {
      test(c.what, async () => {
        const data = files[name]!;
        const { rows, count } = await counted(data, c.options);
        assert.deepEqual(rows, c.expect(all));
        const needed = await neededBytes(data, await c.needs(data, name === 'ours, page index'));
        const bound = Math.min(TAIL, data.length) + 2 * needed;
        assert.ok(count.bytes <= bound, `${count.bytes} bytes fetched in ${count.requests} requests; pages needed ${needed}, bound ${bound}`);
      });
    }
  });
}

describe('over HTTP', () => {
  let server: RangeServer;
  before(async () => {
    server = await serveRanges((path) => files[decodeURIComponent(path.slice(1))]);
  });
  after(() => server.close());

  for (const name of ['ours, no page index', 'DuckDB']) {
    for (const c of CASES) {
      test(`${name}: ${c.what}`, async () => {
        const data = files[name]!;
        const local = await counted(data, c.options);
        server.hits.length = 0;
        const reader = await openParquet(new URL(`${server.base}/${encodeURIComponent(name)}`));
        assert.deepEqual(await reader.readRows(c.options), local.rows);
        const bound = Math.min(TAIL, data.length) + 2 * (await neededBytes(data, await c.needs(data, false)));
        assert.ok(server.sent() <= bound, `${server.sent()} bytes sent in ${server.hits.length} requests; bound ${bound}`);
      });
    }
  }
});

describe('the corpus, by parquet-mr', () => {
  for (const file of ['alltypes_tiny_pages_plain.parquet', 'lz4_raw_compressed_larger.parquet']) {
    test(`${file}: limit, offset + limit, filter + limit are the full read's rows, within the bound`, async () => {
      const data = new Uint8Array(readFileSync(join(DATA, file)));
      const reader = await openParquet(data);
      assert.equal(reader.file.metadata.rowGroups.length, 1);
      const names = reader.schema.leaves.map((l) => l.path.join('.'));
      const all = await reader.readRows();
      const first = names[0]!;
      const mid = Math.floor(all.length / 2);
      const value = all[mid]![first];
      const matches = all.flatMap((r, i) => (r[first] === value ? [i] : [])).slice(0, 2);
      const rows = (a: number, b: number, filter?: [number, number]): Needs => ({ rg: 0, rows: Object.fromEntries(names.map((n) => [n, n === first && filter ? filter : [a, b]])) });
      const cases: [Parameters<typeof reader.readRows>[0], Record<string, unknown>[], Needs][] = [
        [{ limit: 3 }, all.slice(0, 3), rows(0, 2)],
        [{ offset: mid, limit: 5 }, all.slice(mid, mid + 5), rows(mid, mid + 4)],
        [{ filter: { column: first, op: '=', value: value as never }, limit: 2 }, matches.map((i) => all[i]!), rows(matches[0]!, matches.at(-1)!, [0, matches.at(-1)!])],
      ];
      // A read that starts deep in a row group finds its pages by the offset indexes (metadata, like the footer): their bytes count too.
      const offsetIndexes = reader.file.metadata.rowGroups[0]!.columns.reduce((a, c) => a + (c.offsetIndexLength ?? 0), 0);
      for (const [options, expected, needs] of cases) {
        const { rows: got, count } = await counted(data, options);
        assert.deepEqual(got, expected, JSON.stringify(options));
        const bound = Math.min(TAIL, data.length) + (options?.offset ? offsetIndexes : 0) + 2 * (await neededBytes(data, needs));
        assert.ok(count.bytes <= bound, `${JSON.stringify(options)}: ${count.bytes} bytes fetched in ${count.requests} requests, bound ${bound}`);
      }
    });
  }
});

describe('encrypted files, read lazily after decryption', () => {
  for (const file of ENCRYPTED) {
    test(`${file}: limit, offset + limit, filter + limit are the full read's rows`, async () => {
      const data = new Uint8Array(readFileSync(join(ENCRYPTED_DATA, file)));
      const reader = await openParquet(data, { decryption: keys(file) });
      const all = await reader.readRows();
      const first = reader.schema.leaves[0]!.path.join('.');
      const value = all[Math.floor(all.length / 2)]![first];
      const matching = all.filter((r) => r[first] === value);
      assert.deepEqual(await reader.readRows({ limit: 3 }), all.slice(0, 3));
      assert.deepEqual(await reader.readRows({ offset: 17, limit: 9 }), all.slice(17, 26));
      assert.deepEqual(await reader.readRows({ filter: { column: first, op: '=', value: value as never }, limit: 2 }), matching.slice(0, 2));
    });
  }
});

describe('Arrow output stops early too', () => {
  test('toArrow and arrowBatches with a filter and a limit: the rows readRows gives, within the bound', async () => {
    const data = files['ours, no page index']!;
    const c = CASES.find((x) => x.what.startsWith('filter (statistics cannot prune)'))!;
    const expected = (await counted(data, c.options)).rows as Record<string, unknown>[];
    const { source, count } = counting(data);
    const table = await (await openParquet(source)).toArrow(c.options);
    assert.deepEqual([...table.getChild('id')!], expected.map((r) => r.id));
    assert.deepEqual([...table.getChild('name')!], expected.map((r) => r.name));
    const bound = Math.min(TAIL, data.length) + 2 * (await neededBytes(data, await c.needs(data, false)));
    assert.ok(count.bytes <= bound, `${count.bytes} bytes fetched in ${count.requests} requests; bound ${bound}`);
    let rows = 0;
    for await (const batch of (await openParquet(data)).arrowBatches({ filter: NOT_PRUNABLE, offset: 40, limit: 700 })) rows += batch.numRows;
    assert.equal(rows, 700);
  });
});
