/**
 * A closed stdout (`parquetry ... | head -1`) ends every command quietly:
 * status 0 and nothing on stderr. Each command runs as a child whose stdout
 * is a pipe the test closes after the first line (a binary output: after
 * its first bytes, since its first LF byte may come near its end, when the
 * command may have written everything); every output here is far larger
 * than a pipe holds (64 KiB), so the command is still writing when the pipe
 * closes and its next write fails with EPIPE.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TrevniWriter } from '../../src/node/entries/trevni.js';
import { fileSink, writeParquet } from '../../src/node/index.js';
import { CLI } from './bin.js';

/** Runs the CLI, reads its stdout up to the first newline (`binary`: its first bytes), then closes the pipe; resolves when it exits. */
function headOne(args: string[], binary = false): Promise<{ code: number | null; signal: NodeJS.Signals | null; first: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (s: string) => {
      out += s;
      if (binary || out.includes('\n')) child.stdout.destroy();
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (s: string) => (err += s));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, first: binary ? out : out.slice(0, out.indexOf('\n')), err }));
  });
}

// Long names make every listing long: a schema, meta, pages, the rows.
const COLUMNS = 400;
const name = (i: number) => `${'c'.repeat(3000)}${String(i).padStart(3, '0')}`;
let wide: string;
let tall: string;
let wideTrevni: string;
let tallTrevni: string;

async function writeTrevni(path: string, names: string[], rows: Record<string, number>[]): Promise<void> {
  const w = await TrevniWriter.open(await fileSink(path), names.map((n) => ({ name: n, type: 'int' as const })));
  for (const r of rows) await w.write(r);
  await w.close();
}

before(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'parquetry-epipe-'));
  const rows = Array.from({ length: 4 }, (_, r) => Object.fromEntries(Array.from({ length: COLUMNS }, (_, i) => [name(i), r * COLUMNS + i])));
  wide = join(dir, 'wide.parquet');
  await writeParquet(wide, rows, { pageRowLimit: 1 });
  wideTrevni = join(dir, 'wide.trv');
  await writeTrevni(wideTrevni, Array.from({ length: COLUMNS }, (_, i) => name(i)), rows);
  // Tall: many short rows for head, many row groups (each with a bloom filter) for bloom-filter.
  tall = join(dir, 'tall.parquet');
  const ids = Array.from({ length: 100_000 }, (_, id) => ({ id }));
  await writeParquet(tall, ids, { rowGroupRows: 5, bloomFilters: { id: true } });
  tallTrevni = join(dir, 'tall.trv');
  await writeTrevni(tallTrevni, ['id'], ids);
});

const commands: [string, () => string[]][] = [
  ['schema', () => ['schema', wide]],
  ['meta', () => ['meta', wide]],
  ['meta --json', () => ['meta', wide, '--json']],
  ['cat', () => ['cat', wide]],
  ['cat --json', () => ['cat', wide, '--json']],
  ['head', () => ['head', tall, '-n', '100000']],
  ['pages', () => ['pages', wide]],
  ['column-index', () => ['column-index', wide]],
  ['bloom-filter', () => ['bloom-filter', tall, '--column', 'id', '--value', '7']],
  ['convert to JSON Lines on stdout', () => ['convert', wide, '-', '--to', 'jsonl']],
  ['convert to Parquet on stdout', () => ['convert', wide, '-', '--to', 'parquet']],
  ['convert to Trevni on stdout', () => ['convert', wide, '-', '--to', 'trevni']],
  ['schema of a Trevni file', () => ['schema', wideTrevni]],
  ['meta of a Trevni file', () => ['meta', wideTrevni]],
  ['cat of a Trevni file', () => ['cat', wideTrevni, '--json']],
  ['head of a Trevni file', () => ['head', tallTrevni, '-n', '100000']],
  ['convert from a Trevni file on stdout', () => ['convert', wideTrevni, '-', '--to', 'csv']],
];

describe('a closed stdout ends each command quietly', () => {
  for (const [what, args] of commands) {
    test(what, { timeout: 120_000 }, async () => {
      const a = args();
      const to = a.indexOf('--to');
      // CSV's first LF ends the header, 1.2 MB of the 400 long names: as near the end as a binary output's.
      const r = await headOne(a, to >= 0 && ['parquet', 'trevni', 'csv'].includes(a[to + 1]!));
      assert.notEqual(r.first, '', 'the command printed a first line');
      assert.equal(r.err, '');
      assert.equal(r.signal, null);
      assert.equal(r.code, 0);
    });
  }
});
