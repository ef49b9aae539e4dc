/**
 * What loads on first use now that laziness comes from what users import
 * (the subpaths of package.json's `exports`): `openTable` in the root loads
 * each format's code by dynamic import when a file of that format is opened,
 * and a codec loads when a file uses it, and so do the page encodings beyond
 * PLAIN and dictionaries. One child process imports the root entry point and
 * opens an uncompressed Parquet file, then a ZSTD one, then files of
 * DELTA_BINARY_PACKED pages (one whose footer does not list the encoding
 * first), then a Trevni file, recording every module it loads between the steps.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BufferSink, writeRecords } from '../src/index.js';
import { ParquetFile } from '../src/parquet/file.js';
import { withFooter } from './recover/fixtures.js';

/** From the root, where the suite runs: the child's modules load from their real paths, not from the test's compiled copy. */
const SRC = resolve('src');
const TREVNI = resolve('..', 'shared', 'trevni-corpus', 'avro_arrays.trv');

/** Modules of src/ loaded by each step, by step name. */
let steps: Map<string, string[]>;

before(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'parquetry-lazy-'));
  try {
    const records = Array.from({ length: 50 }, (_, i) => ({ id: i, name: `n${i % 7}` }));
    for (const codec of ['UNCOMPRESSED', 'ZSTD'] as const) {
      const sink = new BufferSink();
      await writeRecords(sink, records, { codec });
      writeFileSync(join(dir, `${codec}.parquet`), sink.bytes());
    }
    const sink = new BufferSink();
    await writeRecords(sink, records, { columns: { id: { encoding: 'DELTA_BINARY_PACKED', dictionary: false } } });
    const delta = sink.bytes();
    writeFileSync(join(dir, 'DELTA.parquet'), delta);
    const { metadata } = await ParquetFile.open(delta);
    assert.ok(metadata.rowGroups[0]!.columns[0]!.metaData!.encodings.includes('DELTA_BINARY_PACKED'));
    const footerLength = new DataView(delta.buffer, delta.byteOffset).getUint32(delta.length - 8, true);
    // The chunk's encodings as a writer that lists only the levels' would give them: its pages say DELTA_BINARY_PACKED.
    const unlisted = withFooter(delta, (m) => { m.rowGroups[0]!.columns[0]!.metaData!.encodings = ['RLE']; }, metadata, delta.length - 8 - footerLength);
    writeFileSync(join(dir, 'DELTA-unlisted.parquet'), unlisted);
    const log = join(dir, 'load.log');
    writeFileSync(join(dir, 'hook.mjs'), `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(${JSON.stringify(log)}, url + '\\n');
  return next(url, context);
}
`);
    writeFileSync(join(dir, 'record.mjs'), `import { register } from 'node:module';\nregister('./hook.mjs', import.meta.url);\n`);
    const step = (name: string) => `appendFileSync(${JSON.stringify(log)}, ${JSON.stringify(`step:${name}\n`)});`;
    const script = `import { appendFileSync, readFileSync } from 'node:fs';
${step('import')}
const { openTable } = await import(${JSON.stringify(pathToFileURL(join(SRC, 'index.ts')).href)});
const count = async (path, ok = () => true) => { const t = await openTable(new Uint8Array(readFileSync(path))); let n = 0; for await (const row of t.rows()) if (ok(row, n)) n++; await t.close(); return n; };
const inOrder = (row, n) => Number(row.id) === n;
${step('uncompressed')}
if (await count(${JSON.stringify(join(dir, 'UNCOMPRESSED.parquet'))}) !== 50) throw new Error('uncompressed rows');
${step('zstd')}
if (await count(${JSON.stringify(join(dir, 'ZSTD.parquet'))}) !== 50) throw new Error('zstd rows');
${step('delta-unlisted')}
if (await count(${JSON.stringify(join(dir, 'DELTA-unlisted.parquet'))}, inOrder) !== 50) throw new Error('delta rows, encoding unlisted');
${step('delta')}
if (await count(${JSON.stringify(join(dir, 'DELTA.parquet'))}, inOrder) !== 50) throw new Error('delta rows');
${step('trevni')}
if (await count(${JSON.stringify(TREVNI)}) === 0) throw new Error('trevni rows');
`;
    writeFileSync(join(dir, 'run.mjs'), script);
    writeFileSync(log, '');
    // tsx first, so the recording hook runs ahead of its hooks and sees every module.
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--import', pathToFileURL(join(dir, 'record.mjs')).href, join(dir, 'run.mjs')], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    steps = new Map();
    let current = 'start';
    for (const line of readFileSync(log, 'utf8').split('\n')) {
      if (line.startsWith('step:')) current = line.slice(5);
      else if (line.startsWith(pathToFileURL(SRC).href)) {
        const list = steps.get(current) ?? [];
        list.push(line.slice(pathToFileURL(SRC).href.length + 1));
        steps.set(current, list);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const matching = (step: string, pattern: RegExp) => (steps.get(step) ?? []).filter((m) => pattern.test(m));

test('importing the root loads no format\'s table code, no codec and no Trevni, RedElm, conversion or dataset reader', () => {
  assert.ok(matching('import', /^index\.ts$/).length === 1, 'the root was imported in this step');
  assert.deepEqual(matching('import', /^(trevni|redelm|convert)\/|^table\/(text|trevni|redelm)\.ts$|^dataset\/(dataset|index)\.ts$|^codecs\/(gzip|zstd|brotli|lz4|lz4-raw|snappy|snappy-decode|snappy-encode|bzip2)\.ts$/), []);
});

test('openTable on an uncompressed Parquet file loads no codec, no Trevni and no text table', () => {
  assert.deepEqual(matching('uncompressed', /^(trevni|redelm|convert)\/|^table\/(text|trevni|redelm)\.ts$|^codecs\/(gzip|zstd|brotli|lz4|lz4-raw|snappy|snappy-decode|snappy-encode|bzip2)\.ts$/), []);
});

test('a ZSTD file loads the ZSTD codec then, and only it', () => {
  assert.deepEqual(matching('zstd', /^codecs\/(gzip|zstd|brotli|lz4|lz4-raw|snappy|snappy-decode|snappy-encode|bzip2)\.ts$/), ['codecs/zstd.ts']);
  assert.deepEqual(matching('zstd', /^(trevni|redelm)\//), []);
});

test('a Trevni file loads the Trevni reader and its table when opened, not before', () => {
  assert.ok(matching('trevni', /^table\/trevni\.ts$/).length === 1, 'table/trevni.ts');
  assert.ok(matching('trevni', /^trevni\/reader\.ts$/).length === 1, 'trevni/reader.ts');
});

test('DELTA_BINARY_PACKED, BYTE_STREAM_SPLIT and ALP load for the first file whose pages use one, even when its footer does not list it', () => {
  for (const step of ['import', 'uncompressed', 'zstd']) assert.deepEqual(matching(step, /^parquet\/page-encodings\.ts$|^encodings\/(delta|alp|byte-stream)/), [], step);
  assert.deepEqual(matching('delta-unlisted', /^parquet\/page-encodings\.ts$|^encodings\/delta-binary-packed\.ts$/).sort(), ['encodings/delta-binary-packed.ts', 'parquet/page-encodings.ts']);
});
