/**
 * `parquetry pages`, `column-index`, `bloom-filter` and `meta`'s structure
 * summary, run as a user runs them, on files other writers made: page
 * walks agree with the OffsetIndex and DuckDB's parquet_metadata, bloom
 * answers with DuckDB's parquet_bloom_probe; broken files give one-line
 * typed errors.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { ByteCursor } from '../../src/bytes/cursor.js';
import { openParquet } from '../../src/node/index.js';
import { decodeOffsetIndex, type OffsetIndex } from '../../src/parquet/metadata/index.js';

const DATA = '../shared/corpus/parquet-testing/data';
const BAD = '../shared/corpus/parquet-testing/bad_data';
const TINY = `${DATA}/alltypes_tiny_pages.parquet`;
const BLOOM_MR = `${DATA}/data_index_bloom_encoding_stats.parquet`;
const BLOOM_RS = `${DATA}/data_index_bloom_encoding_with_length.parquet`;

function run(...args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

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
  reader.metadata.rowGroups.forEach((rg, i) => rg.columns.forEach((c, j) => {
    if (c.offsetIndexOffset === undefined) return;
    const end = c.offsetIndexOffset + c.offsetIndexLength!;
    out.set(`${i}/${reader.schema.leaves[j]!.path.join('.')}`, decodeOffsetIndex(new ByteCursor(bytes.subarray(0, end), c.offsetIndexOffset)));
  }));
  await reader.close();
  return out;
}

describe('pages', () => {
  test('alltypes_tiny_pages: data pages are where the OffsetIndex says, rows from it; chunks agree with DuckDB', async () => {
    const r = run('pages', TINY, '--json');
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

  test('--column and --row-group select chunks; text output is a table per chunk', () => {
    const r = run('pages', TINY, '--column', 'id', '--column', 'string_col', '--row-group', '0');
    assert.equal(r.code, 0, r.err);
    const heads = r.out.split('\n').filter((l) => l.startsWith('row group'));
    assert.deepEqual(heads.map((l) => l.replace(/:.*/, '')), ['row group 0, column id', 'row group 0, column string_col']);
    assert.match(heads[0]!, /: 325 pages, bytes 4\.\.37329, 7300 values$/);
    assert.match(r.out, /^ {2}page +type +offset +header +compressed +uncompressed +encoding +values +nulls +rows +first row +min +max +null count +crc$/m);
    assert.match(r.out, /^ {2}0 +data v1 +4 +19 +90 +90 +PLAIN +21 +21 +0 +no$/m);
  });

  test('statistics decoded to the column type; dictionary pages; a parquet-rs chunk', () => {
    const pages = jsonLines(run('pages', BLOOM_RS, '--json').out);
    assert.deepEqual(pages.map((p) => [p.type, p.offset, p.encoding, p.numValues]), [['dictionary', 4, 'PLAIN', 14], ['data v1', 152, 'RLE_DICTIONARY', 14]]);
    assert.equal(pages[1].statistics.min, 'Hello');
    assert.equal(pages[1].statistics.max, 'today');
    assert.equal(pages[1].rows, 14);
    const mr = jsonLines(run('pages', BLOOM_MR, '--json').out);
    assert.deepEqual(mr.map((p) => [p.type, p.crc, p.rows]), [['data v1', true, 14]]);
  });

  test('v2 pages take rows and nulls from their header', () => {
    const pages = jsonLines(run('pages', `${DATA}/datapage_v2.snappy.parquet`, '--column', 'a', '--json').out);
    assert.deepEqual(pages.map((p) => [p.type, p.numValues, p.numNulls, p.rows, p.rowsFrom]), [['dictionary', 1, undefined, undefined, undefined], ['data v2', 5, 1, 5, 'header']]);
    assert.deepEqual(pages[1].statistics, { min: 'abc', max: 'abc', nullCount: 1, legacy: true });
  });

  test('v1 pages of a repeated column without an OffsetIndex: rows unknown', () => {
    const pages = jsonLines(run('pages', `${BAD}/ARROW-GH-45185.parquet`, '--json').out);
    assert.deepEqual(pages.map((p) => [p.type, p.rows]), [['data v1', null]]);
    assert.match(run('pages', `${BAD}/ARROW-GH-45185.parquet`).out, /^ {2}0 +data v1 +4 +19 +53 +53 +PLAIN +10 +\? +0 /m);
  });

  test('40000 one-value pages', () => {
    const r = run('pages', `${DATA}/overflow_i16_page_cnt.parquet`, '--json');
    assert.equal(r.code, 0, r.err);
    const pages = jsonLines(r.out);
    assert.equal(pages.length, 40000);
    assert.deepEqual([pages[39999].page, pages[39999].firstRow, pages[39999].rows, pages[39999].offset], [39999, 39999, 1, 719986]);
  });

  test('a missing row group or column is a usage error', () => {
    const rg = run('pages', TINY, '--row-group', '1');
    assert.equal(rg.code, 1);
    assert.match(rg.err, /^parquetry: row group 1 does not exist \(the file has 1\)/);
    const col = run('pages', TINY, '--column', 'nope');
    assert.equal(col.code, 1);
    assert.match(col.err, /^parquetry: no column "nope" in the schema/);
  });
});

