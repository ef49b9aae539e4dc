/** The `parquetry` command, run as a user runs it (a child process), on files other tools wrote. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run, runWith } from './run-cli.js';

const CORPUS = '../shared/corpus';


test('cat --json prints exactly the canonical rows', async () => {
  const r = await run('cat', `${CORPUS}/parquet-testing/data/nested_maps.snappy.parquet`, '--json');
  assert.equal(r.code, 0, r.err);
  assert.equal(r.out, readFileSync(`${CORPUS}/expected/parquet-testing/data/nested_maps.snappy.parquet.jsonl`, 'utf8'));
});

test('cat and head show shredded variants with temporal values (the human output reads temporal values as ISO text)', async () => {
  const dir = `${CORPUS}/parquet-testing/shredded_variant`;
  for (const [c, text] of [['018', '2024-11-07'], ['021', '1957-11-07T12:33:54.123456Z'], ['034', '1957-11-07T12:33:54.123456789Z']] as const) {
    for (const cmd of ['cat', 'head']) {
      const r = await run(cmd, `${dir}/case-${c}.parquet`);
      assert.equal(r.code, 0, `${cmd} case-${c}: ${r.err}`);
      assert.ok(r.out.includes(cmd === 'cat' ? `var = ${text}\n` : ` ${text}\n`), r.out);
    }
  }
});

test('cat --json with --columns, --offset and --limit', async () => {
  const expected = readFileSync(`${CORPUS}/expected/parquet-testing/data/alltypes_plain.parquet.jsonl`, 'utf8')
    .trim().split('\n').slice(2, 5).map((l) => {
      const o = JSON.parse(l);
      return JSON.stringify({ id: o.id, string_col: o.string_col });
    });
  const r = await run('cat', `${CORPUS}/parquet-testing/data/alltypes_plain.parquet`, '--columns', 'id,string_col', '--offset', '2', '--limit', '3', '--json');
  assert.equal(r.code, 0, r.err);
  assert.deepEqual(r.out.trim().split('\n'), expected);
});

test('schema prints parquet message syntax', async () => {
  const r = await run('schema', 'examples/fixtures/sample.parquet');
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^message duckdb_schema \{/);
  assert.match(r.out, /optional int32 discount \(DECIMAL\(9,2\)\);/);
  assert.match(r.out, /optional group attrs \(MAP\) \{\n\s+repeated group key_value \{/);
});

test('meta shows row groups, codecs and decoded statistics; --json is JSON', async () => {
  const text = await run('meta', 'examples/fixtures/sample.parquet');
  assert.equal(text.code, 0, text.err);
  assert.match(text.out, /rows:\s+20/);
  assert.match(text.out, /id: INT64 SNAPPY/);
  assert.match(text.out, /min 1, max 20/);
  const json = JSON.parse((await run('meta', 'examples/fixtures/sample.parquet', '--json')).out);
  assert.equal(json.numRows, 20);
  assert.equal(json.rowGroups[0].columns[0].statistics.max, '20');
});

test('head prints a table of the first rows', async () => {
  const r = await run('head', 'examples/fixtures/sample.parquet', '-n', '3');
  assert.equal(r.code, 0, r.err);
  const lines = r.out.trim().split('\n');
  assert.equal(lines.length, 5); // header, rule, 3 rows
  assert.match(lines[0]!, /^id\s+fruit\s+price/);
  assert.match(lines[2]!, /^1\s+banana\s+1\.25\s+7\.00/);
});

test('errors are one line on stderr with exit status 1', async () => {
  const missing = await run('cat', 'no-such-file.parquet');
  assert.equal(missing.code, 1);
  assert.equal(missing.err, 'parquetry: cannot read no-such-file.parquet: no such file\n');
  const corrupt = await run('cat', `${CORPUS}/parquet-testing/bad_data/ARROW-GH-41321.parquet`);
  assert.equal(corrupt.code, 1);
  assert.match(corrupt.err, /^parquetry: .*\(file .*ARROW-GH-41321\.parquet, offset \d+, row group 0, column \w+, page \d+\)\n$/);
  const usage = await run('cat', 'x.parquet', '--limit', 'ten');
  assert.equal(usage.code, 1);
  assert.equal(usage.err, "parquetry: option '--limit <n>' argument 'ten' is invalid: must be a non-negative whole number (see 'parquetry cat --help')\n");
});

test('Trevni files are detected by their magic: schema, meta, cat --json, head', async () => {
  const tiny = '../shared/trevni-corpus/tiny.trv';
  // The values the corpus README decodes byte by byte from tiny.trv (x: 1,-2,300; s: ["a","bc"],[],["é"]; n: -1,64,0).
  const cat = await run('cat', tiny, '--json');
  assert.equal(cat.code, 0, cat.err);
  assert.equal(cat.out, '{"x":1,"s":[{"$value":"a","n":-1},{"$value":"bc","n":64}]}\n{"x":-2,"s":[]}\n{"x":300,"s":[{"$value":"é","n":0}]}\n');
  assert.match((await run('schema', tiny)).out, /^x: int\ns: string\[\]\n  n: int\n$/);
  assert.equal(JSON.parse((await run('meta', tiny, '--json')).out).numRows, 3);
  assert.match((await run('head', tiny, '-n', '1')).out, /^x\s+s\n/);
});

test('cat and head quote a string that reads as null or hides characters; other strings stay bare', async () => {
  const r = await runWith(['convert', '-', '-', '--from', 'jsonl', '--to', 'parquet'], {
    input: ['{"s":"null"}', '{"s":null}', '{"s":"two\\nlines"}', '{"s":" padded "}', '{"s":"plain text"}'].join('\n'),
  });
  assert.equal(r.code, 0, r.err);
  const file = join(mkdtempSync(join(tmpdir(), 'parquetry-render-')), 'r.parquet');
  writeFileSync(file, r.outBytes);
  const cat = await run('cat', file);
  assert.equal(cat.code, 0, cat.err);
  assert.deepEqual(cat.out.trim().split('\n'), ['s = "null"', '', 's = null', '', 's = "two\\nlines"', '', 's = " padded "', '', 's = plain text']);
  const head = await run('head', file);
  assert.deepEqual(head.out.trim().split('\n').slice(2).map((l) => l.trimEnd()), ['"null"', 'null', '"two\\nlines"', '" padded "', 'plain text']);
});

test('meta and summary count one as one: "1 row", "1 row group", "1 part"', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'parquetry-one-'));
  try {
    const { writeDataset } = await import('../../src/node/entries/dataset.js');
    await writeDataset(join(dir, 'ds'), [{ id: 1, k: 'a' }, { id: 2, k: 'b' }], { partitionBy: ['k'] });
    const meta = await run('meta', join(dir, 'ds'));
    assert.equal(meta.code, 0, meta.err);
    assert.match(meta.out, /k=a\/part-0\.parquet: 1 row, 1 row group, \d+ B$/m);
    const file = await run('meta', join(dir, 'ds', 'k=a', 'part-0.parquet'));
    assert.match(file.out, /^row group 0: 1 row, /m);
    const summary = await run('summary', join(dir, 'ds', 'k=a'));
    assert.equal(summary.out, `wrote ${join(dir, 'ds', 'k=a', '_common_metadata')} and ${join(dir, 'ds', 'k=a', '_metadata')}: 1 part, 1 row group, 1 row\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a Trevni column asked for by its Avro field name alone names the columns it may mean (cat and head show columns as stored, "id/long")', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'parquetry-trv-'));
  try {
    const trv = join(dir, 'data.trv');
    const w = await run('convert', 'examples/fixtures/sample.parquet', trv, '--columns', 'id,fruit', '-q');
    assert.equal(w.code, 0, w.err);
    const r = await run('head', trv, '--columns', 'id');
    assert.equal(r.code, 1);
    assert.equal(r.err, 'parquetry: no Trevni column "id" (did you mean "id/long"?)\n');
    const none = await run('head', trv, '--columns', 'price');
    assert.equal(none.err, 'parquetry: no Trevni column "price" (its columns: "id/long", "fruit/string")\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
