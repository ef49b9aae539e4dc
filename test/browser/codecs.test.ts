/**
 * Every codec in a real browser: the app in ./app.ts, bundled as the
 * docs/browsers.md says (esbuild, ESM, code splitting, no loader or
 * copy step), served from 127.0.0.1 and driven in headless Chromium. It reads
 * corpus files of every codec and writes and reads back files of every
 * writable one, against what Node's reader gives; and a page whose
 * Content-Security-Policy refuses WebAssembly gets a typed error saying what
 * to do, not a hang.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromiumPath, skipWithoutChromium } from './chromium.js';
import { call, startHarness, type Harness } from './harness.js';
import { CODEC_NAMES, type CodecName } from '../../src/codecs/codec.js';
import { BufferSink, openParquet, writeRecords } from '../../src/node/index.js';
import { canonicalRow } from '../../src/node/entries/inspect.js';
import { convert } from '../../src/node/entries/convert.js';

const DATA = join('..', 'shared', 'corpus', 'parquet-testing', 'data');

/** Corpus files by codec; the corpus has no BROTLI file small enough, so Node's zlib writes that one. */
const CORPUS: Record<Exclude<CodecName, 'LZO' | 'BROTLI'>, string[]> = {
  UNCOMPRESSED: ['byte_array_decimal.parquet', 'datapage_v1-uncompressed-checksum.parquet'],
  SNAPPY: ['nulls.snappy.parquet', 'alltypes_plain.snappy.parquet', 'datapage_v2.snappy.parquet'],
  GZIP: ['rle_boolean_encoding.parquet', 'concatenated_gzip_members.parquet'],
  LZ4: ['hadoop_lz4_compressed.parquet', 'non_hadoop_lz4_compressed.parquet'],
  LZ4_RAW: ['lz4_raw_compressed.parquet'],
  ZSTD: ['byte_stream_split.zstd.parquet', 'delta_length_byte_array.parquet'],
};
const WRITABLE = CODEC_NAMES.filter((c) => c !== 'LZO');
/** parquet-testing's CSV: quoted and empty cells, a name with a leading space, a byte that is not UTF-8. */
const CSV = 'delta_encoding_optional_column_expect.csv';

/** Enough rows of mixed types for every codec to find something to compress. */
const records = Array.from({ length: 3000 }, (_, i) => ({
  id: i,
  name: `name ${i % 97}`,
  score: i + 0.5,
  tags: i % 5 === 0 ? [] : [`t${i % 3}`, `u${i % 7}`],
  address: i % 11 === 0 ? null : { city: `city ${i % 13}`, zip: 10000 + i },
}));

async function nodeRows(bytes: Uint8Array): Promise<{ rows: string[]; codecs: Set<string>; blooms: string[] }> {
  const reader = await openParquet(bytes);
  const plan = reader.plan();
  const rows: string[] = [];
  for await (const row of reader.rows()) rows.push(canonicalRow(plan, row));
  const chunks = reader.file.metadata.rowGroups.flatMap((g) => g.columns);
  const codecs = new Set(chunks.map((c) => String(c.metaData?.codec)));
  const blooms = chunks.filter((c) => c.metaData?.bloomFilterOffset !== undefined).map((c) => c.metaData!.pathInSchema.join('.'));
  await reader.close();
  return { rows, codecs, blooms };
}

async function nodeWrite(codec: CodecName): Promise<Uint8Array> {
  const sink = new BufferSink();
  await writeRecords(sink, records, { codec });
  return sink.bytes();
}


const files = new Map<string, Uint8Array>();
let harness: Harness;
const open = (path: string) => harness.open(path);

before(async () => {
  if (!chromiumPath) return;
  for (const name of [...Object.values(CORPUS).flat(), CSV]) files.set(name, readFileSync(join(DATA, name)));
  files.set('node.brotli.parquet', await nodeWrite('BROTLI'));
  harness = await startHarness(chromiumPath, {
    files,
    pages: {
      // script-src without 'wasm-unsafe-eval': the page's own scripts run, WebAssembly may not compile.
      '/csp': { script: 'type="module" src="/js/app.js"', headers: { 'Content-Security-Policy': "script-src 'self'" } },
      '/iife': { script: 'src="/js/app.iife.js"' },
    },
    // The same app as a classic script, esbuild's default format, where import.meta.url is empty (written into the bundle's directory).
    more: [{ format: 'iife', outfile: 'app.iife.js' }],
  });
});

after(async () => {
  await harness?.close();
});

test('the bundle loads no codec wasm until a file needs it', { skip: skipWithoutChromium }, () => {
  // Each dynamic import is an entry point of its own chunk too: the app's is
  // the one from app.ts, and with it loads every chunk it imports statically.
  const { metafile } = harness;
  const [name] = Object.entries(metafile.outputs).find(([, o]) => o.entryPoint?.endsWith('test/browser/app.ts'))!;
  const loaded = new Set([name]);
  for (const chunk of loaded) {
    for (const i of metafile.outputs[chunk]!.imports) if (i.kind === 'import-statement') loaded.add(i.path);
  }
  const inputs = [...loaded].flatMap((chunk) => Object.keys(metafile.outputs[chunk]!.inputs));
  assert.ok(inputs.some((i) => i.endsWith('src/codecs/registry.ts')), `${name} holds the codec registry`);
  const wasm = inputs.filter((i) => /src\/codecs\/wasm\/|zstd-wasm/.test(i));
  assert.deepEqual(wasm, [], `the app's chunk ${name} holds codec wasm`);
});

