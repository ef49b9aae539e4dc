/**
 * Trevni version 1 (cutting/trevni, `Trv` 1) where it differs from version
 * 2: no boolean type, no bzip2, no run-coded array lengths. Version 2 files
 * with their magic's last byte set to 1 are what a version 1 file with those
 * features would be; the reader refuses each, located.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CorruptFileError, InvalidArgumentError, UnsupportedError } from '../../src/errors.js';
import { BufferSink } from '../../src/io/sink.js';
import { TrevniReader } from '../../src/trevni/reader.js';
import type { TrevniColumnRow } from '../../src/trevni/reader.js';
import { TrevniWriter, type TrevniColumnSpec, type TrevniWriterOptions } from '../../src/trevni/writer.js';
import { TREVNI_V1_CORPUS, corpusBytes, expected } from './corpus-util.js';

function asVersion1(trv: string): Uint8Array {
  const b = corpusBytes(trv).slice();
  b[3] = 1;
  return b;
}

async function drain(r: TrevniReader): Promise<void> {
  for await (const _ of r.rows()) void _;
}

test('a boolean column in a version 1 file is corrupt (ValueType has no BOOLEAN), naming the column', async () => {
  await assert.rejects(TrevniReader.open(asVersion1('booleans.trv')), (e: unknown) => {
    assert.ok(e instanceof CorruptFileError, String(e));
    assert.match(e.message, /unknown column type "boolean" \(Trevni version 1 has null, int,/);
    assert.ok(e.context.column !== undefined && e.context.offset !== undefined);
    return true;
  });
  // The same bytes as version 2 read.
  await drain(await TrevniReader.open(corpusBytes('booleans.trv')));
});

/** A version 2 file written by our writer, with its magic's last byte set to 1. */
async function v2AsVersion1(columns: TrevniColumnSpec[], options: Omit<TrevniWriterOptions, 'version'>, rows: TrevniColumnRow[][]): Promise<Uint8Array> {
  const sink = new BufferSink();
  const w = await TrevniWriter.open(sink, columns, options);
  for (const row of rows) await w.writeRow(row);
  await w.close();
  const b = sink.bytes();
  b[3] = 1;
  return b;
}

test('bzip2 in a version 1 file is an unknown codec, at the block', async () => {
  const r = await TrevniReader.open(await v2AsVersion1([{ name: 'n', type: 'int' }], { codec: 'bzip2' }, [[1], [2]]));
  await assert.rejects(r.readColumn('n'), (e: unknown) => {
    assert.ok(e instanceof UnsupportedError, String(e));
    assert.match(e.message, /version 1 codec "bzip2"/);
    assert.equal(e.context.column, 'n');
    return true;
  });
});

test('crc-32 (the version 2 spec\'s name) is an unknown checksum in version 1', async () => {
  // A user key of the same length, renamed in the bytes to trevni.checksum.
  const sink = new BufferSink();
  const w = await TrevniWriter.open(sink, [{ name: 'x', type: 'int' }], { version: 1, metadata: [{ key: 'trevni_checksum', value: new TextEncoder().encode('crc-32') }] });
  await w.write({ x: 1 });
  await w.close();
  const bytes = sink.bytes();
  bytes[Buffer.from(bytes).indexOf('trevni_checksum') + 6] = 0x2e;
  const r = await TrevniReader.open(bytes);
  assert.equal(r.columns[0]!.checksum, 'crc-32');
  await assert.rejects(r.readColumn('x'), (e: unknown) => e instanceof UnsupportedError && /version 1 checksum "crc-32"/.test(e.message) && e.context.column === 'x');
});

test('a negative array length in a version 1 file is corrupt (no run codes), at its byte', async () => {
  const lengths = [3, 0, 0, 0, 1, 1];
  const bytes = await v2AsVersion1([{ name: 'a', type: 'int', array: true }], {}, lengths.map((n) => [new Array(n).fill(7)]));
  const r = await TrevniReader.open(bytes);
  const [block] = await r.blocks('a');
  await assert.rejects(r.readColumn('a'), (e: unknown) => {
    assert.ok(e instanceof CorruptFileError, String(e));
    // Length 3, three values, then the run code -3 (three 0s).
    assert.match(e.message, /negative array length -3 \(Trevni version 1 has no run codes\)/);
    assert.equal(e.context.column, 'a');
    assert.equal(e.context.offset, block!.offset + 4);
    return true;
  });
  bytes[3] = 2;
  assert.deepEqual(await (await TrevniReader.open(bytes)).readColumn('a'), lengths.map((n) => new Array(n).fill(7)));
});

