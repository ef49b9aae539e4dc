/**
 * Writer behaviour: records that do not fit, file destinations (temp file,
 * rename, abort, failures), row group and page cutting, file metadata, and
 * statistics by the spec's rules. Files are checked with parquetry and with
 * DuckDB.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  BufferSink, IOError, InvalidArgumentError, ParquetWriter, ParquetryError, defineSchema, field as f, fileSink, openParquet, openWriter,
  type Sink, type WriterOptions,
} from '../../src/node/index.js';
import type { Statistics } from '../../src/parquet/metadata/index.js';
import { planRecord } from '../../src/shred/plan.js';
import { halfToNumber, Rng, utf8Bytes } from './gen.js';
import { Duck, checkDuckValues, checkParquetry, show, sqlString } from './oracles.js';
import { chunkPages, fileBytes, layoutProblems } from './pages.js';

let dir = '';
let duck: Duck;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'parquetry-writer-behaviour-'));
  duck = await Duck.create();
});

after(() => {
  duck?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

let fileNo = 0;
function newDir(): string {
  const d = join(dir, `d${fileNo++}`);
  mkdirSync(d);
  return d;
}

async function writeAll(schema: ReturnType<typeof defineSchema>, records: unknown[], options: WriterOptions = {}): Promise<string> {
  const path = join(newDir(), 'out.parquet');
  const w = await openWriter<unknown>(path, schema, options);
  await w.writeMany(records);
  await w.close();
  return path;
}

async function metaOf(path: string) {
  const r = await openParquet(path);
  const m = r.file.metadata;
  await r.close();
  return m;
}

// ------------------------------------------------------------------ records that do not fit

describe('a record that does not fit', () => {
  const schema = defineSchema({
    id: f.int32().required(),
    name: f.string(),
    small: f.int8(),
    price: f.decimal(6, 2),
    st: f.struct({ x: f.int64().required(), tags: f.list(f.string()) }),
    li: f.list(f.int32()),
    mp: f.map(f.string(), f.uint16()),
    ts: f.timestamp('MILLIS'),
  });

  /** [bad record, the field path its error must name]. */
  const BAD: [Record<string, unknown>, string][] = [
    [{ id: 'seven' }, 'id'], // wrong type
    [{ name: 'no id' }, 'id'], // missing required field
    [{ id: 1, small: 128 }, 'small'], // out of range
    [{ id: 1, small: 1.5 }, 'small'], // not an integer
    [{ id: 1, price: '1.234' }, 'price'], // too many fraction digits
    [{ id: 1, price: '12345.6' }, 'price'], // too many digits
    [{ id: 1, st: 'a string' }, 'st'], // a string where a struct is expected
    [{ id: 1, st: {} }, 'st.x'], // missing required field in a struct
    [{ id: 1, st: { x: 1n, tags: ['a', 7] } }, 'st.tags'], // bad list element after good ones
    [{ id: 1, li: [1, 2, 3, 'x'] }, 'li'], // bad list element after good ones
    [{ id: 1, li: { length: 2 } }, 'li'], // not an array
    [{ id: 1, mp: [{ key: 'a', value: 1 }, { key: 'b', value: 70000 }] }, 'mp'], // bad map value after a good entry
    [{ id: 1, mp: [{ key: null, value: 1 }] }, 'mp'], // null map key
    [{ id: 1, name: 'fine', small: 3, price: '1.00', st: { x: 5n, tags: ['t'] }, li: [9], mp: [{ key: 'k', value: 1 }], ts: 'yesterday' }, 'ts'], // the last column fails after all others shredded
    [{ id: 2 ** 31 }, 'id'], // INT32 out of range
    ['not an object' as unknown as Record<string, unknown>, ''],
  ];

  function good(i: number): Record<string, unknown> {
    return {
      id: i, name: i % 3 ? `n${i % 5}` : null, small: (i % 200) - 100, price: `${i}.${String(i % 100).padStart(2, '0')}`,
      st: i % 4 ? { x: BigInt(i) * 3n, tags: i % 2 ? ['a', null, `t${i}`] : [] } : null,
      li: i % 5 ? [i, null, -i] : null, mp: i % 6 ? [{ key: `k${i % 7}`, value: i % 65536 }] : [], ts: BigInt(i) * 1000n,
    };
  }

  /** good() gives values in the reader's forms already. */
  const expectedOf = (r: Record<string, unknown>): Record<string, unknown> => ({ ...r });

  for (const pageVersion of [1, 2] as const) {
    test(`throws an InvalidArgumentError naming the field and record; the writer stays usable (page v${pageVersion})`, async () => {
      const path = join(newDir(), 'out.parquet');
      // Small pages and row groups: bad records land at page and row group boundaries too.
      const w = await openWriter<unknown>(path, schema, { pageVersion, pageRowLimit: 7, rowGroupRows: 23, checksums: true });
      const written: Record<string, unknown>[] = [];
      let n = 0;
      for (let round = 0; round < 4; round++) {
        for (const [bad, column] of BAD) {
          for (let k = 0; k < 3; k++) {
            const g = good(n++);
            await w.write(g);
            written.push(expectedOf(g));
          }
          const before = w.numRows;
          await assert.rejects(w.write(bad), (e: unknown) => {
            assert.ok(e instanceof InvalidArgumentError, `an InvalidArgumentError, got ${show(e)}`);
            assert.ok(e instanceof ParquetryError);
            assert.equal(e.code, 'INVALID_ARGUMENT');
            assert.match(e.message, /\brecord \d+\b/, `names the record: ${e.message}`);
            if (column) assert.ok(e.message.includes(column), `names the field ${column}: ${e.message}`);
            return true;
          });
          assert.equal(w.numRows, before, 'the bad record is not counted');
        }
      }
      // writeMany stops at a bad record; the records before it are kept.
      const batch = [good(n++), good(n++), { id: 'bad' }, good(n++)];
      await assert.rejects(w.writeMany(batch), InvalidArgumentError);
      written.push(expectedOf(batch[0]!), expectedOf(batch[1]!));
      await w.write(batch[3]!);
      written.push(expectedOf(batch[3]!));
      await w.close();
      assert.equal((await metaOf(path)).numRows, written.length);
      await checkParquetry(path, `bad-records-v${pageVersion}`, written);
      await checkDuckValues(duck, path, `bad-records-v${pageVersion}`, written, planRecord(schema.schema.root));
    });
  }

  test('the first bad record is named by its index', async () => {
    const w = await ParquetWriter.open<unknown>(new BufferSink(), schema);
    for (let i = 0; i < 5; i++) await w.write(good(i));
    await assert.rejects(w.write({ id: 'x' }), /\brecord 5\b/);
  });

  test('the index in the message counts every record given, rejected ones too', async () => {
    // The 7th record given (index 6) is named "record 6", not by how many were accepted before it.
    const w = await ParquetWriter.open<unknown>(new BufferSink(), schema);
    for (let i = 0; i < 5; i++) await w.write(good(i));
    await assert.rejects(w.write({ id: 'x' }), /\brecord 5\b/);
    await assert.rejects(w.write({ id: 'y' }), (e: unknown) => {
      assert.match((e as Error).message, /\brecord 6\b/, `the second bad record (index 6) is named as such: ${(e as Error).message}`);
      return true;
    });
  });
});

