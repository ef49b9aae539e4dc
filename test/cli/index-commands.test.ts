/**
 * `parquetry pages`, `column-index`, `bloom-filter` and `meta`'s structure
 * summary, run as a user runs them, on files other writers made: page
 * walks agree with the OffsetIndex and DuckDB's parquet_metadata, bloom
 * answers with DuckDB's parquet_bloom_probe; broken files give one-line
 * typed errors.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { ByteCursor } from '../../src/bytes/cursor.js';
import { openParquet, writeParquet } from '../../src/node/index.js';
import { decodeOffsetIndex, type OffsetIndex } from '../../src/parquet/metadata/index.js';
import { bloomAnswers } from '../../src/cli/bloom.js';
import { chunkIndex } from '../../src/cli/column-index.js';
import { chunkPages, selectChunks } from '../../src/parquet/inspect/page-headers.js';
import { ParquetryError } from '../../src/errors.js';
import { bufferSource, type Source } from '../../src/io/source.js';
import { ParquetFile } from '../../src/parquet/file.js';
import { run } from './run-cli.js';

const DATA = '../shared/corpus/parquet-testing/data';
const BAD = '../shared/corpus/parquet-testing/bad_data';
const TINY = `${DATA}/alltypes_tiny_pages.parquet`;
const BLOOM_MR = `${DATA}/data_index_bloom_encoding_stats.parquet`;
const BLOOM_RS = `${DATA}/data_index_bloom_encoding_with_length.parquet`;


function jsonLines(out: string): any[] {
  return out.trim() === '' ? [] : out.trim().split('\n').map((l) => JSON.parse(l));
}

let instance: DuckDBInstance;
let duck: DuckDBConnection;
before(async () => {
  instance = await DuckDBInstance.create(':memory:', { threads: '1' });
  duck = await instance.connect();
});
after(() => {
  duck?.closeSync();
  instance?.closeSync();
});

const sqlString = (s: string) => `'${s.replaceAll("'", "''")}'`;

async function duckRows(sql: string): Promise<Record<string, unknown>[]> {
  const r = await duck.runAndReadAll(sql);
  const names = r.columnNames();
  return r.getRows().map((row) => Object.fromEntries(names.map((n, i) => [n, row[i]])));
}

/** Every chunk's OffsetIndex, decoded from the file's bytes here (independently of the CLI). */
async function offsetIndexes(path: string): Promise<Map<string, OffsetIndex>> {
  const reader = await openParquet(path);
  const { readFile } = await import('node:fs/promises');
  const bytes = new Uint8Array(await readFile(path));
  const out = new Map<string, OffsetIndex>();
  reader.file.metadata.rowGroups.forEach((rg, i) => rg.columns.forEach((c, j) => {
    if (c.offsetIndexOffset === undefined) return;
    const end = c.offsetIndexOffset + c.offsetIndexLength!;
    out.set(`${i}/${reader.schema.leaves[j]!.path.join('.')}`, decodeOffsetIndex(new ByteCursor(bytes.subarray(0, end), c.offsetIndexOffset)));
  }));
  await reader.close();
  return out;
}

