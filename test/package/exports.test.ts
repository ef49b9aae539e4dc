/**
 * The package as the tools users' bundlers and TypeScript setups are judged
 * by see it (publint; @arethetypeswrong/cli with the node16 profile, where
 * the one allowed answer is that CommonJS gets the ESM build through
 * require(esm)), and CommonJS as README "Install" states it: require()
 * loads the package on the Node versions package.json's engines allow.
 * Like size.test.ts, it needs the build.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { publint } from 'publint';
import ts from 'typescript';
// @ts-expect-error: a JavaScript module without declarations
import { ROOT, SAMPLE } from '../../scripts/size-check.mjs';
import { openParquet } from '../../src/node/index.js';
import { SPECIFIERS } from '../docs/exports.js';
import { typeErrors } from './type-errors.js';

let dir = '';
/** The packed tarball, or why there is none (the tests that need it skip with that message). */
let tarball: { path: string } | { skip: string };
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'parquetry-pack-'));
  const packed = spawnSync('npm', ['pack', '--ignore-scripts', '--pack-destination', dir], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  const tgz = readdirSync(dir).find((f) => f.endsWith('.tgz'));
  tarball = packed.status === 0 && tgz ? { path: join(dir, tgz) } : { skip: `npm pack failed: ${(packed.stderr ?? '').slice(-300)}` };
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('publint finds nothing to report in the packed tarball', async (t) => {
  if ('skip' in tarball) return t.skip(tarball.skip);
  const { messages } = await publint({ pack: { tarball: new Uint8Array(readFileSync(tarball.path)).buffer }, level: 'suggestion' });
  assert.deepEqual(messages, []);
});

test('@arethetypeswrong/cli (node16 profile) finds no problem in any entry point but CommonJS getting ESM', { timeout: 120_000 }, (t) => {
  if ('skip' in tarball) return t.skip(tarball.skip);
  const bin = join(ROOT, 'node_modules', '@arethetypeswrong', 'cli', 'dist', 'index.js');
  const r = spawnSync(process.execPath, [bin, tarball.path, '--profile', 'node16', '--ignore-rules', 'cjs-resolves-to-esm', '--format', 'json'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  const { analysis } = JSON.parse(r.stdout) as { analysis: { entrypoints: Record<string, unknown> } };
  assert.deepEqual(Object.keys(analysis.entrypoints).sort(), [...SPECIFIERS.keys()].map((s) => (s === 'parquetry' ? '.' : `./${s.slice('parquetry/'.length)}`)).sort());
});

test('require() loads the package from CommonJS and reads a file, on the Node versions engines allows', async () => {
  const { engines } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  assert.equal(engines.node, '^20.19.0 || >=22.12.0', 'the versions whose require() loads ES modules');
  const script = `require('parquetry').openParquet(${JSON.stringify(SAMPLE)}).then((r) => r.readRows()).then((rows) => console.log(JSON.stringify(rows.map((r) => r.id.toString()))));`;
  // In the package's folder, 'parquetry' resolves to the package itself, through its exports.
  const r = spawnSync(process.execPath, ['--input-type=commonjs', '-e', script], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const reader = await openParquet(SAMPLE);
  const expected = (await reader.readRows()).map((row) => String(row.id));
  await reader.close();
  assert.deepEqual(JSON.parse(r.stdout), expected);
});

/** `check(dir)` in a new project folder whose node_modules holds this package (a link) and whose package.json makes .ts files ES modules; the folder is removed after. */
function inConsumer(check: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'parquetry-types-'));
  try {
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(ROOT, join(dir, 'node_modules', 'parquetry'));
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }');
    check(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('types follow the export condition: a browser (bundler) build does not see the Node-only functions, a Node build does', { timeout: 120_000 }, () => {
  inConsumer((dir) => {
    writeFileSync(join(dir, 'app.ts'), "import { ParquetReader, openParquet, fileSink } from 'parquetry';\nexport const used = [ParquetReader, openParquet, fileSink];\n");
    const tsc = (options: object) => {
      const config = { compilerOptions: { target: 'es2022', strict: true, noEmit: true, skipLibCheck: true, types: [], ...options }, files: ['app.ts'] };
      writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(config));
      return typeErrors(dir);
    };
    assert.equal(tsc({ module: 'node16', moduleResolution: 'node16', typeRoots: [join(ROOT, 'node_modules', '@types')], types: ['node'] }), '');
    const errors = tsc({ module: 'preserve', moduleResolution: 'bundler' });
    assert.deepEqual([...errors.matchAll(/has no exported member '(\w+)'/g)].map((m) => m[1]), ['openParquet', 'fileSink'], errors);
  });
});

test('a Node project without the DOM lib (as @tsconfig/node20 sets it up) type-checks every entry point with skipLibCheck false', { timeout: 120_000 }, () => {
  inConsumer((dir) => {
    const specifiers = [...SPECIFIERS.keys()];
    writeFileSync(join(dir, 'app.ts'), specifiers.map((s, i) => `import * as m${i} from '${s}';\n`).join('') + `export const used = [${specifiers.map((_, i) => `m${i}`).join(', ')}];\n`);
    // Node's globals from @types/node alone: TextDecoder, say, is a value there and no type.
    const config = { compilerOptions: { target: 'es2022', lib: ['es2023'], module: 'node16', moduleResolution: 'node16', strict: true, noEmit: true, skipLibCheck: false, typeRoots: [join(ROOT, 'node_modules', '@types')], types: ['node'] }, files: ['app.ts'] };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(config));
    assert.equal(typeErrors(dir), '');
  });
});

test('a library that exports a schema from defineSchema builds its declarations (no TS2742: every type its row type names is exported)', { timeout: 120_000 }, () => {
  inConsumer((dir) => {
    writeFileSync(join(dir, 'app.ts'), `import { defineSchema, field as f } from 'parquetry';
export const schema = defineSchema({
  b: f.boolean(), i32: f.int32(), i64: f.int64().required(), i8: f.int8(), i16: f.int16(), u8: f.uint8(), u16: f.uint16(), u32: f.uint32(), u64: f.uint64(), int: f.integer(16),
  fl: f.float(), d: f.double(), h: f.float16(), i96: f.int96(), bin: f.binary(), fx: f.fixed(4), s: f.string(), e: f.enum(), j: f.json(), bs: f.bson(), u: f.uuid(),
  dec: f.decimal(9, 2), day: f.date(), t: f.time(), ts: f.timestamp(), iv: f.interval(), n: f.null(), g: f.geometry(), gg: f.geography(), v: f.variant(),
  st: f.struct({ a: f.int64(), b: f.binary() }), l: f.list(f.int32()), m: f.map(f.string(), f.interval()),
});
`);
    const config = { compilerOptions: { target: 'es2022', module: 'node16', moduleResolution: 'node16', strict: true, declaration: true, emitDeclarationOnly: true, outDir: 'out', skipLibCheck: true, typeRoots: [join(ROOT, 'node_modules', '@types')], types: ['node'] }, files: ['app.ts'] };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(config));
    const config2 = ts.getParsedCommandLineOfConfigFile(join(dir, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!;
    const program = ts.createProgram({ rootNames: config2.fileNames, options: config2.options });
    const { diagnostics } = program.emit();
    const all = [...ts.getPreEmitDiagnostics(program), ...diagnostics];
    assert.equal(ts.formatDiagnostics(all, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => dir, getNewLine: () => '\n' }), '');
  });
});

test('every entry point gives its own types under each condition, beside the JavaScript it resolves to', () => {
  const { exports } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, Record<string, { types?: string; default?: string }>> };
  const problems: string[] = [];
  for (const [subpath, conditions] of Object.entries(exports)) {
    // node first: a bundler that matches no condition but default must not pick the Node declarations.
    if (Object.keys(conditions).join() !== 'node,default') problems.push(`${subpath}: conditions ${Object.keys(conditions).join()}`);
    for (const [condition, target] of Object.entries(conditions)) {
      // types first in each condition, as TypeScript reads the first match.
      if (Object.keys(target).join() !== 'types,default') problems.push(`${subpath} ${condition}: keys ${Object.keys(target).join()}`);
      if (target.types !== target.default?.replace(/\.js$/, '.d.ts')) problems.push(`${subpath} ${condition}: types ${target.types} for ${target.default}`);
    }
  }
  assert.deepEqual(problems, []);
  // The two conditions differ where Node adds path functions: a subpath's two declarations are two files.
  assert.ok(Object.values(exports).every((c) => c.node!.types !== c.default!.types));
});