// ------------------------------------------------------------------ destinations

describe('file destinations', () => {
  const schema = defineSchema({ id: f.int64().required(), s: f.string() });
  const rows = (n: number, from = 0) => Array.from({ length: n }, (_, i) => ({ id: BigInt(from + i), s: `s${from + i}` }));

  test('while writing only a temp file beside the destination exists; close renames it into place', async () => {
    const d = newDir();
    const path = join(d, 'out.parquet');
    const w = await openWriter(path, schema, { rowGroupRows: 100 });
    await w.writeMany(rows(250)); // two row groups already on disk
    assert.ok(!existsSync(path), 'nothing at the destination while writing');
    const names = readdirSync(d);
    assert.equal(names.length, 1, `one temp file: ${names}`);
    assert.match(names[0]!, /^\.out\.parquet\.parquetry-tmp-[0-9a-f]+$/);
    await w.close();
    assert.deepEqual(readdirSync(d), ['out.parquet'], 'after close only the file');
    await checkParquetry(path, 'temp-rename', rows(250).map((r) => ({ ...r })));
  });

  test('abort() leaves nothing, and the writer refuses more', async () => {
    const d = newDir();
    const w = await openWriter(join(d, 'out.parquet'), schema, { rowGroupRows: 100 });
    await w.writeMany(rows(250));
    await w.abort();
    assert.deepEqual(readdirSync(d), []);
    await assert.rejects(w.write({ id: 1n }), InvalidArgumentError);
    await assert.rejects(w.close(), InvalidArgumentError);
    assert.deepEqual(readdirSync(d), []);
  });

  test('close() twice and write() after close() are refused', async () => {
    const w = await ParquetWriter.open(new BufferSink(), schema);
    await w.write({ id: 1n });
    await w.close();
    await assert.rejects(w.close(), InvalidArgumentError);
    await assert.rejects(w.write({ id: 2n }), InvalidArgumentError);
  });

  test('a directory that disappears: close() fails with an IOError and nothing remains', async () => {
    const d = newDir();
    const path = join(d, 'out.parquet');
    const w = await openWriter(path, schema, { rowGroupRows: 100 });
    await w.writeMany(rows(250));
    rmSync(d, { recursive: true });
    await w.writeMany(rows(250, 250));
    await assert.rejects(w.close(), IOError);
    assert.ok(!existsSync(d) && !existsSync(path));
  });

  test('a destination in a missing directory fails at open with an IOError, creating nothing', async () => {
    const d = newDir();
    await assert.rejects(openWriter(join(d, 'missing', 'out.parquet'), schema), IOError);
    assert.deepEqual(readdirSync(d), []);
  });

  /** A file sink whose `failAt`-th write throws (once, or from then on), as a full disk or a flaky device would. */
  async function failingFileSink(path: string, failAt: number, persistent: boolean): Promise<Sink & { aborted: boolean }> {
    const inner = await fileSink(path);
    let n = 0;
    const s = {
      aborted: false,
      async write(b: Uint8Array) {
        n++;
        if (n === failAt || (persistent && n > failAt)) throw new Error('EIO: i/o error, write');
        await inner.write(b);
      },
      close: () => inner.close(),
      async abort() {
        s.aborted = true;
        await inner.abort();
      },
    };
    return s;
  }

  for (const persistent of [true, false]) {
    test(`a sink write that fails ${persistent ? 'from then on' : 'once'}: write() rejects with an IOError, close() rejects, nothing remains`, async () => {
      const d = newDir();
      const path = join(d, 'out.parquet');
      const sink = await failingFileSink(path, 5, persistent);
      const w = await openWriter(sink, schema, { rowGroupRows: 50 });
      let failed: unknown;
      try {
        for (const r of rows(400)) await w.write(r);
      } catch (e) {
        failed = e;
      }
      assert.ok(failed, 'a write failed');
      // Whatever the caller does next, a file with a hole in it must not appear as complete.
      let closed = false;
      try {
        await w.close();
        closed = true;
      } catch {
        // expected
      }
      const problems: string[] = [];
      if (!(failed instanceof IOError)) problems.push(`write() rejected with ${(failed as Error)?.constructor?.name}: ${(failed as Error)?.message}, not an IOError (a ParquetryError)`);
      if (closed) problems.push('close() after the failed write resolved, as if the file were complete');
      if (!sink.aborted) problems.push('the sink was never aborted');
      if (existsSync(path)) problems.push(`a file is at the destination (${(await metaOf(path).then((m) => `${m.numRows} rows`, (e: Error) => `unreadable: ${e.message}`))}); 400 rows were given`);
      const left = readdirSync(d).filter((n) => n !== 'out.parquet');
      if (left.length) problems.push(`temp files left: ${left}`);
      assert.deepEqual(problems, [], problems.join('; '));
      await sink.abort(); // release the temp file whatever happened
    });
  }

  test('a Sink whose write throws: the error surfaces and the sink is aborted', async () => {
    let aborted = false;
    const sink: Sink = {
      async write() {
        throw new Error('boom');
      },
      async close() {},
      async abort() {
        aborted = true;
      },
    };
    // The magic number is the first write: openWriter fails and aborts.
    await assert.rejects(openWriter(sink, schema), /boom/);
    assert.ok(aborted);
  });
});

