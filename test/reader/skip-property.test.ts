/**
 * Skipping equals decoding and dropping: for every value encoding the
 * writer has, data page versions 1 and 2, random page and row group sizes,
 * flat, struct and repeated leaves (lists of structs of lists) with nulls, a read of rows [offset, offset +
 * limit) (pages passed over unread, pages read lazily from the row group's
 * start, pages found by the offset index) and a filtered read with a limit
 * (scanned a window at a time) give the whole read's rows, sliced or
 * filtered here. The whole read decodes every page of every chunk
 * (decodeColumnChunk), a different route from the page-by-page one; for
 * BIT_PACKED levels (rewritten from a file of RLE ones) the whole read is
 * of the RLE file, so no route through BIT_PACKED is its own truth.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openParquet, writeParquet, defineSchema, field as f } from '../../src/node/index.js';
import { BufferSink } from '../../src/io/sink.js';
import { withBitPackedLevels } from './bit-packed-levels.js';
import { rng } from '../writer/gen.js';

const schema = defineSchema({
  i: f.int64(),
  n: f.int32().required(),
  d: f.double(),
  s: f.string(),
  b: f.boolean(),
  l: f.list(f.int32()),
  st: f.struct({ x: f.int32(), y: f.string() }),
  ls: f.list(f.struct({ a: f.int64(), t: f.list(f.string()) })),
});

/** Each encoding and the leaves it is given to (the others keep the defaults). */
const ENCODINGS: { name: string; columns: Record<string, { encoding?: never; dictionary?: boolean }>; leaves: string[]; pages?: number }[] = [
  { name: 'dictionary', columns: {}, leaves: [] },
  { name: 'PLAIN', columns: { i: { dictionary: false }, n: { dictionary: false }, d: { dictionary: false }, s: { dictionary: false }, 'l.list.element': { dictionary: false } }, leaves: [] },
  { name: 'DELTA_BINARY_PACKED', columns: {}, leaves: ['i', 'n', 'l.list.element', 'st.x', 'ls.list.element.a'] },
  { name: 'DELTA_LENGTH_BYTE_ARRAY', columns: {}, leaves: ['s', 'st.y'] },
  { name: 'DELTA_BYTE_ARRAY', columns: {}, leaves: ['s', 'ls.list.element.t.list.element'] },
  { name: 'BYTE_STREAM_SPLIT', columns: {}, leaves: ['d'] },
  { name: 'RLE', columns: {}, leaves: ['b'] },
  // Pages of up to 3000 rows hold several of ALP's 1024-value vectors.
  { name: 'ALP', columns: {}, leaves: ['d'], pages: 3000 },
];
for (const e of ENCODINGS) for (const leaf of e.leaves) e.columns[leaf] = { encoding: e.name as never, dictionary: false };
// Levels, not values: every leaf's, in v1 pages (v2 levels are always RLE).
ENCODINGS.push({ name: 'BIT_PACKED', columns: {}, leaves: ['i', 'l.list.element', 'st.y', 'ls.list.element.t.list.element'] });

function rowsFor(rand: () => number, count: number): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, k) => ({
    i: rand() < 0.2 ? null : BigInt(Math.floor(rand() * 1e6) - 5e5),
    n: k,
    d: rand() < 0.2 ? null : Math.round(rand() * 1e4) / 16,
    s: rand() < 0.2 ? null : `s${Math.floor(rand() * 50)}${'y'.repeat(Math.floor(rand() * 9))}`,
    b: rand() < 0.2 ? null : rand() < 0.5,
    l: rand() < 0.2 ? null : Array.from({ length: Math.floor(rand() * 4) }, () => (rand() < 0.2 ? null : Math.floor(rand() * 100))),
    st: rand() < 0.2 ? null : { x: rand() < 0.3 ? null : Math.floor(rand() * 1000), y: rand() < 0.3 ? null : `y${Math.floor(rand() * 30)}` },
    ls: rand() < 0.2 ? null : Array.from({ length: Math.floor(rand() * 3) }, () => (rand() < 0.2 ? null : {
      a: rand() < 0.3 ? null : BigInt(Math.floor(rand() * 1e5)),
      t: rand() < 0.3 ? null : Array.from({ length: Math.floor(rand() * 3) }, () => (rand() < 0.2 ? null : `t${Math.floor(rand() * 9)}`)),
    })),
  }));
}

const ROWS = 2500;

describe('skip equals decode-and-drop', () => {
  for (const [e, encoding] of ENCODINGS.entries()) {
    const levels = encoding.name === 'BIT_PACKED';
    for (const pageVersion of levels ? [1 as const] : ([1, 2] as const)) {
      test(`${encoding.name}, page v${pageVersion}`, async () => {
        const rand = rng(7919 * (e + 1) + pageVersion);
        for (let round = 0; round < 3; round++) {
          // The rewrite to BIT_PACKED levels keeps no page index and takes uncompressed pages.
          const pageIndex = round !== 1 && !levels;
          const sink = new BufferSink();
          await writeParquet(sink, rowsFor(rand, ROWS), {
            schema, pageVersion, pageIndex, codec: round === 2 && !levels ? 'SNAPPY' : 'UNCOMPRESSED',
            pageRowLimit: 3 + Math.floor(rand() * (encoding.pages ?? 400)), rowGroupRows: 200 + Math.floor(rand() * 2000), columns: encoding.columns,
          } as never);
          const reader = await openParquet(levels ? await withBitPackedLevels(sink.bytes()) : sink.bytes());
          // The encoding was written where it was asked for: otherwise this tests nothing of it.
          for (const leaf of encoding.leaves) {
            const index = reader.schema.leaves.findIndex((l) => l.path.join('.') === leaf);
            assert.ok(index >= 0, leaf);
            assert.ok(reader.file.metadata.rowGroups[0]!.columns[index]!.metaData!.encodings.includes(encoding.name as never), `${leaf} is ${encoding.name}`);
          }
          const all = await (levels ? await openParquet(sink.bytes()) : reader).readRows();
          assert.equal(all.length, ROWS);
          const label = `round ${round} (page index ${pageIndex})`;
          for (let k = 0; k < 12; k++) {
            const offset = Math.floor(rand() * ROWS);
            const limit = 1 + Math.floor(rand() * (k % 3 === 0 ? 1200 : 40));
            const columns = k % 2 === 0 ? undefined : ['n', ['i', 'd', 's', 'b', 'l', 'st', 'ls'][k % 7]!];
            const got = await reader.readRows({ offset, limit, ...(columns ? { columns } : {}) });
            const want = all.slice(offset, offset + limit).map((r) => (columns ? Object.fromEntries(columns.map((c) => [c, r[c]])) : r));
            assert.deepEqual(got, want, `${label}: offset ${offset} limit ${limit} columns ${columns}`);
          }
          for (let k = 0; k < 6; k++) {
            const cut = Math.floor(rand() * 100);
            const filter = k % 2 === 0 ? { column: 'l.list.element', op: '=' as const, value: cut } : { column: 'n', op: '>=' as const, value: Math.floor(rand() * ROWS) };
            const matching = all.filter((r) => (k % 2 === 0 ? Array.isArray(r.l) && (r.l as unknown[]).includes(cut) : (r.n as number) >= (filter.value as number)));
            const offset = Math.floor(rand() * Math.min(matching.length + 1, 50));
            const limit = 1 + Math.floor(rand() * 30);
            const got = await reader.readRows({ filter, offset, limit });
            assert.deepEqual(got, matching.slice(offset, offset + limit), `${label}: filter ${JSON.stringify(filter)} offset ${offset} limit ${limit}`);
          }
        }
      });
    }
  }
});
