/**
 * The command-line examples (the `console` blocks) of README.md and of every
 * guide under docs/ (docs/api/ aside, generated), run as shown:
 * each `$ parquetry …` line (with `\` continuations) in a folder holding the
 * repository's examples/, apache/parquet-testing and ancestors/ (the shared corpora), and
 * its output (stdout and stderr, as a terminal shows them) compared with the
 * lines printed under it. A `…` line ends what is compared: the output
 * goes on. Run times in the convert report are not compared. Commands run
 * in this process through the CLI's `main` (a hundred times cheaper than a
 * process each); one sh would do more than split into words runs in sh.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Readable, Writable } from 'node:stream';
import { main } from '../../src/cli/program.js';

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

/** A command as a terminal runs it, `parquetry` being the CLI from source; its status and output (stdout and stderr, interleaved). */
function runInShell(command: string): Promise<{ status: number | null; output: string }> {
  const loader = pathToFileURL(resolve('node_modules/tsx/dist/loader.mjs')).href;
  const child = spawn('sh', ['-c', `parquetry() { "$NODE" --import "$LOADER" "$MAIN" "$@"; }\n${command} 2>&1`], {
    cwd: dir, env: { ...process.env, NODE: process.execPath, LOADER: loader, MAIN: resolve('src/cli/main.ts') },
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => (output += s));
  child.stderr.setEncoding('utf8').on('data', (s: string) => (output += s));
  return new Promise((done, fail) => {
    child.on('error', fail);
    child.on('close', (status) => done({ status, output }));
  });
}

/**
 * `command`'s words as sh splits them (blanks, '…' and "…" quotes), or
 * undefined when sh would do more than split it (a pipe, a redirection, a
 * variable, a glob): such a command runs in a real shell.
 */
function words(command: string): string[] | undefined {
  const out: string[] = [];
  for (const [, dq, sq, bare] of command.matchAll(/"([^"$`\\]*)"|'([^']*)'|(\S+)/g)) {
    if (bare !== undefined && /["'$`\\|&;<>()*?[\]{}~#]/.test(bare)) return undefined;
    out.push(dq ?? sq ?? bare!);
  }
  return out;
}

/**
 * Runs `command` as sh would, in this process where it can: a chain of
 * `parquetry` calls joined by `&&`, each through `main` with the example's
 * folder as the working directory (process-wide: examples run one at a time).
 */
async function run(command: string): Promise<{ status: number | null; output: string }> {
  const calls = command.split(' && ').map(words);
  if (calls.some((w) => w === undefined || w[0] !== 'parquetry')) return runInShell(command);
  const chunks: Buffer[] = [];
  // Both streams into one, as a terminal shows them.
  const terminal = new Writable({ write(chunk: Buffer, _encoding, done) { chunks.push(Buffer.from(chunk)); done(); } });
  const io = { stdout: terminal, stderr: terminal, stdin: Readable.from([]), env: process.env };
  const home = process.cwd();
  process.chdir(dir);
  let status = 0;
  try {
    for (const w of calls) if ((status = await main(w!.slice(1), io)) !== 0) break;
  } finally {
    process.chdir(home);
  }
  return { status, output: Buffer.concat(chunks).toString('utf8') };
}

// A page's examples run in order (later ones read files earlier ones wrote), and
// the pages one at a time: the working directory is the process's.
test('every command-line example prints what its page shows', async (t) => {
  for (const page of pages) {
    const all = examples(readFileSync(page, 'utf8'));
    if (all.length === 0) continue;
    await t.test(page, async () => {
      for (const ex of all) {
        assert.match(ex.command, /^parquetry /);
        const r = await run(ex.command);
        assert.equal(r.status, 0, `${page}: ${ex.command}\n${r.output}`);
        const got = r.output.replace(/\n$/, '').split('\n').map(noTime);
        const want = ex.expected.map(noTime);
        assert.deepEqual(ex.more ? got.slice(0, want.length) : got, want, `${page}: ${ex.command}`);
      }
    });
  }
});
