/**
 * The node arguments that start the CLI of this tree as a child process, for
 * the tests that need a real one: its JavaScript when the suite runs compiled
 * (scripts/compiled-tree.mjs; a start through tsx costs three times the CPU),
 * src/cli/main.ts through tsx when a test file runs from source.
 */
import { fileURLToPath } from 'node:url';

const compiled = import.meta.url.endsWith('.js');

export const CLI: readonly string[] = compiled
  ? ['--enable-source-maps', fileURLToPath(new URL('../../src/cli/main.js', import.meta.url))]
  : ['--import', 'tsx', 'src/cli/main.ts'];