// ------------------------------------------------------------------ row groups and pages

describe('row groups and pages', () => {
  test('by default a row group holds at most 1,048,576 rows: 1,048,579 small rows are two row groups', { timeout: 60_000 }, async () => {
    const n = 1_048_579;
    const sink = new BufferSink();
    const w = await ParquetWriter.open(sink, defineSchema({ id: f.int32().required() }), { codec: 'UNCOMPRESSED', pageIndex: false });
    await w.writeColumns({ id: Int32Array.from({ length: n }, (_, i) => i) });
    await w.close();
    const r = await openParquet(sink.bytes());
    assert.deepEqual(r.file.metadata.rowGroups.map((g) => Number(g.numRows)), [1_048_576, 3]);
    const tail: unknown[] = [];
    for await (const row of r.rows({ rowGroups: [1] })) tail.push(row.id);
    assert.deepEqual(tail, [1_048_576, 1_048_577, 1_048_578]);
  });

  test('rowGroupRows cuts row groups by rows', async () => {
    const schema = defineSchema({ a: f.int32().required(), l: f.list(f.string()) });
    const path = await writeAll(schema, Array.from({ length: 1000 }, (_, i) => ({ a: i, l: [String(i)] })), { rowGroupRows: 300 });
    assert.deepEqual((await metaOf(path)).rowGroups.map((g) => g.numRows), [300, 300, 300, 100]);
    const duckRows = await duck.objects(`SELECT DISTINCT row_group_id, row_group_num_rows FROM parquet_metadata(${sqlString(path)}) ORDER BY 1`);
    assert.deepEqual(duckRows.map((r) => Number(r.row_group_num_rows)), [300, 300, 300, 100]);
  });

  for (const [rowBytes, budget] of [[1000, 64 * 1024], [100 * 1024, 256 * 1024]] as const) {
    test(`rowGroupSize cuts row groups by bytes (rows of ${rowBytes} bytes, budget ${budget})`, async () => {
      const schema = defineSchema({ b: f.binary().required() });
      const n = Math.ceil((budget * 6) / rowBytes);
      const path = await writeAll(schema, Array.from({ length: n }, (_, i) => ({ b: new Uint8Array(rowBytes).fill(i & 0xff) })), { rowGroupSize: budget, codec: 'UNCOMPRESSED', dictionary: false });
      const meta = await metaOf(path);
      const sizes = meta.rowGroups.map((g) => g.totalByteSize);
      assert.ok(meta.rowGroups.length >= 4, `several row groups: ${show(meta.rowGroups.map((g) => g.numRows))}`);
      // Every row group but the last reaches the budget, and overshoots it by at most one row (and a little overhead).
      for (const [i, size] of sizes.slice(0, -1).entries()) {
        assert.ok(size >= budget * 0.95, `row group ${i}: ${size} bytes, cut before the budget ${budget}`);
        assert.ok(size <= budget + rowBytes * 1.05 + 1024, `row group ${i}: ${size} bytes in ${meta.rowGroups[i]!.numRows} rows, over the budget ${budget} by more than a row of ${rowBytes} bytes`);
      }
    });
  }

  test('pageRowLimit cuts pages by rows (flat and repeated columns, page v2 headers)', async () => {
    const schema = defineSchema({ a: f.int64().required(), l: f.list(f.int32()), o: f.string() });
    const records = Array.from({ length: 1000 }, (_, i) => ({ a: BigInt(i), l: i % 4 ? Array.from({ length: i % 9 }, (_, k) => k) : null, o: i % 3 ? null : `v${i}` }));
    const path = await writeAll(schema, records, { pageRowLimit: 64, pageVersion: 2, rowGroupRows: 600, dictionary: false });
    const meta = await metaOf(path);
    const bytes = fileBytes(path);
    meta.rowGroups.forEach((g, gi) => {
      g.columns.forEach((c, ci) => {
        const pages = chunkPages(bytes, c.metaData!).filter((p) => p.header.type === 'DATA_PAGE_V2');
        const rowCounts = pages.map((p) => p.header.dataPageHeaderV2!.numRows);
        assert.equal(rowCounts.reduce((a, b) => a + b, 0), g.numRows, `group ${gi} column ${ci}: page rows add up`);
        assert.ok(rowCounts.slice(0, -1).every((r) => r === 64) && rowCounts.at(-1)! <= 64, `group ${gi} column ${ci}: ${rowCounts}`);
        const values = pages.reduce((a, p) => a + p.header.dataPageHeaderV2!.numValues, 0);
        assert.equal(values, c.metaData!.numValues, 'num_values add up');
        const st = c.metaData!.encodingStats!.reduce((a, s) => a + s.count, 0);
        assert.equal(st, pages.length, 'encoding_stats count the pages');
      });
    });
  });

  for (const pageVersion of [1, 2] as const) {
    test(`pageSize cuts pages by bytes (page v${pageVersion})`, async () => {
      const schema = defineSchema({ a: f.int64().required(), s: f.string() });
      const records = Array.from({ length: 20000 }, (_, i) => ({ a: BigInt(i) * 7919n, s: i % 10 ? `row ${i} ${'x'.repeat(i % 50)}` : null }));
      const pageSize = 8192;
      const path = await writeAll(schema, records, { pageSize, pageVersion, codec: 'UNCOMPRESSED', dictionary: false, pageRowLimit: 1_000_000 });
      const meta = await metaOf(path);
      const bytes = fileBytes(path);
      for (const c of meta.rowGroups[0]!.columns) {
        const pages = chunkPages(bytes, c.metaData!);
        const sizes = pages.map((p) => p.header.uncompressedPageSize);
        assert.ok(pages.length > 10, `${c.metaData!.pathInSchema}: many pages (${pages.length})`);
        // A page is cut once it reaches pageSize, after a whole record: within a record's worth above it.
        for (const s of sizes.slice(0, -1)) assert.ok(s >= pageSize * 0.9 && s <= pageSize + 200, `${c.metaData!.pathInSchema}: page of ${s} bytes for pageSize ${pageSize}: ${sizes}`);
      }
      // DuckDB reads it all.
      const n = await duck.objects(`SELECT count(*) AS n, count(s) AS s, sum(a) AS a FROM read_parquet(${sqlString(path)})`);
      assert.equal(Number(n[0]!.n), 20000);
      assert.equal(Number(n[0]!.s), 18000);
    });
  }

  test('pageSize holds for the first page of a column whose dictionary does not pay, too', async () => {
    // The first page is written plain when the dictionary turns out not to pay: it must fit the page size that way.
    const schema = defineSchema({ id: f.int64().required(), uid: f.string().required(), cat: f.string().required() });
    const records = Array.from({ length: 30000 }, (_, i) => ({ id: BigInt(i), uid: `user-${i}-${(i * 2654435761) % 1e9}`, cat: `category ${i % 40}` }));
    const pageSize = 16384;
    const path = await writeAll(schema, records, { pageSize, codec: 'UNCOMPRESSED', pageRowLimit: 1_000_000 });
    const meta = await metaOf(path);
    const bytes = fileBytes(path);
    const encodings: Record<string, string[]> = {};
    for (const c of meta.rowGroups[0]!.columns) {
      const name = c.metaData!.pathInSchema.join('.');
      const pages = chunkPages(bytes, c.metaData!).filter((p) => p.header.type === 'DATA_PAGE');
      encodings[name] = [...new Set(pages.map((p) => p.header.dataPageHeader!.encoding))];
      const sizes = pages.map((p) => p.header.uncompressedPageSize);
      for (const s of sizes) assert.ok(s <= pageSize + 200, `${name}: page of ${s} bytes for pageSize ${pageSize}: ${sizes}`);
    }
    assert.deepEqual(encodings, { id: ['PLAIN'], uid: ['PLAIN'], cat: ['RLE_DICTIONARY'] });
    const n = await duck.objects(`SELECT count(DISTINCT uid) AS u, count(DISTINCT cat) AS c, sum(id) AS s FROM read_parquet(${sqlString(path)})`);
    assert.deepEqual([Number(n[0]!.u), Number(n[0]!.c), Number(n[0]!.s)], [30000, 40, (29999 * 30000) / 2]);
  });
});

