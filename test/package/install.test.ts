/**
 * The packed tarball installed as a user installs it: into a fresh folder,
 * with `--ignore-scripts` (no build, no compiler). Node imports every entry
 * point of package.json's `exports`, and a small TypeScript app per entry
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
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// @ts-expect-error: a JavaScript module without declarations
import { ROOT } from '../../scripts/size-check.mjs';
import { SPECIFIERS } from '../docs/exports.js';

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
function run(cmd: string, args: string[], cwd: string): { ok: boolean; out: string } {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout: 300_000 });
  return { ok: r.status === 0, out: `${r.stdout}${r.stderr}` };
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
  const installed = run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline', tgz], app);
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

/** Writes one app file per entry point, then runs tsc over them; tsc's output, '' when they check. */
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
  // Rows typed by the schema, through the root.
  writeFileSync(join(app, 'typed.ts'), `import { defineSchema, field, ParquetReader, type InferRow } from 'parquetry';
const schema = defineSchema({ id: field.int64().required(), name: field.string() });
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
  return run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', app], app).out;
}

for (const mode of ['node16', 'bundler'] as const) {
  for (const arrow of [true, false]) {
    test(`a TypeScript app per entry point type-checks (strict, skipLibCheck false, ${mode === 'node16' ? 'Node: module node16' : 'browser: moduleResolution bundler'}, ${arrow ? 'with' : 'without'} apache-arrow)`, { timeout: 300_000 }, (t) => {
      if (skip) return t.skip(skip);
      assert.equal(typeCheck(join(dir, 'app'), mode, arrow), '');
    });
  }
}

test('clean up', () => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});
