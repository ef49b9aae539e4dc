// Runs test files with node's built-in runner, several at a time, on the suite
// compiled to JavaScript once per run (compiled-tree.mjs): through tsx, each
// file's process paid for tsx's start and its loader hooks (0.3 CPU s more
// for a file that does little, 16% more over the files measured both ways:
// docs/development.md). Source maps keep stack traces on the .ts files and lines.
// A script instead of a shell glob: npm runs scripts under sh, which has no `**`.
// Each file runs in its own process (as `node --test` would) so that one file's
// output is printed whole, and its wall time is measured: the slowest files
// are listed at the end with their CPU seconds (children included, on Linux),
// which is how the suite is kept under its time budget. The files known to be
// slowest start first, so that the run does not end on one of them alone.
//
//   node scripts/run-tests.mjs [--group unit|interop|browser] [--list] [files or folders...]
//   TEST_JOBS=n   files run at once (default: the machine's cores)
//
// The groups, defined here only: `browser`, the files under test/browser/
// (Chromium); `interop`, the other files that run another implementation
// (DuckDB, parquet-wasm, hyparquet, parquetjs), directly or through a test
// helper they import; `unit`, the rest. Without --group, every file runs.
import { existsSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { compiledTree } from './compiled-tree.mjs';

function find(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...find(p));
    else if (name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

/** The packages of other implementations a test compares with. */
const OTHER_IMPLEMENTATIONS = /from '(@duckdb\/node-api|parquet-wasm[^']*|hyparquet[^']*|@dsnp\/parquetjs)'/;

/** Whether `file`, or a test helper it imports (at any depth), imports another implementation. */
function usesOtherImplementation(file, seen = new Set()) {
  if (seen.has(file)) return false;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  if (OTHER_IMPLEMENTATIONS.test(text)) return true;
  for (const [, spec] of text.matchAll(/from '(\.{1,2}\/[^']+)'/g)) {
    const helper = resolve(dirname(file), spec).replace(/\.js$/, '.ts');
    if (helper.startsWith(resolve('test')) && existsSync(helper) && usesOtherImplementation(helper, seen)) return true;
  }
  return false;
}

const GROUPS = {
  browser: (f) => f.startsWith(join('test', 'browser') + '/'),
  interop: (f) => !GROUPS.browser(f) && usesOtherImplementation(f),
  unit: (f) => !GROUPS.browser(f) && !GROUPS.interop(f),
};

const args = process.argv.slice(2);
const listOnly = args.includes('--list');
if (listOnly) args.splice(args.indexOf('--list'), 1);
const groupAt = args.indexOf('--group');
const group = groupAt >= 0 ? args.splice(groupAt, 2)[1] : undefined;
if (group !== undefined && !(group in GROUPS)) {
  console.error(`--group: ${group} is not one of ${Object.keys(GROUPS).join(', ')}`);
  process.exit(2);
}
const files = (args.length ? args : ['test']).flatMap((a) => (statSync(a).isDirectory() ? find(a) : [a])).filter((f) => group === undefined || GROUPS[group](f));
if (listOnly) {
  for (const f of files) console.log(f);
  process.exit(0);
}
const jobs = Math.max(1, Number(process.env.TEST_JOBS) || availableParallelism());

/** The slowest files of the last whole runs, longest first (see the summary's list): they start before the rest. */
const SLOW_FIRST = [
  'test/writer/interop.test.ts', 'test/filter/matrix.test.ts', 'test/fuzz/campaign.test.ts', 'test/browser/viewer.test.ts',
  'test/interop/duckdb-read.test.ts', 'test/writer/rewrite.test.ts', 'test/convert/csv-threads.test.ts', 'test/convert/text-columns.test.ts',
  'test/trevni/recover.test.ts', 'test/convert/wide-tables.test.ts', 'test/package/install.test.ts', 'test/filter/sql-matrix.test.ts',
  'test/trevni/writer.test.ts', 'test/cli/convert-trevni.test.ts', 'test/fuzz/shared-repro.test.ts', 'test/trevni/reader.test.ts',
].map((f) => join(...f.split('/')));
const rank = (f) => (SLOW_FIRST.includes(f) ? SLOW_FIRST.indexOf(f) : SLOW_FIRST.length);
files.sort((a, b) => rank(a) - rank(b));

const CPU_REPORT = new URL('./test-cpu.mjs', import.meta.url).href;
const compiled = await compiledTree();
process.on('exit', () => rmSync(compiled, { recursive: true, force: true }));
// An interrupted run removes it too (the files' processes get the terminal's SIGINT themselves).
process.on('SIGINT', () => process.exit(130));
const cpuText = (r) => (r.cpuSeconds === undefined ? '' : `, ${r.cpuSeconds.toFixed(1)} CPU s`);

function runFile(file) {
  const start = performance.now();
  return new Promise((resolve) => {
    const js = join(compiled, relative('.', file).replace(/\.ts$/, '.js'));
    const child = spawn(process.execPath, ['--enable-source-maps', '--import', CPU_REPORT, '--test-reporter=spec', js], {
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
      env: { ...process.env, PARQUETRY_TEST_CPU_FD: '3' },
    });
    const chunks = [];
    let cpu = '';
    child.stdout.on('data', (c) => chunks.push(c));
    child.stderr.on('data', (c) => chunks.push(c));
    child.stdio[3].on('data', (c) => (cpu += c));
    child.on('close', (code, signal) => {
      const cpuSeconds = cpu ? Number(cpu) : undefined;
      resolve({ file, ok: code === 0, code: code ?? signal, seconds: (performance.now() - start) / 1000, cpuSeconds, output: Buffer.concat(chunks) });
    });
  });
}

const started = performance.now();
const results = [];
let next = 0;
async function worker() {
  while (next < files.length) {
    const r = await runFile(files[next++]);
    results.push(r);
    process.stdout.write(`\n▶ ${r.file} (${r.seconds.toFixed(1)} s${cpuText(r)})${r.ok ? '' : ` FAILED (exit ${r.code})`}\n`);
    process.stdout.write(r.output);
  }
}
await Promise.all(Array.from({ length: Math.min(jobs, files.length) }, worker));

const total = (performance.now() - started) / 1000;
const failed = results.filter((r) => !r.ok);
if (files.length > 1) {
  console.log(`\nslowest files:`);
  for (const r of [...results].sort((a, b) => b.seconds - a.seconds).slice(0, 15)) {
    console.log(`  ${r.seconds.toFixed(1).padStart(7)} s ${(r.cpuSeconds === undefined ? '' : `${r.cpuSeconds.toFixed(1)} CPU s`).padStart(12)}  ${r.file}`);
  }
}
const cpuTotal = results.reduce((n, r) => n + (r.cpuSeconds ?? 0), 0);
console.log(`\n${files.length} files, ${files.length - failed.length} passed, ${failed.length} failed, ${total.toFixed(1)} s wall with ${jobs} at once${cpuTotal ? `, ${cpuTotal.toFixed(0)} CPU s` : ''}`);
for (const r of failed) console.log(`  FAILED ${r.file} (exit ${r.code})`);
process.exit(failed.length ? 1 : 0);
