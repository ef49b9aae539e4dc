/**
 * The reading commands open FILE as `openTable` does: CSV, TSV, JSON Lines
 * and JSON print as tables (the values the text holds), with --where and
 * --columns; the format is told by the content before the name, for
 * `convert` too; options a format cannot honour are refused, never ignored.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ok, run } from './run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'parquetry-table-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const SAMPLE = join('examples', 'fixtures', 'sample.parquet');

test('cat, head, schema and meta read CSV, TSV, JSON Lines and JSON', () => {
  const rows = [[1, 'a b', 2.5], [2, 'c', null], [3, 'd,e', -1]] as const;
  const files = {
    'x.csv': 'id,name,score\n' + rows.map(([i, n, s]) => `${i},${n.includes(',') ? `"${n}"` : n},${s ?? ''}`).join('\n') + '\n',
    'x.tsv': 'id\tname\tscore\n' + rows.map(([i, n, s]) => `${i}\t${n}\t${s ?? ''}`).join('\n') + '\n',
    'x.jsonl': rows.map(([id, name, score]) => JSON.stringify({ id, name, score })).join('\n') + '\n',
    'x.json': JSON.stringify(rows.map(([id, name, score]) => ({ id, name, score }))),
  };
  const want = rows.map(([id, name, score]) => JSON.stringify({ id, name, score })).join('\n') + '\n';
  for (const [name, text] of Object.entries(files)) {
    const path = join(dir, name);
    writeFileSync(path, text);
    assert.equal(ok('cat', path, '--json'), want, name);
  }
  // The other commands and options on one of them (each run spawns the CLI).
  const csv = join(dir, 'x.csv');
  assert.equal(ok('cat', csv, '--json', '--where', "score < 2 OR name = 'c'", '--columns', 'name,id'),
    [JSON.stringify({ id: 2, name: 'c' }), JSON.stringify({ id: 3, name: 'd,e' })].join('\n') + '\n');
  assert.match(ok('head', csv, '-n', '1'), /^id\s+name\s+score\n[- ]+\n1\s+a b\s+2\.5\n$/);
  assert.equal(ok('schema', join(dir, 'x.jsonl')), 'message schema {\n  optional int64 id;\n  optional byte_array name (STRING);\n  optional double score;\n}\n');
  assert.equal(ok('meta', join(dir, 'x.json'), '--json'), JSON.stringify({ format: 'json', numRows: 3, columns: 3 }, null, 2) + '\n');
  // A checksum option on text, which has none: refused, naming it.
  const r = run('cat', join(dir, 'x.csv'), '--no-verify-checksums');
  assert.equal(r.code, 1);
  assert.match(r.err, /^parquetry: verifyChecksums is not supported for csv tables/);
});

test('content before name: a Parquet file named .csv is read as Parquet, by cat and by convert', () => {
  const disguised = join(dir, 'parquet.csv');
  copyFileSync(SAMPLE, disguised);
  assert.equal(ok('cat', disguised, '--json'), ok('cat', SAMPLE, '--json'));
  const out = join(dir, 'back.jsonl');
  ok('convert', disguised, out, '-q');
  assert.equal(ok('cat', out, '--json'), ok('cat', SAMPLE, '--json'));
});
