import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ByteCursor } from '../../src/bytes/cursor.js';
import { ByteWriter } from '../../src/bytes/writer.js';
import { CorruptFileError, InvalidArgumentError } from '../../src/errors.js';
import { T, encodeStruct } from '../../src/parquet/thrift/index.js';
import { columnChunkCodec, decodeFileMetaData, decodeFileMetaDataAt, decodePageHeader, decodeColumnIndex, decodeOffsetIndex, decodeBloomFilterHeader, decodeFileCryptoMetaData } from '../../src/parquet/metadata/index.js';
import { encodeFileMetaData, encodePageHeader, encodeColumnIndex, encodeOffsetIndex, encodeBloomFilterHeader, encodeFileCryptoMetaData } from '../../src/parquet/metadata/encode.js';
import type { FileMetaData, LogicalType, PageHeader, SchemaElement } from '../../src/parquet/metadata/index.js';
import { rng } from '../writer/gen.js';

const DATA = '../shared/corpus/parquet-testing/data';

function listParquet(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...listParquet(p));
    else if (name.endsWith('.parquet')) out.push(p);
  }
  return out;
}

const FILES = listParquet(DATA);
const rel = (p: string) => p.slice(DATA.length + 1);

interface Loaded {
  file: Uint8Array;
  footer: Uint8Array;
  footerStart: number;
  meta: FileMetaData;
}

const cache = new Map<string, Loaded>();
function load(name: string): Loaded {
  const path = name.startsWith(DATA) ? name : join(DATA, name);
  let hit = cache.get(path);
  if (!hit) {
    const file = new Uint8Array(readFileSync(path));
    const dv = new DataView(file.buffer, file.byteOffset, file.byteLength);
    assert.equal(new TextDecoder().decode(file.subarray(file.length - 4)), 'PAR1', path);
    const len = dv.getUint32(file.length - 8, true);
    const footerStart = file.length - 8 - len;
    const footer = file.subarray(footerStart, file.length - 8);
    hit = { file, footer, footerStart, meta: decodeFileMetaData(footer, footerStart) };
    cache.set(path, hit);
  }
  return hit;
}

function encodeMeta(m: FileMetaData): Uint8Array {
  const w = new ByteWriter();
  encodeFileMetaData(m, w);
  return w.finish().slice();
}

function leaves(m: FileMetaData): SchemaElement[] {
  return m.schema.filter((s) => s.numChildren === undefined);
}

function logicalTypes(m: FileMetaData): LogicalType[] {
  return m.schema.flatMap((s) => (s.logicalType ? [s.logicalType] : []));
}

test('the corpus is there', () => {
  assert.ok(FILES.length >= 70, `found ${FILES.length} files`);
});

test('every corpus footer decodes, and basic invariants hold', () => {
  for (const path of FILES) {
    const { meta } = load(path);
    assert.ok(meta.schema.length >= 1, rel(path));
    assert.ok(meta.schema[0]!.numChildren !== undefined, `${rel(path)}: root is a group`);
    const rows = meta.rowGroups.reduce((s, rg) => s + rg.numRows, 0);
    // parquet-rs 0.3.0 wrote num_rows = 0 in the footer of repeated_no_annotation.parquet
    if (!path.endsWith('repeated_no_annotation.parquet')) assert.equal(rows, meta.numRows, `${rel(path)}: row counts add up`);
    for (const rg of meta.rowGroups) {
      assert.equal(rg.columns.length, leaves(meta).length, `${rel(path)}: one chunk per leaf`);
      for (const cc of rg.columns) {
        assert.ok(cc.metaData, rel(path));
        assert.equal(typeof cc.fileOffset, 'number');
        assert.ok(cc.metaData.pathInSchema.length >= 1);
      }
    }
  }
});

