// Measures what a user downloads, against the limits below (test/package/
// size.test.ts runs it, so a regression fails the suite), from a built
// checkout (npm run build):
// - the tarball `npm pack` makes, packed;
// - the footprint of installing it: its files plus the runtime
//   dependencies npm would add, as installed in this checkout's node_modules;
// - what a browser app that reads a file by URL through the portable entry
//   point loads: bundled as docs/browsers.md says (esbuild, ESM, code splitting,
//   minified), run, and every chunk it loaded counted, gzipped.
// `node scripts/size-check.mjs` prints the figures and exits 1 if one is over;
// with `--chunks`, each chunk a browser read loads and the modules it holds.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { lstatSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Decimal units, as npm prints them. */
export const LIMITS = { packed: 3_000_000, installed: 12_000_000, browserRead: 40_000 };

/** `npm pack --dry-run`'s report: packed and unpacked bytes, and each file. */
export function tarball(root = ROOT) {
  const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`npm pack failed: ${r.stderr}`);
  const [report] = JSON.parse(r.stdout);
  return { packed: report.size, unpacked: report.unpackedSize, files: report.files.map((f) => f.path) };
}

/** Bytes under `path` as `du -sb` counts them: every file's and directory's apparent size. */
function apparentSize(path) {
  const st = lstatSync(path);
  if (!st.isDirectory()) return st.size;
  let n = st.size;
  for (const name of readdirSync(path)) n += apparentSize(join(path, name));
  return n;
}

/**
 * The runtime dependencies an install of the package adds, found as npm
 * would from its package.json (dependencies and optional ones, those
 * installed here), with their own, transitively: name to bytes.
 */
export function runtimeDependencies(root = ROOT) {
  const found = new Map();
  const visit = (pkgDir) => {
    const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
    for (const name of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) {
      if (found.has(name)) continue;
      const dir = join(root, 'node_modules', name);
      let size;
      try {
        size = apparentSize(dir);
      } catch {
        continue; // an optional dependency not for this platform
      }
      found.set(name, size);
      visit(dir);
    }
  };
  visit(root);
  return found;
}

/** The package's files (and the directories holding them) plus its runtime dependencies. */
export function installedFootprint(files, root = ROOT) {
  const dirs = new Set();
  let n = 0;
  for (const f of files) {
    n += lstatSync(join(root, f)).size;
    for (let d = dirname(f); d !== '.'; d = dirname(d)) dirs.add(d);
  }
  n += (dirs.size + 1) * lstatSync(root).size;
  for (const size of runtimeDependencies(root).values()) n += size;
  return n;
}

/** Logs each module of `dir` that the process loads, into `log`. */
const LOAD_HOOK = `
import { appendFileSync } from 'node:fs';
let dir, log;
export function initialize(data) { ({ dir, log } = data); }
export async function load(url, context, next) {
  if (url.startsWith(dir)) appendFileSync(log, url.slice(dir.length) + '\\n');
  return next(url, context);
}`;

/**
 * Bundles an app that opens a file by URL through dist/index.js and reads
 * every row (or those `rowsOptions`, the source text of `rows()`'s options, asks for), then runs it once per file (in Node: the bundle's code is the
 * browser's, fetch included) against a local HTTP server. For each file:
 * the rows read, each chunk loaded with its gzipped size and the modules it
 * holds, and their total.
 */
