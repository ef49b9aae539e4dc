import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { CorruptFileError, InvalidArgumentError, ParquetryError, UnsupportedError } from '../../src/errors.js';
import { ByteWriter } from '../../src/bytes/writer.js';
import {
  SplitBlockBloomFilter,
  bloomHash,
  encodeBloomFilter,
  loadBloomHasher,
  optimalBloomBytes,
  parseBloomFilter,
  xxhash64,
} from '../../src/parquet/bloom/index.js';
import { decodeFileMetaData } from '../../src/parquet/metadata/index.js';
import { encodeBloomFilterHeader } from '../../src/parquet/metadata/encode.js';
import { defineSchema, field as f } from '../../src/schema/builder.js';
import { buildSchema } from '../../src/schema/tree.js';

const DATA = '../shared/corpus/parquet-testing/data';
const EXPECTED = '../shared/corpus/expected/parquet-testing/data';
const utf8 = (s: string) => new TextEncoder().encode(s);

before(async () => {
  await loadBloomHasher();
});

test('xxhash64: published XXH64 vectors (seed 0)', () => {
  assert.equal(xxhash64(new Uint8Array(0)), 0xef46db3751d8e999n);
  assert.equal(xxhash64(utf8('a')), 0xd24ec4f1a98c6e5bn);
  assert.equal(xxhash64(utf8('abc')), 0x44bc2cf5ad770999n);
  // an unaligned view hashes its own bytes only
  const big = utf8('xxabcxx');
  assert.equal(xxhash64(big.subarray(2, 5)), 0x44bc2cf5ad770999n);
});

test('loadBloomHasher is idempotent', async () => {
  await Promise.all([loadBloomHasher(), loadBloomHasher()]);
  assert.equal(xxhash64(utf8('abc')), 0x44bc2cf5ad770999n);
});

test('sizing: the spec formula rounded up to a power of two, 32 bytes .. 128 MiB', () => {
  assert.equal(optimalBloomBytes(0, 0.01), 32);
  assert.equal(optimalBloomBytes(1, 0.01), 32);
  // 1e6 values at 1%: ~9.6 bits each = 1.2 MB -> 2 MiB
  const bits = (-8 * 1e6) / Math.log(1 - Math.pow(0.01, 1 / 8));
  assert.ok(bits / 8 > 1 << 20 && bits / 8 < 1 << 21);
  assert.equal(optimalBloomBytes(1e6, 0.01), 1 << 21);
  assert.equal(optimalBloomBytes(1e12, 0.01), 128 * 1024 * 1024);
  for (const ndv of [3, 100, 1234, 99999]) {
    const n = optimalBloomBytes(ndv, 0.05);
    assert.equal(n & (n - 1), 0, 'power of two');
    assert.ok(n * 8 >= (-8 * ndv) / Math.log(1 - Math.pow(0.05, 1 / 8)));
  }
  assert.throws(() => optimalBloomBytes(10, 0), InvalidArgumentError);
  assert.throws(() => optimalBloomBytes(10, 1), InvalidArgumentError);
  assert.throws(() => optimalBloomBytes(-1, 0.1), InvalidArgumentError);
});

test('constructor validates the bitset size', () => {
  assert.throws(() => new SplitBlockBloomFilter(new Uint8Array(0)), InvalidArgumentError);
  assert.throws(() => new SplitBlockBloomFilter(new Uint8Array(33)), InvalidArgumentError);
  assert.equal(new SplitBlockBloomFilter(new Uint8Array(64)).numBlocks, 2);
});

test('insert sets exactly the spec bits: block from the upper 32 bits, one bit per word from the lower', () => {
  const SALT = [0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31];
  const filter = new SplitBlockBloomFilter(new Uint8Array(32 * 4));
  const hash = 0xc0000000_12345678n; // upper = 0xc0000000 -> block (0xc0000000 * 4) >> 32 = 3
  filter.insert(hash);
  const view = new DataView(filter.bitset.buffer);
  for (let b = 0; b < 4; b++) {
    for (let i = 0; i < 8; i++) {
      const word = view.getUint32(b * 32 + i * 4, true);
      if (b !== 3) assert.equal(word, 0);
      else {
        const bit = Number((0x12345678n * BigInt(SALT[i]!)) & 0xffffffffn) >>> 27;
        assert.equal(word, (1 << bit) >>> 0);
      }
    }
  }
  assert.ok(filter.mightContain(hash));
  assert.ok(!filter.mightContain(0x00000000_12345678n));
});