test('facts of particular files', () => {
  const plain = load('alltypes_plain.parquet').meta;
  assert.equal(plain.rowGroups.reduce((s, rg) => s + rg.numRows, 0), 8);
  assert.equal(plain.schema.length, 12);
  assert.equal(leaves(plain).length, 11);
  assert.equal(plain.version, 1);
  assert.match(plain.createdBy!, /^impala/);
  for (const cc of plain.rowGroups[0]!.columns) assert.equal(cc.metaData!.codec, 'UNCOMPRESSED');
  assert.deepEqual(plain.schema[1], { name: 'id', type: 'INT32', repetitionType: 'OPTIONAL' });
  assert.deepEqual(
    plain.schema.map((s) => s.type),
    [undefined, 'INT32', 'BOOLEAN', 'INT32', 'INT32', 'INT32', 'INT64', 'FLOAT', 'DOUBLE', 'BYTE_ARRAY', 'BYTE_ARRAY', 'INT96'],
  );

  const v2 = load('datapage_v2.snappy.parquet').meta;
  for (const cc of v2.rowGroups[0]!.columns) assert.equal(cc.metaData!.codec, 'SNAPPY');

  const int96 = load('int96_from_spark.parquet').meta;
  assert.ok(int96.schema.some((s) => s.type === 'INT96'));

  assert.deepEqual(logicalTypes(load('geospatial/crs-srid.parquet').meta).at(-1), { type: 'GEOMETRY', crs: 'srid:5070' });
  assert.deepEqual(logicalTypes(load('geospatial/crs-default.parquet').meta).at(-1), { type: 'GEOMETRY' });
  assert.deepEqual(logicalTypes(load('geospatial/crs-geography.parquet').meta).at(-1), { type: 'GEOGRAPHY' });
  assert.deepEqual(logicalTypes(load('geospatial/geography-points.parquet').meta).at(-1), {
    type: 'GEOGRAPHY',
    algorithm: 'SPHERICAL',
  });
  const geo = load('geospatial/geospatial.parquet').meta;
  const gs = geo.rowGroups[0]!.columns.map((c) => c.metaData!.geospatialStatistics).find((s) => s !== undefined);
  assert.deepEqual(gs?.bbox, { xmin: 10, xmax: 40, ymin: 10, ymax: 40, zmin: 30, zmax: 80, mmin: 200, mmax: 1600 });
  assert.ok(gs?.geospatialTypes?.includes(3007));

  const sorted = load('sort_columns.parquet').meta;
  for (const rg of sorted.rowGroups) {
    assert.deepEqual(rg.sortingColumns, [
      { columnIdx: 0, descending: true, nullsFirst: true },
      { columnIdx: 1, descending: false, nullsFirst: false },
    ]);
  }

  const bloom = load('data_index_bloom_encoding_stats.parquet').meta.rowGroups[0]!.columns[0]!;
  assert.equal(typeof bloom.metaData!.bloomFilterOffset, 'number');
  assert.equal(typeof bloom.columnIndexOffset, 'number');
  assert.equal(typeof bloom.offsetIndexOffset, 'number');
  assert.deepEqual(bloom.metaData!.encodingStats, [{ pageType: 'DATA_PAGE', encoding: 'PLAIN', count: 1 }]);
  assert.equal(bloom.metaData!.codec, 'GZIP');
  assert.equal(
    typeof load('data_index_bloom_encoding_with_length.parquet').meta.rowGroups[0]!.columns[0]!.metaData!.bloomFilterLength,
    'number',
  );

  const trunc = load('binary_truncated_min_max.parquet').meta.rowGroups[0]!.columns.map((c) => c.metaData!.statistics!);
  assert.deepEqual(
    trunc.map((s) => [s.isMinValueExact, s.isMaxValueExact]),
    [
      [false, false],
      [false, false],
      [false, true],
      [false, true],
      [true, true],
      [true, true],
    ],
  );
  assert.ok(trunc[2]!.maxValue instanceof Uint8Array);

  const kv = load('column_chunk_key_value_metadata.parquet').meta.rowGroups[0]!.columns[0]!.metaData!.keyValueMetadata;
  assert.deepEqual(kv, [{ key: 'foo', value: 'bar' }, { key: 'thisiskeywithoutvalue' }]);

  // a logical type newer than this reader: an unknown union member, not a failure
  assert.ok(logicalTypes(load('unknown-logical-type.parquet').meta).some((t) => t.type === 'UNKNOWN_FIELD_2555'));
  // NullType is the union member named UNKNOWN
  assert.deepEqual(load('null_list.parquet').meta.schema[3]!.logicalType, { type: 'UNKNOWN' });

  const f16 = load('byte_stream_split_extended.gzip.parquet').meta;
  assert.ok(logicalTypes(f16).some((t) => t.type === 'FLOAT16'));
  assert.ok(logicalTypes(f16).some((t) => t.type === 'DECIMAL' && t.precision > 0));
  assert.ok(f16.rowGroups[0]!.columns.some((c) => c.metaData!.encodings.includes('BYTE_STREAM_SPLIT')));

  const tiny = load('alltypes_tiny_pages.parquet').meta;
  assert.ok(logicalTypes(tiny).some((t) => t.type === 'INTEGER' && t.bitWidth === 8 && t.isSigned));
  assert.ok(tiny.columnOrders?.every((o) => o.type === 'TYPE_ORDER'));

  const nan = load('floating_orders_nan_count.parquet').meta;
  assert.equal(nan.columnOrders![0]!.type, 'IEEE_754_TOTAL_ORDER');
  assert.equal(nan.rowGroups[0]!.columns[0]!.metaData!.statistics!.nanCount, 0);

  const sizes = load('geospatial/geography-points.parquet').meta.rowGroups[0]!.columns[1]!.metaData!.sizeStatistics;
  assert.deepEqual(sizes, { unencodedByteArrayDataBytes: 210, definitionLevelHistogram: [0, 10] });
});