test('the version 1 writer refuses booleans naming the column, and bzip2; writes every length as itself', async () => {
  await assert.rejects(TrevniWriter.open(new BufferSink(), [{ name: 'ok', type: 'int' }, { name: 'flag', type: 'boolean' }], { version: 1 }), (e: unknown) => {
    assert.ok(e instanceof UnsupportedError, String(e));
    assert.equal(e.context.column, 'flag');
    assert.match(e.message, /version 1 has no boolean type/);
    return true;
  });
  await assert.rejects(TrevniWriter.open(new BufferSink(), [{ name: 'a', type: 'int' }], { version: 1, codec: 'bzip2' }), InvalidArgumentError);
  await assert.rejects(TrevniWriter.open(new BufferSink(), [], { version: 3 as never }), InvalidArgumentError);
  const sink = new BufferSink();
  const w = await TrevniWriter.open(sink, [{ name: 'a', type: 'null', array: true }], { version: 1 });
  for (const n of [0, 0, 0, 1, 1]) await w.writeRow([new Array(n).fill(null)]);
  await w.close();
  const bytes = sink.bytes();
  assert.deepEqual([...bytes.subarray(0, 4)], [0x54, 0x72, 0x76, 0x01]);
  // Five one-byte lengths 0 0 0 2 2, where version 2 writes two run codes.
  assert.deepEqual([...bytes.subarray(bytes.length - 5)], [0, 0, 0, 2, 2]);
  const r = await TrevniReader.open(bytes);
  assert.equal(r.format.version, 1);
  assert.deepEqual(await r.readColumn('a'), [[], [], [], [null], [null]]);
  assert.equal(expected('tiny.trv', TREVNI_V1_CORPUS).magic, '54727601');
});

test('bad version 1 input: a length past its block, a column start past the end, a block past the end, typed and located', async () => {
  const tiny = corpusBytes('tiny.trv', TREVNI_V1_CORPUS);
  // tiny.trv (README): column s starts at 0xe2, its block data at 0xf2 begins with the length 2 (04).
  assert.equal(tiny[0xf2], 0x04);
  const long = tiny.slice();
  long.set([0xfe, 0x01], 0xf2); // 127 strings in a block of 11 bytes
  await assert.rejects((await TrevniReader.open(long)).readColumn('s'), (e: unknown) => {
    assert.ok(e instanceof CorruptFileError, String(e));
    assert.match(e.message, /array length 127 exceeds the values left in the block/);
    assert.equal(e.context.column, 's');
    assert.equal(e.context.offset, 0xf4);
    return true;
  });
  const start = tiny.slice();
  start.set([0xff, 0xff, 0, 0, 0, 0, 0, 0], 0xbe); // column s's start
  await assert.rejects(TrevniReader.open(start), (e: unknown) => e instanceof CorruptFileError && e.context.column === 's' && e.context.offset === 0xbe && /outside the file/.test(e.message));
  const block = tiny.slice();
  block.set([0xff, 0, 0, 0], 0xe2 + 4 + 8); // column s's stored size
  await assert.rejects((await TrevniReader.open(block)).readColumn('s'), (e: unknown) => e instanceof CorruptFileError && e.context.column === 's' && /runs past the end/.test(e.message));
});

test('convert in code: trevniVersion 1 and draft, and a draft input read back through convert', async () => {
  const { convert } = await import('../../src/convert/convert.js');
  const { TrevniDraftReader } = await import('../../src/trevni/draft/reader.js');
  const json = new TextEncoder().encode('{"id":1,"tags":["a"]}\n{"id":2,"tags":[]}\n');
  const v1 = new BufferSink();
  await convert(json, v1, { from: 'jsonl', to: 'trevni', trevniVersion: 1, codec: 'deflate' });
  assert.equal((await TrevniReader.open(v1.bytes())).format.version, 1);
  const draft = new BufferSink();
  await convert(json, draft, { from: 'jsonl', to: 'trevni', trevniVersion: 'draft' });
  assert.ok((await TrevniDraftReader.open(draft.bytes())) instanceof TrevniDraftReader);
  for (const bytes of [v1.bytes(), draft.bytes()]) {
    const back = new BufferSink();
    await convert(bytes, back, { to: 'jsonl' });
    assert.equal(new TextDecoder().decode(back.bytes()), '{"id":1,"tags":["a"]}\n{"id":2,"tags":[]}\n');
  }
  const bool = new TextEncoder().encode('{"ok":true}\n');
  await assert.rejects(convert(bool, new BufferSink(), { from: 'jsonl', to: 'trevni', trevniVersion: 1 }), (e: unknown) => e instanceof UnsupportedError && /no boolean type/.test(e.message));
});
