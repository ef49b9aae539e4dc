/**
 * What users download, against the package's size limits
 * (scripts/size-check.mjs measures; README, "Package size"): the tarball,
 * the installed footprint, each wasm module shipped once, and what a
 * browser app loads to read a file, codecs only when a file uses them.
 * Measured on the build (npm run build, which npm install runs), so it
 * needs one: the first test checks it is there.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// @ts-expect-error: a JavaScript module without declarations
import { LIMITS, ROOT, SAMPLE, browserRead, codecModules, installedFootprint, tarball } from '../../scripts/size-check.mjs';
import { BufferSink, openParquet, writeRecords } from '../../src/node/index.js';
import type { CodecName } from '../../src/codecs/codec.js';

interface Pack { packed: number; unpacked: number; files: string[] }
interface Chunk { name: string; gzipped: number; inputs: string[] }
interface Read { rows: number; chunks: Chunk[]; total: number }

/**
 * A browser read is held to LIMITS.browserRead (40 kB). esbuild (with
 * splitting) gives the app every module the root reaches that any chunk
 * uses (evanw/esbuild#2922, docs/decisions/subpaths.md), so the root's
 * exports keep their machinery behind dynamic imports (the writer's class
 * is a handle whose `open` loads the writer), or, for what it exports
 * synchronously (`field`, `defineSchema`, inference, `variant`), are
 * declared in a module the library never imports (schema/public.ts); the
 * encoders are modules apart from the decoders, and the reader's optional
 * parts modules apart from the reader; the portable build routes the
 * library's lazy modules through one hub (scripts/bundle.mjs), so the read
 * is few chunks. What the reader loads: BENCHMARKS.md, "Package size".
 */

let pack: Pack;
before(() => {
  pack = tarball();
});

test('the tarball holds the build: both entry points, the CLI, the viewer page and the wasm', () => {
  for (const f of ['dist/index.js', 'dist/node/index.js', 'dist/cli/main.js', 'viewer/dist/index.html', 'dist/codecs/wasm/zstd-wasm.js', 'dist/codecs/wasm/brotli-wasm.js']) {
    assert.ok(pack.files.includes(f), `${f} is not in the tarball (npm run build first)`);
  }
  assert.ok(!pack.files.some((f) => f.endsWith('.map')), 'source maps are not shipped');
});

test(`the tarball is at most ${LIMITS.packed} bytes packed`, () => {
  assert.ok(pack.packed <= LIMITS.packed, `${pack.packed} bytes packed`);
});

test('each embedded wasm module is in one file of the tarball, and no .d.ts spells it out', () => {
  const texts = pack.files.map((f) => [f, readFileSync(join(ROOT, f), 'latin1')] as const);
  for (const wasm of ['zstd-wasm', 'brotli-wasm']) {
    const text = readFileSync(join(ROOT, 'dist', 'codecs', 'wasm', `${wasm}.js`), 'latin1');
    // A stretch from the middle of the base64: any copy of the module holds it.
    const probe = text.slice(text.length / 2, text.length / 2 + 200);
    assert.match(probe, /^[A-Za-z0-9+/]{200}$/);
    assert.deepEqual(texts.filter(([, t]) => t.includes(probe)).map(([f]) => f), [`dist/codecs/wasm/${wasm}.js`]);
  }
  const dts = texts.filter(([f]) => f.endsWith('.d.ts')).map(([f, t]) => [f, t.length] as const);
  assert.deepEqual(dts.filter(([, n]) => n > 100_000), []);
});

test(`installed with its runtime dependencies, the package takes at most ${LIMITS.installed} bytes`, () => {
  const n = installedFootprint(pack.files);
  assert.ok(n <= LIMITS.installed, `${n} bytes installed`);
});

let work: string;
const files = new Map<CodecName, string>();
/** The codec modules, by codec: what a file of another codec must not load. */
const HEAVY: Partial<Record<CodecName, string[]>> = {
  SNAPPY: ['snappy-decode'], GZIP: ['gzip'], ZSTD: ['zstd', 'zstd-wasm'], BROTLI: ['brotli', 'brotli-wasm', 'brotli-bindgen'], LZ4: ['lz4'], LZ4_RAW: ['lz4-raw'],
};
const CODECS: CodecName[] = ['UNCOMPRESSED', 'SNAPPY', 'GZIP', 'ZSTD', 'BROTLI', 'LZ4', 'LZ4_RAW'];
let reads: Map<string, Read>;