test('round trip: decode, encode, decode again gives the same metadata (and mostly the same bytes)', () => {
  for (const path of FILES) {
    const { footer, meta } = load(path);
    const bytes = encodeMeta(meta);
    assert.deepEqual(decodeFileMetaData(bytes), meta, rel(path));
    // Writers put fields in id order, as we do, so the bytes match, except where
    // the decoder dropped something: dict-page-offset-zero.parquet's writer put
    // a list where ColumnMetaData field 15 (an i32) belongs.
    if (!path.endsWith('dict-page-offset-zero.parquet')) assert.deepEqual(bytes, footer, rel(path));
  }
});

test('trailing bytes after the footer struct are left alone; decodeFileMetaDataAt says where it ended', () => {
  const { footer, meta } = load('alltypes_plain.parquet');
  const padded = new Uint8Array(footer.length + 28);
  padded.set(footer);
  padded.fill(0xee, footer.length);
  assert.deepEqual(decodeFileMetaData(padded), meta);
  const c = new ByteCursor(padded);
  decodeFileMetaDataAt(c);
  assert.equal(c.pos, footer.length);
});

/** Walks the pages of every column chunk of `path`, returning the headers per chunk. */
function walkPages(path: string): { headers: PageHeader[]; starts: number[]; numValues: number }[] {
  const { file, meta } = load(path);
  const out = [];
  for (const rg of meta.rowGroups) {
    for (const cc of rg.columns) {
      const md = cc.metaData!;
      let start = md.dataPageOffset;
      if (md.dictionaryPageOffset !== undefined && md.dictionaryPageOffset > 0 && md.dictionaryPageOffset < start) {
        start = md.dictionaryPageOffset;
      }
      const c = new ByteCursor(file, start, start + md.totalCompressedSize);
      const headers: PageHeader[] = [];
      const starts: number[] = [];
      while (c.pos < c.end) {
        starts.push(c.pos);
        const h = decodePageHeader(c);
        // re-encoding gives the same header bytes
        const w = new ByteWriter();
        encodePageHeader(h, w);
        assert.deepEqual(w.finish(), file.subarray(starts.at(-1)!, c.pos), `${rel(path)} page header at ${starts.at(-1)}`);
        headers.push(h);
        c.skip(h.compressedPageSize);
      }
      assert.equal(c.pos, start + md.totalCompressedSize, rel(path));
      out.push({ headers, starts, numValues: md.numValues });
    }
  }
  return out;
}

