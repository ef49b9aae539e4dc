/** Inputs: paths, Uint8Array (views too), ArrayBuffer, Buffer, custom {byteLength, read} sources, and their failures. */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CorruptFileError, IOError, InvalidArgumentError, ParquetReader, ParquetryError, blobSource, openParquet, type ReadInput, type SourceLike } from '../../src/node/index.js';
import { canonicalRow } from '../../src/node/entries/inspect.js';
import { DATA, SAMPLE, lines } from './helpers.js';
import { openRedElm } from '../../src/node/entries/redelm.js';
import { openTrevni, TrevniReader } from '../../src/node/entries/trevni.js';
import { REDELM_CORPUS } from '../redelm/corpus-util.js';

let bytes: Uint8Array;
let expected: string[];

before(async () => {
  bytes = new Uint8Array(readFileSync(SAMPLE));
  const reader = await openParquet(SAMPLE);
  expected = await lines(reader);
  await reader.close();
});

async function read(input: ReadInput): Promise<string[]> {
  const reader = await openParquet(input);
  try {
    return await lines(reader);
  } finally {
    await reader.close();
  }
}

test('a Uint8Array', async () => {
  assert.deepEqual(await read(bytes), expected);
  assert.deepEqual(await read(bytes.slice()), expected);
});

test('a Uint8Array view that does not start at byte 0 of its buffer', async () => {
  const big = new Uint8Array(bytes.length + 20);
  big.set(bytes, 7);
  assert.deepEqual(await read(big.subarray(7, 7 + bytes.length)), expected);
});

test('a Node Buffer (from a pooled allocation too)', async () => {
  assert.deepEqual(await read(readFileSync(SAMPLE)), expected);
  const pooled = Buffer.concat([Buffer.from('junk'), Buffer.from(bytes)]).subarray(4);
  assert.deepEqual(await read(pooled), expected);
});

test('an ArrayBuffer', async () => {
  assert.deepEqual(await read(bytes.slice().buffer), expected);
});

test('a Blob and a File, read through slices', async () => {
  const part = bytes as Uint8Array<ArrayBuffer>;
  assert.deepEqual(await read(new Blob([part])), expected);
  assert.deepEqual(await read(new File([part], 'sample.parquet')), expected);
  const sliced: number[] = [];
  class Counting extends Blob {
    override slice(start?: number, end?: number, type?: string): Blob {
      sliced.push((end ?? this.size) - (start ?? 0));
      return super.slice(start, end, type);
    }
  }
  const reader = await openParquet(blobSource(new Counting([part]), 'counted'));
  try {
    assert.deepEqual(await lines(reader), expected);
  } finally {
    await reader.close();
  }
  assert.ok(sliced.length > 0, 'the reads sliced the blob');
});

test('a File names itself in errors; a read past its end is an IOError', async () => {
  const file = new File([bytes.slice(0, 100)], 'cut.parquet');
  await assert.rejects(openParquet(file), (e: unknown) => e instanceof CorruptFileError && /cut\.parquet/.test(e.message));
  await assert.rejects(blobSource(file).read(90, 20), (e: unknown) => e instanceof IOError && /outside the 100-byte source/.test(e.message));
});

test('ParquetReader.open works like openParquet for bytes', async () => {
  const reader = await ParquetReader.open(bytes);
  try {
    assert.deepEqual(await lines(reader), expected);
  } finally {
    await reader.close();
  }
});

test('a custom source: async Uint8Array, async ArrayBuffer, sync values, and close() is passed on', async () => {
  let closed = 0;
  const reads: [number, number][] = [];
  const make = (kind: 'async' | 'buffer' | 'sync'): SourceLike => ({
    byteLength: bytes.length,
    name: `custom-${kind}`,
    read(offset: number, length: number) {
      reads.push([offset, length]);
      const out = bytes.slice(offset, offset + length);
      if (kind === 'sync') return out;
      if (kind === 'buffer') return Promise.resolve(out.buffer);
      return Promise.resolve(out);
    },
    async close() {
      closed++;
    },
  });
  for (const kind of ['async', 'buffer', 'sync'] as const) {
    assert.deepEqual(await read(make(kind)), expected, kind);
  }
  assert.equal(closed, 3);
  for (const [o, l] of reads) assert.ok(o >= 0 && l >= 0 && o + l <= bytes.length, `read ${o}+${l} inside the file`);
});

test('a custom source whose read throws gives an IOError with the cause', async () => {
  const boom = new Error('disk on fire');
  let calls = 0;
  // Larger than the footer's 64 KiB tail read, which would otherwise hold every chunk.
  const big = new Uint8Array(readFileSync(join(DATA, 'delta_binary_packed.parquet')));
  assert.ok(big.length > 64 * 1024);
  const src: SourceLike = {
    byteLength: big.length,
    name: 'flaky',
    read(offset, length) {
      // The footer reads succeed; the first column chunk read fails.
      if (++calls > 2) throw boom;
      return big.slice(offset, offset + length);
    },
  };
  const reader = await openParquet(src);
  await assert.rejects(lines(reader), (e: unknown) => {
    assert.ok(e instanceof IOError, `got ${(e as Error)?.stack}`);
    assert.equal((e as Error).cause, boom);
    assert.match((e as Error).message, /disk on fire/);
    return true;
  });
  const failing: SourceLike = { byteLength: bytes.length, read: () => Promise.reject(new Error('nope')) };
  await assert.rejects(openParquet(failing), IOError);
});