describe('meta', () => {
  test('a file-level line says which structures the file has', async () => {
    const tiny = run('meta', TINY);
    assert.match(tiny.out, /^indexes: +column index: 12\/13 chunks; offset index: 13\/13 chunks; bloom filter: none$/m);
    assert.match(tiny.out, /^ +size statistics: none; sorting columns: none$/m);
    const rs = run('meta', BLOOM_RS);
    assert.match(rs.out, /^indexes: +column index: 1\/1 chunks; offset index: 1\/1 chunks; bloom filter: 1\/1 chunks$/m);
    const json = JSON.parse(run('meta', BLOOM_RS, '--json').out);
    assert.deepEqual(json.structures, { chunks: 1, columnIndex: 1, offsetIndex: 1, bloomFilter: 1, sizeStatistics: 0, rowGroups: 1, sortingColumns: 0 });
    const [dc] = await duckRows(`SELECT bloom_filter_offset, bloom_filter_length FROM parquet_metadata(${sqlString(BLOOM_RS)})`);
    assert.equal(json.rowGroups[0].columns[0].bloomFilterLength, Number(dc!.bloom_filter_length));
  });
});

describe('broken files: one typed line on stderr, exit status 1, no stack trace', () => {
  const files = readdirSync(BAD).filter((f) => f.endsWith('.parquet')).sort();
  for (const f of files) {
    test(f, () => {
      for (const cmd of [['pages'], ['meta']]) {
        const r = run(...cmd, `${BAD}/${f}`);
        assert.ok(r.code === 0 || r.code === 1, `${cmd[0]} ${f}: exit ${r.code}: ${r.err}`);
        if (r.code === 1) assert.match(r.err, /^parquetry: [^\n]*\(file [^\n]*\)\n$/, `${cmd[0]} ${f}`);
        else assert.equal(r.err, '');
        assert.doesNotMatch(r.err, /internal error|\n\s+at /);
      }
    });
  }

  test('a page header cut short names its row group, column, page and offset', () => {
    const r = run('pages', `${BAD}/ARROW-GH-41321.parquet`);
    assert.equal(r.code, 1);
    assert.match(r.err, /^parquetry: thrift: .*\(file .*ARROW-GH-41321\.parquet, offset 4565, row group 0, column large_binary, page 2\)\n$/);
  });

  test('a page header missing a required field', () => {
    const r = run('pages', `${BAD}/ARROW-RS-GH-6229-DICTHEADER.parquet`);
    assert.equal(r.code, 1);
    assert.match(r.err, /required field num_values .*\(file .*, offset 22, row group 0, column nation_key, page 0\)\n$/);
  });
});