test('page headers: walk every column chunk of every corpus file, header then compressedPageSize bytes', () => {
  let pages = 0;
  for (const path of FILES) {
    // column_chunk_key_value_metadata has no rows (offsets 0); nation.dict-malformed is malformed on purpose
    if (/column_chunk_key_value_metadata|nation\.dict-malformed/.test(path)) continue;
    for (const chunk of walkPages(path)) {
      pages += chunk.headers.length;
      const values = chunk.headers.reduce((s, h) => s + (h.dataPageHeader?.numValues ?? h.dataPageHeaderV2?.numValues ?? 0), 0);
      assert.equal(values, chunk.numValues, `${rel(path)}: page value counts add up to the chunk's`);
    }
  }
  assert.ok(pages > 50000, `${pages} pages`);

  const [dictPage, first] = walkPages(join(DATA, 'alltypes_plain.parquet'))[0]!.headers;
  assert.deepEqual(dictPage!.dictionaryPageHeader, { numValues: 8, encoding: 'PLAIN_DICTIONARY' });
  assert.ok(first);
  assert.deepEqual(first, {
    type: 'DATA_PAGE',
    uncompressedPageSize: first.uncompressedPageSize,
    compressedPageSize: first.compressedPageSize,
    dataPageHeader: { numValues: 8, encoding: 'PLAIN_DICTIONARY', definitionLevelEncoding: 'RLE', repetitionLevelEncoding: 'BIT_PACKED' },
  });

  const dict = walkPages(join(DATA, 'alltypes_dictionary.parquet'))[0]!.headers;
  assert.equal(dict[0]!.type, 'DICTIONARY_PAGE');
  assert.equal(dict[0]!.dictionaryPageHeader!.encoding, 'PLAIN_DICTIONARY');

  const v2 = walkPages(join(DATA, 'datapage_v2.snappy.parquet')).flatMap((c) => c.headers);
  const h2 = v2.find((h) => h.type === 'DATA_PAGE_V2')!;
  assert.ok(h2.dataPageHeaderV2);
  assert.equal(typeof h2.dataPageHeaderV2.definitionLevelsByteLength, 'number');
  assert.equal(typeof h2.dataPageHeaderV2.numRows, 'number');

  const crc = walkPages(join(DATA, 'datapage_v1-snappy-compressed-checksum.parquet'))[0]!.headers;
  assert.ok(crc.every((h) => typeof h.crc === 'number'));
});

test('page index: column and offset indexes decode, agree with the page walk, and re-encode to the same bytes', () => {
  for (const name of ['alltypes_tiny_pages.parquet', 'data_index_bloom_encoding_stats.parquet', 'int32_with_null_pages.parquet']) {
    const { file, meta } = load(name);
    const chunks = walkPages(join(DATA, name));
    let i = 0;
    let checked = 0;
    for (const rg of meta.rowGroups) {
      for (const cc of rg.columns) {
        const walk = chunks[i++]!;
        if (cc.offsetIndexOffset === undefined) continue;
        const oc = new ByteCursor(file, cc.offsetIndexOffset, cc.offsetIndexOffset + cc.offsetIndexLength!);
        const oi = decodeOffsetIndex(oc);
        assert.equal(oc.pos, oc.end, 'offset index length is exact');
        const dataStarts = walk.starts.filter((_, k) => walk.headers[k]!.type !== 'DICTIONARY_PAGE');
        assert.deepEqual(
          oi.pageLocations.map((p) => p.offset),
          dataStarts,
        );
        assert.equal(oi.pageLocations[0]!.firstRowIndex, 0);
        const ow = new ByteWriter();
        encodeOffsetIndex(oi, ow);
        assert.deepEqual(ow.finish(), file.subarray(cc.offsetIndexOffset, oc.end));

        if (cc.columnIndexOffset === undefined) continue;
        const cic = new ByteCursor(file, cc.columnIndexOffset, cc.columnIndexOffset + cc.columnIndexLength!);
        const ci = decodeColumnIndex(cic);
        assert.equal(cic.pos, cic.end, 'column index length is exact');
        assert.equal(ci.nullPages.length, oi.pageLocations.length);
        assert.equal(ci.minValues.length, ci.nullPages.length);
        assert.equal(ci.maxValues.length, ci.nullPages.length);
        assert.ok(['UNORDERED', 'ASCENDING', 'DESCENDING'].includes(ci.boundaryOrder));
        assert.ok(ci.nullPages.every((b) => typeof b === 'boolean'));
        const cw = new ByteWriter();
        encodeColumnIndex(ci, cw);
        assert.deepEqual(cw.finish(), file.subarray(cc.columnIndexOffset, cic.end));
        checked++;
      }
    }
    assert.ok(checked > 0, name);
  }
  // int32_with_null_pages has pages of nulls only
  const { file, meta } = load('int32_with_null_pages.parquet');
  const cc = meta.rowGroups[0]!.columns[0]!;
  const ci = decodeColumnIndex(new ByteCursor(file, cc.columnIndexOffset!));
  assert.ok(ci.nullPages.includes(true) && ci.nullPages.includes(false));
  assert.equal(ci.nullCounts!.length, ci.nullPages.length);
});