test('no false negatives; false-positive rate near the target', () => {
  const filter = SplitBlockBloomFilter.forDistinct(10000, 0.01);
  for (let i = 0; i < 10000; i++) filter.insert(xxhash64(utf8(`in-${i}`)));
  for (let i = 0; i < 10000; i++) assert.ok(filter.mightContain(xxhash64(utf8(`in-${i}`))));
  let fp = 0;
  for (let i = 0; i < 100000; i++) if (filter.mightContain(xxhash64(utf8(`out-${i}`)))) fp++;
  assert.ok(fp / 100000 < 0.01, `false-positive rate ${fp / 100000}`);
});

test('an unaligned bitset view works like an aligned one', () => {
  const backing = new Uint8Array(32 * 2 + 1);
  const unaligned = new SplitBlockBloomFilter(backing.subarray(1));
  const aligned = new SplitBlockBloomFilter(new Uint8Array(64));
  for (let i = 0; i < 50; i++) {
    const h = xxhash64(utf8(String(i)));
    unaligned.insert(h);
    aligned.insert(h);
  }
  assert.deepEqual(unaligned.bitset, aligned.bitset);
});

test('bloom_filter.xxhash.bin (parquet-mr): holds "hello", "parquet", "bloom", "filter"', () => {
  const bytes = new Uint8Array(readFileSync(`${DATA}/bloom_filter.xxhash.bin`));
  const { header, filter, byteLength } = parseBloomFilter(bytes);
  assert.equal(header.numBytes, 1024);
  assert.equal(byteLength, bytes.length);
  assert.deepEqual(header.algorithm, { type: 'BLOCK' });
  for (const s of ['hello', 'parquet', 'bloom', 'filter']) assert.ok(filter.mightContain(xxhash64(utf8(s))), s);
  let absent = 0;
  for (const s of ['world', 'Hello', 'arrow', 'filters', 'xyz', '', 'parquetry']) if (!filter.mightContain(xxhash64(utf8(s)))) absent++;
  assert.ok(absent >= 6);
  // exactly 4 values x 8 bits set (no collisions in 32 blocks is likely; at most 32)
  let bits = 0;
  for (const b of filter.bitset) for (let x = b; x; x &= x - 1) bits++;
  assert.ok(bits <= 32 && bits >= 29, `bits set: ${bits}`);
  // re-encoding gives the same bytes
  assert.deepEqual(encodeBloomFilter(filter), bytes);
});

test('bloom_filter.bin (the deprecated murmur3 binary header) is rejected with a typed error', () => {
  const bytes = new Uint8Array(readFileSync(`${DATA}/bloom_filter.bin`));
  assert.throws(() => parseBloomFilter(bytes), ParquetryError);
});

test('parseBloomFilter validates numBytes and rejects unknown algorithms', () => {
  const make = (numBytes: number, extra: number, algorithm = 'BLOCK') => {
    const w = new ByteWriter();
    encodeBloomFilterHeader(
      { numBytes, algorithm: { type: algorithm } as never, hash: { type: 'XXHASH' }, compression: { type: 'UNCOMPRESSED' } },
      w,
    );
    w.bytes(new Uint8Array(extra));
    return w.finish();
  };
  assert.equal(parseBloomFilter(make(64, 64)).filter.numBlocks, 2);
  assert.equal(parseBloomFilter(make(64, 100)).byteLength, make(64, 0).length + 64); // trailing bytes ignored
  assert.throws(() => parseBloomFilter(make(64, 63), { offset: 1000 }), (e: unknown) => e instanceof CorruptFileError && e.context.offset !== undefined && e.context.offset >= 1000);
  assert.throws(() => parseBloomFilter(make(40, 40)), CorruptFileError);
  assert.throws(() => parseBloomFilter(make(0, 0)), CorruptFileError);
  assert.throws(() => parseBloomFilter(make(-32, 0)), CorruptFileError);
  // an unknown union member (id 2) in `algorithm`
  const w = new ByteWriter();
  w.bytes(new Uint8Array([0x15, 0x80, 0x01, 0x1c, 0x2c, 0x00, 0x00, 0x1c, 0x1c, 0x00, 0x00, 0x1c, 0x1c, 0x00, 0x00, 0x00]));
  w.bytes(new Uint8Array(64));
  assert.throws(() => parseBloomFilter(w.finish()), UnsupportedError);
});

