// Builds the viewer page (viewer/) into viewer/dist: index.html and its
// scripts, bundled from the portable library as docs/browsers.md
// says (ESM, code splitting: a codec's chunk loads when a file needs
// it). `parquetry view` serves this directory; any static host can too.
// The embedded wasm modules are not bundled again: the page imports the
// package's own dist/codecs/wasm/ (so a static host serves the package
// folder, and `parquetry view` serves that directory too).
import { build } from 'esbuild';
import { sourceAliases } from './source-aliases.mjs';
import { copyFileSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'viewer', 'dist');
// Built beside it, then swapped in whole: a test file building the page while
// another's `parquetry view` serves it (the suite runs files side by side)
// never finds it missing or half built.
const staging = `${out}.${process.pid}.tmp`;
rmSync(staging, { recursive: true, force: true });
mkdirSync(staging, { recursive: true });
await build({
  entryPoints: [join(root, 'viewer', 'src', 'main.ts')],
  bundle: true,
  format: 'esm',
  splitting: true,
  minify: true,
  outdir: join(staging, 'js'),
  alias: sourceAliases(root),
  // The page never converts to Arrow; bundled, Arrow JS (the library's
  // optional peer, imported only by toArrow) was a quarter of the page.
  external: ['apache-arrow'],
  plugins: [{
    name: 'shared-wasm',
    setup(b) {
      b.onResolve({ filter: /\/wasm\/[^/]+\.js$/ }, (args) =>
        args.resolveDir === join(root, 'src', 'codecs') ? { path: `../../..${args.path.replace(/^\./, '/dist/codecs')}`, external: true } : undefined);
    },
  }],
  logLevel: 'warning',
});
copyFileSync(join(root, 'viewer', 'index.html'), join(staging, 'index.html'));
const old = `${out}.${process.pid}.old.tmp`;
// Another build may swap its page in between the two renames: then that one is moved aside too.
for (;;) {
  try {
    renameSync(out, old);
  } catch (e) {
    if (e.code !== 'ENOENT') throw e;
  }
  try {
    renameSync(staging, out);
    break;
  } catch (e) {
    if (e.code !== 'ENOTEMPTY' && e.code !== 'EEXIST') throw e;
  } finally {
    rmSync(old, { recursive: true, force: true });
  }
}