test('bloom filter headers', () => {
  for (const name of ['data_index_bloom_encoding_stats.parquet', 'data_index_bloom_encoding_with_length.parquet']) {
    const { file, meta } = load(name);
    const md = meta.rowGroups[0]!.columns[0]!.metaData!;
    const c = new ByteCursor(file, md.bloomFilterOffset!);
    const h = decodeBloomFilterHeader(c);
    assert.deepEqual(h, { numBytes: h.numBytes, algorithm: { type: 'BLOCK' }, hash: { type: 'XXHASH' }, compression: { type: 'UNCOMPRESSED' } });
    assert.ok(h.numBytes >= 32 && h.numBytes % 32 === 0);
    if (md.bloomFilterLength !== undefined) assert.equal(c.pos - md.bloomFilterOffset! + h.numBytes, md.bloomFilterLength);
    const w = new ByteWriter();
    encodeBloomFilterHeader(h, w);
    assert.deepEqual(w.finish(), file.subarray(md.bloomFilterOffset!, c.pos));
  }
  const bin = new Uint8Array(readFileSync(join(DATA, 'bloom_filter.xxhash.bin')));
  const c = new ByteCursor(bin);
  const h = decodeBloomFilterHeader(c);
  assert.equal(c.pos + h.numBytes, bin.length);
  assert.deepEqual(h.hash, { type: 'XXHASH' });
});

test('encrypted files: FileCryptoMetaData of encrypted footers, and a signed plaintext footer', () => {
  const enc = readdirSync(DATA).filter((f) => f.endsWith('.encrypted')).map((f) => join(DATA, f));
  enc.push(...readdirSync(join(DATA, 'aes256')).map((f) => join(DATA, 'aes256', f)));
  let encryptedFooters = 0;
  let plaintextFooters = 0;
  for (const path of enc) {
    const file = new Uint8Array(readFileSync(path));
    const magic = new TextDecoder().decode(file.subarray(file.length - 4));
    const len = new DataView(file.buffer, file.byteOffset).getUint32(file.length - 8, true);
    const start = file.length - 8 - len;
    const c = new ByteCursor(file, start, file.length - 8);
    if (magic === 'PARE') {
      const fcm = decodeFileCryptoMetaData(c);
      assert.ok(fcm.encryptionAlgorithm.type === 'AES_GCM_V1' || fcm.encryptionAlgorithm.type === 'AES_GCM_CTR_V1', path);
      if (path.includes('_ctr')) assert.equal(fcm.encryptionAlgorithm.type, 'AES_GCM_CTR_V1');
      const w = new ByteWriter();
      encodeFileCryptoMetaData(fcm, w);
      assert.deepEqual(w.finish(), file.subarray(start, c.pos));
      encryptedFooters++;
    } else {
      // plaintext footer: FileMetaData, then a 28-byte signature (nonce + tag)
      const m = decodeFileMetaDataAt(c);
      assert.equal(c.end - c.pos, 28, path);
      assert.equal(m.encryptionAlgorithm?.type, 'AES_GCM_V1');
      const chunks = m.rowGroups[0]!.columns;
      assert.ok(chunks.some((cc) => cc.cryptoMetadata?.type === 'ENCRYPTION_WITH_COLUMN_KEY'));
      const withKey = chunks.find((cc) => cc.cryptoMetadata?.type === 'ENCRYPTION_WITH_COLUMN_KEY')!;
      assert.ok(withKey.encryptedColumnMetadata instanceof Uint8Array);
      assert.deepEqual(encodeMeta(m), file.subarray(start, c.pos));
      plaintextFooters++;
    }
  }
  assert.ok(encryptedFooters >= 8 && plaintextFooters >= 2, `${encryptedFooters} / ${plaintextFooters}`);
});