describe('pages', () => {
  test('alltypes_tiny_pages: data pages are where the OffsetIndex says, rows from it; chunks agree with DuckDB', async () => {
    const r = await run('pages', TINY, '--json');
    assert.equal(r.code, 0, r.err);
    const pages = jsonLines(r.out);
    const indexes = await offsetIndexes(TINY);
    const duckChunks = await duckRows(`SELECT row_group_id, path_in_schema, data_page_offset, dictionary_page_offset, total_compressed_size, num_values
      FROM parquet_metadata(${sqlString(TINY)})`);
    assert.equal(duckChunks.length, 13);
    for (const dc of duckChunks) {
      const column = String(dc.path_in_schema);
      const mine = pages.filter((p) => p.rowGroup === Number(dc.row_group_id) && p.column === column);
      const data = mine.filter((p) => p.type === 'data v1' || p.type === 'data v2');
      assert.ok(data.length > 1, `${column}: several pages`);
      // The chunk starts at its first page (parquet-mr 1.12 left dictionary_page_offset out: data_page_offset points at the dictionary page).
      assert.equal(mine[0].offset, Number(dc.dictionary_page_offset ?? dc.data_page_offset), `${column}: first page`);
      assert.equal(mine.reduce((n, p) => n + p.headerSize + p.compressedSize, 0), Number(dc.total_compressed_size), `${column}: chunk size`);
      assert.equal(data.reduce((n, p) => n + p.numValues, 0), Number(dc.num_values), `${column}: values`);
      const index = indexes.get(`0/${column}`)!;
      assert.deepEqual(
        data.map((p) => [p.offset, p.headerSize + p.compressedSize, p.firstRow]),
        index.pageLocations.map((l) => [l.offset, l.compressedPageSize, l.firstRowIndex]),
        `${column}: pages = OffsetIndex`,
      );
      assert.ok(data.every((p) => p.rowsFrom === 'offset index'));
      assert.equal(data.reduce((n, p) => n + p.rows, 0), 7300);
    }
  });

  test('DuckDB-written files, both format versions, several row groups: chunks and rows agree with DuckDB', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parquetry-pages-'));
    try {
      for (const version of ['V1', 'V2']) {
        const file = join(dir, `${version}.parquet`);
        await duck.run(`COPY (SELECT i AS id, CASE WHEN i % 3 = 0 THEN NULL ELSE 'v' || (i % 50) END AS s, [i, i + 1] AS l, {'x': i / 2} AS st
            FROM range(25000) t(i)) TO ${sqlString(file)} (FORMAT PARQUET, ROW_GROUP_SIZE 10000, PARQUET_VERSION ${version})`);
        const r = await run('pages', file, '--json');
        assert.equal(r.code, 0, r.err);
        const pages = jsonLines(r.out);
        const duckChunks = await duckRows(`SELECT row_group_id, row_group_num_rows, path_in_schema, data_page_offset, dictionary_page_offset, total_compressed_size, num_values
          FROM parquet_metadata(${sqlString(file)})`);
        assert.equal(duckChunks.length, 3 * 4);
        for (const dc of duckChunks) {
          const where = `${version} row group ${dc.row_group_id} ${dc.path_in_schema}`;
          const column = String(dc.path_in_schema).replaceAll(', ', '.');
          const mine = pages.filter((p) => p.rowGroup === Number(dc.row_group_id) && p.column === column);
          const data = mine.filter((p) => p.type.startsWith('data'));
          assert.ok(data.length >= 1 && data.length === mine.length - (mine[0].type === 'dictionary' ? 1 : 0), where);
          assert.equal(mine[0].offset, Number(dc.dictionary_page_offset ?? dc.data_page_offset), `${where}: first page`);
          assert.equal(data[0].offset, Number(dc.data_page_offset), `${where}: first data page`);
          assert.equal(mine.reduce((n, p) => n + p.headerSize + p.compressedSize, 0), Number(dc.total_compressed_size), `${where}: chunk size`);
          assert.equal(data.reduce((n, p) => n + p.numValues, 0), Number(dc.num_values), `${where}: values`);
          if (column !== 'l.list.element') {
            assert.equal(data.reduce((n, p) => n + p.rows, 0), Number(dc.row_group_num_rows), `${where}: rows`);
          } else {
            // DuckDB writes v1 data pages in both format versions, and no offset index: a list's rows per page are unknown.
            assert.ok(data.every((p) => p.type === 'data v1' && p.rows === null), `${where}: rows of a list`);
          }
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('header windows: any first window size walks the same pages; big page bodies are not fetched', async () => {
    for (const file of [TINY, BLOOM_MR, `${DATA}/datapage_v2.snappy.parquet`]) {
      const bytes = new Uint8Array(readFileSync(file));
      const reader = await ParquetFile.fromSource(bufferSource(bytes));
      for (const c of selectChunks(reader)) {
        const expected = await chunkPages(reader, bufferSource(bytes), c);
        for (const window of [1, 7, 64]) assert.deepEqual(await chunkPages(reader, bufferSource(bytes), c, window), expected, `${file} ${c.column} window ${window}`);
      }
    }
    // One page of ~1 MiB: the walk reads one window, not the body.
    const dir = mkdtempSync(join(tmpdir(), 'parquetry-window-'));
    try {
      const file = join(dir, 'big.parquet');
      await duck.run(`COPY (SELECT md5(i::VARCHAR) || md5((i * 7)::VARCHAR) AS s FROM range(30000) t(i)) TO ${sqlString(file)} (FORMAT PARQUET, COMPRESSION UNCOMPRESSED)`);
      const bytes = new Uint8Array(readFileSync(file));
      let read = 0;
      const counting = { byteLength: bytes.length, read: async (offset: number, length: number) => ((read += length), bytes.slice(offset, offset + length)) };
      const reader = await ParquetFile.fromSource(bufferSource(bytes));
      const [c] = selectChunks(reader);
      const cp = await chunkPages(reader, counting, c!);
      const body = cp.pages.reduce((n, p) => n + p.compressedSize, 0);
      assert.ok(body > 1_000_000, `${body} bytes of pages`);
      assert.ok(read <= cp.pages.length * 16 * 1024 && read * 4 < body, `read ${read} bytes for ${cp.pages.length} pages of ${body} bytes`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('--column and --row-group select chunks; text output is a table per chunk', async () => {
    const r = await run('pages', TINY, '--column', 'id', '--column', 'string_col', '--row-group', '0');
    assert.equal(r.code, 0, r.err);
    const heads = r.out.split('\n').filter((l) => l.startsWith('row group'));
    assert.deepEqual(heads.map((l) => l.replace(/:.*/, '')), ['row group 0, column id', 'row group 0, column string_col']);
    assert.match(heads[0]!, /: 325 pages, bytes 4\.\.37329, 7300 values$/);
    assert.match(r.out, /^ {2}page +type +offset +header +compressed +uncompressed +encoding +values +nulls +rows +first row +min +max +null count +crc$/m);
    assert.match(r.out, /^ {2}0 +data v1 +4 +19 +90 +90 +PLAIN +21 +21 +0 +no$/m);
  });

  test('statistics decoded to the column type; dictionary pages; a parquet-rs chunk', async () => {
    const pages = jsonLines((await run('pages', BLOOM_RS, '--json')).out);
    assert.deepEqual(pages.map((p) => [p.type, p.offset, p.encoding, p.numValues]), [['dictionary', 4, 'PLAIN', 14], ['data v1', 152, 'RLE_DICTIONARY', 14]]);
    assert.equal(pages[1].statistics.min, 'Hello');
    assert.equal(pages[1].statistics.max, 'today');
    assert.equal(pages[1].rows, 14);
    const mr = jsonLines((await run('pages', BLOOM_MR, '--json')).out);
    assert.deepEqual(mr.map((p) => [p.type, p.crc, p.rows]), [['data v1', true, 14]]);
  });

  test('v2 pages take rows and nulls from their header', async () => {
    const pages = jsonLines((await run('pages', `${DATA}/datapage_v2.snappy.parquet`, '--column', 'a', '--json')).out);
    assert.deepEqual(pages.map((p) => [p.type, p.numValues, p.numNulls, p.rows, p.rowsFrom]), [['dictionary', 1, undefined, undefined, undefined], ['data v2', 5, 1, 5, 'header']]);
    assert.deepEqual(pages[1].statistics, { min: 'abc', max: 'abc', nullCount: 1, legacy: true });
  });

  test('v1 pages of a repeated column without an OffsetIndex: rows unknown', async () => {
    const pages = jsonLines((await run('pages', `${BAD}/ARROW-GH-45185.parquet`, '--json')).out);
    assert.deepEqual(pages.map((p) => [p.type, p.rows]), [['data v1', null]]);
    assert.match((await run('pages', `${BAD}/ARROW-GH-45185.parquet`)).out, /^ {2}0 +data v1 +4 +19 +53 +53 +PLAIN +10 +\? +0 /m);
  });

  test('40000 one-value pages', async () => {
    const r = await run('pages', `${DATA}/overflow_i16_page_cnt.parquet`, '--json');
    assert.equal(r.code, 0, r.err);
    const pages = jsonLines(r.out);
    assert.equal(pages.length, 40000);
    assert.deepEqual([pages[39999].page, pages[39999].firstRow, pages[39999].rows, pages[39999].offset], [39999, 39999, 1, 719986]);
  });

  test('a missing row group or column is a usage error', async () => {
    const rg = await run('pages', TINY, '--row-group', '1');
    assert.equal(rg.code, 1);
    assert.match(rg.err, /^parquetry: row group 1 does not exist \(the file has 1\)/);
    const col = await run('pages', TINY, '--column', 'nope');
    assert.equal(col.code, 1);
    assert.match(col.err, /^parquetry: no column "nope" in the schema/);
  });
});

describe('column-index', () => {
  test('alltypes_tiny_pages: pages and first rows are the OffsetIndex, the same pages `pages` walks; bounds decoded', async () => {
    const r = await run('column-index', TINY, '--json');
    assert.equal(r.code, 0, r.err);
    const chunks = jsonLines(r.out);
    assert.equal(chunks.length, 13);
    const indexes = await offsetIndexes(TINY);
    const walked = jsonLines((await run('pages', TINY, '--json')).out).filter((p) => p.type.startsWith('data'));
    for (const c of chunks) {
      const index = indexes.get(`0/${c.column}`)!;
      assert.equal(c.offsetIndex, true);
      assert.deepEqual(c.pages.map((p: any) => [p.offset, p.compressedSize, p.firstRow]), index.pageLocations.map((l) => [l.offset, l.compressedPageSize, l.firstRowIndex]), c.column);
      const mine = walked.filter((p) => p.column === c.column);
      assert.deepEqual(c.pages.map((p: any) => [p.offset, p.numRows]), mine.map((p) => [p.offset, p.rows]), `${c.column}: column-index and pages agree`);
      assert.equal(c.pages.reduce((n: number, p: any) => n + p.numRows, 0), 7300);
    }
    const byName = new Map(chunks.map((c) => [c.column, c]));
    // parquet-mr wrote no column index for the INT96 timestamps (no defined order).
    assert.equal(byName.get('timestamp_col').columnIndex, false);
    assert.equal(byName.get('bool_col').boundaryOrder, 'ASCENDING');
    const id = byName.get('id');
    assert.deepEqual([id.pages[0].min, id.pages[0].max, id.pages[0].nullCount, id.pages[0].nullPage], [122, 142, 0, false]);
    // Each page's bounds hold the values of its rows.
    const tinyReader = await openParquet(TINY);
    const rows = await tinyReader.readRows({ columns: ['id', 'string_col'] });
    await tinyReader.close();
    for (const name of ['id', 'string_col']) {
      for (const p of byName.get(name).pages) {
        const values = rows.slice(p.firstRow, p.firstRow + p.numRows).map((row) => row[name] as any);
        const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        assert.deepEqual([sorted[0], sorted[sorted.length - 1]], [p.min, p.max], `${name} page ${p.page}`);
      }
    }
  });

  test('text: a table per chunk; a file without a page index says so', async () => {
    const r = await run('column-index', BLOOM_RS);
    assert.equal(r.code, 0, r.err);
    assert.equal(r.out, [
      'row group 0, column String: 1 page, boundary order UNORDERED',
      '  page  first row  rows  offset  size  null page  null count  min    max',
      '  ----  ---------  ----  ------  ----  ---------  ----------  -----  -----',
      '  0     0          14    152     51    no         0           Hello  today',
      '',
    ].join('\n'));
    const none = await run('column-index', `${DATA}/alltypes_plain.parquet`, '--column', 'id', '--column', 'bool_col');
    assert.equal(none.out, 'row group 0, column id: no page index\nrow group 0, column bool_col: no page index\n');
    const only = await run('column-index', TINY, '--column', 'timestamp_col');
    assert.match(only.out, /^row group 0, column timestamp_col: 1055 pages \(offset index only, no column index\)\n {2}page +first row +rows +offset +size +null page +null count +min +max\n/);
  });
});

describe('bloom-filter', () => {
  const PROBES = ['Hello', 'hello', 'today', 'dog', 'doing ', 'the lazy', 'nope', '', 'Hello ', 'brown fox', 'zzz'];

  test('parquet-mr and parquet-rs filters answer as DuckDB\'s parquet_bloom_probe', async () => {
    for (const file of [BLOOM_MR, BLOOM_RS]) {
      const reader = await openParquet(file);
      try {
        let absent = 0;
        for (const v of PROBES) {
          const [a] = await bloomAnswers(reader.file, 'String', v);
          const [d] = await duckRows(`SELECT bloom_filter_excludes FROM parquet_bloom_probe(${sqlString(file)}, 'String', ${sqlString(v)})`);
          assert.equal(a!.result === 'definitely absent', d!.bloom_filter_excludes, `${file} ${JSON.stringify(v)}`);
          if (a!.result === 'definitely absent') absent++;
        }
        assert.ok(absent >= 3, 'some probes are excluded');
      } finally {
        await reader.close();
      }
    }
  });

  test('DuckDB-written filters over several row groups and types', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parquetry-bloom-'));
    const file = join(dir, 'bloom.parquet');
    try {
      await duck.run(`COPY (SELECT (i % 500)::INTEGER AS i32, (i % 700)::BIGINT * 1000000007 AS i64, 'k' || (i % 300) AS s,
          (i % 50) / 4 AS dbl, DATE '2024-01-01' + (i % 90)::INTEGER AS day FROM range(30000) t(i))
        TO ${sqlString(file)} (FORMAT PARQUET, ROW_GROUP_SIZE 10000)`);
      const probes: Record<string, string[]> = {
        i32: ['1', '499', '500', '-1', '123456'],
        i64: ['0', '1000000007', '699000004893', '5', '-1000000007'],
        s: ['k1', 'k299', 'k300', 'K1', "'k7'"],
        dbl: ['0.25', '12.25', '12.5', '3', '-0.5'],
        day: ['2024-01-01', '2024-03-30', '2024-03-31', '2023-12-31'],
      };
      const reader = await openParquet(file);
      try {
        for (const [column, values] of Object.entries(probes)) {
          for (const v of values) {
            const ours = await bloomAnswers(reader.file, column, v);
            assert.equal(ours.length, 3);
            const literal = v.startsWith("'") ? v : column === 's' || column === 'day' ? sqlString(v) : v;
            const duckSays = await duckRows(`SELECT row_group_id, bloom_filter_excludes FROM parquet_bloom_probe(${sqlString(file)}, '${column}', ${literal}) ORDER BY row_group_id`);
            assert.deepEqual(
              ours.map((a) => [a.rowGroup, a.result === 'definitely absent']),
              duckSays.map((d) => [Number(d.row_group_id), d.bloom_filter_excludes]),
              `${column} ${v}`,
            );
            assert.ok(ours.every((a) => a.bloomFilter), `${column}: DuckDB wrote filters`);
          }
        }
      } finally {
        await reader.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the command: text and --json; bare and quoted strings; no filter; bad column', async () => {
    const text = await run('bloom-filter', BLOOM_RS, '--column', 'String', '--value', 'the lazy');
    assert.equal(text.code, 0, text.err);
    assert.match(text.out, /^column String, value the lazy:\n {2}row group +bloom filter +bytes +answer\n.*\n {2}0 +yes +\d+ +maybe present\n$/);
    const quoted = jsonLines((await run('bloom-filter', BLOOM_MR, '--column', 'String', '--value', "'nope'", '--json')).out);
    assert.deepEqual(quoted, [{ rowGroup: 0, column: 'String', bloomFilter: true, numBytes: 1024, result: 'definitely absent' }]);
    const none = jsonLines((await run('bloom-filter', TINY, '--column', 'id', '--value', '5', '--json')).out);
    assert.deepEqual(none, [{ rowGroup: 0, column: 'id', bloomFilter: false }]);
    assert.match((await run('bloom-filter', TINY, '--column', 'id', '--value', '5')).out, /no filter: may be present/);
    const bad = await run('bloom-filter', BLOOM_RS, '--column', 'nope', '--value', '1');
    assert.equal(bad.code, 1);
    assert.match(bad.err, /^parquetry: [^\n]*nope[^\n]*\n$/);
    const missing = await run('bloom-filter', BLOOM_RS, '--column', 'String');
    assert.notEqual(missing.code, 0);
    assert.match(missing.err, /required option '--value <v>'/);
  });
});

describe('meta', () => {
  test('a file-level line says which structures the file has', async () => {
    const tiny = await run('meta', TINY);
    assert.match(tiny.out, /^indexes: +column index: 12\/13 chunks; offset index: 13\/13 chunks; bloom filter: none$/m);
    assert.match(tiny.out, /^ +size statistics: none; sorting columns: none$/m);
    const rs = await run('meta', BLOOM_RS);
    assert.match(rs.out, /^indexes: +column index: 1\/1 chunks; offset index: 1\/1 chunks; bloom filter: 1\/1 chunks$/m);
    const json = JSON.parse((await run('meta', BLOOM_RS, '--json')).out);
    assert.deepEqual(json.structures, { chunks: 1, columnIndex: 1, offsetIndex: 1, bloomFilter: 1, sizeStatistics: 0, rowGroups: 1, sortingColumns: 0 });
    const [dc] = await duckRows(`SELECT bloom_filter_offset, bloom_filter_length FROM parquet_metadata(${sqlString(BLOOM_RS)})`);
    assert.equal(json.rowGroups[0].columns[0].bloomFilterLength, Number(dc!.bloom_filter_length));
  });

  test('sorting columns: counted, and listed per row group', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parquetry-meta-'));
    try {
      const file = join(dir, 'sorted.parquet');
      await writeParquet(file, Array.from({ length: 10 }, (_, i) => ({ id: i, name: `n${9 - i}` })), { sortedBy: [{ column: 'id' }, { column: 'name', descending: true, nullsFirst: true }] });
      const r = await run('meta', file);
      assert.equal(r.code, 0, r.err);
      assert.match(r.out, /sorting columns: 1\/1 row groups$/m);
      assert.match(r.out, /^ {2}sorted by id ASC NULLS LAST, name DESC NULLS FIRST$/m);
      const json = JSON.parse((await run('meta', file, '--json')).out);
      assert.deepEqual(json.rowGroups[0].sortingColumns, [
        { columnIdx: 0, descending: false, nullsFirst: false, path: 'id' },
        { columnIdx: 1, descending: true, nullsFirst: true, path: 'name' },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('broken files: one typed line on stderr, exit status 1, no stack trace', () => {
  const files = readdirSync(BAD).filter((f) => f.endsWith('.parquet')).sort();
  // The first leaf column's name, from the footer (a footer we cannot read gives a name that fails as well).
  const firstColumns = new Map<string, string>();
  before(async () => {
    for (const f of files) {
      try {
        const reader = await openParquet(`${BAD}/${f}`);
        firstColumns.set(f, reader.schema.leaves[0]!.path.join('.'));
        await reader.close();
      } catch {
        firstColumns.set(f, 'x');
      }
    }
  });
  const column = (f: string) => firstColumns.get(f)!;
  for (const f of files) {
    test(f, async () => {
      const cmds = [['pages'], ['meta'], ['column-index'], ['bloom-filter', '--column', column(f), '--value', '1']];
      const results = await Promise.all(cmds.map((cmd) => run(...cmd, `${BAD}/${f}`)));
      for (const [i, cmd] of cmds.entries()) {
        const r = results[i]!;
        assert.ok(r.code === 0 || r.code === 1, `${cmd[0]} ${f}: exit ${r.code}: ${r.err}`);
        if (r.code === 1) assert.match(r.err, /^parquetry: [^\n]*\(file [^\n]*\)\n$/, `${cmd[0]} ${f}`);
        else assert.equal(r.err, '');
        assert.doesNotMatch(r.err, /internal error|\n\s+at /);
      }
    });
  }

  test('a page header cut short names its row group, column, page and offset', async () => {
    const r = await run('pages', `${BAD}/ARROW-GH-41321.parquet`);
    assert.equal(r.code, 1);
    assert.match(r.err, /^parquetry: thrift: .*\(file .*ARROW-GH-41321\.parquet, offset 4565, row group 0, column large_binary, page 2\)\n$/);
  });

  test('a page header whose required field has the wrong wire type', async () => {
    // DataPageHeader.num_values comes as an i16 (field header at byte 13, its value at 14): named with both types, at the value.
    const r = await run('pages', `${BAD}/ARROW-RS-GH-6229-DICTHEADER.parquet`);
    assert.equal(r.code, 1);
    assert.match(r.err, /required field num_values \(id 1\) is I16 where I32 is expected \(file .*, offset 14, row group 0, column nation_key, page 0\)\n$/);
  });
});

/** `bytes` as a Source that marks, in `seen`, every byte read through it. */
function watchedSource(bytes: Uint8Array, seen: Uint8Array, name?: string): Source {
  const inner = bufferSource(bytes, name);
  return {
    byteLength: inner.byteLength,
    name,
    read(offset, length) {
      seen.fill(1, offset, offset + length);
      return inner.read(offset, length);
    },
  };
}

describe('damaged copies: every byte of the data and index region overwritten in turn', () => {
  // In process, over the same functions the commands use: any failure must be a ParquetryError.
  // The footer is not damaged: it is parsed once. The commands are deterministic, so one that
  // never reads a byte of the original reads the same bytes from a copy damaged there, and does
  // the same: each copy runs the commands that read its damaged byte.
  const jobs: Record<string, (reader: ParquetFile, source: Source) => Promise<unknown>> = {
    pages: async (reader, source) => { for (const c of selectChunks(reader)) await chunkPages(reader, source, c); },
    'column-index': async (reader) => { for (const c of selectChunks(reader)) await chunkIndex(reader, c); },
    'bloom-filter': (reader) => bloomAnswers(reader, 'String', 'Hello'),
  };
  for (const file of [BLOOM_RS, BLOOM_MR]) {
    test(file.replace(/.*\//, ''), async () => {
      const original = new Uint8Array(readFileSync(file));
      const footerLength = new DataView(original.buffer, original.byteOffset).getUint32(original.length - 8, true);
      const dataEnd = original.length - 8 - footerLength;
      const { metadata } = await ParquetFile.fromSource(bufferSource(original));
      const reads = new Map<string, Uint8Array>();
      for (const [name, job] of Object.entries(jobs)) {
        const seen = new Uint8Array(original.length);
        const source = watchedSource(original, seen);
        await job(ParquetFile.fromMetadata(source, metadata), source);
        reads.set(name, seen);
      }
      const outcomes = { ok: 0, typed: 0 };
      for (let at = 4; at < dataEnd; at++) {
        const readers = Object.entries(jobs).filter(([name]) => reads.get(name)![at]);
        for (const byte of [0xff, 0x00, original[at]! ^ 0x41]) {
          const bytes = original.slice();
          bytes[at] = byte;
          const source = bufferSource(bytes, `copy@${at}`);
          for (const [name, job] of readers) {
            try {
              await job(ParquetFile.fromMetadata(source, metadata), source);
              outcomes.ok++;
            } catch (e) {
              if (!(e instanceof ParquetryError)) assert.fail(`${name}, byte ${at} = ${byte}: ${(e as Error)?.stack ?? e}`);
              outcomes.typed++;
            }
          }
        }
      }
      // Each command read part of the region (the sweep reaches all three).
      for (const [name, seen] of reads) assert.ok(seen.subarray(4, dataEnd).includes(1), `${name} read nothing of the region`);
      assert.ok(outcomes.typed > 50, `${outcomes.typed} typed errors, ${outcomes.ok} reads`);
    });
  }
});
