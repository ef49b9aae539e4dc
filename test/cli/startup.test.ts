/**
 * What a process loads at start (BENCHMARKS.md, "Startup"): a footer-only
 * read through the Node entry point, and `parquetry meta`, load no codec
 * library, native addon, node:zlib or node:crypto, and `meta` none of the
 * other commands' modules. Each runs as a child that records every module it
 * loads: ES modules through a load hook (node:crypto there is an import of
 * ours; tsx itself requires it), built-ins (`builtin:zlib`, however loaded)
 * and CommonJS modules at exit.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

let dir: string;
let recorder: string;

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'parquetry-startup-'));
  writeFileSync(join(dir, 'hook.mjs'), `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(process.env.LOAD_LOG, url + '\\n');
  return next(url, context);
}
`);
  recorder = join(dir, 'record.mjs');
  writeFileSync(recorder, `import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
register('./hook.mjs', import.meta.url);
const require = createRequire(import.meta.url);
process.on('exit', () => {
  const builtins = process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => 'builtin:' + m.slice(13));
  appendFileSync(process.env.LOAD_LOG, [...builtins, ...Object.keys(require.cache)].join('\\n') + '\\n');
});
`);
});

/** Runs node with tsx and the recorder; returns what the process loaded, one module a line. */
function loads(name: string, args: string[]): string[] {
  const log = join(dir, `${name}.log`);
  writeFileSync(log, '');
  // tsx first, so the recording hook runs ahead of its hooks and sees every module.
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--import', pathToFileURL(recorder).href, ...args], {
    encoding: 'utf8', env: { ...process.env, LOAD_LOG: log },
  });
  assert.equal(r.status, 0, r.stderr);
  return readFileSync(log, 'utf8').split('\n').filter(Boolean);
}