test('every struct and union of parquet.thrift round-trips through a hand-built footer', () => {
  const lts: LogicalType[] = [
    { type: 'STRING' },
    { type: 'MAP' },
    { type: 'LIST' },
    { type: 'ENUM' },
    { type: 'DECIMAL', scale: 2, precision: 10 },
    { type: 'DATE' },
    { type: 'TIME', isAdjustedToUTC: true, unit: 'MILLIS' },
    { type: 'TIME', isAdjustedToUTC: false, unit: 'NANOS' },
    { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' },
    { type: 'INTEGER', bitWidth: 16, isSigned: false },
    { type: 'UNKNOWN' },
    { type: 'JSON' },
    { type: 'BSON' },
    { type: 'UUID' },
    { type: 'FLOAT16' },
    { type: 'VARIANT', specificationVersion: 1 },
    { type: 'VARIANT' },
    { type: 'GEOMETRY', crs: 'OGC:CRS84' },
    { type: 'GEOGRAPHY', crs: 'srid:4326', algorithm: 'KARNEY' },
    { type: 'VECTOR' },
    { type: 'UNKNOWN_FIELD_99' },
  ];
  const schema: SchemaElement[] = [
    { name: 'root', numChildren: lts.length },
    ...lts.map(
      (lt, i): SchemaElement => ({
        name: `c${i}`,
        type: 'BYTE_ARRAY',
        repetitionType: i % 3 === 0 ? 'REQUIRED' : i % 3 === 1 ? 'OPTIONAL' : 'VECTOR',
        logicalType: lt,
        convertedType: 'UTF8',
        typeLength: 3,
        scale: 1,
        precision: 2,
        fieldId: i,
        vectorLength: 4,
      }),
    ),
  ];
  const meta: FileMetaData = {
    version: 2,
    schema,
    numRows: 2 ** 40,
    rowGroups: [
      {
        columns: [
          {
            filePath: 'other.parquet',
            fileOffset: 0,
            metaData: {
              type: 'INT64',
              encodings: ['PLAIN', 'RLE', 'UNKNOWN_77'],
              pathInSchema: ['a', 'b'],
              codec: 'LZ4_RAW',
              numValues: 10,
              totalUncompressedSize: 100,
              totalCompressedSize: 90,
              keyValueMetadata: [{ key: 'k', value: 'v' }, { key: '__proto__' }],
              dataPageOffset: 4,
              indexPageOffset: 5,
              dictionaryPageOffset: 6,
              statistics: {
                max: Uint8Array.of(1),
                min: Uint8Array.of(0),
                nullCount: 0,
                distinctCount: 3,
                maxValue: Uint8Array.of(9),
                minValue: Uint8Array.of(),
                isMaxValueExact: true,
                isMinValueExact: false,
                nanCount: 1,
              },
              encodingStats: [{ pageType: 'DATA_PAGE_V2', encoding: 'DELTA_BINARY_PACKED', count: 3 }],
              bloomFilterOffset: 2 ** 33,
              bloomFilterLength: 1024,
              sizeStatistics: { unencodedByteArrayDataBytes: 5, repetitionLevelHistogram: [1, 2], definitionLevelHistogram: [] },
              geospatialStatistics: { bbox: { xmin: -1, xmax: 1, ymin: -2, ymax: 2, zmin: NaN }, geospatialTypes: [1, 1001] },
            },
            offsetIndexOffset: 7,
            offsetIndexLength: 8,
            columnIndexOffset: 9,
            columnIndexLength: 10,
            cryptoMetadata: { type: 'ENCRYPTION_WITH_COLUMN_KEY', pathInSchema: ['a', 'b'], keyMetadata: Uint8Array.of(1, 2) },
            encryptedColumnMetadata: Uint8Array.of(3, 4, 5),
          },
          { fileOffset: 12, cryptoMetadata: { type: 'ENCRYPTION_WITH_FOOTER_KEY' } },
        ],
        totalByteSize: 1,
        numRows: 2 ** 40,
        sortingColumns: [{ columnIdx: 1, descending: false, nullsFirst: true }],
        fileOffset: 4,
        totalCompressedSize: 90,
        ordinal: -1,
      },
    ],
    keyValueMetadata: [{ key: 'ARROW:schema', value: '\u{1F600}' }],
    createdBy: 'parquetry test',
    columnOrders: [{ type: 'TYPE_ORDER' }, { type: 'IEEE_754_TOTAL_ORDER' }, { type: 'INT96_TIMESTAMP_ORDER' }, { type: 'UNKNOWN_FIELD_4' }],
    encryptionAlgorithm: { type: 'AES_GCM_CTR_V1', aadPrefix: Uint8Array.of(1), aadFileUnique: Uint8Array.of(2), supplyAadPrefix: true },
    footerSigningKeyMetadata: Uint8Array.of(7),
  };
  const bytes = encodeMeta(meta);
  assert.deepEqual(decodeFileMetaData(bytes), meta);
  assert.deepEqual(encodeMeta(decodeFileMetaData(bytes)), bytes);
  // a key named __proto__ is data, not a prototype
  const kv = decodeFileMetaData(bytes).rowGroups[0]!.columns[0]!.metaData!.keyValueMetadata![1]!;
  assert.equal(Object.getPrototypeOf(kv), Object.prototype);
  assert.equal(kv.key, '__proto__');

  for (const h of [
    { type: 'DICTIONARY_PAGE', uncompressedPageSize: 1, compressedPageSize: 2, dictionaryPageHeader: { numValues: 3, encoding: 'PLAIN', isSorted: false } },
    { type: 'INDEX_PAGE', uncompressedPageSize: 0, compressedPageSize: 0, indexPageHeader: {} },
    {
      type: 'DATA_PAGE_V2',
      uncompressedPageSize: 10,
      compressedPageSize: 8,
      crc: -1,
      dataPageHeaderV2: {
        numValues: 5,
        numNulls: 1,
        numRows: 4,
        encoding: 'BYTE_STREAM_SPLIT',
        definitionLevelsByteLength: 2,
        repetitionLevelsByteLength: 0,
        isCompressed: false,
        statistics: { nullCount: 1 },
      },
    },
    { type: 'UNKNOWN_9', uncompressedPageSize: 0, compressedPageSize: 0 },
  ] as PageHeader[]) {
    const w = new ByteWriter();
    encodePageHeader(h, w);
    assert.deepEqual(decodePageHeader(new ByteCursor(w.finish())), h);
  }
  const w = new ByteWriter();
  encodeBloomFilterHeader({ numBytes: 32, algorithm: { type: 'UNKNOWN_FIELD_2' }, hash: { type: 'XXHASH' }, compression: { type: 'UNCOMPRESSED' } }, w);
  assert.deepEqual(decodeBloomFilterHeader(new ByteCursor(w.finish())).algorithm, { type: 'UNKNOWN_FIELD_2' });
});

test('leniency: a ColumnChunk without its (deprecated, required) file_offset reads as 0', () => {
  const NoOffset = T.struct('ColumnChunk', [[5, 'offset_index_length', T.i32]]);
  const w = new ByteWriter();
  encodeStruct(NoOffset, { offsetIndexLength: 3 }, w);
  const c = new ByteCursor(w.finish());
  assert.deepEqual(columnChunkCodec.decode(c), { fileOffset: 0, offsetIndexLength: 3 });
});

test('missing required fields: corrupt on decode (naming struct and field), invalid on encode', () => {
  // PageHeader with only the type (3 bytes: header, value, stop; the error points past the stop)
  const w = new ByteWriter();
  encodeStruct(T.struct('PageHeader', [[1, 'type', T.i32]]), { type: 0 }, w);
  assert.throws(
    () => decodePageHeader(new ByteCursor(w.finish(), 0, w.length, 5000)),
    (e: unknown) =>
      e instanceof CorruptFileError && /PageHeader: required field uncompressed_page_size \(id 2\) is missing/.test(e.message) && e.context.offset === 5003,
  );
  const meta = load('alltypes_plain.parquet').meta;
  const broken = structuredClone(meta) as unknown as { rowGroups: { numRows?: number }[] };
  delete broken.rowGroups[0]!.numRows;
  assert.throws(() => encodeMeta(broken as unknown as FileMetaData), (e: unknown) => e instanceof InvalidArgumentError && /RowGroup\.num_rows/.test(e.message));
  assert.throws(() => encodeMeta({ ...meta, numRows: 1.5 }), InvalidArgumentError);
  assert.throws(() => encodeMeta({ ...meta, schema: [{ ...meta.schema[0]!, type: 'NOPE' as never }] }), InvalidArgumentError);
});

// ------------------------------------------------------------------ corrupt input

type Outcome = { ok: true; value: unknown } | { ok: false };

/** Decodes with one path; the only acceptable failure is a CorruptFileError raised on purpose. */
function attempt(run: () => unknown, what: string): Outcome {
  try {
    return { ok: true, value: run() };
  } catch (e) {
    if (!(e instanceof CorruptFileError)) throw new Error(`${what}: expected CorruptFileError, got ${String(e)}`, { cause: e });
    if (/unexpected failure/.test(e.message)) throw new Error(`${what}: a check is missing: ${e.message}`, { cause: e });
    return { ok: false };
  }
}

/** The decoders must fail only with CorruptFileError, and whatever decodes must re-encode. */
function checkBuffer(buf: Uint8Array, what: string): boolean {
  const a = attempt(() => decodeFileMetaData(buf), what);
  if (a.ok) {
    const m = a.value as FileMetaData;
    assert.deepEqual(decodeFileMetaData(encodeMeta(m)), m, `${what}: re-encodes`);
  }
  attempt(() => decodePageHeader(new ByteCursor(buf)), `${what} page header`);
  attempt(() => decodeColumnIndex(new ByteCursor(buf)), `${what} column index`);
  attempt(() => decodeOffsetIndex(new ByteCursor(buf)), `${what} offset index`);
  attempt(() => decodeBloomFilterHeader(new ByteCursor(buf)), `${what} bloom filter header`);
  return a.ok;
}

test('every truncation of a footer is a CorruptFileError', () => {
  for (const name of ['alltypes_plain.parquet', 'data_index_bloom_encoding_stats.parquet', 'geospatial/crs-srid.parquet']) {
    const { footer } = load(name);
    for (let n = 0; n < footer.length; n++) {
      const cut = footer.slice(0, n);
      assert.throws(() => decodeFileMetaData(cut, 100), (e: unknown) => e instanceof CorruptFileError && e.context.offset! >= 100 && e.context.offset! <= 100 + n, `${name} cut at ${n}`);
    }
  }
});

test('fuzz: random bytes never produce anything but CorruptFileError, and never hang', () => {
  const rand = rng(12345);
  let decoded = 0;
  for (let i = 0; i < 4000; i++) {
    const len = Math.floor(rand() * 300);
    const buf = new Uint8Array(len);
    for (let k = 0; k < len; k++) buf[k] = Math.floor(rand() * 256);
    // bias some buffers toward plausible struct bytes: small field headers
    if (i % 2 === 0) for (let k = 0; k < len; k += 3) buf[k] = (Math.floor(rand() * 4) << 4) | Math.floor(rand() * 13);
    if (checkBuffer(buf, `random #${i}`)) decoded++;
  }
  assert.ok(decoded < 4000);
});

test('fuzz: mutated real footers never produce anything but CorruptFileError', () => {
  const rand = rng(777);
  const names = ['alltypes_plain.parquet', 'datapage_v2.snappy.parquet', 'geospatial/geospatial.parquet', 'alltypes_tiny_pages.parquet', 'nested_maps.snappy.parquet'];
  let decoded = 0;
  let total = 0;
  for (const name of names) {
    const { footer } = load(name);
    for (let i = 0; i < 600; i++) {
      const buf = footer.slice();
      const kind = i % 4;
      const flips = 1 + Math.floor(rand() * 4);
      let mutated: Uint8Array = buf;
      if (kind === 0) {
        for (let f = 0; f < flips; f++) buf[Math.floor(rand() * buf.length)] ^= 1 << Math.floor(rand() * 8);
      } else if (kind === 1) {
        for (let f = 0; f < flips; f++) buf[Math.floor(rand() * buf.length)] = Math.floor(rand() * 256);
      } else if (kind === 2) {
        const at = Math.floor(rand() * buf.length);
        const n = 1 + Math.floor(rand() * 8);
        mutated = new Uint8Array(buf.length - Math.min(n, buf.length - at));
        mutated.set(buf.subarray(0, at));
        mutated.set(buf.subarray(at + n), at);
      } else {
        const at = Math.floor(rand() * buf.length);
        const ins = Uint8Array.from({ length: 1 + Math.floor(rand() * 8) }, () => Math.floor(rand() * 256));
        mutated = new Uint8Array(buf.length + ins.length);
        mutated.set(buf.subarray(0, at));
        mutated.set(ins, at);
        mutated.set(buf.subarray(at), at + ins.length);
      }
      total++;
      if (checkBuffer(mutated, `${name} mutation #${i}`)) decoded++;
    }
  }
  // many single-byte changes still decode (to different values); many do not
  assert.ok(decoded > 0 && decoded < total, `${decoded} of ${total} decoded`);
});

test('fuzz: mutated page headers', () => {
  const rand = rng(4242);
  const { file } = load('datapage_v2.snappy.parquet');
  const chunks = walkPages(join(DATA, 'datapage_v2.snappy.parquet'));
  for (const chunk of chunks) {
    for (const start of chunk.starts) {
      const header = file.slice(start, start + 64);
      for (let i = 0; i < 200; i++) {
        const buf = header.slice(0, 1 + Math.floor(rand() * header.length));
        buf[Math.floor(rand() * buf.length)] = Math.floor(rand() * 256);
        attempt(() => decodePageHeader(new ByteCursor(buf)), 'page header');
      }
    }
  }
});
