/** The `parquetry` command, run as a user runs it (a child process), on files other tools wrote. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CORPUS = '../shared/corpus';

function run(...args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

test('cat --json prints exactly the canonical rows', () => {
  const r = run('cat', `${CORPUS}/parquet-testing/data/nested_maps.snappy.parquet`, '--json');
  assert.equal(r.code, 0, r.err);
  assert.equal(r.out, readFileSync(`${CORPUS}/expected/parquet-testing/data/nested_maps.snappy.parquet.jsonl`, 'utf8'));
});

test('cat and head show shredded variants with temporal values (the human output reads temporal values as ISO text)', () => {
  const dir = `${CORPUS}/parquet-testing/shredded_variant`;
  for (const [c, text] of [['018', '2024-11-07'], ['021', '1957-11-07T12:33:54.123456Z'], ['034', '1957-11-07T12:33:54.123456789Z']] as const) {
    for (const cmd of ['cat', 'head']) {
      const r = run(cmd, `${dir}/case-${c}.parquet`);
      assert.equal(r.code, 0, `${cmd} case-${c}: ${r.err}`);
      assert.ok(r.out.includes(cmd === 'cat' ? `var = ${text}\n` : ` ${text}\n`), r.out);
    }
  }
});

test('cat --json with --columns, --offset and --limit', () => {
  const expected = readFileSync(`${CORPUS}/expected/parquet-testing/data/alltypes_plain.parquet.jsonl`, 'utf8')
    .trim().split('\n').slice(2, 5).map((l) => {
      const o = JSON.parse(l);
      return JSON.stringify({ id: o.id, string_col: o.string_col });
    });
  const r = run('cat', `${CORPUS}/parquet-testing/data/alltypes_plain.parquet`, '--columns', 'id,string_col', '--offset', '2', '--limit', '3', '--json');
  assert.equal(r.code, 0, r.err);
  assert.deepEqual(r.out.trim().split('\n'), expected);
});

test('schema prints parquet message syntax', () => {
  const r = run('schema', 'examples/fixtures/sample.parquet');
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^message duckdb_schema \{/);
  assert.match(r.out, /optional int32 discount \(DECIMAL\(9,2\)\);/);
  assert.match(r.out, /optional group attrs \(MAP\) \{\n\s+repeated group key_value \{/);
});

test('meta shows row groups, codecs and decoded statistics; --json is JSON', () => {
  const text = run('meta', 'examples/fixtures/sample.parquet');
  assert.equal(text.code, 0, text.err);
  assert.match(text.out, /rows:\s+20/);
  assert.match(text.out, /id: INT64 SNAPPY/);
  assert.match(text.out, /min 1, max 20/);
  const json = JSON.parse(run('meta', 'examples/fixtures/sample.parquet', '--json').out);
  assert.equal(json.numRows, 20);
  assert.equal(json.rowGroups[0].columns[0].statistics.max, '20');
});

test('head prints a table of the first rows', () => {
  const r = run('head', 'examples/fixtures/sample.parquet', '-n', '3');
  assert.equal(r.code, 0, r.err);
  const lines = r.out.trim().split('\n');
  assert.equal(lines.length, 5); // header, rule, 3 rows
  assert.match(lines[0]!, /^id\s+fruit\s+price/);
  assert.match(lines[2]!, /^1\s+banana\s+1\.25\s+7\.00/);
});

test('errors are one line on stderr with exit status 1', () => {
  const missing = run('cat', 'no-such-file.parquet');
  assert.equal(missing.code, 1);
  assert.equal(missing.err, 'parquetry: cannot read no-such-file.parquet: no such file\n');
  const corrupt = run('cat', `${CORPUS}/parquet-testing/bad_data/ARROW-GH-41321.parquet`);
  assert.equal(corrupt.code, 1);
  assert.match(corrupt.err, /^parquetry: .*\(file .*ARROW-GH-41321\.parquet, offset \d+, row group 0, column \w+, page \d+\)\n$/);
  const usage = run('cat', 'x.parquet', '--limit', 'ten');
  assert.equal(usage.code, 1);
  assert.equal(usage.err, "parquetry: option '--limit <n>' argument 'ten' is invalid: must be a non-negative whole number (see 'parquetry cat --help')\n");
});

test('Trevni files are detected by their magic: schema, meta, cat --json, head', () => {
  const tiny = '../shared/trevni-corpus/tiny.trv';
  // The values the corpus README decodes byte by byte from tiny.trv (x: 1,-2,300; s: ["a","bc"],[],["é"]; n: -1,64,0).
  const cat = run('cat', tiny, '--json');
  assert.equal(cat.code, 0, cat.err);
  assert.equal(cat.out, '{"x":1,"s":[{"$value":"a","n":-1},{"$value":"bc","n":64}]}\n{"x":-2,"s":[]}\n{"x":300,"s":[{"$value":"é","n":0}]}\n');
  assert.match(run('schema', tiny).out, /^x: int\ns: string\[\]\n  n: int\n$/);
  assert.equal(JSON.parse(run('meta', tiny, '--json').out).numRows, 3);
  assert.match(run('head', tiny, '-n', '1').out, /^x\s+s\n/);
});

test('cat and head quote a string that reads as null or hides characters; other strings stay bare', () => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'convert', '-', '-', '--from', 'jsonl', '--to', 'parquet'], {
    input: ['{"s":"null"}', '{"s":null}', '{"s":"two\\nlines"}', '{"s":" padded "}', '{"s":"plain text"}'].join('\n'),
  });
  assert.equal(r.status, 0, String(r.stderr));
  const file = join(mkdtempSync(join(tmpdir(), 'parquetry-render-')), 'r.parquet');
  writeFileSync(file, r.stdout);
  const cat = run('cat', file);
  assert.equal(cat.code, 0, cat.err);
  assert.deepEqual(cat.out.trim().split('\n'), ['s = "null"', '', 's = null', '', 's = "two\\nlines"', '', 's = " padded "', '', 's = plain text']);
  const head = run('head', file);
  assert.deepEqual(head.out.trim().split('\n').slice(2).map((l) => l.trimEnd()), ['"null"', 'null', '"two\\nlines"', '" padded "', 'plain text']);
});
