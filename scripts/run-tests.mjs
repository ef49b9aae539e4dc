// Runs test files with node's built-in runner through tsx, several at a time.
// A script instead of a shell glob: npm runs scripts under sh, which has no `**`.
// Each file runs in its own process (as `node --test` would) so that one file's
// output is printed whole, and its wall time is measured: the slowest files
// are listed at the end, which is how the suite is kept under its time budget.
//
//   node scripts/run-tests.mjs [--group unit|interop|browser] [--list] [files or folders...]
//   TEST_JOBS=n   files run at once (default: the machine's cores)
//
// The groups, defined here only: `browser`, the files under test/browser/
// (Chromium); `interop`, the other files that run another implementation
// (DuckDB, parquet-wasm, hyparquet, parquetjs), directly or through a test
// helper they import; `unit`, the rest. Without --group, every file runs.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

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

function runFile(file) {
  const start = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--test-reporter=spec', file], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const chunks = [];
    child.stdout.on('data', (c) => chunks.push(c));
    child.stderr.on('data', (c) => chunks.push(c));
    child.on('close', (code, signal) => {
      resolve({ file, ok: code === 0, code: code ?? signal, seconds: (performance.now() - start) / 1000, output: Buffer.concat(chunks) });
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
    process.stdout.write(`\n▶ ${r.file} (${r.seconds.toFixed(1)} s)${r.ok ? '' : ` FAILED (exit ${r.code})`}\n`);
    process.stdout.write(r.output);
  }
}
await Promise.all(Array.from({ length: Math.min(jobs, files.length) }, worker));

const total = (performance.now() - started) / 1000;
const failed = results.filter((r) => !r.ok);
if (files.length > 1) {
  console.log(`\nslowest files:`);
  for (const r of [...results].sort((a, b) => b.seconds - a.seconds).slice(0, 15)) {
    console.log(`  ${r.seconds.toFixed(1).padStart(7)} s  ${r.file}`);
  }
}
console.log(`\n${files.length} files, ${files.length - failed.length} passed, ${failed.length} failed, ${total.toFixed(1)} s wall with ${jobs} at once`);
for (const r of failed) console.log(`  FAILED ${r.file} (exit ${r.code})`);
process.exit(failed.length ? 1 : 0);
