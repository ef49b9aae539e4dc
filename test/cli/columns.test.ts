/** `--columns`: paths split at commas and dots outside double quotes, quoted parts as in `--where`. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseColumnList, parseColumnPath } from '../../src/cli/columns.js';
import { run } from './run-cli.js';

test('plain paths stay text; a quoted part makes the path a list of names', () => {
  assert.deepEqual(parseColumnList('id, address.city ,,tags'), ['id', 'address.city', 'tags']);
  assert.deepEqual(parseColumnList('"a.b",x."y.z"'), [['a.b'], ['x', 'y.z']]);
  assert.deepEqual(parseColumnList('"my, col", "q""t"'), [['my, col'], ['q"t']]);
  assert.deepEqual(parseColumnList('" padded ".x'), [[' padded ', 'x']]);
});

test('unclosed quotes, text after a quoted name and empty names are errors saying so', () => {
  assert.throws(() => parseColumnList('"a.b'), /not closed/);
  assert.throws(() => parseColumnList('"x"y'), /expected a dot after the quoted name/);
  assert.throws(() => parseColumnList('"x"..y'), /empty name/);
  assert.throws(() => parseColumnList('x"y"'), /quote the whole name/);
});


/** A Parquet file converted by the CLI from one JSON line. */
async function fileOf(line: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'parquetry-columns-'));
  const src = join(dir, 'q.jsonl');
  const file = join(dir, 'q.parquet');
  writeFileSync(src, line + '\n');
  assert.equal((await run('convert', src, file)).code, 0);
  return file;
}

test('cat --columns selects columns whose names hold dots, commas and quotes', async () => {
  const file = await fileOf('{"a.b":1,"a":{"b":5},"my, col":3,"q\\"t":4}');
  const cat = async (columns: string) => {
    const r = await run('cat', file, '--columns', columns, '--json');
    return { code: r.code, out: r.out.trim(), err: r.err.trim() };
  };
  assert.deepEqual(await cat('"a".b'), { code: 0, out: '{"a":{"b":5}}', err: '' });
  assert.deepEqual(await cat('"my, col","q""t"'), { code: 0, out: '{"my, col":3,"q\\"t":4}', err: '' });
  assert.deepEqual(await cat('"a.b"'), { code: 0, out: '{"a.b":1}', err: '' });
  const bad = await cat('"a.b');
  assert.equal(bad.code, 1);
  assert.match(bad.err, /^parquetry: .*--columns.*not closed/);
});

test('--column takes one path written as in --columns: a quoted name may hold a dot, an unquoted one is as given', async () => {
  assert.deepEqual(['a.b', '"a.b"', 'x."y.z"', 'my, col', '"q""t"'].map(parseColumnPath), ['a.b', ['a.b'], ['x', 'y.z'], 'my, col', ['q"t']]);
  assert.throws(() => parseColumnPath('"a.b'), /not closed/);
  assert.throws(() => parseColumnPath('"q""t'), /not closed/);
  const file = await fileOf('{"a.b":1,"a":{"b":5}}');
  // The column named "a.b" (holding 1), not the field b of the struct a (holding 5), and the other way round.
  const pageMins = async (...columns: string[]) => (await run('pages', file, ...columns.flatMap((c) => ['--column', c]), '--json')).out.trim().split('\n')
    .map((l) => (JSON.parse(l) as { statistics: { min: string } }).statistics.min);
  assert.deepEqual(await pageMins('"a.b"'), ['1']);
  assert.deepEqual(await pageMins('a.b'), ['5']);
  assert.deepEqual(await pageMins('"a.b"', 'a.b'), ['1', '5']);
  const bad = await run('size-stats', file, '--column', '"a.b');
  assert.equal(bad.code, 1);
  assert.match(bad.err, /^parquetry: .*--column.*not closed/);
});
