/**
 * The packed tarball installed as a user installs it: into a fresh folder,
 * with `--ignore-scripts` and a PATH that holds only node (no build, no
 * compiler, no Python). Node imports every entry point of package.json's
 * `exports` (and CommonJS requires the root), every codec writes and reads
 * back, with the optional native modules and without them, and a small TypeScript app per entry
 * point type-checks under `strict` and `skipLibCheck: false`, as Node
 * (`module: node16`, the `node` condition) and as a browser bundle
 * (`moduleResolution: bundler`, the portable condition), with and without
 * the optional peer apache-arrow. Like size.test.ts, it needs the build;
 * when `npm pack` or the install cannot run here (no registry, say), the
 * tests skip and say why.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
// @ts-expect-error: a JavaScript module without declarations
import { ROOT } from '../../scripts/size-check.mjs';
import { SPECIFIERS } from '../docs/exports.js';
import { typeErrors } from './type-errors.js';

/** Per entry point: names both conditions export, and those only the `node` condition adds. */
const USES: Record<string, { both: string[]; node: string[] }> = {
  parquetry: { both: ['openTable', 'ParquetReader', 'ParquetWriter', 'writeRecords', 'defineSchema', 'field', 'BufferSink', 'CorruptFileError'], node: ['openParquet', 'openDataset', 'openWriter', 'writeParquet', 'fileSink'] },
  'parquetry/trevni': { both: ['TrevniReader', 'TrevniWriter', 'openTrevni', 'readAvro', 'checkTrevni', 'recoverTrevni'], node: [] },
  'parquetry/redelm': { both: ['RedElmReader', 'RedElmWriter', 'redElmSummary'], node: ['openRedElm'] },
  'parquetry/dataset': { both: ['openDataset', 'Dataset', 'summarize', 'writeDatasetTo', 's3DatasetFileSystem'], node: ['writeDataset', 'writeSummaryFiles', 'nodeFileSystem'] },
  'parquetry/convert': { both: ['convert', 'readCsv', 'readJsonLines'], node: [] },
  'parquetry/recover': { both: ['salvage', 'checkParquet', 'recoverParquet', 'MISSING'], node: [] },
  'parquetry/inspect': { both: ['footerJson', 'checkStatistics', 'columnSizes', 'canonicalRow'], node: [] },
  'parquetry/arrow': { both: ['schemaFromArrow'], node: [] },
};

let dir = '';
let skip: string | false = false;

/** Runs a command; a failure is returned, not thrown. */
function run(cmd: string, args: string[], cwd: string, env?: NodeJS.ProcessEnv): { ok: boolean; out: string } {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout: 300_000, ...(env ? { env } : {}) });
  return { ok: r.status === 0, out: `${r.stdout}${r.stderr}` };
}