test('reads corpus files of every codec as Node does', { skip: skipWithoutChromium, timeout: 120_000 }, async () => {
  const page = await open('/');
  const byCodec: [CodecName, string[]][] = [...Object.entries(CORPUS) as [CodecName, string[]][], ['BROTLI', ['node.brotli.parquet']]];
  for (const [codec, names] of byCodec) {
    for (const name of names) {
      const expected = await nodeRows(files.get(name)!);
      assert.ok(expected.codecs.has(codec), `${name} uses ${[...expected.codecs].join(', ')}, not ${codec}`);
      assert.ok(expected.rows.length > 0, `${name} has rows`);
      assert.deepEqual(await call(page, 'read', `/files/${name}`), expected.rows, `${codec} ${name}`);
    }
  }
  await page.close();
});

test('writes every writable codec, and the browser and Node read it back alike', { skip: skipWithoutChromium, timeout: 120_000 }, async () => {
  const page = await open('/');
  // Rows as Node writes and reads them without compression: what every codec must give back.
  const { rows: expected } = await nodeRows(await nodeWrite('UNCOMPRESSED'));
  assert.equal(expected.length, records.length);
  for (const codec of WRITABLE) {
    const { file, rows } = await call(page, 'write', codec, records);
    assert.deepEqual(rows, expected, `${codec} read back in the browser`);
    const fromNode = await nodeRows(Buffer.from(file, 'base64'));
    assert.deepEqual([...fromNode.codecs], [codec], `${codec}: the column chunks' codec`);
    assert.deepEqual(fromNode.rows, expected, `${codec} read back by Node`);
  }
  // Bloom filters hash with xxHash in wasm too.
  const { file } = await call(page, 'write', 'ZSTD', records, ['name']);
  const withBloom = await nodeRows(Buffer.from(file, 'base64'));
  assert.deepEqual(new Set(withBloom.blooms), new Set(['name']));
  assert.deepEqual(withBloom.rows, expected);
  await page.close();
});

test('a CSV streamed from a Web ReadableStream becomes Parquet in the page (readCsv and convert), with the rows Node gives', { skip: skipWithoutChromium, timeout: 60_000 }, async () => {
  const sink = new BufferSink();
  await convert(readFileSync(join(DATA, CSV)), sink, { from: 'csv', to: 'parquet' });
  const { rows: expected } = await nodeRows(sink.bytes());
  assert.equal(expected.length, 100);
  const page = await open('/');
  for (const chunk of [7, 65536]) {
    const got = await call(page, 'csv', `/files/${CSV}`, chunk);
    assert.deepEqual(got.readCsv, expected, `readCsv, chunks of ${chunk} bytes`);
    assert.deepEqual(got.convert, expected, `convert, chunks of ${chunk} bytes`);
    assert.deepEqual([got.numRows, got.badRows], [100, 0]);
  }
  await page.close();
});

test('a page that refuses WebAssembly gets a typed error naming the fix, at once', { skip: skipWithoutChromium, timeout: 30_000 }, async () => {
  const page = await open('/csp');
  for (const [codec, name] of [['ZSTD', 'byte_stream_split.zstd.parquet'], ['BROTLI', 'node.brotli.parquet']] as const) {
    const failure = await call(page, 'readFailure', `/files/${name}`);
    assert.equal(failure?.name, 'UnsupportedError', `${codec}: ${JSON.stringify(failure)}`);
    assert.match(failure.message, new RegExp(`^${codec} needs WebAssembly.*'wasm-unsafe-eval'.*registerCodec\\('${codec}'`), codec);
  }
  const bloom = await call(page, 'writeFailure', 'UNCOMPRESSED', records, ['name']);
  assert.equal(bloom?.name, 'UnsupportedError', JSON.stringify(bloom));
  assert.match(bloom.message, /^bloom filters need WebAssembly.*'wasm-unsafe-eval'/);
  // Codecs in plain JavaScript still work there.
  assert.equal(await call(page, 'readFailure', '/files/concatenated_gzip_members.parquet'), null);
  assert.equal(await call(page, 'readFailure', '/files/nulls.snappy.parquet'), null);
  assert.equal(await call(page, 'writeFailure', 'SNAPPY', records), null);
  await page.close();
});

test('a bundle that is not an ES module (esbuild\'s default format) writes every codec: no glue looks for a file beside itself', { skip: skipWithoutChromium, timeout: 60_000 }, async () => {
  const page = await open('/iife');
  for (const codec of WRITABLE) assert.equal(await call(page, 'writeFailure', codec, records), null, codec);
  await page.close();
});
