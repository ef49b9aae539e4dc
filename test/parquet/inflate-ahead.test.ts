import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BufferSink, defineSchema, field as f, openParquet, ParquetWriter } from '../../src/node/index.js';
import { getCodec } from '../../src/codecs/registry.js';
import { decodeColumnChunk, inflateAhead, PageWalk, type ColumnChunkData } from '../../src/parquet/column-chunk.js';
import type { ParquetReader } from '../../src/parquet/reader.js';

const schema = defineSchema({
  id: f.int64().required(),
  name: f.string(),
  word: f.string(),
});

/** Strings that exercise the byte-array paths: empty, multi-byte UTF-8, long, and nulls. */
function row(i: number): Record<string, unknown> {
  return {
    id: BigInt(i),
    name: i % 7 === 0 ? null : i % 11 === 0 ? '' : i % 3 === 0 ? `żółw ${i} 🐢 ${'x'.repeat(i % 90)}` : `n${i}`,
    // A few distinct values at first, then unique ones: the dictionary fills and the chunk falls back to plain pages.
    word: i % 13 === 0 ? null : i < 400 ? `w${i % 5}` : `unique-${i}-ünïcödé`,
  };
}

async function snappyFile(pageVersion: 1 | 2): Promise<Uint8Array> {
  const sink = new BufferSink();
  const w = await ParquetWriter.open(sink, schema, { codec: 'SNAPPY', pageVersion, pageRowLimit: 300, dictionaryPageSize: 2048, rowGroupRows: 1500 });
  await w.writeMany(Array.from({ length: 3000 }, (_, i) => row(i)));
  await w.close();
  return sink.bytes();
}

/** Every chunk of the file: its bytes and what decoding needs. */
function* chunks(file: Uint8Array, reader: ParquetReader) {
  for (const [rg, group] of reader.metadata.rowGroups.entries()) {
    for (const leaf of reader.schema.leaves) {
      const meta = group.columns[leaf.columnIndex]!.metaData!;
      const base = meta.dictionaryPageOffset ?? meta.dataPageOffset;
      const bytes = file.slice(base, base + meta.totalCompressedSize);
      yield { bytes, base, meta, leaf, ctx: { rowGroup: rg, column: leaf.path.join('.') } };
    }
  }
}

const options = { verifyChecksums: true };

/** Where each page's body starts and ends in a chunk's bytes. */
function pageSpans(bytes: Uint8Array, base: number, numValues: number): { body: number; end: number }[] {
  const walk = new PageWalk(bytes, base, { verifyChecksums: false }, numValues, {});
  const spans = [];
  for (let p = walk.next(); p !== null; p = walk.next()) {
    const n = p.header.dataPageHeader?.numValues ?? p.header.dataPageHeaderV2?.numValues;
    if (n !== undefined) walk.claim(n);
    const body = p.body.byteOffset - bytes.byteOffset;
    spans.push({ body, end: body + p.body.length });
  }
  return spans;
}

/** The decode, or the error it ends in. */
function outcome(fn: () => ColumnChunkData): unknown {
  try {
    return fn();
  } catch (e) {
    return { error: (e as Error).constructor.name, message: (e as Error).message, context: { ...(e as { context?: object }).context } };
  }
}