// ------------------------------------------------------------------ file metadata

describe('file metadata', () => {
  test('created_by, key-value metadata, sorting columns', async () => {
    const schema = defineSchema({ a: f.int32(), st: f.struct({ b: f.string(), c: f.double() }) });
    const metadata = { 'plain': 'value', 'ünïcødé 😀': 'wert ✓', 'empty': '', 'json': '{"x":[1,2]}', 'ARROW:schema': 'not really' };
    const sortedBy = [{ column: 'st.c', descending: true, nullsFirst: true }, { column: 'a' }];
    const path = await writeAll(schema, Array.from({ length: 500 }, (_, i) => ({ a: i, st: { b: 'x', c: 500 - i } })), { metadata, sortedBy, rowGroupRows: 200 });
    const meta = await metaOf(path);
    assert.match(meta.createdBy!, /^parquetry version \d+\.\d+\.\d+/);
    assert.deepEqual(Object.fromEntries((meta.keyValueMetadata ?? []).map((kv) => [kv.key, kv.value])), metadata);
    assert.equal(meta.rowGroups.length, 3);
    for (const g of meta.rowGroups) {
      assert.deepEqual(g.sortingColumns, [{ columnIdx: 2, descending: true, nullsFirst: true }, { columnIdx: 0, descending: false, nullsFirst: false }]);
    }
    // DuckDB sees the same.
    const fm = await duck.objects(`SELECT created_by FROM parquet_file_metadata(${sqlString(path)})`);
    assert.match(String(fm[0]!.created_by), /^parquetry version /);
    const kv = await duck.objects(`SELECT decode(key) AS k, decode(value) AS v FROM parquet_kv_metadata(${sqlString(path)})`);
    assert.deepEqual(Object.fromEntries(kv.map((r) => [r.k, r.v])), metadata);
  });

  test('every page carries the CRC-32 of its bytes by default, as parquet-java writes them; checksums: false leaves them out', async () => {
    const schema = defineSchema({ a: f.int32(), s: f.string(), l: f.list(f.int64()) });
    const records = Array.from({ length: 3000 }, (_, i) => ({ a: i % 50, s: `s${i}`, l: i % 3 ? [BigInt(i)] : null }));
    for (const pageVersion of [1, 2] as const) {
      const options = { pageVersion, pageRowLimit: 400, rowGroupRows: 1000 };
      const withCrc = await writeAll(schema, records, options);
      assert.deepEqual(layoutProblems(fileBytes(withCrc), await metaOf(withCrc), true), [], `page v${pageVersion}`);
      const without = await writeAll(schema, records, { ...options, checksums: false });
      const missing = layoutProblems(fileBytes(without), await metaOf(without), true);
      assert.ok(missing.length > 10 && missing.every((m) => / has no crc$/.test(m)), missing.join('\n'));
    }
  });

  test('sortedBy naming an unknown column is refused when the writer opens, as options.columns is', async () => {
    const schema = defineSchema({ a: f.int32() });
    await assert.rejects(ParquetWriter.open(new BufferSink(), schema, { columns: { nope: { dictionary: false } } }), InvalidArgumentError);
    await assert.rejects(ParquetWriter.open(new BufferSink(), schema, { sortedBy: [{ column: 'nope' }] }), InvalidArgumentError);
  });
});