/** npm's own script, found through PATH as the shell would, so it can run under a PATH that holds node alone. */
function npmCli(): string | undefined {
  for (const d of (process.env.PATH ?? '').split(delimiter)) {
    if (d && existsSync(join(d, 'npm'))) return realpathSync(join(d, 'npm'));
  }
  return undefined;
}

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'parquetry-install-'));
  const packed = run('npm', ['pack', '--ignore-scripts', '--pack-destination', dir], ROOT);
  if (!packed.ok) {
    skip = `npm pack failed: ${packed.out.slice(-300)}`;
    return;
  }
  const tgz = join(dir, readdirSync(dir).find((f) => f.endsWith('.tgz'))!);
  const app = join(dir, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  // The install sees a PATH with node alone: no cc, make or python to build anything with.
  const cli = npmCli();
  if (!cli) {
    skip = 'npm not found on PATH';
    return;
  }
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  symlinkSync(process.execPath, join(bin, 'node'));
  const installed = run(process.execPath, [cli, 'install', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline', tgz], app, { ...process.env, PATH: bin });
  if (!installed.ok) skip = `npm install of the tarball failed (no registry here?): ${installed.out.slice(-300)}`;
});

test('the package is covered: every entry point of exports has its uses listed here', () => {
  assert.deepEqual([...SPECIFIERS.keys()].sort(), Object.keys(USES).sort());
});

test('installed with --ignore-scripts, Node imports every entry point and finds its exports', (t) => {
  if (skip) return t.skip(skip);
  const app = join(dir, 'app');
  const script = Object.entries(USES).map(([specifier, { both, node }], i) =>
    `const m${i} = await import(${JSON.stringify(specifier)});\nfor (const n of ${JSON.stringify([...both, ...node])}) if (m${i}[n] === undefined) missing.push(${JSON.stringify(specifier)} + ': ' + n);`).join('\n');
  writeFileSync(join(app, 'imports.mjs'), `const missing = [];\n${script}\nconsole.log(JSON.stringify(missing));\n`);
  const r = run(process.execPath, ['imports.mjs'], app);
  assert.ok(r.ok, r.out);
  assert.deepEqual(JSON.parse(r.out.trim().split('\n').pop()!), []);
});

const CODECS = ['UNCOMPRESSED', 'SNAPPY', 'GZIP', 'BROTLI', 'LZ4', 'LZ4_RAW', 'ZSTD'];

/**
 * Per codec, the installed package writes records with that codec and reads
 * them back; prints what differs (a codec written as another counts too).
 * The records are generated in the script and compared with what was read.
 */
const CODEC_SCRIPT = `import { openParquet, writeParquet } from 'parquetry';
const records = Array.from({ length: 3000 }, (_, i) => ({ id: BigInt(i), name: 'name-' + (i % 37), score: i / 8, tags: i % 5 ? ['t' + (i % 3), 'u'] : null }));
const problems = [];
for (const codec of ${JSON.stringify(CODECS)}) {
  try {
    const path = 'codec-' + codec + '.parquet';
    const meta = await writeParquet(path, records, { codec });
    const written = meta.rowGroups.flatMap((g) => g.columns.map((c) => c.metaData.codec));
    if (written.some((c) => c !== codec)) problems.push(codec + ': written as ' + written.join(','));
    const reader = await openParquet(path);
    const rows = await reader.readRows();
    await reader.close();
    const json = (v) => JSON.stringify(v, (_, x) => (typeof x === 'bigint' ? x.toString() : x));
    if (json(rows) !== json(records)) problems.push(codec + ': the rows read back differ');
  } catch (e) {
    problems.push(codec + ': ' + e.message);
  }
}
console.log(JSON.stringify(problems));
`;

/** Runs the codec round trip in the app; the codecs that failed, with why. */
function codecProblems(app: string): string[] {
  writeFileSync(join(app, 'codecs.mjs'), CODEC_SCRIPT);
  const r = run(process.execPath, ['codecs.mjs'], app);
  assert.ok(r.ok, r.out);
  return JSON.parse(r.out.trim().split('\n').pop()!) as string[];
}

test('installed with --ignore-scripts, every codec writes and reads back', { timeout: 120_000 }, (t) => {
  if (skip) return t.skip(skip);
  assert.deepEqual(codecProblems(join(dir, 'app')), []);
});

test('installed with --ignore-scripts, CommonJS requires the root (require(esm))', (t) => {
  if (skip) return t.skip(skip);
  const r = run(process.execPath, ['--input-type=commonjs', '-e', "const p = require('parquetry'); console.log(typeof p.openParquet, typeof p.openTable)"], join(dir, 'app'));
  assert.ok(r.ok, r.out);
  assert.equal(r.out.trim().split('\n').pop(), 'function function');
});

/** Writes one app file per entry point, then type-checks them as `tsc -p` does; its output, '' when they check. */
function typeCheck(app: string, mode: 'node16' | 'bundler', arrow: boolean): string {
  const arrowDir = join(app, 'node_modules', 'apache-arrow');
  rmSync(arrowDir, { recursive: true, force: true });
  if (arrow) symlinkSync(join(ROOT, 'node_modules', 'apache-arrow'), arrowDir);
  const files = Object.entries(USES).map(([specifier, { both, node }], i) => {
    const names = mode === 'node16' ? [...both, ...node] : both;
    const file = `use${i}.ts`;
    writeFileSync(join(app, file), `import { ${names.join(', ')} } from '${specifier}';\nexport const used${i} = [${names.join(', ')}];\n`);
    return file;
  });
  // Rows and records typed by the schema, through the root.
  writeFileSync(join(app, 'typed.ts'), `import { BufferSink, defineSchema, field, ParquetReader, ParquetWriter, type InferRow } from 'parquetry';
const schema = defineSchema({ id: field.int64().required(), name: field.string(), attrs: field.map(field.string(), field.int32()) });
export async function write(): Promise<Uint8Array> {
  const sink = new BufferSink();
  const w = await ParquetWriter.open(sink, schema);
  await w.write({ id: 1n, name: 'a', attrs: new Map([['k', 1]]) });
  // @ts-expect-error: the schema has no such column
  await w.write({ id: 2n, nme: 'b' });
  await w.close();
  return sink.bytes();
}
export async function names(bytes: Uint8Array): Promise<(string | null | undefined)[]> {
  const reader = await ParquetReader.open<InferRow<typeof schema>>(bytes);
  const out: (string | null | undefined)[] = [];
  for await (const row of reader.rows()) {
    out.push(row.name);
    // @ts-expect-error: the schema has no such column
    out.push(row.nme);
  }
  return out;
}
`);
  files.push('typed.ts');
  const options = mode === 'node16'
    ? { module: 'node16', moduleResolution: 'node16', types: ['node'], typeRoots: [join(ROOT, 'node_modules', '@types')] }
    : { module: 'preserve', moduleResolution: 'bundler', types: [], lib: ['es2022', 'dom'] };
  writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({ compilerOptions: { target: 'es2022', strict: true, skipLibCheck: false, noEmit: true, ...options }, files }));
  return typeErrors(app);
}

