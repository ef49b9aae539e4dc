/**
 * The node arguments that start a script of this tree as a child process:
 * its JavaScript when the suite runs compiled (scripts/compiled-tree.mjs; a
 * start through tsx costs three times the CPU, and more for a script that
 * imports much of src/), its .ts file through tsx when a test file runs from
 * source. CLI starts the CLI so, for the tests that need a real one.
 */
import { fileURLToPath } from 'node:url';

/**
 * `name`, a .ts file relative to `base` (the caller's import.meta.url), as node arguments: the compiled file beside
 * the compiled caller, or the .ts through tsx beside a caller run from source.
 */
export function scriptArgs(name: string, base: string): string[] {
  const compiled = base.endsWith('.js');
  const path = fileURLToPath(new URL(compiled ? name.replace(/\.ts$/, '.js') : name, base));
  return compiled ? ['--enable-source-maps', path] : ['--import', 'tsx', path];
}

export const CLI: readonly string[] = scriptArgs('../../src/cli/main.ts', import.meta.url);
