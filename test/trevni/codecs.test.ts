/**
 * Trevni's deflate on node:zlib (zlibTrevniDeflate, installed with
 * registerTrevniCodec by the Node adapter): it inflates every deflate block
 * the Java writer made to the same bytes as the portable fflate codec, what
 * it deflates the portable codec inflates back, and bad data fails the same
 * way. Each test file runs in its own process, so the registration here
 * stays here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { CorruptFileError, UnsupportedError } from '../../src/errors.js';
import { BufferSink } from '../../src/io/sink.js';
import { registerTrevniCodec, trevniCodec, zlibTrevniDeflate, type TrevniCodec } from '../../src/trevni/codecs.js';
import { TrevniReader } from '../../src/trevni/reader.js';
import { TrevniWriter } from '../../src/trevni/writer.js';
import { corpusBytes, expected, trvFiles } from './corpus-util.js';

/** Every deflate block of the Java corpus: stored bytes and declared size. */
async function javaDeflateBlocks(): Promise<{ where: string; data: Uint8Array; size: number }[]> {
  const out = [];
  for (const trv of trvFiles()) {
    const bytes = corpusBytes(trv);
    const r = await TrevniReader.open(bytes, { verifyChecksums: false });
    for (const c of r.columns) {
      if (c.codec !== 'deflate') continue;
      for (const [k, b] of (await r.blocks(c.index)).entries()) out.push({ where: `${trv} ${c.name} block ${k}`, data: bytes.subarray(b.offset, b.offset + b.compressedSize), size: b.uncompressedSize });
    }
  }
  return out;
}

async function rows(bytes: Uint8Array): Promise<string[]> {
  const out: string[] = [];
  for await (const l of (await TrevniReader.open(bytes)).canonicalRows()) out.push(l);
  return out;
}

test('node:zlib deflate agrees with the portable codec on the Java corpus, both ways, and on bad data', async () => {
  const portable = await trevniCodec('deflate');
  const blocks = await javaDeflateBlocks();
  assert.ok(blocks.length > 50, `${blocks.length} deflate blocks`);
  registerTrevniCodec('deflate', zlibTrevniDeflate(zlib));
  const native: TrevniCodec = await trevniCodec('deflate');
  assert.notEqual(native, portable);
  for (const b of blocks) {
    const raw = native.decompress(b.data, b.size);
    assert.equal(raw.constructor, Uint8Array, b.where);
    assert.deepEqual(raw, portable.decompress(b.data, b.size), b.where);
    assert.deepEqual(portable.decompress(native.compress(raw), b.size), raw, `${b.where}: zlib's stream, inflated by fflate`);
  }
  const block = blocks.find((b) => b.size > 1000)!;
  const fails = (codec: TrevniCodec, data: Uint8Array, size: number) => assert.throws(() => codec.decompress(data, size), CorruptFileError, `${codec === native ? 'zlib' : 'fflate'}: ${data.length} bytes, size ${size}`);
  for (const codec of [native, portable]) {
    fails(codec, block.data, block.size - 1); // decompresses to more than declared
    fails(codec, block.data, block.size + 1); // to less
    fails(codec, block.data.subarray(0, block.data.length >> 1), block.size); // truncated
    fails(codec, new Uint8Array([0xff, 0xff, 0xff, 0xff]), 10); // not deflate
  }
  assert.deepEqual(native.decompress(new Uint8Array([3, 0]), 0), new Uint8Array(0)); // an empty block
  assert.throws(() => registerTrevniCodec('null' as never, zlibTrevniDeflate(zlib)), UnsupportedError);
});

test('with node:zlib registered, deflate files read and write as before', async () => {
  registerTrevniCodec('deflate', zlibTrevniDeflate(zlib));
  for (const trv of ['multiblock_deflate_crc32.trv', 'avro_multiblock_deflate.trv', 'column_overrides.trv']) {
    const java = corpusBytes(trv);
    const e = expected(trv);
    const sink = new BufferSink();
    const w = await TrevniWriter.open(sink, e.columns.map((c) => ({ name: c.name, type: c.type, metadata: c.metadata.filter((m) => m.key !== 'trevni.name' && m.key !== 'trevni.type').map((m) => ({ key: m.key, value: new Uint8Array(Buffer.from(m.hex, 'hex')) })) })), { metadata: e.metadata.map((m) => ({ key: m.key, value: new Uint8Array(Buffer.from(m.hex, 'hex')) })) });
    for await (const data of (await TrevniReader.open(java)).columnData()) await w.writeColumnData(data as never);
    await w.close();
    assert.deepEqual(await rows(sink.bytes()), await rows(java), trv);
  }
});
