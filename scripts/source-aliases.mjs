// esbuild aliases that stand for `npm install parquetry` in this checkout:
// each specifier of package.json's `exports` ('parquetry', 'parquetry/trevni',
// ...) to the TypeScript source of its portable entry point, for bundles
// built from source (the viewer, the browser tests' app).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** `{ 'parquetry': '<root>/src/index.ts', 'parquetry/trevni': '<root>/src/entries/trevni.ts', ... }` */
export function sourceAliases(root) {
  const { name, exports } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  return Object.fromEntries(Object.entries(exports).map(([key, conditions]) => [
    key === '.' ? name : `${name}/${key.slice(2)}`,
    join(root, conditions.default.default.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts')),
  ]));
}