// ------------------------------------------------------------------ statistics

/** The chunk statistics of each row group for column `c`. */
async function statsOf(path: string, c: number): Promise<Statistics[]> {
  const meta = await metaOf(path);
  return meta.rowGroups.map((g) => g.columns[c]!.metaData!.statistics!);
}

async function duckStats(path: string, column: string): Promise<{ min: string | null; max: string | null; nulls: number; minExact: unknown; maxExact: unknown }[]> {
  const rows = await duck.objects(`SELECT stats_min_value, stats_max_value, stats_null_count, min_is_exact, max_is_exact FROM parquet_metadata(${sqlString(path)}) WHERE path_in_schema = ${sqlString(column)} ORDER BY row_group_id`);
  return rows.map((r) => ({ min: r.stats_min_value as string | null, max: r.stats_max_value as string | null, nulls: Number(r.stats_null_count), minExact: r.min_is_exact, maxExact: r.max_is_exact }));
}

const dv = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

describe('statistics', () => {
  test('signed and unsigned integers are ordered by their logical type', async () => {
    const schema = defineSchema({ i32: f.int32(), u32: f.uint32(), i64: f.int64(), u64: f.uint64(), u8: f.uint8(), u16: f.uint16() });
    const records = [
      { i32: -5, u32: 5, i64: -5n, u64: 5n, u8: 1, u16: 1 },
      { i32: 2147483647, u32: 3000000000, i64: 9223372036854775807n, u64: 9223372036854775808n, u8: 255, u16: 65535 },
      { i32: -2147483648, u32: 2147483648, i64: -9223372036854775808n, u64: 18446744073709551615n, u8: 128, u16: 32768 },
      { i32: 0, u32: 4294967295, i64: 0n, u64: 1n, u8: 127, u16: 32767 },
      { i32: null, u32: null, i64: null, u64: null, u8: null, u16: null },
    ];
    const path = await writeAll(schema, records);
    const want: Record<string, [string, string]> = {
      i32: ['-2147483648', '2147483647'], u32: ['5', '4294967295'], i64: ['-9223372036854775808', '9223372036854775807'],
      u64: ['1', '18446744073709551615'], u8: ['1', '255'], u16: ['1', '65535'],
    };
    const cols = Object.keys(want);
    for (const [c, name] of cols.entries()) {
      const [st] = await statsOf(path, c);
      const unsigned = name.startsWith('u');
      const read = (b: Uint8Array) => (b.length === 4 ? (unsigned ? dv(b).getUint32(0, true) : dv(b).getInt32(0, true)) : unsigned ? dv(b).getBigUint64(0, true) : dv(b).getBigInt64(0, true));
      assert.deepEqual([String(read(st!.minValue!)), String(read(st!.maxValue!))], want[name], `${name}: footer min/max`);
      assert.equal(st!.nullCount, 1);
      const [d] = await duckStats(path, name);
      assert.deepEqual([d!.min, d!.max, d!.nulls], [...want[name]!, 1], `${name}: DuckDB's reading of the statistics`);
    }
  });

  // Each case is one row group: [values, expected min, expected max] (undefined: no min/max).
  const FLOAT_CASES: [number[], number | undefined, number | undefined][] = [
    [[NaN, -0, 0, 1], -0, 1],
    [[0, 0.5], -0, 0.5], // a zero min is written -0
    [[-0, -1], -1, 0], // a zero max is written +0
    [[0, -0], -0, 0],
    [[NaN, NaN], undefined, undefined], // all NaN: no min/max
    [[NaN, 2, -Infinity], -Infinity, 2],
  ];

  for (const [name, fb, read] of [
    ['f32', f.float(), (b: Uint8Array) => dv(b).getFloat32(0, true)],
    ['f64', f.double(), (b: Uint8Array) => dv(b).getFloat64(0, true)],
    ['f16', f.float16(), (b: Uint8Array) => halfToNumber(dv(b).getUint16(0, true))],
  ] as const) {
    test(`${name}: NaN is left out of min/max, a zero min is -0 and a zero max +0`, async () => {
      const schema = defineSchema({ v: fb });
      const path = join(newDir(), 'out.parquet');
      const w = await openWriter(path, schema);
      for (const [vs] of FLOAT_CASES) {
        await w.writeMany([...vs.map((v) => ({ v })), { v: null }]);
        await w.flushRowGroup(); // one row group per case
      }
      await w.close();
      const stats = await statsOf(path, 0);
      assert.equal(stats.length, FLOAT_CASES.length);
      const got = stats.map((s) => [s.minValue && read(s.minValue), s.maxValue && read(s.maxValue), s.nullCount]);
      const want = FLOAT_CASES.map(([, lo, hi]) => [lo, hi, 1]);
      const same = got.every((g, i) => g.every((x, k) => Object.is(x, want[i]![k])));
      assert.ok(same, `${name} statistics per row group:\n  expected ${show(want)}\n  footer   ${show(got)}`);
    });
  }

  test('strings longer than statisticsTruncateLength: truncated bounds, flagged inexact, still bounds', async () => {
    const schema = defineSchema({ s: f.string(), b: f.binary(), short: f.string() });
    const long = ['a'.repeat(100), 'b'.repeat(70) + 'z', 'ab', 'b'.repeat(64) + 'c'];
    const bins = [new Uint8Array(80).fill(0xff), new Uint8Array(70).fill(0x01), Uint8Array.of(0xfe, ...new Uint8Array(90).fill(0xff))];
    for (const [limit, extra] of [[64, {}], [16, { statisticsTruncateLength: 16 }]] as const) {
      const records = long.map((s, i) => ({ s, b: bins[i % bins.length], short: `s${i}` }));
      const path = await writeAll(schema, records, extra);
      const [st, bt, sh] = [(await statsOf(path, 0))[0]!, (await statsOf(path, 1))[0]!, (await statsOf(path, 2))[0]!];
      const all = long.map(utf8Bytes);
      for (const [name, s, values] of [['s', st, all], ['b', bt, bins]] as const) {
        assert.ok(s.minValue && s.minValue.length <= limit, `${name}: min truncated to ${limit} bytes: ${show(s.minValue)}`);
        assert.equal(s.isMinValueExact, false, `${name}: min flagged inexact`);
        assert.ok(values.every((v) => compareBytes(s.minValue!, v) <= 0), `${name}: min is a lower bound`);
        if (s.maxValue) {
          assert.ok(s.maxValue.length <= limit, `${name}: max truncated: ${show(s.maxValue)}`);
          assert.equal(s.isMaxValueExact, false, `${name}: max flagged inexact`);
          assert.ok(values.every((v) => compareBytes(s.maxValue!, v) >= 0), `${name}: max ${show(s.maxValue)} is an upper bound`);
        }
      }
      assert.ok(st.maxValue, 's: a max exists (a prefix of "b…" can be incremented)');
      assert.equal(new TextDecoder('utf-8', { fatal: true }).decode(st.maxValue!), 'b'.repeat(limit - 1) + 'c', 's: max is the prefix with its last byte incremented');
      assert.equal(new TextDecoder().decode(st.minValue!), 'a'.repeat(limit), 's: min is the prefix');
      assert.deepEqual([sh.isMinValueExact, sh.isMaxValueExact, new TextDecoder().decode(sh.minValue!), new TextDecoder().decode(sh.maxValue!)], [true, true, 's0', 's3']);
      const [d] = await duckStats(path, 's');
      assert.deepEqual([d!.min, d!.max, d!.minExact, d!.maxExact], ['a'.repeat(limit), 'b'.repeat(limit - 1) + 'c', false, false], 'DuckDB reads the truncated bounds');
    }
  });

  test('a UTF-8 max that cannot be truncated to a valid bound is left out, never cut mid-character', async () => {
    const schema = defineSchema({ s: f.string() });
    const dec = new TextDecoder('utf-8', { fatal: true });
    for (const values of [['é'.repeat(50), 'a'], ['\u007f'.repeat(80), 'a'], ['b'.repeat(63) + 'ÿq', 'b'.repeat(70)], ['😀'.repeat(20), 'x'.repeat(65)]]) {
      const path = await writeAll(schema, values.map((s) => ({ s })));
      const [st] = await statsOf(path, 0);
      const bytes = values.map(utf8Bytes);
      dec.decode(st!.minValue!); // valid UTF-8
      assert.ok(st!.minValue!.length <= 64 && bytes.every((b) => compareBytes(st!.minValue!, b) <= 0), `${show(values)}: min ${show(st!.minValue)} is a lower bound`);
      if (st!.maxValue) {
        dec.decode(st!.maxValue);
        assert.ok(st!.maxValue.length <= 64 && bytes.every((b) => compareBytes(st!.maxValue!, b) >= 0), `${show(values)}: max ${show(st!.maxValue)} is an upper bound`);
      }
    }
  });

  test('decimals in FIXED_LEN_BYTE_ARRAY and BYTE_ARRAY are ordered as signed numbers', async () => {
    const schema = defineSchema({ fx: f.decimal(9, 2, { storage: 'FIXED_LEN_BYTE_ARRAY' }), bn: f.decimal(20, 2, { storage: 'BYTE_ARRAY' }), i32: f.decimal(9, 2) });
    const values = ['-1.00', '0.50', '-0.01', '0.00', '-99.99', '3.25', null];
    const path = await writeAll(schema, values.map((v) => ({ fx: v, bn: v, i32: v })));
    for (const [c, name] of ['fx', 'bn', 'i32'].entries()) {
      const [st] = await statsOf(path, c);
      const signed = (b: Uint8Array) => (b.length === 4 && name === 'i32' ? BigInt(dv(b).getInt32(0, true)) : BigInt.asIntN(b.length * 8, BigInt('0x' + Buffer.from(b).toString('hex'))));
      assert.deepEqual([signed(st!.minValue!), signed(st!.maxValue!), st!.nullCount], [-9999n, 325n, 1], `${name}: footer`);
      const [d] = await duckStats(path, name);
      assert.deepEqual([d!.min, d!.max, d!.nulls], ['-99.99', '3.25', 1], `${name}: DuckDB`);
    }
  });

  test('null_count counts nulls at every level, empty lists included', async () => {
    const schema = defineSchema({ l: f.list(f.int32()), st: f.struct({ a: f.int32() }), m: f.map(f.string(), f.int32()) });
    const records = [
      { l: null, st: null, m: null },
      { l: [], st: { a: null }, m: [] },
      { l: [null, 1], st: { a: 1 }, m: [{ key: 'a', value: null }, { key: 'b', value: 2 }] },
      { l: [2], st: { a: 2 }, m: [{ key: 'c', value: 3 }] },
    ];
    const path = await writeAll(schema, records);
    const want: [string, number][] = [['l, list, element', 3], ['st, a', 2], ['m, key_value, key', 2], ['m, key_value, value', 3]];
    for (const [c, [name, nulls]] of want.entries()) {
      const [st] = await statsOf(path, c);
      assert.equal(st!.nullCount, nulls, `${name}: footer null_count`);
      const [d] = await duckStats(path, name);
      assert.equal(d!.nulls, nulls, `${name}: DuckDB null_count`);
    }
  });

  test('types without a sort order get a null_count and no min/max: INT96, INTERVAL, GEOMETRY, GEOGRAPHY', async () => {
    // parquet-format: the sort order of INTERVAL, GEOMETRY and GEOGRAPHY is undefined, "no min/max statistics should be saved".
    const schema = defineSchema({ i96: f.int96(), iv: f.interval(), geom: f.geometry(), geog: f.geography('OGC:CRS84') });
    const pt = (x: number) => Uint8Array.of(1, 1, 0, 0, 0, ...new Uint8Array(new Float64Array([x, -x]).buffer));
    const path = await writeAll(schema, [
      { i96: 5n, iv: { months: 1, days: 2, millis: 3 }, geom: pt(1), geog: pt(2) },
      { i96: null, iv: null, geom: null, geog: null },
      { i96: -5n, iv: { months: 0, days: 9, millis: 0 }, geom: pt(-3), geog: pt(4) },
    ]);
    const problems: string[] = [];
    for (const [c, name] of ['i96', 'iv', 'geom', 'geog'].entries()) {
      const [st] = await statsOf(path, c);
      if (st?.nullCount !== 1) problems.push(`${name}: null_count ${st?.nullCount}`);
      if (st?.minValue || st?.maxValue || st?.min || st?.max) problems.push(`${name}: min/max written (${show([st.minValue ?? st.min, st.maxValue ?? st.max])})`);
    }
    assert.deepEqual(problems, []);
  });

  test('distinct_count of a dictionary-encoded chunk ignores the values of rejected records', async () => {
    const schema = defineSchema({ s: f.string(), n: f.int32() });
    const sink = new BufferSink();
    const w = await ParquetWriter.open<unknown>(sink, schema);
    for (let i = 0; i < 100; i++) await w.write({ s: i % 2 ? 'a' : 'b', n: 1 });
    await assert.rejects(w.write({ s: 'rejected', n: 'not a number' }), InvalidArgumentError);
    await w.close();
    const r = await openParquet(sink.bytes());
    const st = r.file.metadata.rowGroups[0]!.columns[0]!.metaData!.statistics!;
    assert.ok(st.distinctCount === undefined || st.distinctCount === 2, `distinct_count ${st.distinctCount}, the chunk holds 2 distinct values`);
  });
});

