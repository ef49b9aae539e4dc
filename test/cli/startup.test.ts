/**
 * What a process loads at start (BENCHMARKS.md, "Startup"): a footer-only
 * read through the Node entry point, and `parquetry meta`, load no codec
 * library, native addon, node:zlib or node:crypto, and `meta` none of the
 * other commands' modules; each `convert` job loads its direction's code
 * only (from the source, and in the built CLI's chunks, no hub). Each runs as a child that records every module it
 * loads: ES modules through a load hook (node:crypto there is an import of
 * ours; tsx itself requires it), built-ins (`builtin:zlib`, however loaded)
 * and CommonJS modules at exit.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
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

/** Runs node (with tsx, unless `built`) and the recorder; returns what the process loaded, one module a line. */
function loads(name: string, args: string[], built = false): string[] {
  const log = join(dir, `${name}.log`);
  writeFileSync(log, '');
  // tsx first, so the recording hook runs ahead of its hooks and sees every module.
  const r = spawnSync(process.execPath, [...(built ? [] : ['--import', 'tsx']), '--import', pathToFileURL(recorder).href, ...args], {
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

for (const ext of ['csv', 'jsonl']) {
  test(`\`parquetry convert x.parquet y.${ext}\` loads the reader and the text writer, none of the writers or the text inputs' readers`, () => {
    const out = join(dir, `sample.${ext}`);
    const loaded = loads(`convert-${ext}`, ['src/cli/main.ts', 'convert', 'examples/fixtures/sample.parquet', out, '-q']);
    assert.ok(loaded.some((m) => m.endsWith('/src/convert/text-columns.ts')), 'the recorder saw the text written from columns');
    assert.ok(readFileSync(out, 'utf8').split('\n').length > 20, 'the rows were written');
    assertNone(loaded, TEXT_OUT_UNNEEDED);
  });
}

/** Small text inputs, their rows those of examples/fixtures/sample.parquet's kind: numbers, text, dates, booleans. */
function textInputs(): { csv: string; jsonl: string } {
  const rows = Array.from({ length: 50 }, (_, i) => ({ id: i, name: `n${i}`, score: i * 1.5, day: `2024-01-${String((i % 28) + 1).padStart(2, '0')}`, flag: i % 2 === 1 }));
  const csv = join(dir, 'in.csv');
  const jsonl = join(dir, 'in.jsonl');
  writeFileSync(csv, `id,name,score,day,flag\n${rows.map((r) => Object.values(r).join(',')).join('\n')}\n`);
  writeFileSync(jsonl, `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
  return { csv, jsonl };
}

/** What a text to Parquet job does not need: the Parquet reader and the tables (it reads no table), the text outputs, worker threads (one thread unless --threads asks). */
const TEXT_IN_UNNEEDED = [/\/src\/parquet\/(reader|file|footer|row-decoding|column-chunk|chunk-reads|streamed-read)\.ts$/, /\/src\/table\//, /\/src\/shred\/assemble\.ts$/,
  /\/src\/convert\/(table-input|text-columns|text-nested|write-text|write-trevni|write-redelm|write-dataset)\.ts$/, /\/src\/node\/(csv-workers|text-workers|worker-pool|worker-start|table|open-parquet)\.ts$/];

test('`parquetry convert x.csv y.parquet` and `x.jsonl y.parquet` load the text reader and the Parquet writer, not the reader, the tables, the text outputs or the other input\'s reader', () => {
  const inputs = textInputs();
  const csv = loads('csv-parquet', ['src/cli/main.ts', 'convert', inputs.csv, join(dir, 'csv.parquet'), '-q']);
  assert.ok(csv.some((m) => m.endsWith('/src/convert/csv-parallel.ts')) && csv.some((m) => m.endsWith('/src/parquet/write/writer-core.ts')), 'the recorder saw the CSV read and the Parquet written');
  assertNone(csv, [...TEXT_IN_UNNEEDED, /\/src\/convert\/json-columns\.ts$/]);
  const jsonl = loads('jsonl-parquet', ['src/cli/main.ts', 'convert', inputs.jsonl, join(dir, 'jsonl.parquet'), '-q']);
  assert.ok(jsonl.some((m) => m.endsWith('/src/convert/json-columns.ts')) && jsonl.some((m) => m.endsWith('/src/parquet/write/writer-core.ts')), 'the recorder saw the JSON Lines read and the Parquet written');
  assertNone(jsonl, [...TEXT_IN_UNNEEDED, /\/src\/convert\/(read-csv|csv-parallel|csv-blocks|csv-block-read|csv-byte-scan|csv-tokenizer)\.ts$/]);
});

/** Whether a built module defines `name` (esbuild writes a class as `var Name = class _Name`; the CLI's bundle keeps names). */
function defines(text: string, name: string): boolean {
  return new RegExp(`(?:function\\*?\\s*${name}\\s*\\(|class\\s+${name}\\b|var\\s+${name}\\s*=\\s*class\\b)`).test(text);
}

/**
 * The built CLI (npm run build first): what its chunks put in each convert
 * job. A chunk holds the modules the same import() targets reach, so a job
 * loads more than its modules where its modules share a chunk with others;
 * through the hub (the library's lazily imported modules in one chunk), a
 * Parquet to CSV job loaded 1.77 MB of JavaScript in 154 files
 * (BENCHMARKS.md, "Startup").
 */
test('the built CLI\'s convert jobs load no hub, and each none of the other direction\'s code', () => {
  const cli = 'dist/cli/main.js';
  assert.ok(existsSync(cli), `${cli} is not built (npm run build first)`);
  const inputs = textInputs();
  // The root's ParquetWriter is a handle whose open() loads the writer (WriterCore): every command loads the handle.
  const jobs = [
    { name: 'parquet-csv', args: ['examples/fixtures/sample.parquet', join(dir, 'built.csv')], runs: ['ParquetReader', 'parquetText', 'textOutput', 'keyValuesOf'], not: ['WriterCore', 'parquetOutput', 'parallelCsv', 'CsvShaper', 'readJsonLinesColumns'] },
    { name: 'parquet-jsonl', args: ['examples/fixtures/sample.parquet', join(dir, 'built.jsonl')], runs: ['ParquetReader', 'textOutput'], not: ['WriterCore', 'parquetOutput', 'parallelCsv', 'CsvShaper', 'readJsonLinesColumns'] },
    // A text input's parts are one chunk (scripts/bundle.mjs, CLI_GROUPS): the CSV and JSON readers come together. The
    // portable root's modules, ParquetReader among them, are one chunk every command loads (lazyHub's reachRoot).
    { name: 'csv-parquet', args: [inputs.csv, join(dir, 'built-csv.parquet')], runs: ['WriterCore', 'parquetOutput', 'parallelCsv'], not: ['parquetText', 'textOutput', 'keyValuesOf'] },
    { name: 'jsonl-parquet', args: [inputs.jsonl, join(dir, 'built-jsonl.parquet')], runs: ['WriterCore', 'parquetOutput', 'readJsonLinesColumns'], not: ['parquetText', 'textOutput', 'keyValuesOf'] },
  ];
  for (const job of jobs) {
    const files = loads(`built-${job.name}`, [cli, 'convert', ...job.args, '-q'], true).filter((m) => m.startsWith('file:') && m.includes('/dist/'));
    assert.deepEqual(files.filter((f) => /\/cli-hub-[^/]+\.js$/.test(f)), [], `${job.name}: the hub was loaded`);
    const texts = files.map((f) => readFileSync(new URL(f), 'utf8'));
    for (const name of job.runs) assert.ok(texts.some((t) => defines(t, name)), `${job.name}: ${name} was not seen loaded (renamed? this test's names need updating)`);
    assert.deepEqual(job.not.filter((name) => texts.some((t) => defines(t, name))), [], `${job.name} loaded code it does not run`);
  }
});
