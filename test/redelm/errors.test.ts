/**
 * Bad RedElm input ends in a typed error that says where: truncation, wrong
 * magic, a footer index past the end, hostile serialization streams in the
 * RedElm block, sections that lie about their sizes or levels.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CorruptFileError, ParquetryError, UnsupportedError } from '../../src/errors.js';
import { encodeRedElmMetaData, type RedElmMetaData } from '../../src/redelm/metadata.js';
import { RedElmReader } from '../../src/redelm/reader.js';
import { corpusFile, TINY_FOOTER, tinyWithBlock } from './corpus-util.js';

const tiny = corpusFile('tiny_default.redelm');

async function readAll(bytes: Uint8Array): Promise<void> {
  const reader = await RedElmReader.open(bytes);
  for await (const row of reader.rows()) void row;
}

async function fails(bytes: Uint8Array, type: new (...a: never[]) => ParquetryError, message: RegExp, where: (e: ParquetryError) => void = (e) => assert.notEqual(e.context.offset, undefined)): Promise<void> {
  await assert.rejects(readAll(bytes), (e: unknown) => {
    assert.ok(e instanceof type, `${String(e)} is not a ${type.name}`);
    assert.match((e as Error).message, message);
    where(e as ParquetryError);
    return true;
  });
}

async function tinyMeta(): Promise<RedElmMetaData> {
  return structuredClone((await RedElmReader.open(tiny)).metadata);
}

test('the rebuilt tiny file reads (the helpers change only what each test changes)', async () => {
  await readAll(tinyWithBlock(encodeRedElmMetaData(await tinyMeta(), 'java')));
});

test('every truncation of a file is a CorruptFileError', async () => {
  for (let n = 0; n < tiny.length; n += 7) await fails(tiny.subarray(0, n), CorruptFileError, /RedElm|footer|bytes/);
});

test('wrong magic at either end', async () => {
  const head = tiny.slice();
  head[3] = 0x00; // "RedElm\n" without the space is not the magic either
  await fails(head, CorruptFileError, /does not start with/);
  const tail = tiny.slice();
  tail[tail.length - 1] = 0x0b;
  await fails(tail, CorruptFileError, /does not end with/, (e) => assert.equal(e.context.offset, tiny.length - 8));
});

test('a footer index past the end, or inside the magic', async () => {
  for (const index of [BigInt(tiny.length + 100), 2n ** 62n, -1n, 3n]) {
    const b = tiny.slice();
    new DataView(b.buffer).setBigInt64(b.length - 16, index);
    await fails(b, CorruptFileError, /footer index .* lies outside/, (e) => assert.equal(e.context.offset, tiny.length - 16));
  }
});

test('an unknown footer version is unsupported', async () => {
  const b = tiny.slice();
  new DataView(b.buffer).setInt32(TINY_FOOTER, 2);
  await fails(b, UnsupportedError, /version 2/, (e) => assert.equal(e.context.offset, TINY_FOOTER));
});

test('a metadata block longer than the footer', async () => {
  const b = tiny.slice();
  new DataView(b.buffer).setInt32(TINY_FOOTER + 5 + 8, 0x7fffffff);
  await fails(b, CorruptFileError, /claims 2147483647 bytes/);
});

test('a footer without a RedElm block', async () => {
  await fails(tinyWithBlock(new Uint8Array(4), { name: 'Pig' }), CorruptFileError, /no "RedElm" metadata block/);
});

// --- hostile serialization streams ------------------------------------------------

const header = [0xac, 0xed, 0x00, 0x05];
const utf = (s: string): number[] => [0, s.length, ...new TextEncoder().encode(s)];
const i32 = (v: number): number[] => [(v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff];
const ARRAY_LIST_DESC = [0x72, ...utf('java.util.ArrayList'), 0x78, 0x81, 0xd2, 0x1d, 0x99, 0xc7, 0x61, 0x9d, 0x03, 0, 1, 0x49, ...utf('size'), 0x78, 0x70];

test('objects nested past the limit', async () => {
  // An ArrayList whose one element is an ArrayList ... 10000 deep: 16 bytes a level.
  const level = (first: boolean): number[] => [0x73, ...(first ? ARRAY_LIST_DESC : [0x71, ...i32(0x7e0000)]), ...i32(1), 0x77, 4, ...i32(1)];
  const bytes = [...header, ...level(true)];
  for (let i = 1; i < 10000; i++) bytes.push(...level(false));
  // A data area that holds the 10000 lists, so the nesting is what fails.
  await fails(tinyWithBlock(Uint8Array.from(bytes), { dataBytes: 40_000 }), CorruptFileError, /nest deeper than 64/);
});

test('an array longer than the stream', async () => {
  const stringArray = [0x72, ...utf('[Ljava.lang.String;'), 0xad, 0xd2, 0x56, 0xe7, 0xe9, 0x1d, 0x7b, 0x47, 0x02, 0, 0, 0x78, 0x70];
  await fails(tinyWithBlock(Uint8Array.from([...header, 0x75, ...stringArray, ...i32(0x7fffffff)])), CorruptFileError, /array of 2147483647 elements/);
});

test('a back-reference to a handle not yet assigned', async () => {
  await fails(tinyWithBlock(Uint8Array.from([...header, 0x71, ...i32(0x7e00ff)])), CorruptFileError, /back-reference to handle 0x7e00ff/, (e) => assert.equal(e.context.offset, 103 + 5));
});

test('a class outside the RedElm metadata classes', async () => {
  const hashMap = [0x72, ...utf('java.util.HashMap'), 0, 0, 0, 0, 0, 0, 0, 1, 0x03, 0, 0, 0x78, 0x70];
  await fails(tinyWithBlock(Uint8Array.from([...header, 0x73, ...hashMap])), CorruptFileError, /unexpected class "java.util.HashMap"/);
});

test('a string longer than the block', async () => {
  await fails(tinyWithBlock(Uint8Array.from([...header, 0x74, 0xff, 0xff, 0x41])), CorruptFileError, /string needs 65535 bytes/);
});

test('proxies, class objects, exceptions and resets are refused', async () => {
  for (const tag of [0x76, 0x79, 0x7b, 0x7d]) await fails(tinyWithBlock(Uint8Array.from([...header, tag])), CorruptFileError, /unexpected TC_/);
});

test('the right classes holding the wrong shape', async () => {
  // An ArrayList where the RedElmMetaData belongs.
  await fails(tinyWithBlock(Uint8Array.from([...header, 0x73, ...ARRAY_LIST_DESC, ...i32(0), 0x77, 4, ...i32(0), 0x78])), CorruptFileError, /the block is not a redelm.hadoop.RedElmMetaData/);
});

test('a JSON block that does not parse, or lacks fields', async () => {
  await fails(tinyWithBlock(new TextEncoder().encode('{"fileMetaData":')), CorruptFileError, /does not parse/);
  await fails(tinyWithBlock(new TextEncoder().encode('{"fileMetaData":{},"blocks":[]}')), CorruptFileError, /the schema is not a string/);
  await fails(tinyWithBlock(new TextEncoder().encode('{' + '['.repeat(100000))), CorruptFileError, /does not parse/);
});

// --- sections ------------------------------------------------------------------

async function withMeta(change: (m: RedElmMetaData) => void): Promise<Uint8Array> {
  const m = await tinyMeta();
  change(m);
  return tinyWithBlock(encodeRedElmMetaData(m, 'java'));
}

const inColumn = (column: string) => (e: ParquetryError): void => {
  assert.equal(e.context.rowGroup, 0);
  assert.equal(e.context.column, column);
  assert.notEqual(e.context.offset, undefined);
};

test('sections outside the data area', async () => {
  await fails(await withMeta((m) => (m.blocks[0]!.columns[1]!.dataEnd = 5000)), CorruptFileError, /outside the data area/, inColumn('g.s'));
});

test('a size no codec inflates to is refused before anything is allocated', async () => {
  await fails(await withMeta((m) => (m.blocks[0]!.columns[1]!.dataUncompressedLength = 2 ** 30)), CorruptFileError, /more than any codec inflates/, inColumn('g.s'));
});

test('a declared size the section does not inflate to', async () => {
  await fails(await withMeta((m) => (m.blocks[0]!.columns[0]!.dataUncompressedLength = 16)), CorruptFileError, /zlib data decompressed to 12 bytes, expected 16/, (e) => {
    inColumn('a')(e);
    assert.equal(e.context.offset, 30);
  });
});

test('level counts that differ from the entries', async () => {
  await fails(await withMeta((m) => (m.blocks[0]!.columns[1]!.valueCount = 5)), CorruptFileError, /5 entries but 4 repetition/, inColumn('g.s'));
});

test('a corrupt compressed section', async () => {
  const b = tiny.slice();
  b[0x49 + 4] ^= 0xff; // inside g.s's data stream
  await fails(b, CorruptFileError, /zlib/, inColumn('g.s'));
});

test('a column the schema does not have, or of another type', async () => {
  await fails(await withMeta((m) => (m.blocks[0]!.columns[1]!.path = ['g', 't'])), CorruptFileError, /not a leaf of the schema/);
  await fails(await withMeta((m) => (m.blocks[0]!.columns[0]!.type = 'INT64')), CorruptFileError, /INT64 in the row group, INT32 in the schema/);
});

test('more records than the levels hold, or fewer', async () => {
  const inRowGroup = (e: ParquetryError): void => {
    assert.equal(e.context.rowGroup, 0);
    assert.equal(e.context.offset, 8);
  };
  await fails(await withMeta((m) => (m.blocks[0]!.recordCount = 4)), CorruptFileError, /ran out/, inRowGroup);
  await fails(await withMeta((m) => (m.blocks[0]!.recordCount = 2)), CorruptFileError, /beyond the last row/, inRowGroup);
});

test('an unknown codec class is refused at open, at the RedElm block', async () => {
  await assert.rejects(RedElmReader.open(await withMeta((m) => (m.codecClassName = 'org.apache.hadoop.io.compress.Lz4Codec'))), (e: unknown) => {
    assert.ok(e instanceof UnsupportedError);
    assert.match(e.message, /unknown Hadoop codec "org.apache.hadoop.io.compress.Lz4Codec"/);
    assert.equal(e.context.offset, TINY_FOOTER + 5 + 8 + 4);
    return true;
  });
});

test('a schema text that does not parse', async () => {
  for (const schema of ['message m {', 'message m { required int128 a; }', 'mess m {}', `message m ${'{ required group g '.repeat(300)}`]) {
    await fails(await withMeta((m) => (m.schema = schema)), CorruptFileError, /RedElm schema/);
  }
});