// ------------------------------------------------------------------ writeColumns

describe('writeColumns', () => {
  const schema = defineSchema({
    id: f.int64().required(), i32: f.int32().required(), f64: f.double().required(), f32: f.float().required(),
    ts: f.timestamp('MICROS').required(), dt: f.date().required(), tm: f.time('MILLIS').required(),
    s: f.string(), d: f.decimal(9, 2), u: f.uint32(), b: f.boolean(), o: f.int64(),
  });
  const N = 3000;
  const rows = Array.from({ length: N }, (_, i) => ({
    id: BigInt(i) * 1000003n - 7n, i32: (i * 7919) | 0, f64: i % 17 === 0 ? NaN : i / 7, f32: Math.fround(i * 0.1), ts: BigInt(i) * 86_400_000_123n,
    dt: i - 1500, tm: (i * 28_800) % 86_400_000, s: i % 5 ? `s${i % 13}` : null, d: i % 4 ? `${i}.${String(i % 100).padStart(2, '0')}` : null,
    u: i % 3 ? 4_000_000_000 - i : null, b: i % 6 ? i % 2 === 0 : null, o: i % 2 ? BigInt(-i) : null,
  }));

  for (const dictionary of [true, false]) {
    test(`typed arrays and JS arrays with nulls read back as the same rows as write() gives (dictionary ${dictionary})`, async () => {
      const cols = {
        id: BigInt64Array.from(rows, (r) => r.id), i32: Int32Array.from(rows, (r) => r.i32), f64: Float64Array.from(rows, (r) => r.f64),
        f32: Float32Array.from(rows, (r) => r.f32), ts: BigInt64Array.from(rows, (r) => r.ts), dt: Int32Array.from(rows, (r) => r.dt),
        tm: Int32Array.from(rows, (r) => r.tm), s: rows.map((r) => r.s), d: rows.map((r) => r.d), u: rows.map((r) => r.u), b: rows.map((r) => r.b), o: rows.map((r) => r.o),
      };
      const path = join(newDir(), 'cols.parquet');
      const w = await openWriter(path, schema, { dictionary, rowGroupRows: 1000, pageRowLimit: 333, pageVersion: 2 });
      await w.writeColumns(cols);
      await w.close();
      const meta = await metaOf(path);
      assert.deepEqual(meta.rowGroups.map((g) => g.numRows), [1000, 1000, 1000]);
      await checkParquetry(path, `writeColumns-${dictionary}`, rows);
      await checkDuckValues(duck, path, `writeColumns-${dictionary}`, rows, planRecord(schema.schema.root));
      // Statistics as the record path writes them.
      const viaRecords = await writeAll(schema, rows, { dictionary, rowGroupRows: 1000, pageRowLimit: 333, pageVersion: 2 });
      const a = meta.rowGroups.map((g) => g.columns.map((c) => c.metaData!.statistics));
      const b = (await metaOf(viaRecords)).rowGroups.map((g) => g.columns.map((c) => c.metaData!.statistics));
      assert.deepEqual(a, b, 'the same statistics as write()');
    });
  }

  test('values are checked as write() checks them, typed arrays included (a TIME outside the day)', async () => {
    const tschema = defineSchema({ tm: f.time('MILLIS').required(), tu: f.time('MICROS').required() });
    const w = await ParquetWriter.open(new BufferSink(), tschema, { dictionary: false });
    await assert.rejects(w.write({ tm: -1, tu: 0n }), InvalidArgumentError);
    await assert.rejects(w.writeColumns({ tm: [-1], tu: [0n] }), InvalidArgumentError, 'a JS array is checked');
    await assert.rejects(w.writeColumns({ tm: Int32Array.of(-1), tu: BigInt64Array.of(0n) }), InvalidArgumentError, 'TIME(MILLIS) -1 from an Int32Array');
    await assert.rejects(w.writeColumns({ tm: Int32Array.of(0), tu: BigInt64Array.of(86_400_000_001n) }), InvalidArgumentError, 'TIME(MICROS) past 24:00 from a BigInt64Array');
  });
});