test('data_index_bloom_encoding_stats.parquet: the chunk bloom filter holds every expected value', () => {
  for (const name of ['data_index_bloom_encoding_stats.parquet', 'data_index_bloom_encoding_with_length.parquet']) {
    const file = new Uint8Array(readFileSync(`${DATA}/${name}`));
    const dv = new DataView(file.buffer, file.byteOffset);
    const len = dv.getUint32(file.length - 8, true);
    const meta = decodeFileMetaData(file.subarray(file.length - 8 - len, file.length - 8));
    const schema = buildSchema(meta.schema);
    const leaf = schema.leaves[0]!;
    const md = meta.rowGroups[0]!.columns[0]!.metaData!;
    assert.ok(md.bloomFilterOffset !== undefined);
    const end = md.bloomFilterLength !== undefined ? md.bloomFilterOffset + md.bloomFilterLength : file.length;
    const { filter, byteLength } = parseBloomFilter(file.subarray(md.bloomFilterOffset, end), { offset: md.bloomFilterOffset });
    if (md.bloomFilterLength !== undefined) assert.equal(byteLength, md.bloomFilterLength);
    const rows = readFileSync(`${EXPECTED}/${name}.jsonl`, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { String: string | null });
    assert.equal(rows.length, 14);
    for (const r of rows) if (r.String !== null) assert.ok(filter.mightContain(bloomHash(leaf, r.String)), r.String);
    let absent = 0;
    for (const s of ['Goodbye', 'hello', 'cat', 'the', 'fox', 'zzz', 'Hello ', 'doing']) if (!filter.mightContain(bloomHash(leaf, s))) absent++;
    assert.ok(absent >= 7, `${name}: ${absent} of 8 absent values ruled out`);
  }
});

test('bloomHash: values in the reader types hash as their PLAIN physical encoding', () => {
  const { elements } = defineSchema({
    i32: f.int32(),
    i64: f.int64(),
    d: f.double(),
    fl: f.float(),
    s: f.string(),
    b: f.binary(),
    day: f.date(),
    dec32: f.decimal(9, 2),
    dec64: f.decimal(18, 3),
    decfx: f.decimal(20, 2),
    ts: f.timestamp('MICROS'),
    u: f.uuid(),
  });
  const schema = buildSchema(elements);
  const leaf = (name: string) => schema.leaves.find((l) => l.name === name)!;
  const le = (n: number, bytes: number, kind: 'int' | 'float' = 'int') => {
    const b = new Uint8Array(bytes);
    const v = new DataView(b.buffer);
    if (kind === 'float') bytes === 4 ? v.setFloat32(0, n, true) : v.setFloat64(0, n, true);
    else if (bytes === 4) v.setInt32(0, n, true);
    else v.setBigInt64(0, BigInt(n), true);
    return b;
  };
  assert.equal(bloomHash(leaf('i32'), -7), xxhash64(le(-7, 4)));
  assert.equal(bloomHash(leaf('i32'), 5n), xxhash64(le(5, 4)));
  assert.equal(bloomHash(leaf('i64'), 1234567890123n), xxhash64(le(1234567890123, 8)));
  assert.equal(bloomHash(leaf('i64'), 42), bloomHash(leaf('i64'), 42n), 'an integral number for INT64');
  assert.equal(bloomHash(leaf('d'), 1.5), xxhash64(le(1.5, 8, 'float')));
  assert.equal(bloomHash(leaf('fl'), 1.5), xxhash64(le(1.5, 4, 'float')));
  assert.equal(bloomHash(leaf('s'), 'héllo'), xxhash64(utf8('héllo')));
  assert.equal(bloomHash(leaf('b'), new Uint8Array([1, 2, 3])), xxhash64(new Uint8Array([1, 2, 3])));
  assert.equal(bloomHash(leaf('day'), 19000), xxhash64(le(19000, 4)));
  assert.equal(bloomHash(leaf('day'), '2022-01-08'), xxhash64(le(19000, 4)));
  assert.equal(bloomHash(leaf('dec32'), '-12.30'), xxhash64(le(-1230, 4)));
  assert.equal(bloomHash(leaf('dec64'), '1.5'), xxhash64(le(1500, 8)));
  const fx = leaf('decfx');
  assert.equal(fx.physicalType, 'FIXED_LEN_BYTE_ARRAY');
  const want = new Uint8Array(fx.typeLength!);
  want[want.length - 1] = 100; // 1.00 -> unscaled 100, big-endian
  assert.equal(bloomHash(fx, '1'), xxhash64(want));
  assert.equal(bloomHash(leaf('ts'), 1700000000000000n), xxhash64(le(1700000000000000, 8)));
  const uuid = bloomHash(leaf('u'), '00112233-4455-6677-8899-aabbccddeeff');
  assert.equal(uuid, xxhash64(new Uint8Array([0, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff])));
  // values that cannot be the column's
  assert.throws(() => bloomHash(leaf('i32'), 2 ** 31), InvalidArgumentError);
  assert.throws(() => bloomHash(leaf('i32'), 'x'), InvalidArgumentError);
  assert.throws(() => bloomHash(leaf('i64'), 1.5), InvalidArgumentError);
  assert.throws(() => bloomHash(leaf('dec32'), '1.234'), InvalidArgumentError);
  assert.throws(() => bloomHash(leaf('s'), null), InvalidArgumentError);
});
