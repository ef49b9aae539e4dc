/**
 * The reading commands open FILE as `openTable` does: CSV, TSV, JSON Lines
 * and JSON print as tables (the values the text holds), with --where and
 * --columns; the format is told by the content before the name, for
 * `convert` too; options a format cannot honour are refused, never ignored.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { serveRanges } from '../reader/range-server.js';
import { ok, run } from './run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'parquetry-table-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const SAMPLE = join('examples', 'fixtures', 'sample.parquet');

test('cat, head, schema and meta read CSV, TSV, JSON Lines and JSON', async () => {
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
    assert.equal(await ok('cat', path, '--json'), want, name);
  }
  // The other commands and options on one of them (each run spawns the CLI).
  const csv = join(dir, 'x.csv');
  assert.equal(await ok('cat', csv, '--json', '--where', "score < 2 OR name = 'c'", '--columns', 'name,id'),
    [JSON.stringify({ id: 2, name: 'c' }), JSON.stringify({ id: 3, name: 'd,e' })].join('\n') + '\n');
  assert.match(await ok('head', csv, '-n', '1'), /^id\s+name\s+score\n[- ]+\n1\s+a b\s+2\.5\n$/);
  assert.equal(await ok('schema', join(dir, 'x.jsonl')), 'message schema {\n  optional int64 id;\n  optional byte_array name (STRING);\n  optional double score;\n}\n');
  assert.equal(await ok('meta', join(dir, 'x.json'), '--json'), JSON.stringify({ format: 'json', numRows: 3, columns: 3 }, null, 2) + '\n');
  // A checksum option on text, which has none: refused, naming it.
  const r = await run('cat', join(dir, 'x.csv'), '--no-verify-checksums');
  assert.equal(r.code, 1);
  assert.match(r.err, /^parquetry: verifyChecksums is not supported for csv tables/);
});

test('content before name: a Parquet file named .csv is read as Parquet, by cat and by convert', async () => {
  const disguised = join(dir, 'parquet.csv');
  copyFileSync(SAMPLE, disguised);
  assert.equal(await ok('cat', disguised, '--json'), await ok('cat', SAMPLE, '--json'));
  const out = join(dir, 'back.jsonl');
  await ok('convert', disguised, out, '-q');
  assert.equal(await ok('cat', out, '--json'), await ok('cat', SAMPLE, '--json'));
});

test('schema, meta, cat and head open every format the same from a URL as from its path (each FILE opened once, by openTable)', async () => {
  const jsonl = join(dir, 'u.jsonl');
  writeFileSync(jsonl, '{"id":1,"s":"a"}\n{"id":2,"s":null}\n');
  const files = [
    SAMPLE, jsonl,
    join('..', 'shared', 'trevni-corpus', 'avro_multiblock_deflate.trv'),
    join('..', 'shared', 'ancestors', 'redelm', 'multi_rowgroup_gzip.redelm'),
  ];
  const server = await serveRanges((path) => {
    const file = files.find((f) => `/${basename(f)}` === path);
    return file === undefined ? undefined : readFileSync(file);
  });
  try {
    for (const file of files) {
      const url = `${server.base}/${basename(file)}`;
      for (const args of [['schema'], ['meta', '--json'], ['cat', '--json', '--limit', '3'], ['head', '-n', '2']]) {
        // Parquet's meta names the file it read.
        const remote = (await ok(args[0]!, url, ...args.slice(1))).replaceAll(url, 'FILE');
        assert.equal(remote, (await ok(args[0]!, file, ...args.slice(1))).replaceAll(file, 'FILE'), `${args.join(' ')} ${basename(file)}`);
      }
    }
  } finally {
    await server.close();
  }
});

test('schema of a dataset reads one footer, as the dataset opens: a bad later file does not stop it (meta and cat read every file, and say which is bad)', async () => {
  const ds = join(dir, 'ds');
  const { mkdirSync } = await import('node:fs');
  mkdirSync(ds);
  copyFileSync(SAMPLE, join(ds, 'a.parquet'));
  writeFileSync(join(ds, 'b.parquet'), 'PAR1 not a footer PAR1');
  assert.match(await ok('schema', ds), /^message schema \{\n(.*\n)*  optional byte_array fruit \(UTF8\);\n/);
  for (const command of ['meta', 'cat']) {
    const r = await run(command, ds);
    assert.equal(r.code, 1, command);
    assert.match(r.err, /b\.parquet/, command);
  }
});
