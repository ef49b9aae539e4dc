/**
 * `parquetry check-stats` and `checkStatistics`: every file of the corpus
 * reads as honest (but two whose column index says every page is null), and
 * a file whose statistics, page index or bloom filter we damage is caught,
 * each lie named with what the file says and what the data holds.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ByteCursor } from '../../src/bytes/cursor.js';
import { ByteWriter } from '../../src/bytes/writer.js';
import { ParquetryError } from '../../src/errors.js';
import { bufferSource } from '../../src/io/source.js';
import { checkStatistics, type Lie } from '../../src/parquet/inspect/check-stats.js';
import { decodeBloomFilterHeader, decodeColumnIndex, decodeFileMetaData, decodeOffsetIndex, type ColumnIndex, type FileMetaData, type OffsetIndex } from '../../src/parquet/metadata/index.js';
import { encodeColumnIndex, encodeFileMetaData, encodeOffsetIndex } from '../../src/parquet/metadata/encode.js';
import { writeParquet } from '../../src/node/index.js';
import { applyStructured } from '../../scripts/fuzz/structured.js';
import { walkWkb } from '../../src/geo/wkb.js';
import { run } from './run-cli.js';

const DATA = '../shared/corpus/parquet-testing/data';


let dir = '';
let honest: Uint8Array;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'parquetry-check-'));
  const file = join(dir, 'honest.parquet');
  const rows = Array.from({ length: 400 }, (_, i) => ({ id: BigInt(i), name: i % 9 === 0 ? null : `name-${i % 50}` }));
  await writeParquet(file, rows, { pageRowLimit: 100, dictionary: false, bloomFilters: { name: true } } as never);
  honest = new Uint8Array(readFileSync(file));
});
after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const footerAt = (b: Uint8Array) => {
  const len = new DataView(b.buffer, b.byteOffset).getUint32(b.length - 8, true);
  return { start: b.length - 8 - len, len };
};
const footer = (b: Uint8Array): FileMetaData => {
  const { start, len } = footerAt(b);
  return decodeFileMetaData(b.subarray(start, start + len));
};

/** The file with its footer decoded, edited and encoded back. */
function editFooter(b: Uint8Array, edit: (m: FileMetaData) => void): Uint8Array {
  const m = footer(b);
  edit(m);
  const w = new ByteWriter();
  encodeFileMetaData(m, w);
  const f = w.finish();
  const { start } = footerAt(b);
  const out = new Uint8Array(start + f.length + 8);
  out.set(b.subarray(0, start));
  out.set(f, start);
  new DataView(out.buffer).setUint32(start + f.length, f.length, true);
  out.set(b.subarray(b.length - 4), start + f.length + 4);
  return out;
}

/** The file with a struct at [offset, offset + length) re-encoded in place (the edit must keep its length). */
function editInPlace<T>(b: Uint8Array, offset: number, length: number, decode: (c: ByteCursor) => T, encode: (v: T, w: ByteWriter) => void, edit: (v: T) => void): Uint8Array {
  const v = decode(new ByteCursor(b.subarray(offset, offset + length)));
  edit(v);
  const w = new ByteWriter();
  encode(v, w);
  const enc = w.finish();
  assert.equal(enc.length, length, 'the edit keeps the struct length');
  const out = b.slice();
  out.set(enc, offset);
  return out;
}

const int64 = (v: bigint) => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigInt64(0, v, true);
  return b;
};

async function lies(b: Uint8Array): Promise<Lie[]> {
  return (await checkStatistics(bufferSource(b))).lies;
}

/** What the CLI says about a file: exit status and its JSON report. */
async function cli(b: Uint8Array, name: string) {
  const file = join(dir, name);
  writeFileSync(file, b);
  const r = await run('check-stats', file, '--json');
  return { code: r.code, report: r.out ? JSON.parse(r.out) : undefined, err: r.err };
}