export async function browserRead(files, root = ROOT, rowsOptions = '') {
  const work = mkdtempSync(join(tmpdir(), 'parquetry-size-'));
  try {
    const app = join(work, 'app.js');
    writeFileSync(app, `import { ParquetReader } from ${JSON.stringify(join(root, 'dist', 'index.js'))};
const reader = await ParquetReader.open(new URL(process.env.FILE_URL));
let rows = 0;
for await (const _ of reader.rows(${rowsOptions})) rows++;
console.log(rows);
`);
    const out = join(work, 'out');
    const { metafile } = await build({
      entryPoints: [app], bundle: true, splitting: true, format: 'esm', minify: true, platform: 'browser', outdir: out, metafile: true, logLevel: 'error',
    });
    writeFileSync(join(work, 'hook.mjs'), LOAD_HOOK);
    writeFileSync(join(work, 'run.mjs'), `
import { register } from 'node:module';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
const [file, log] = process.argv.slice(2);
register(${JSON.stringify(pathToFileURL(join(work, 'hook.mjs')).href)}, { data: { dir: ${JSON.stringify(pathToFileURL(out).href + '/')}, log } });
const bytes = readFileSync(file);
const server = createServer((req, res) => {
  const m = /^bytes=(\\d+)-(\\d+)$/.exec(req.headers.range ?? '');
  if (!m) return void res.writeHead(200, { 'Content-Length': bytes.length, 'Accept-Ranges': 'bytes' }).end(req.method === 'HEAD' ? undefined : bytes);
  const [start, end] = [Number(m[1]), Math.min(Number(m[2]), bytes.length - 1)];
  res.writeHead(206, { 'Content-Range': \`bytes \${start}-\${end}/\${bytes.length}\`, 'Content-Length': end - start + 1 }).end(bytes.subarray(start, end + 1));
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
process.env.FILE_URL = \`http://127.0.0.1:\${server.address().port}/file.parquet\`;
await import(${JSON.stringify(pathToFileURL(join(out, 'app.js')).href)});
server.close();
`);
    return files.map((file, i) => {
      const log = join(work, `loaded-${i}.txt`);
      writeFileSync(log, '');
      const r = spawnSync(process.execPath, [join(work, 'run.mjs'), file, log], { encoding: 'utf8', timeout: 60_000 });
      if (r.status !== 0) throw new Error(`the bundled app failed on ${file}: ${r.stderr}`);
      const chunks = [...new Set(readFileSync(log, 'utf8').split('\n').filter(Boolean))].map((name) => ({
        name,
        gzipped: gzipSync(readFileSync(join(out, name)), { level: 9 }).length,
        // The metafile names files relative to the working directory.
        inputs: Object.fromEntries(Object.entries(metafile.outputs[relative(process.cwd(), join(out, name))].inputs).map(([input, { bytesInOutput }]) => [input, bytesInOutput])),
      }));
      return { rows: Number(r.stdout.trim()), chunks, total: chunks.reduce((n, c) => n + c.gzipped, 0) };
    });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The codec modules (dist/codecs/NAME.js) a chunk list holds. */
export function codecModules(chunks) {
  const names = new Set();
  for (const c of chunks) for (const i of Object.keys(c.inputs)) {
    const m = /dist\/codecs\/(?:wasm\/)?([^/]+)\.js$/.exec(i);
    if (m) names.add(m[1]);
  }
  return names;
}

export const SAMPLE = join(ROOT, 'examples', 'fixtures', 'sample.parquet');

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const pack = tarball();
  const installed = installedFootprint(pack.files);
  const [read] = await browserRead([SAMPLE]);
  const rows = [
    ['tarball, packed', pack.packed, LIMITS.packed],
    ['installed, with dependencies', installed, LIMITS.installed],
    [`browser read of a SNAPPY file, ${read.chunks.length} chunks gzipped`, read.total, LIMITS.browserRead],
  ];
  for (const [what, n, limit] of rows) console.log(`${n <= limit ? 'ok  ' : 'OVER'} ${what}: ${n.toLocaleString('en')} bytes (limit ${limit.toLocaleString('en')})`);
  const inputs = read.chunks.flatMap((c) => Object.entries(c.inputs)).sort((a, b) => b[1] - a[1]);
  // --chunks: each chunk the read loaded, gzipped, with the modules it holds (minified bytes).
  if (process.argv.includes('--chunks')) {
    for (const c of read.chunks) console.log(`  ${c.name} ${c.gzipped.toLocaleString('en')}: ${Object.entries(c.inputs).sort((a, b) => b[1] - a[1]).map(([m, n]) => `${m.replace(/^.*?dist\//, '').replace(/^.*node_modules\//, '')} ${n}`).join(', ')}`);
  }
  console.log(`browser read: ${read.chunks.map((c) => `${c.name} ${c.gzipped.toLocaleString('en')}`).join(', ')}; biggest modules (minified bytes): ${inputs.slice(0, 25).map(([m, n]) => `${m.replace(/^.*?dist\//, '')} ${n}`).join(', ')}`);
  console.log(`(unpacked ${pack.unpacked.toLocaleString('en')} bytes in ${pack.files.length} files; dependencies: ${[...runtimeDependencies()].map(([k, v]) => `${k} ${v.toLocaleString('en')}`).join(', ')})`);
  process.exitCode = rows.every(([, n, limit]) => n <= limit) ? 0 : 1;
}
