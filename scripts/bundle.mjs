// Bundles, after tsc, the two entry points a process starts from: the Node
// entry point (dist/node/index.js, what `import 'parquetry'` loads in Node)
// and the CLI (dist/cli/main.js). Unbundled, a footer-only read loaded about
// a hundred modules, and resolving, reading and compiling each one was most
// of its time (BENCHMARKS.md, "Startup"). Each is rewritten in place, from
// tsc's output, with source maps that lead back to src/. What is imported
// lazily (codecs, the CLI's command modules) stays in chunks of its own,
// loaded when used; packages stay external. The two are bundled apart: the
// chunks they would share split the library into more modules to load.
// dist/index.js (the portable entry point, for browser bundlers) and the
// .d.ts files stay as tsc wrote them.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';

const dist = new URL('../dist/', import.meta.url).pathname;
rmSync(`${dist}chunks`, { recursive: true, force: true });
for (const [entry, prefix] of [['node/index.js', 'node'], ['cli/main.js', 'cli']]) {
  await build({
    entryPoints: [`${dist}${entry}`],
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
    sourcemap: true,
    logLevel: 'warning',
  });
}