before(async () => {
  work = mkdtempSync(join(tmpdir(), 'parquetry-size-test-'));
  const records = Array.from({ length: 200 }, (_, i) => ({ id: i, name: `name ${i % 13}`, score: i / 4 }));
  for (const codec of CODECS) {
    const sink = new BufferSink();
    await writeRecords(sink, records, { codec });
    const file = join(work, `${codec}.parquet`);
    writeFileSync(file, sink.bytes());
    files.set(codec, file);
  }
  const all = [SAMPLE, ...files.values()];
  const results = (await browserRead(all)) as Read[];
  reads = new Map(all.map((f, i) => [f, results[i]!]));
});

test(`a browser app reading a SNAPPY or an UNCOMPRESSED file by URL loads at most ${LIMITS.browserRead} bytes gzipped, every chunk counted`, async () => {
  const read = reads.get(SAMPLE)!;
  const reader = await openParquet(SAMPLE);
  let rows = 0;
  for await (const _ of reader.rows()) rows++;
  await reader.close();
  assert.equal(read.rows, rows);
  assert.ok(read.total <= LIMITS.browserRead, `${read.total} bytes in ${read.chunks.length} chunks`);
  const plain = reads.get(files.get('UNCOMPRESSED')!)!;
  assert.equal(plain.rows, 200);
  assert.ok(plain.total <= LIMITS.browserRead, `UNCOMPRESSED: ${plain.total} bytes in ${plain.chunks.length} chunks`);
});

test('a browser read of PLAIN and dictionary pages loads no other page encoding, no file_path joiner and none of the writer (nor a compressor)', () => {
  for (const codec of CODECS) {
    const inputs = reads.get(files.get(codec)!)!.chunks.flatMap((c) => Object.keys(c.inputs));
    const loaded = inputs.filter((i) => /dist\/(parquet\/(page-encodings|file-path|write\/writer-core)|encodings\/(delta-[a-z-]+|alp|byte-stream-split))\.js$|codecs\/snappy-encode\.js$/.test(i));
    assert.deepEqual(loaded, [], codec);
  }
});

test('a browser read loads none of the root\'s schema builder, inference or VARIANT helpers, and no encoder', () => {
  for (const codec of CODECS) {
    const inputs = reads.get(files.get(codec)!)!.chunks.flatMap((c) => Object.keys(c.inputs));
    const loaded = inputs.filter((i) =>
      /dist\/(schema\/(builder|infer|text-types|variant-builders|temporal-text)|encodings\/(plain-encode|rle-encode|bit-pack)|parquet\/(thrift\/(encode|compact-write)|metadata\/encode)|bytes\/writer)\.js$/.test(i),
    );
    assert.deepEqual(loaded, [], codec);
  }
});

test('a browser read with a limit loads the reader\'s streamed part alone, not the other lazy modules (datasets, S3, table formats, recovery, the writer)', async () => {
  const [read] = (await browserRead([SAMPLE], ROOT, '{ limit: 3 }')) as Read[];
  assert.equal(read!.rows, 3);
  const inputs = read!.chunks.flatMap((c) => Object.keys(c.inputs));
  assert.ok(inputs.some((i) => i.endsWith('dist/parquet/streamed-read.js')), 'a limit reads through streamed-read');
  assert.deepEqual(inputs.filter((i) => /dist\/(dataset|io\/s3|trevni|redelm|recover|table\/(trevni|redelm|text)|parquet\/(write\/writer-core|recover))[/.]/.test(i)), []);
});

test('a browser read loads the WebAssembly loader only for a codec in wasm, and compression levels only with a codec that has them', () => {
  for (const codec of CODECS) {
    const loaded = codecModules(reads.get(files.get(codec)!)!.chunks) as Set<string>;
    assert.equal(loaded.has('wasm-loading'), codec === 'ZSTD' || codec === 'BROTLI', codec);
    assert.equal(loaded.has('levels'), codec === 'GZIP' || codec === 'ZSTD' || codec === 'BROTLI', codec);
  }
});

test('a browser read loads a codec\'s chunk only for a file that uses the codec', () => {
  for (const codec of CODECS) {
    const read = reads.get(files.get(codec)!)!;
    assert.equal(read.rows, 200, codec);
    const loaded = codecModules(read.chunks) as Set<string>;
    for (const [other, modules] of Object.entries(HEAVY)) {
      for (const m of modules) assert.equal(loaded.has(m), other === codec, `${codec} file: ${m} ${loaded.has(m) ? 'loaded' : 'not loaded'}`);
    }
  }
  rmSync(work, { recursive: true, force: true });
});
