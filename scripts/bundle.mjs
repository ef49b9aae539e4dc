// Bundles, after tsc, the entry points a process starts from: the Node
// entry points (dist/node/index.js, what `import 'parquetry'` loads in Node,
// and dist/node/entries/, the subpaths' `node` condition) and the CLI
// (dist/cli/main.js). Unbundled, a footer-only read loaded about
// a hundred modules, and resolving, reading and compiling each one was most
// of its time (docs/benchmarks-history.md, "Startup"). Each is rewritten in place, from
// tsc's output, with source maps that lead back to src/. What is imported
// lazily (codecs, the CLI's command modules) stays in chunks of its own,
// loaded when used; packages stay external, and so do the embedded wasm
// modules (dist/codecs/wasm/), which both bundles import from there, so the
// package holds each once. No source maps: the library's Node bundle is
// unminified and reads as the source does, and maps carrying the sources
// were half the package (README, "Package size"). The CLI's bundle, a second
// copy of the library that users do not step through, has its whitespace
// minified: 653 kB less installed (docs/decisions/package-size.md). The two are bundled apart: the
// chunks they would share split the library into more modules to load.
// dist/index.js and dist/entries/ (the portable entry points, for browser
// bundlers) and the .d.ts files stay as tsc wrote them.
import { build } from 'esbuild';
import { readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const dist = new URL('../dist/', import.meta.url).pathname;
rmSync(`${dist}chunks`, { recursive: true, force: true });

/** A relative dynamic import in tsc's output. */
const DYNAMIC = /\bimport\((['"])(\.{1,2}\/[^'"]+)\1\)/g;

/**
 * Library modules imported on first use (`openTable`'s format loaders, the reader's
 * filtering, Arrow and VARIANT parts, the decryptor...) all go into one
 * chunk, the hub, loaded by the first of them a process uses. esbuild cuts
 * a chunk for every set of entry points (each import() target is one) that
 * share modules: with a dozen such targets the code a footer read needs
 * came in 38 files, and loading them cost more than the code it no longer
 * loaded (docs/benchmarks-history.md, "Startup"). Through the hub it is one set.
 * Codecs (the wasm is megabytes), the reader's chunk decoding (which a
 * plain row read needs without the rest) and the writer's machinery (which a
 * plain write needs without the rest) keep chunks of their own, and so does
 * what the CLI imports on first use (its commands, and the library modules
 * they load), and a conversion's parts (convert/: its outputs and text
 * readers; through the hub, a CSV to Parquet job loaded its 1.1 MB): a
 * process needs one or two of them. So do the reader's optional parts
 * (READ_PARTS: a streamed read, `columns()`, filters, VARIANT, decryption):
 * through the hub, `reader.columns()` or a Parquet to CSV job loaded the
 * whole of it, 154 files and 1.77 MB for the CLI's job (74 and 309 kB
 * without; BENCHMARKS.md, "Startup").
 */
const inCli = (path) => path.startsWith(`${dist}cli/`);
const READ_PARTS = /\/parquet\/(streamed-read|filtered-read|lazy-column|filter\/reader-parts|page-encodings|variant\/(index|filter)|crypto\/decryptor|file-path)\.js$/;

function hubbed(importer, path) {
  return !inCli(importer) && !path.startsWith(`${dist}codecs/`) && !path.startsWith(`${dist}convert/`) && path !== `${dist}node/snappy.js` && path !== `${dist}parquet/row-decoding.js` && path !== `${dist}parquet/write/writer-core.js` && !READ_PARTS.test(path);
}

/**
 * The CLI's import() targets that one job loads together, each group one
 * target of its own beside the hub: a text input's parts (pipeline, shape,
 * the CSV and JSON readers, the --type syntax) and the Parquet output (its
 * writer's machinery). Apart, the modules they share with other targets cut
 * them into more chunks: a CSV to Parquet job loaded 84 files; 72 grouped,
 * for 10 kB more (a CSV job loads the JSON readers, a JSON one the CSV's),
 * and 12-15 ms less CPU (BENCHMARKS.md, "Startup"). Table inputs' parts stay
 * apart: row decoding, which `cat` needs without them, is among them, and
 * grouping them saved a Parquet to CSV job nothing measurable.
 */
const CLI_GROUPS = [
  ['text-input', /\/convert\/(pipeline|shape|csv-parallel|read-csv|read-json|json-columns|types)\.js$/],
  ['parquet-output', /\/convert\/write-parquet\.js$|\/parquet\/write\/writer-core\.js$/],
];
const nodeHubOf = (importer, path) => (hubbed(importer, path) ? 'hub' : undefined);
const cliHubOf = (importer, path) => CLI_GROUPS.find(([, files]) => files.test(path))?.[0] ?? nodeHubOf(importer, path);

/** `to` as an import specifier in the module at `from`. */
const specifier = (from, to) => {
  const r = relative(dirname(from), to);
  return JSON.stringify(r.startsWith('.') ? r : `./${r}`);
};
/** The export that makes the module at `file` reach the portable root's modules. */
const reachRoot = (file) => `export { ParquetryError as __reachesRoot } from ${specifier(file, `${dist}index.js`)};\n`;

/**
 * Rewrites the import() of each target `hubOf` names a hub for into an
 * import of that hub, which re-exports it. Each hub and each other
 * import() target but the codecs also re-exports one class from
 * the portable root, as the portable build's do (portableHub, below): every
 * module the root reaches then has the same set of entry points, and is in
 * one chunk with the others a process uses. In the Node bundle a footer-only
 * read loaded 44 files, now 16, a read of rows 52, now 24, for 15 ms less
 * CPU each. In the CLI's, a Parquet to CSV job loaded 74 files, now 48 (the
 * same bytes), and `meta` 63, now 35, for 14-15 ms less CPU each; a CSV to
 * Parquet job 72, now 59, for the same CPU (57 kB more: the reader's
 * modules, in that chunk; BENCHMARKS.md, "Startup").
 */
function lazyHub(hubOf) {
  const files = readdirSync(dist, { recursive: true }).filter((f) => f.endsWith('.js') && !f.startsWith('chunks/')).map((f) => join(dist, f));
  const targets = new Map();
  const own = new Set();
  for (const file of files) {
    for (const [, , rel] of readFileSync(file, 'utf8').matchAll(DYNAMIC)) {
      const path = resolve(dirname(file), rel);
      const hub = hubOf(file, path);
      if (hub && !targets.has(path)) targets.set(path, { hub, name: `m${targets.size}` });
      else if (!hub && !path.startsWith(`${dist}codecs/`)) own.add(path);
    }
  }
  return {
    name: 'lazy-hub',
    setup(b) {
      b.onResolve({ filter: /^parquetry-lazy-hub:/ }, (args) => ({ path: args.path.slice('parquetry-lazy-hub:'.length), namespace: 'lazy-hub' }));
      b.onLoad({ filter: /.*/, namespace: 'lazy-hub' }, (args) => ({
        contents: [...targets].filter(([, t]) => t.hub === args.path).map(([path, t]) => `export * as ${t.name} from ${JSON.stringify(path)};\n`).join('') + reachRoot(`${dist}hub.js`),
        resolveDir: dist,
      }));
      b.onLoad({ filter: /\.js$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        let changed = false;
        let contents = text.replace(DYNAMIC, (whole, _q, rel) => {
          const path = resolve(dirname(args.path), rel);
          const target = targets.get(path);
          if (!target || hubOf(args.path, path) !== target.hub) return whole;
          changed = true;
          return `import("parquetry-lazy-hub:${target.hub}").then((hub) => hub.${target.name})`;
        });
        if (own.has(args.path)) {
          contents += `\n${reachRoot(args.path)}`;
          changed = true;
        }
        return changed ? { contents, loader: 'js', resolveDir: dirname(args.path) } : undefined;
      });
    },
  };
}
/** Imports of dist/codecs/wasm/ stay imports, from every output (all one level below dist/). */
const sharedWasm = {
  name: 'shared-wasm',
  setup(b) {
    b.onResolve({ filter: /\/wasm\/[^/]+\.js$/ }, (args) => {
      const path = resolve(args.resolveDir, args.path);
      return path.startsWith(`${dist}codecs/wasm/`) ? { path: `../codecs/wasm/${path.slice(`${dist}codecs/wasm/`.length)}`, external: true } : undefined;
    });
  },
};
/**
 * Each subpath's Node entry imports the root's first. esbuild cuts a chunk
 * for every set of entry points that share modules: with each subpath
 * reaching its own share of the root's modules, a footer-only read through
 * the root loaded 33 files (14 with this), and their number, not their size,
 * was most of its cost over the lazy wrappers' 11 (BENCHMARKS.md,
 * "Startup"). A Node program importing a subpath loads the root's modules
 * with it, most of which the subpaths use anyway.
 */
const rootFirst = {
  name: 'root-first',
  setup(b) {
    b.onLoad({ filter: /\/dist\/node\/entries\/[^/]+\.js$/ }, (args) => ({ contents: `import "../index.js";\n${readFileSync(args.path, 'utf8')}`, loader: 'js', resolveDir: dirname(args.path) }));
  },
};
/** The Node entry points of package.json's `exports`: the root's and each subpath's, bundled together so they share one copy of each class. */
const nodeEntries = ['node/index.js', ...readdirSync(`${dist}node/entries`).filter((f) => f.endsWith('.js')).map((f) => `node/entries/${f}`)];
// The worker threads' modules (src/node/csv-worker.ts, text-worker.ts, decode-worker.ts) are entries of their own: a worker starts from a file of its own.
// Their code is the Node entry's (the CSV block reader, text-columns.ts): they share that build's chunks rather than carry a copy (96 kB for the CSV worker).
// The hubs' targets are found in tsc's output, before either build: scanned after the Node build, they took in
// that build's chunks, and the CLI's carried a copy of them (1.0 MB of its 2.2).
const hubs = { node: lazyHub(nodeHubOf), cli: lazyHub(cliHubOf) };
for (const [entries, prefix] of [[[...nodeEntries, 'node/csv-worker.js', 'node/text-worker.js', 'node/decode-worker.js'], 'node'], [['cli/main.js'], 'cli']]) {
  await build({
    entryPoints: entries.map((entry) => `${dist}${entry}`),
    outdir: dist,
    outbase: dist,
    allowOverwrite: true,
    bundle: true,
    splitting: true,
    chunkNames: `chunks/${prefix}-[name]-[hash]`,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    plugins: [hubs[prefix], sharedWasm, rootFirst],
    minifyWhitespace: prefix === 'cli',
    logLevel: 'warning',
  });
}

/**
 * The portable entry points' import() targets (tsc's output, which a
 * browser app's bundler reads) get the same treatment, in place: a user's
 * bundler, like ours, cuts a chunk for every set of entry points sharing
 * modules, and each import() target its scan meets is one, even in code it
 * tree-shakes away. With 42 of them, a read by URL loaded 29 chunks, and
 * the lost gzip context and the imports and exports between them were a
 * sixth of its bytes. Rewritten, the library's lazy modules are one target,
 * dist/lazy-hub.js; codecs, row decoding, the writer's machinery and a
 * conversion's parts stay targets of their own, as in the Node bundle.
 * Each of those and the hub then re-exports one class from the root: a
 * re-export, even unused, makes its module reach the root's, so every
 * module the root reaches is reached by the same set of entry points and
 * lands in one chunk (evanw/esbuild#2922: a read loads every module the root
 * reaches that any chunk uses). Only ParquetryError is exported, and it is
 * always in use, so no code is kept that was not. Codecs do not: an app
 * of a subpath alone (Trevni) would load the root's modules with its codec
 * (14.8 kB gzipped with GZIP), for 0.9 kB of a root read's. The
 * reader's own lazy parts (READ_PARTS) keep their targets too: through the
 * hub, a browser read with a limit, a filter, DELTA pages, VARIANT columns
 * or encryption loaded every lazy module, S3 and datasets included (190 kB
 * gzipped for a read with a limit, 46 kB without the hub).
 */
function portableHub() {
  const files = readdirSync(dist, { recursive: true }).filter((f) => f.endsWith('.js') && !/^(chunks|node|cli)\//.test(f)).map((f) => join(dist, f));
  const hub = `${dist}lazy-hub.js`;
  const targets = new Map();
  const own = new Set();
  for (const file of files) {
    for (const [, , rel] of readFileSync(file, 'utf8').matchAll(DYNAMIC)) {
      const path = resolve(dirname(file), rel);
      if (path.startsWith(`${dist}codecs/wasm/`)) continue;
      if (!hubbed(file, path)) own.add(path);
      else if (!targets.has(path)) targets.set(path, `m${targets.size}`);
    }
  }
  writeFileSync(hub, [...targets].map(([path, name]) => `export * as ${name} from ${specifier(hub, path)};\n`).join('') + reachRoot(hub));
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    let out = text.replace(DYNAMIC, (whole, _q, rel) => {
      const name = targets.get(resolve(dirname(file), rel));
      return name ? `import(${specifier(file, hub)}).then((hub) => hub.${name})` : whole;
    });
    if (own.has(file) && !file.startsWith(`${dist}codecs/`)) out += reachRoot(file);
    if (out !== text) writeFileSync(file, out);
  }
}
portableHub();

/** A relative import in emitted JS: static (`from '...'`, `import '...'`) or dynamic. */
const RELATIVE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)(['"])(\.{1,2}\/[^'"]+)\1/g;

/** Every file reached from `roots` through relative imports, each specifier mapped to the file it names. */
function reachable(roots, fileOf) {
  const reached = new Set();
  const queue = roots.map((f) => `${dist}${f}`);
  while (queue.length) {
    const file = queue.pop();
    if (reached.has(file)) continue;
    reached.add(file);
    for (const [, , rel] of readFileSync(file, 'utf8').matchAll(RELATIVE_IMPORT)) queue.push(fileOf(resolve(dirname(file), rel)));
  }
  return reached;
}

/**
 * tsc's modules that neither entry point reaches any more are deleted: the
 * two bundles carry their own copies of the CLI and Node modules, and only
 * the portable entry points (dist/index.js and dist/entries/, for browser
 * bundlers) still import tsc's output. Declarations are kept only where the
 * package's `types` conditions reach them: the CLI's, for one, declare
 * nothing a user can import (33 kB of the installed size).
 */
function pruneUnreachable() {
  const portable = ['index.js', ...readdirSync(`${dist}entries`).filter((f) => f.endsWith('.js')).map((f) => `entries/${f}`)];
  const code = reachable([...portable, ...nodeEntries, 'cli/main.js', 'node/csv-worker.js', 'node/text-worker.js', 'node/decode-worker.js'], (f) => f);
  const types = reachable([...portable, ...nodeEntries].map((f) => f.replace(/\.js$/, '.d.ts')), (f) => f.replace(/\.js$/, '.d.ts'));
  for (const f of readdirSync(dist, { recursive: true })) {
    const file = join(dist, f);
    if ((file.endsWith('.js') && !code.has(file)) || (file.endsWith('.d.ts') && !types.has(file))) unlinkSync(file);
  }
}
pruneUnreachable();
