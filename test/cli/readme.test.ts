/**
 * The command-line examples (the `console` blocks) of README.md and of every
 * guide under docs/ (docs/api/ aside, generated), run as shown:
 * each `$ parquetry …` line (with `\` continuations) in a folder holding the
 * repository's examples/, apache/parquet-testing and ancestors/ (the shared corpora), and
 * its output (stdout and stderr, as a terminal shows them) compared with the
 * lines printed under it. A `…` line ends what is compared: the output
 * goes on. Run times in the convert report are not compared.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

interface Example {
  command: string;
  expected: string[];
  /** The output goes on past the expected lines. */
  more: boolean;
}

function examples(readme: string): Example[] {
  const out: Example[] = [];
  for (const block of readme.matchAll(/^```console\n([\s\S]*?)^```$/gm)) {
    const lines = block[1]!.split('\n').slice(0, -1);
    for (let i = 0; i < lines.length;) {
      assert.match(lines[i]!, /^\$ /, `a console block line that is not a command: ${lines[i]}`);
      let command = lines[i++]!.slice(2);
      while (command.endsWith('\\')) command = command.slice(0, -1) + ' ' + lines[i++]!.trim();
      const ex: Example = { command, expected: [], more: false };
      while (i < lines.length && !lines[i]!.startsWith('$ ')) {
        const line = lines[i++]!;
        if (line.trim() === '…') ex.more = true;
        else if (!ex.more) ex.expected.push(line);
      }
      out.push(ex);
    }
  }
  return out;
}

const noTime = (s: string) => s.replace(/\(\d+\.\d s\)$/, '(… s)');

let dir = '';
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'parquetry-readme-'));
  symlinkSync(resolve('examples'), join(dir, 'examples'));
  symlinkSync(resolve('../shared/corpus/parquet-testing'), join(dir, 'parquet-testing'));
  symlinkSync(resolve('../shared/ancestors'), join(dir, 'ancestors'));
});
after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** README.md and the guides, in a fixed order (a page's examples may use files its earlier ones wrote). */
const pages = ['README.md', ...readdirSync('docs', { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.md') && !f.startsWith('api/'))
  .sort()
  .map((f) => join('docs', f))];

test('the pages hold command-line examples', () => {
  const counts = pages.map((page) => examples(readFileSync(page, 'utf8')).length);
  assert.ok(counts.reduce((a, b) => a + b, 0) >= 8, `${counts} examples`);
  assert.ok(counts[0]! >= 1, 'README.md has a console example');
});

for (const page of pages) {
  const all = examples(readFileSync(page, 'utf8'));
  if (all.length === 0) continue;
  test(`every command-line example of ${page} prints what it shows`, () => {
    const loader = pathToFileURL(resolve('node_modules/tsx/dist/loader.mjs')).href;
    const main = resolve('src/cli/main.ts');
    for (const ex of all) {
      assert.match(ex.command, /^parquetry /);
      const r = spawnSync('sh', ['-c', `parquetry() { "$NODE" --import "$LOADER" "$MAIN" "$@"; }\n${ex.command} 2>&1`], {
        cwd: dir, encoding: 'utf8', env: { ...process.env, NODE: process.execPath, LOADER: loader, MAIN: main },
      });
      assert.equal(r.status, 0, `${page}: ${ex.command}\n${r.stdout}${r.stderr}`);
      const got = r.stdout.replace(/\n$/, '').split('\n').map(noTime);
      const want = ex.expected.map(noTime);
      assert.deepEqual(ex.more ? got.slice(0, want.length) : got, want, `${page}: ${ex.command}`);
    }
  });
}