for (const pageVersion of [1, 2] as const) {
  test(`pages inflated ahead decode to the same chunks (data page v${pageVersion}: nulls, empty and multi-byte strings, dictionary fallback)`, async () => {
    const file = await snappyFile(pageVersion);
    const reader = await openParquet(file);
    assert.ok(getCodec('SNAPPY').decompressAsync, 'the native snappy codec has an async path');
    let inflated = 0;
    let fellBack = false;
    for (const c of chunks(file, reader)) {
      const ahead = await inflateAhead(c.bytes, c.base, c.meta, c.leaf, options, c.ctx);
      assert.ok(ahead, 'SNAPPY chunks are inflated ahead');
      inflated += ahead.size;
      fellBack ||= c.meta.encodings.includes('PLAIN') && c.meta.encodings.includes('RLE_DICTIONARY') && c.leaf.path[0] === 'word';
      const plain = decodeColumnChunk(c.bytes, c.base, c.meta, c.leaf, options, c.ctx);
      let used = 0;
      const lookups = { get: (at: number) => (ahead.has(at) ? (used++, ahead.get(at)) : undefined) } as ReadonlyMap<number, Uint8Array>;
      const viaAhead = decodeColumnChunk(c.bytes, c.base, c.meta, c.leaf, { ...options, inflated: lookups }, c.ctx);
      assert.deepEqual(viaAhead, plain);
      assert.equal(used, ahead.size, 'the decoder took every page inflated ahead');
    }
    assert.ok(fellBack, 'a dictionary chunk fell back to plain pages');
    // Every page (3 leaves x 2 row groups x 5 data pages, plus dictionary pages) went through the async path.
    assert.ok(inflated >= 30, `${inflated} pages inflated ahead`);
    const rows = await reader.readRows();
    assert.deepEqual(rows, Array.from({ length: 3000 }, (_, i) => row(i)));
    const table = await reader.toArrow();
    assert.deepEqual(table.getChild('name')!.toArray(), rows.map((r) => r.name));
    await reader.close();
  });

  test(`a bad page fails the same way whether its chunk was inflated ahead or not (data page v${pageVersion})`, async () => {
    const file = await snappyFile(pageVersion);
    const reader = await openParquet(file);
    const all = [...chunks(file, reader)];
    const c = all.find((x) => x.leaf.path[0] === 'name')!;
    // Damage the third page's compressed body, and apart, the last byte of the second page's header.
    const pages = pageSpans(c.bytes, c.base, c.meta.numValues);
    assert.ok(pages.length >= 3);
    const damaged: Uint8Array[] = [];
    const body = c.bytes.slice();
    for (let k = pages[2]!.body + 8; k < pages[2]!.end; k += 7) body[k] ^= 0x5a;
    damaged.push(body);
    const size = c.bytes.slice();
    size[pages[1]!.body - 1] ^= 0x01;
    damaged.push(size);
    for (const bytes of damaged) {
      const ahead = await inflateAhead(bytes, c.base, c.meta, c.leaf, { verifyChecksums: false }, c.ctx);
      const without = outcome(() => decodeColumnChunk(bytes, c.base, c.meta, c.leaf, { verifyChecksums: false }, c.ctx));
      const withAhead = outcome(() => decodeColumnChunk(bytes, c.base, c.meta, c.leaf, { verifyChecksums: false, inflated: ahead }, c.ctx));
      assert.ok((without as { error?: string }).error, 'the damage is detected');
      assert.deepEqual(withAhead, without);
    }
    await reader.close();
  });
}

/** Two row groups of 3,000 rows of 128 random hex digits: far more than the footer's cached tail. */
async function bigFile(): Promise<Uint8Array> {
  let x = 12345;
  const hex = () => {
    let out = '';
    for (let k = 0; k < 16; k++) {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      out += x.toString(16).padStart(8, '0');
    }
    return out;
  };
  const sink = new BufferSink();
  const w = await ParquetWriter.open(sink, defineSchema({ s: f.string().required() }), { codec: 'SNAPPY', rowGroupRows: 3000, dictionary: false });
  await w.writeMany(Array.from({ length: 6000 }, () => ({ s: hex() })));
  await w.close();
  return sink.bytes();
}

test('toArrow reads the next row group ahead; a read ahead that fails is the error of its batch, and none is left unhandled', async () => {
  const file = await bigFile();
  assert.ok(file.length > 4 * 64 * 1024, `${file.length} bytes`);
  // Reads of the second row group fail; the footer's tail (the last 64 KiB, read at open) does not.
  let failFrom = Infinity;
  const asked: number[] = [];
  const source = {
    byteLength: file.length,
    read: async (offset: number, length: number) => {
      asked.push(offset);
      if (offset >= failFrom && offset < file.length - 64 * 1024) throw new Error('the source is gone');
      return file.subarray(offset, offset + length);
    },
  };
  const probe = await openParquet(file);
  const second = probe.metadata.rowGroups[1]!.columns[0]!.metaData!;
  failFrom = second.dictionaryPageOffset ?? second.dataPageOffset;
  const unhandled: unknown[] = [];
  const onUnhandled = (e: unknown) => unhandled.push(e);
  process.on('unhandledRejection', onUnhandled);
  try {
    const reader = await openParquet(source);
    asked.length = 0;
    for await (const batch of reader.arrowBatches()) {
      assert.equal(batch.numRows, 3000);
      // The second row group was asked for before the first batch was handed over.
      assert.ok(asked.some((at) => at >= failFrom && at < file.length - 64 * 1024), `reads at ${asked}`);
      break;
    }
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(unhandled, []);
    const batches = (await openParquet(source)).arrowBatches();
    assert.equal((await batches.next()).value!.numRows, 3000);
    await assert.rejects(batches.next(), /the source is gone/);
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(unhandled, []);
  } finally {
    process.off('unhandledRejection', onUnhandled);
  }
});