for (const mode of ['node16', 'bundler'] as const) {
  for (const arrow of [true, false]) {
    test(`a TypeScript app per entry point type-checks (strict, skipLibCheck false, ${mode === 'node16' ? 'Node: module node16' : 'browser: moduleResolution bundler'}, ${arrow ? 'with' : 'without'} apache-arrow)`, { timeout: 300_000 }, (t) => {
      if (skip) return t.skip(skip);
      assert.equal(typeCheck(join(dir, 'app'), mode, arrow), '');
    });
  }
}

test('a CommonJS TypeScript file type-checks its require of the package under module nodenext; node16 refuses it with TS1479, as README "Install" says', { timeout: 300_000 }, (t) => {
  if (skip) return t.skip(skip);
  const cjs = join(dir, 'app', 'cjs');
  mkdirSync(cjs, { recursive: true });
  writeFileSync(join(cjs, 'package.json'), '{ "type": "commonjs" }');
  writeFileSync(join(cjs, 'app.ts'), "import { openParquet } from 'parquetry';\nexport const open = openParquet;\n");
  const tsc = (module: string) => {
    writeFileSync(join(cjs, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module, moduleResolution: module, target: 'es2022', strict: true, skipLibCheck: true, noEmit: true, types: ['node'], typeRoots: [join(ROOT, 'node_modules', '@types')] }, files: ['app.ts'] }));
    return typeErrors(cjs);
  };
  assert.equal(tsc('nodenext'), '');
  assert.match(tsc('node16'), /app\.ts\(1,\d+\): error TS1479/);
});

// Last of the tests on this install: it removes the optional native modules.
test('without the optional native modules (a platform with no prebuilt binary), every codec still writes and reads back', { timeout: 120_000 }, (t) => {
  if (skip) return t.skip(skip);
  const modules = join(dir, 'app', 'node_modules');
  for (const native of ['snappy', '@napi-rs', 'zstd-napi']) rmSync(join(modules, native), { recursive: true, force: true });
  assert.deepEqual(codecProblems(join(dir, 'app')), []);
});

test('clean up', () => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});
