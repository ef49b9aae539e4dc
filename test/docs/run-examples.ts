/**
 * Runs code examples one by one, each in a fresh copy of a folder of
 * fixtures, as its own working directory (a child process of
 * examples-run.test.ts, so what the examples print and leave open stays
 * out of the test's process). Arguments: a JSON file of `{ where, file,
 * writes }` (the top-level fixture names an example writes, left out of its copy),
 * the fixture folder, and where to write the outcomes as JSON.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

const [list, fixtures, out] = process.argv.slice(2) as [string, string, string];
const outcomes: Record<string, { ok: true } | { ok: false; name: string; message: string }> = {};
for (const { where, file, writes } of JSON.parse(readFileSync(list, 'utf8')) as { where: string; file: string; writes: string[] }[]) {
  const dir = mkdtempSync(join(tmpdir(), 'parquetry-example-'));
  cpSync(fixtures, dir, { recursive: true, filter: (from) => !writes.includes(relative(fixtures, from).split(sep)[0]!) });
  process.chdir(dir);
  try {
    await import(pathToFileURL(file).href);
    outcomes[where] = { ok: true };
  } catch (e) {
    outcomes[where] = { ok: false, name: (e as Error).name, message: (e as Error).message };
  }
}
writeFileSync(out, JSON.stringify(outcomes));
// Timers and handles an example left behind do not keep the process.
process.exit(0);
