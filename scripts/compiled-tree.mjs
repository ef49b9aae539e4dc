// The repository as the test suite runs it: a temporary directory where every
// .ts file of the code folders has its JavaScript beside it (esbuild, one call,
// with a source map naming the .ts file), and everything else is a symbolic
// link to the original. So a test's `import '../../src/x.js'`, a path made
// from import.meta.url (a worker's .ts, a fixture, the viewer's dist) and a
// child started with tsx on a .ts file all find what they find in the
// repository. The caller removes the directory (links are removed, not
// followed).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { build } from 'esbuild';
import { sourceAliases } from './source-aliases.mjs';

/** The folders whose .ts files are compiled; the others, and built output (a test may rebuild it), are linked whole. */
const CODE = new Set(['src', 'test', 'scripts', 'bench', 'viewer']);

/** Links `from`'s entries into `to`, recursing into code folders; returns the .ts files met. */
function mirror(from, to, code) {
  const ts = [];
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (entry.name === '.git') continue;
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory() && entry.name !== 'dist' && (code || CODE.has(entry.name))) {
      mkdirSync(target);
      ts.push(...mirror(source, target, true));
      continue;
    }
    symlinkSync(source, target);
    if (code && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) ts.push(source);
  }
  return ts;
}

/** Makes the tree of `root` (default: the working directory) and returns its path. */
export async function compiledTree(root = process.cwd()) {
  const from = resolve(root);
  const to = mkdtempSync(join(tmpdir(), 'parquetry-suite-'));
  const entryPoints = mirror(from, to, false);
  await build({
    entryPoints, outdir: to, outbase: from, format: 'esm', platform: 'node', target: 'node20', sourcemap: 'linked', sourcesContent: false, logLevel: 'warning',
  });
  selfImportsToSource(from, to, entryPoints);
  return to;
}

/**
 * `import 'parquetry'` (and its subpaths) in the compiled files made to name
 * the compiled source, as tsconfig's `paths` make it under tsx: left to the
 * package's `exports`, it would load the build in dist/, a second copy of
 * every module beside the source the same process imports by path (the
 * viewer's model imports both: a registry kept in one copy is empty in the
 * other).
 */
function selfImportsToSource(from, to, sources) {
  const aliases = sourceAliases(from);
  const SELF = /(\bfrom\s*|\bimport\s*\(\s*)"(parquetry(?:\/[a-z-]+)?)"/g;
  for (const source of sources) {
    const out = join(to, relative(from, source)).replace(/\.ts$/, '.js');
    const text = readFileSync(out, 'utf8');
    const rewritten = text.replace(SELF, (whole, lead, specifier) => {
      const target = aliases[specifier];
      if (!target) return whole;
      const path = relative(dirname(out), join(to, relative(from, target)).replace(/\.ts$/, '.js'));
      return `${lead}"${path.startsWith('.') ? path : `./${path}`}"`;
    });
    if (rewritten !== text) writeFileSync(out, rewritten);
  }
}