test('a custom source that returns too few bytes, or not bytes, gives an IOError', async () => {
  const short: SourceLike = { byteLength: bytes.length, read: (o, l) => bytes.slice(o, o + Math.max(0, l - 1)) };
  await assert.rejects(openParquet(short), IOError);
  const wrong = { byteLength: bytes.length, read: () => 'not bytes' } as unknown as SourceLike;
  await assert.rejects(openParquet(wrong), IOError);
});

for (const byteLength of [-1, 1.5, Number.NaN, Infinity, '12' as unknown as number]) {
  test(`a custom source with byteLength ${String(byteLength)} is an InvalidArgumentError`, async () => {
    await assert.rejects(openParquet({ byteLength, read: () => new Uint8Array(0) }), InvalidArgumentError);
  });
}

for (const [label, input] of [['a number', 42], ['null', null], ['an object without read', { byteLength: 3 }], ['a plain array', [1, 2, 3]]] as const) {
  test(`${label} as input is an InvalidArgumentError`, async () => {
    await assert.rejects(openParquet(input as unknown as ReadInput), InvalidArgumentError);
  });
}

test('a missing file is an IOError naming it', async () => {
  await assert.rejects(openParquet(join(DATA, 'no-such-file.parquet')), (e: unknown) => e instanceof IOError && /no-such-file/.test(e.message));
});

test('bytes that are not Parquet are a CorruptFileError', async () => {
  for (const b of [new Uint8Array(0), new Uint8Array(11), new TextEncoder().encode('PAR1 hello, not a parquet file PAR1'), bytes.subarray(0, bytes.length - 1)]) {
    await assert.rejects(openParquet(b), (e: unknown) => e instanceof CorruptFileError, `${b.length} bytes`);
  }
});

test('a source read past the file is refused before the user read is called', async () => {
  // A corrupt footer may point anywhere; the checked source must not pass such reads on.
  const seen: [number, number][] = [];
  const src: SourceLike = {
    byteLength: bytes.length,
    read(o, l) {
      seen.push([o, l]);
      return bytes.slice(o, o + l);
    },
  };
  const reader = await openParquet(src);
  await lines(reader);
  for (const [o, l] of seen) assert.ok(Number.isSafeInteger(o) && Number.isSafeInteger(l) && o >= 0 && l >= 0 && o + l <= bytes.length);
});

test('skipped row groups are not fetched', async () => {
  const file = readFileSync(join(DATA, 'floating_orders_nan_count.parquet'));
  const seen: [number, number][] = [];
  const src: SourceLike = {
    byteLength: file.length,
    read(o, l) {
      seen.push([o, l]);
      return file.subarray(o, o + l);
    },
  };
  const reader = await openParquet(src);
  try {
    const groups = reader.file.metadata.rowGroups.map((g) => {
      const starts = g.columns.map((c) => Math.min(c.metaData!.dataPageOffset, c.metaData!.dictionaryPageOffset || Infinity));
      const ends = g.columns.map((c, i) => starts[i]! + c.metaData!.totalCompressedSize);
      return { start: Math.min(...starts), end: Math.max(...ends) };
    });
    const touches = (g: { start: number; end: number }) => seen.some(([o, l]) => o < g.end && o + l > g.start);
    // A file within the footer's 64 KiB tail read is held whole: its row groups need no read at all.
    const held = file.length <= 64 * 1024;
    seen.length = 0;
    const got = await lines(reader, { offset: 30, limit: 5 });
    assert.equal(got.length, 5);
    assert.deepEqual(groups.map(touches), [false, false, false, !held, false], 'only row group 3 is read');
    seen.length = 0;
    await lines(reader, { rowGroups: [1] });
    assert.deepEqual(groups.map(touches), [false, !held, false, false, false], 'only row group 1 is read');
  } finally {
    await reader.close();
  }
});

test('every error from a bad source is a ParquetryError', async () => {
  for (const read of [
    () => { throw new TypeError('x'); },
    () => Promise.reject('a string'),
    () => new Uint8Array(1),
    () => undefined,
    () => ({ length: 4 }),
  ]) {
    await assert.rejects(openParquet({ byteLength: bytes.length, read } as unknown as SourceLike), ParquetryError);
  }
  // canonicalRow is still importable and unaffected
  assert.equal(typeof canonicalRow, 'function');
});

test('the Trevni and RedElm readers take a Blob or a File too, read through slices', async () => {
  const cases: [string, (input: Blob | Uint8Array) => Promise<{ rows(): AsyncGenerator<Record<string, unknown>> }>][] = [
    ['../shared/trevni-corpus/avro_nested_records.trv', (i) => openTrevni(i)],
    ['../shared/trevni-corpus/types_deflate_crc32.trv', (i) => TrevniReader.open(i)],
    [join(REDELM_CORPUS, 'tiny_snappy.redelm'), (i) => openRedElm(i)],
  ];
  for (const [path, open] of cases) {
    const file = new Uint8Array(readFileSync(path));
    const rows = async (input: Blob | Uint8Array) => {
      const out: unknown[] = [];
      for await (const row of (await open(input)).rows()) out.push(row);
      return out;
    };
    const want = await rows(file);
    assert.ok(want.length > 0, path);
    assert.deepEqual(await rows(new Blob([file])), want, path);
    assert.deepEqual(await rows(new File([file], 'x')), want, path);
  }
});
