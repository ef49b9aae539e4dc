/**
 * The commands that read datasets, on a `_metadata` that names a part
 * missing, a row group twice, or a file_path leading outside: exit status
 * 1 and one `parquetry:` line naming the part or the summary, never rows
 * twice or a file outside. The same summary as a URL is read by the
 * single-file commands, which follow its parts over HTTP through the same
 * guard, requesting nothing outside its folder.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { summarize, summaryFileBytes } from '../../src/node/entries/dataset.js';
import { writeParquet } from '../../src/node/index.js';
import type { FileMetaData } from '../../src/parquet/metadata/index.js';
import { staysUnder, useServer } from '../dataset/http-server.js';
import { run } from './run-cli.js';

let base = '';
let ds = '';
const served = useServer(() => base);
const footers: Record<string, FileMetaData> = {};

before(async () => {
  base = mkdtempSync(join(tmpdir(), 'pq-cli-parts-'));
  ds = join(base, 'ds');
  mkdirSync(ds);
  mkdirSync(join(base, 'outside'));
  footers.a = await writeParquet(join(ds, 'a.parquet'), [{ id: 1n }, { id: 2n }]);
  footers.c = await writeParquet(join(ds, 'c.parquet'), [{ id: 3n }]);
  footers.secret = await writeParquet(join(base, 'outside', 'secret.parquet'), [{ id: 99n }]);
});
after(() => rmSync(base, { recursive: true, force: true }));

function summary(parts: [string, FileMetaData][]): void {
  writeFileSync(join(ds, '_metadata'), summaryFileBytes(summarize(parts.map(([path, metadata]) => ({ path, metadata }))).metadata));
}

/** A failure as the CLI reports one: status 1, one `parquetry:` line matching `what`, no rows. */
function fails(r: { code: number | null; out: string; err: string }, what: RegExp, label: string): void {
  assert.equal(r.code, 1, `${label}: ${r.err}`);
  assert.match(r.err, /^parquetry: [^\n]*\n$/, label);
  assert.match(r.err, what, label);
  assert.doesNotMatch(r.out, /99/, label);
}

const COMMANDS = [['cat', '--json'], ['head', '--json'], ['convert', '--to', 'jsonl']] as const;

test('dataset commands on a summary naming a missing part, a row group twice, or a path outside: status 1, the part or summary named', async () => {
  for (const [parts, what] of [
    [[['a.parquet', footers.a!], ['gone.parquet', footers.c!]], /gone\.parquet: no such file/],
    [[['a.parquet', footers.a!], ['./a.parquet', footers.a!]], /twice.*_metadata/],
    [[['a.parquet', footers.a!], ['%2e%2e/outside/secret.parquet', footers.secret!]], /file_path "%2e%2e\/outside\/secret\.parquet".*_metadata/],
    [[['a.parquet', footers.a!], ['../outside/secret.parquet', footers.secret!]], /leads outside/],
  ] as [[string, FileMetaData][], RegExp][]) {
    summary(parts);
    // Every command on the first case; cat on the others (each run starts a process).
    for (const [cmd, ...opts] of parts[1]![0] === 'gone.parquet' ? COMMANDS : COMMANDS.slice(0, 1)) {
      const args = cmd === 'convert' ? [cmd, ds, join(base, 'out.jsonl'), ...opts] : [cmd, ...opts, ds];
      fails(await run(...args), what, `${args.join(' ')} (${parts.map((p) => p[0])})`);
    }
  }
  // A summary that agrees with its parts reads as ever.
  summary([['a.parquet', footers.a!], ['c.parquet', footers.c!]]);
  assert.deepEqual((await run('cat', '--json', ds)).out.trim().split('\n').map((l) => JSON.parse(l).id), [1, 2, 3]);
});

test('a summary\'s URL: cat, pages and check-stats follow its parts over HTTP, refuse what leads outside, and request nothing there', async () => {
  const url = `${served.origin}/ds/_metadata`;
  summary([['a.parquet', footers.a!], ['c.parquet', footers.c!]]);
  assert.deepEqual((await run('cat', '--json', url)).out.trim().split('\n').map((l) => JSON.parse(l).id), [1, 2, 3]);
  for (const cmd of ['pages', 'check-stats']) assert.equal((await run(cmd, url)).code, 0, cmd);
  for (const [parts, what] of [
    [[['a.parquet', footers.a!], ['gone.parquet', footers.c!]], /gone\.parquet: the server answered 404/],
    [[['a.parquet', footers.a!], ['x/../a.parquet', footers.a!]], /twice/],
    [[['a.parquet', footers.a!], ['%2e%2e/outside/secret.parquet', footers.secret!]], /file_path "%2e%2e\/outside\/secret\.parquet"/],
    [[['a.parquet', footers.a!], ['..%5coutside%5csecret.parquet', footers.secret!]], /file_path "\.\.%5coutside%5csecret\.parquet"/],
    [[['a.parquet', footers.a!], ['..\\outside\\secret.parquet', footers.secret!]], /backslash/],
  ] as [[string, FileMetaData][], RegExp][]) {
    summary(parts);
    served.requested.length = 0;
    const commands = parts[1]![0].startsWith('%2e') ? ['cat', 'pages', 'check-stats'] : ['cat'];
    for (const cmd of commands) fails(await run(cmd, url), what, `${cmd} (${parts.map((p) => p[0])})`);
    for (const r of served.requested) assert.ok(staysUnder('/ds/', r), `requested ${r}`);
  }
});