/** Packages and built-ins that only some files or commands need. */
const LAZY = [/\/node_modules\/fflate\//, /\/src\/codecs\/snappy-(decode|encode)\.ts$/, /\/node_modules\/xxhash-wasm\//, /\/node_modules\/csv-parse\//,
  /\/node_modules\/zstd-napi\//, /\/node_modules\/@napi-rs\/snappy/, /\/node_modules\/snappy\//, /^builtin:zlib$/, /^node:crypto$/];

function assertNone(loaded: string[], patterns: RegExp[]): void {
  assert.deepEqual(loaded.filter((m) => patterns.some((p) => p.test(m))), [], 'loaded, though not needed');
}

/**
 * What `meta` does not need (the CLI imports each command's modules when it
 * runs, and the reader its own parts on first use): the writers, conversion,
 * recovery, Trevni, RedElm, encryption, Arrow, filters and page indexes,
 * bloom filters, VARIANT assembly, streaming, the writer's value coercion,
 * datasets (but `dataset/s3.ts`, which `openTable` imports: a shim that loads
 * the S3 client when called).
 */
const HEAVY = [/\/src\/parquet\/write\/(?!footer-bytes\.ts$)/, /\/src\/convert\//, /\/src\/parquet\/recover\/(?!missing\.ts$)/, /\/src\/trevni\/(?!spill\.ts$|codecs\.ts$)/,
  /\/src\/redelm\/(?!summary\.ts$|schema\.ts$)/, /\/src\/javaser\//, /\/src\/parquet\/crypto\/(?!kms\.ts$|encrypting-sink\.ts$|options\.ts$)/, /\/src\/schema\/coerce\.ts$/,
  /\/src\/arrow\//, /\/src\/parquet\/filter\/(?!where\.ts$)/, /\/src\/parquet\/bloom\//, /\/src\/parquet\/variant\//,
  /\/src\/parquet\/chunk-stream\.ts$/, /\/src\/parquet\/inspect\/check-stats\.ts$/, /\/src\/dataset\/(?!summary\.ts$|hive-names\.ts$|file-system\.ts$|describe\.ts$|hive\.ts$|s3\.ts$)/];

/**
 * The Node root entry point exports the core, writers and `openDataset`
 * included; what importing it must not load is the subpaths' own code, and
 * the reader's parts that only some reads need: filters' scans and page
 * indexes, VARIANT assembly, streaming.
 */
const SUBPATHS = [/\/src\/convert\//, /\/src\/parquet\/recover\//, /\/src\/trevni\/(?!spill\.ts$|codecs\.ts$)/, /\/src\/redelm\//, /\/src\/javaser\//,
  /\/src\/parquet\/inspect\/check-stats\.ts$/, /\/src\/table\/(text|trevni|redelm)\.ts$/, /\/src\/entries\//];
/**
 * What the root's exports import when first called, not when the root is
 * imported: the writer's machinery (`ParquetWriter.open`), the dataset layer
 * (`openDataset`) with the filter engine and Arrow output, the S3 client,
 * Arrow schemas and VARIANT shapes (`writeRecords`), the encryptor (`encryptParquet`).
 */
const ROOT_LAZY = [/\/src\/parquet\/write\/(?!writer\.ts$|write-records\.ts$|encrypt-file\.ts$|sample\.ts$|footer-bytes\.ts$)/, /\/src\/dataset\/dataset\.ts$/,
  /\/src\/parquet\/filter\/(?!where\.ts$|expression\.ts$|temporal-literal\.ts$)/, /\/src\/arrow\/(?!load\.ts$)/, /\/src\/io\/s3\/(?!address\.ts$)/, /\/src\/schema\/coerce\.ts$/,
  /\/src\/parquet\/variant\//, /\/src\/parquet\/crypto\/file-encryptor\.ts$/];
const READER_PARTS = [/\/src\/parquet\/chunk-stream\.ts$/, /\/src\/parquet\/variant\/assemble\.ts$/, /\/src\/parquet\/filter\/(scan|evaluate|prune-pages|indexes|reader-parts)\.ts$/];

/** What reading rows needs and a footer read or `meta` does not: page decoding, the encodings (PLAIN decodes statistics), row assembly. */
const DECODING = [/\/src\/parquet\/(row-decoding|column-chunk)\.ts$/, /\/src\/encodings\/(?!plain\.ts$|bits\.ts$|types\.ts$)/, /\/src\/shred\/assemble\.ts$/];

test('a footer-only read through the Node entry point loads no codec, addon, zlib or crypto, no subpath\'s code and no row decoding', () => {
  const entry = pathToFileURL(resolve('src/node/index.ts')).href;
  const loaded = loads('footer', ['--input-type=module', '-e',
    `const { openParquet } = await import(${JSON.stringify(entry)}); const r = await openParquet('examples/fixtures/sample.parquet'); if (r.numRows !== 20) process.exit(2); await r.close();`]);
  assert.ok(loaded.some((m) => m.endsWith('/src/parquet/footer.ts')), 'the recorder saw the reader load');
  assertNone(loaded, [...LAZY, ...SUBPATHS, ...READER_PARTS, ...ROOT_LAZY, /\/src\/parquet\/(row-decoding|column-chunk)\.ts$/, /\/src\/shred\/assemble\.ts$/, /\/node_modules\/commander\//]);
});

test('reading rows through the Node entry point loads no subpath\'s code, and no filter, VARIANT or streaming code for a plain read', () => {
  const entry = pathToFileURL(resolve('src/node/index.ts')).href;
  const loaded = loads('rows', ['--input-type=module', '-e',
    `const { openParquet } = await import(${JSON.stringify(entry)}); const r = await openParquet('examples/fixtures/sample.parquet'); if ((await r.readRows()).length !== 20) process.exit(2); await r.close();`]);
  assert.ok(loaded.some((m) => m.endsWith('/src/shred/assemble.ts')), 'the recorder saw rows assembled');
  assertNone(loaded, [...SUBPATHS, ...READER_PARTS, ...ROOT_LAZY]);
});

test('`parquetry meta` loads the reader and meta, not the other commands, the writers, or commander\'s ESM wrapper', () => {
  const loaded = loads('meta', ['src/cli/main.ts', 'meta', 'examples/fixtures/sample.parquet']);
  assert.ok(loaded.some((m) => m.endsWith('/src/cli/meta.ts')), 'the recorder saw meta load');
  // Compiling modules is most of what meta pays over node's own start: the writers and the conversion layer are a third of the library.
  assertNone(loaded, [...LAZY, ...HEAVY, ...DECODING, /\/src\/cli\/(convert|pages|column-index|bloom|trevni|redelm)\.ts$/, /\/node_modules\/commander\/esm\.mjs$/]);
});

/** What a conversion of a Parquet file to text does not need: the writers (Parquet, Trevni, RedElm, datasets), the text inputs' readers and column builders, inference and --type parsing, worker threads (one thread unless --threads asks). */
const TEXT_OUT_UNNEEDED = [/\/src\/parquet\/write\//, /\/src\/convert\/(write-parquet|write-trevni|write-redelm|write-dataset|pipeline|shape|read-json|json-columns|read-csv|csv-[a-z-]+|types|column-builders)\.ts$/,
  /\/src\/node\/(csv-workers|text-workers|worker-pool|worker-start)\.ts$/,
  /\/src\/trevni\/writer\.ts$/, /\/src\/redelm\//, /\/src\/javaser\//, /\/src\/dataset\/write\.ts$/, /\/src\/schema\/(infer|builder|coerce)\.ts$/];

test('`parquetry convert x.parquet y.csv` loads the reader and the text writer, none of the writers or the text inputs\' readers', () => {
  const out = join(dir, 'sample.csv');
  const loaded = loads('convert-text', ['src/cli/main.ts', 'convert', 'examples/fixtures/sample.parquet', out, '-q']);
  assert.ok(loaded.some((m) => m.endsWith('/src/convert/text-columns.ts')), 'the recorder saw the text written from columns');
  assert.ok(readFileSync(out, 'utf8').split('\n').length > 20, 'the rows were written');
  assertNone(loaded, TEXT_OUT_UNNEEDED);
});