describe('honest files', () => {
  test('every statistic, page index and bloom filter of the corpus (geospatial files too) matches its data (but two known column indexes)', async () => {
    let checked = 0;
    const geospatial = readdirSync(join(DATA, 'geospatial')).map((f) => `geospatial/${f}`);
    for (const name of [...readdirSync(DATA), ...geospatial].filter((f) => f.endsWith('.parquet'))) {
      let found: Lie[];
      try {
        found = await lies(new Uint8Array(readFileSync(join(DATA, name))));
      } catch (e) {
        if (e instanceof ParquetryError) continue; // files that do not read (corrupt on purpose, over limits)
        throw e;
      }
      checked++;
      if (/^datapage_v1-(snappy-compressed|uncompressed)-checksum\.parquet$/.test(name)) {
        // Written with null_pages all true and null_counts -1 beside pages full of values.
        assert.ok(found.length > 0 && found.every((l) => l.structure === 'column index' && (l.field === 'null_pages' || l.field === 'null_counts')), name);
      } else assert.deepEqual(found, [], name);
    }
    assert.ok(checked >= 60, `${checked} files checked`);
  });

  test('encrypted files: the page index is checked against the decrypted page headers, and holds', async () => {
    const key = (k: string) => new TextEncoder().encode(k);
    const decryption = { footerKey: key('0123456789012345'), columnKeys: { double_field: key('1234567890123450'), float_field: key('1234567890123451') } };
    for (const name of ['uniform_encryption', 'encrypt_columns_and_footer', 'encrypt_columns_and_footer_ctr', 'encrypt_columns_plaintext_footer']) {
      const report = await checkStatistics(bufferSource(new Uint8Array(readFileSync(join(DATA, `${name}.parquet.encrypted`)))), { decryption });
      assert.deepEqual(report.lies, [], name);
      assert.equal(report.checked['column index'], 7, name);
    }
  });

  test('the CLI reports what it checked and exits 0', async () => {
    const r = await cli(honest, 'honest.parquet');
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(r.report, { checked: { statistics: 2, 'size statistics': 2, 'column index': 2, 'offset index': 2, 'bloom filter': 1 }, lies: [] });
    const text = await run('check-stats', join(dir, 'honest.parquet'));
    assert.equal(text.out, 'checked: 2 chunk statistics, 2 size statistics, 2 column indexes, 2 offset indexes, 1 bloom filter\nno lies found\n');
  });
});