// ------------------------------------------------------------------ dictionary keys

describe('dictionary encoding keeps different values apart', () => {
  test('rejected records take back their dictionary entries, whether keyed as strings, ill-formed strings or bytes, before and after a column\'s strings move to its bytes', async () => {
    const schema = defineSchema({ s: f.string(), n: f.int32(), d: f.double() });
    const words = ['a', 'b', 'é', 'x\ud800', 'y\udc00', '', 'long word, long word'];
    for (let seed = 1; seed <= 12; seed++) {
      const r = new Rng(seed);
      const sink = new BufferSink();
      const w = await ParquetWriter.open<unknown>(sink, schema, { rowGroupRows: 37, pageRowLimit: 11 });
      const kept: Array<{ s: string; n: number; d: number }> = [];
      for (let i = 0; i < 300; i++) {
        const word = words[r.int(0, words.length - 1)]! + (r.int(0, 3) === 0 ? String(i) : '');
        // Bytes from some seeds' first records on, from others' later: the column's strings move to its byte set mid-chunk.
        const asBytes = r.int(0, 2) === 0 && i > seed * 10;
        const bad = r.int(0, 5) === 0;
        const record = { s: asBytes ? utf8Bytes(word) : word, n: bad ? 'not a number' : i, d: r.int(0, 9) / 4 };
        if (bad) await assert.rejects(w.write(record), InvalidArgumentError);
        else {
          await w.write(record);
          // A lone surrogate is written as U+FFFD, whether it came as a string (here) or never as bytes (utf8Bytes makes U+FFFD of it too).
          kept.push({ s: word.replace(/[\ud800-\udfff]/g, '\ufffd'), n: i, d: record.d });
        }
      }
      await w.close();
      const path = join(newDir(), `rollback-${seed}.parquet`);
      writeFileSync(path, sink.bytes());
      await checkParquetry(path, `dictionary-rollback-${seed}`, kept);
    }
  });

  test('a chunk\'s dictionary knows none of the last chunk\'s entries (large dictionaries, whose emptied sets the next chunk reuses)', async () => {
    // Each row group draws its values from a window that overlaps the last one's: a value kept from a chunk before would be found at a wrong index.
    const schema = defineSchema({ s: f.string(), b: f.string(), n: f.int32(), d: f.double(), t: f.int64() });
    const N = 60_000;
    const records = Array.from({ length: N }, (_, i) => {
      const g = Math.floor(i / 20_000);
      const k = g * 1500 + ((i * 7919) % 3000);
      return { s: `v${k}`, b: utf8Bytes(`w${k}`), n: k, d: i / 3, t: BigInt(i) * 1_000_003n };
    });
    const expected = records.map((r) => ({ ...r, b: new TextDecoder().decode(r.b) }));
    const path = await writeAll(schema, records, { rowGroupRows: 20_000 });
    const meta = await metaOf(path);
    assert.equal(meta.rowGroups.length, 3);
    for (const g of meta.rowGroups) {
      const enc = g.columns.map((c) => c.metaData!.encodings.includes('RLE_DICTIONARY'));
      assert.deepEqual(enc, [true, true, true, false, false], 'strings and the int32 keep a dictionary; the distinct doubles and int64s drop theirs');
    }
    await checkParquetry(path, 'dictionary-chunks', expected);
    const cols = {
      s: records.map((r) => r.s), b: records.map((r) => r.b), n: Int32Array.from(records, (r) => r.n),
      d: Float64Array.from(records, (r) => r.d), t: BigInt64Array.from(records, (r) => r.t),
    };
    const colsPath = join(newDir(), 'cols.parquet');
    const w = await openWriter(colsPath, schema, { rowGroupRows: 20_000 });
    await w.writeColumns(cols);
    await w.close();
    await checkParquetry(colsPath, 'dictionary-chunks-columns', expected);
  });

  test('a string and UTF-8 bytes whose Latin-1 reading is that string are different values', async () => {
    // 'Ã©' as a string is the bytes C3 83 C2 A9; the bytes C3 A9 are 'é'.
    const schema = defineSchema({ s: f.string(), e: f.enum(), j: f.json() });
    const records = [
      { s: 'Ã©', e: 'Ã©', j: '{"a":"Ã©"}' },
      { s: utf8Bytes('é'), e: utf8Bytes('é'), j: { a: 'é' } },
      { s: '€', e: '€', j: '"€"' },
      { s: Uint8Array.of(0xe2, 0x82, 0xac), e: 'x', j: '€' },
    ];
    const expected = [
      { s: 'Ã©', e: 'Ã©', j: '{"a":"Ã©"}' },
      { s: 'é', e: 'é', j: '{"a":"é"}' },
      { s: '€', e: '€', j: '"€"' },
      { s: '€', e: 'x', j: '€' },
    ];
    for (const dictionary of [true, false]) {
      const path = await writeAll(schema, records, { dictionary });
      await checkParquetry(path, `dictionary-keys-${dictionary}`, expected);
    }
  });
});