describe('damaged files', () => {
  test('a chunk max below the data: exit 1, the lie named', async () => {
    const bad = editFooter(honest, (m) => {
      m.rowGroups[0]!.columns[0]!.metaData!.statistics!.maxValue = int64(300n);
    });
    const r = await cli(bad, 'max.parquet');
    assert.equal(r.code, 1);
    assert.deepEqual(r.report.lies, [{ rowGroup: 0, column: 'id', structure: 'statistics', field: 'max_value', stored: '300', actual: '399' }]);
    const text = await run('check-stats', join(dir, 'max.parquet'));
    assert.equal(text.code, 1);
    assert.match(text.out, /1 lie:\n.*\n.*\n {2}0 +id +statistics +max_value +300 +399\n$/);
  });

  test('a chunk min above the data', async () => {
    const bad = editFooter(honest, (m) => {
      m.rowGroups[0]!.columns[0]!.metaData!.statistics!.minValue = int64(1n);
    });
    assert.deepEqual((await lies(bad)).map((l) => [l.field, l.stored, l.actual]), [['min_value', '1', '0']]);
  });

  test('a null count and a distinct count the data does not have (edited with the fuzz helpers)', async () => {
    const stats = ['rowGroups', 0, 'columns', 1, 'metaData', 'statistics'];
    const nulls = applyStructured(honest, { kind: 'footerField', op: 'set', path: [...stats, 'nullCount'], value: 3 });
    assert.deepEqual((await lies(nulls)).map((l) => [l.column, l.field, l.stored, l.actual]), [['name', 'null_count', '3', '45']]);
    const distinct = applyStructured(honest, { kind: 'footerField', op: 'set', path: [...stats, 'distinctCount'], value: 7 });
    assert.deepEqual((await lies(distinct)).map((l) => [l.column, l.field, l.stored, l.actual]), [['name', 'distinct_count', '7', '50']]);
  });

  test("a page's bounds and null count in the column index", async () => {
    const chunk = footer(honest).rowGroups[0]!.columns[0]!;
    const bad = editInPlace<ColumnIndex>(honest, chunk.columnIndexOffset!, chunk.columnIndexLength!, decodeColumnIndex, encodeColumnIndex, (ci) => {
      ci.maxValues[2] = int64(250n); // page 2 holds 200..299
      ci.nullCounts![1] = 1;
    });
    assert.deepEqual((await lies(bad)).map((l) => [l.structure, l.page, l.field, l.stored, l.actual]), [
      ['column index', 1, 'null_counts', '1', '0'],
      ['column index', 2, 'max_values', '250', '299'],
    ]);
  });

  test("a page's first row in the offset index", async () => {
    const chunk = footer(honest).rowGroups[0]!.columns[1]!;
    const bad = editInPlace<OffsetIndex>(honest, chunk.offsetIndexOffset!, chunk.offsetIndexLength!, decodeOffsetIndex, encodeOffsetIndex, (oi) => {
      oi.pageLocations[3]!.firstRowIndex = 301;
    });
    assert.deepEqual((await lies(bad)).map((l) => [l.structure, l.page, l.field, l.stored, l.actual]), [['offset index', 3, 'first_row_index', '301', '300']]);
  });

  test('an offset index whose first location is the dictionary page', async () => {
    const file = join(dir, 'dict.parquet');
    await writeParquet(file, Array.from({ length: 300 }, (_, i) => ({ k: `key-${i % 3}` })), { pageRowLimit: 100 } as never);
    const b = new Uint8Array(readFileSync(file));
    const chunk = footer(b).rowGroups[0]!.columns[0]!;
    const dictAt = chunk.metaData!.dictionaryPageOffset!;
    const bad = editInPlace<OffsetIndex>(b, chunk.offsetIndexOffset!, chunk.offsetIndexLength!, decodeOffsetIndex, encodeOffsetIndex, (oi) => {
      oi.pageLocations[0]!.offset = dictAt;
    });
    assert.deepEqual((await lies(bad)).map((l) => [l.structure, l.page, l.field, l.stored, l.actual]), [['offset index', 0, 'page_locations', `data page 0 at ${dictAt}`, 'a dictionary page']]);
  });

  test('bounds the file calls exact but that are not the extremes (looser bounds not called exact are honest)', async () => {
    const loose = (exact: boolean) => editFooter(honest, (m) => {
      const s = m.rowGroups[0]!.columns[0]!.metaData!.statistics!;
      s.maxValue = int64(500n);
      s.isMaxValueExact = exact;
    });
    assert.deepEqual((await lies(loose(true))).map((l) => [l.field, l.stored, l.actual]), [['is_max_value_exact', 'true (max_value 500)', '399']]);
    assert.deepEqual(await lies(loose(false)), []);
  });

  test('a nan_count the data does not have', async () => {
    const file = join(dir, 'nan.parquet');
    await writeParquet(file, Array.from({ length: 30 }, (_, i) => ({ x: i % 10 === 0 ? NaN : i / 2 })));
    const bad = editFooter(new Uint8Array(readFileSync(file)), (m) => {
      m.rowGroups[0]!.columns[0]!.metaData!.statistics!.nanCount = 1;
    });
    assert.deepEqual((await lies(bad)).map((l) => [l.field, l.stored, l.actual]), [['nan_count', '1', '3']]);
  });

  test('size statistics: level histograms and unencoded bytes, per chunk and per page', async () => {
    const chunk = footer(honest).rowGroups[0]!.columns[1]!;
    const ss = editFooter(honest, (m) => {
      const s = m.rowGroups[0]!.columns[1]!.metaData!.sizeStatistics!;
      s.definitionLevelHistogram = [44, 356];
      s.unencodedByteArrayDataBytes! += 1;
    });
    assert.deepEqual((await lies(ss)).map((l) => [l.structure, l.field, l.stored, l.actual]), [
      ['size statistics', 'definition_level_histogram', '[44, 356]', '[45, 355]'],
      ['size statistics', 'unencoded_byte_array_data_bytes', '2415', '2414'],
    ]);
    const ci = editInPlace<ColumnIndex>(honest, chunk.columnIndexOffset!, chunk.columnIndexLength!, decodeColumnIndex, encodeColumnIndex, (c) => {
      c.definitionLevelHistograms![2] = 13; // page 1's nulls: 11
    });
    assert.deepEqual((await lies(ci)).map((l) => [l.structure, l.page, l.field, l.stored, l.actual]), [['column index', 1, 'definition_level_histograms', '[13, 89]', '[11, 89]']]);
    const oi = editInPlace<OffsetIndex>(honest, chunk.offsetIndexOffset!, chunk.offsetIndexLength!, decodeOffsetIndex, encodeOffsetIndex, (o) => {
      o.unencodedByteArrayDataBytes![0] = 598;
    });
    assert.deepEqual((await lies(oi)).map((l) => [l.structure, l.page, l.field, l.stored, l.actual]), [['offset index', 0, 'unencoded_byte_array_data_bytes', '598', '599']]);
  });

  test('a boundary_order the page bounds do not follow', async () => {
    const chunk = footer(honest).rowGroups[0]!.columns[0]!;
    const bad = editInPlace<ColumnIndex>(honest, chunk.columnIndexOffset!, chunk.columnIndexLength!, decodeColumnIndex, encodeColumnIndex, (c) => {
      assert.equal(c.boundaryOrder, 'ASCENDING');
      c.boundaryOrder = 'DESCENDING';
    });
    assert.deepEqual((await lies(bad)).map((l) => [l.structure, l.page, l.field, l.stored, l.actual]), [['column index', 1, 'boundary_order', 'DESCENDING', 'page 1 [100, 199] after page 0 [0, 99]']]);
  });

  test('a chunk the reader decodes in windows of rows (2^20 levels of runs) is checked as one chunk', async () => {
    const file = join(dir, 'runs.parquet');
    const n = (1 << 20) + 4096;
    function* rows() {
      for (let i = 0; i < n; i++) yield { a: i < n - 100 ? null : `v${i % 5}` };
    }
    // One row group of them all, past the default cap of 2^20 rows.
    await writeParquet(file, rows(), { pageRowLimit: 1 << 18, rowGroupRows: n } as never);
    const b = new Uint8Array(readFileSync(file));
    assert.equal(footer(b).rowGroups.length, 1);
    assert.deepEqual(await lies(b), []);
    const bad = editFooter(b, (m) => {
      m.rowGroups[0]!.columns[0]!.metaData!.statistics!.nullCount = n;
    });
    assert.deepEqual((await lies(bad)).map((l) => [l.field, l.stored, l.actual]), [['null_count', String(n), String(n - 100)]]);
  });

  test('geospatial statistics: a bbox that leaves a vertex out, geospatial_types that leave a type out', async () => {
    const geo = new Uint8Array(readFileSync(join(DATA, 'geospatial/geospatial.parquet')));
    const column = footer(geo).schema.filter((e) => e.numChildren === undefined).findIndex((e) => e.name === 'geometry');
    const bad = editFooter(geo, (m) => {
      const g = m.rowGroups[0]!.columns[column]!.metaData!.geospatialStatistics!;
      assert.deepEqual([g.bbox!.xmax, g.bbox!.zmin], [40, 30]);
      g.bbox!.xmax = 35;
      g.bbox!.zmin = 31;
      g.geospatialTypes = g.geospatialTypes!.filter((t) => t !== 2 && t !== 3003);
    });
    assert.deepEqual((await lies(bad)).map((l) => [l.rowGroup, l.field, l.stored, l.actual]), [
      [0, 'geospatial_statistics.bbox.xmax', '35', '40'],
      [0, 'geospatial_statistics.bbox.zmin', '31', '30'],
      [0, 'geospatial_statistics.geospatial_types', `[${footer(bad).rowGroups[0]!.columns[column]!.metaData!.geospatialStatistics!.geospatialTypes!.join(', ')}]`, 'a geometry of type 2'],
      [0, 'geospatial_statistics.geospatial_types', `[${footer(bad).rowGroups[0]!.columns[column]!.metaData!.geospatialStatistics!.geospatialTypes!.join(', ')}]`, 'a geometry of type 3003'],
    ]);
  });

  test('a bloom filter that has lost its bits', async () => {
    const meta = footer(honest).rowGroups[0]!.columns[1]!.metaData!;
    const c = new ByteCursor(honest, meta.bloomFilterOffset!);
    const h = decodeBloomFilterHeader(c);
    const bad = honest.slice();
    bad.fill(0, c.pos, c.pos + h.numBytes);
    assert.deepEqual((await lies(bad)).map((l) => [l.structure, l.column, l.stored]), [['bloom filter', 'name', 'definitely absent']]);
  });
});

test('WKB that its counts cannot back, or nested without end, is refused at once', () => {
  const seen: number[] = [];
  const visit = { type: (t: number) => seen.push(t), vertex: () => seen.push(-1) };
  const line = new Uint8Array([1, 2, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0]); // 2^32 - 1 points in 8 bytes
  assert.equal(walkWkb(line, visit), false);
  const nested = new Uint8Array(9 * 200);
  for (let i = 0; i < 200; i++) nested.set([1, 7, 0, 0, 0, 1, 0, 0, 0], 9 * i); // collections of one collection, 200 deep
  assert.equal(walkWkb(nested, visit), false);
  const point = new Uint8Array(21);
  new DataView(point.buffer).setUint8(0, 1);
  new DataView(point.buffer).setUint32(1, 1, true);
  assert.equal(walkWkb(point, visit), true);
  assert.equal(walkWkb(point.subarray(0, 20), visit), false);
});
