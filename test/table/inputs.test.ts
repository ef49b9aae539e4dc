/**
 * Every input kind `openTable` takes, for every format: a path, an http(s)
 * URL (a string and a URL object), bytes (a Uint8Array and an
 * ArrayBuffer), a Blob and a File, and a source object; a dataset as a
 * directory, a glob, and a list of paths or URLs. Each opens to the same
 * format, numRows and rows as the path does (the path's rows are checked
 * against independent readers in corpora.test.ts and options.test.ts).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { convert } from '../../src/node/entries/convert.js';
import { defineSchema, field, openTable, writeParquet, type OpenTableOptions, type Table, type TableInput } from '../../src/node/index.js';
import { serveRanges, type RangeServer } from '../reader/range-server.js';
import { allRows } from './helpers.js';

const N = 17;
const schema = defineSchema({ id: field.int64().required(), name: field.string(), tags: field.list(field.string().required()) });
const records = Array.from({ length: N }, (_, i) => ({ id: BigInt(i), name: i % 4 === 0 ? null : `n${i}`, tags: i % 3 === 0 ? [] : [`t${i}`] }));

let dir = '';
let server: RangeServer;
/** Each format's file: its path and format. */
const files: { path: string; format: string }[] = [];

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'parquetry-inputs-'));
  const parquet = join(dir, 't.parquet');
  await writeParquet(parquet, records, { schema, rowGroupRows: 6 });
  files.push({ path: parquet, format: 'parquet' });
  for (const [name, options] of [['v2.trv', {}], ['v1.trv', { trevniVersion: 1 }], ['draft.trv', { trevniVersion: 'draft' }], ['t.redelm', {}], ['t.csv', { columns: ['id', 'name'] }], ['t.jsonl', {}], ['t.json', {}]] as const) {
    const path = join(dir, name);
    await convert(parquet, path, options);
    files.push({ path, format: name.endsWith('.trv') ? 'trevni' : name.slice(name.lastIndexOf('.') + 1) });
  }
  mkdirSync(join(dir, 'ds', 'k=1'), { recursive: true });
  mkdirSync(join(dir, 'ds', 'k=2'));
  await writeParquet(join(dir, 'ds', 'k=1', 'a.parquet'), records.slice(0, 9), { schema });
  await writeParquet(join(dir, 'ds', 'k=2', 'b.parquet'), records.slice(9), { schema });
  server = await serveRanges((path) => {
    try {
      return readFileSync(join(dir, decodeURIComponent(path)));
    } catch {
      return undefined;
    }
  });
});

after(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function read(input: TableInput | readonly (string | URL)[], options: OpenTableOptions = {}): Promise<{ format: string; numRows: number; rows: Record<string, unknown>[] }> {
  const table: Table = await openTable(input, options);
  try {
    return { format: table.format, numRows: table.numRows, rows: await allRows(table) };
  } finally {
    await table.close();
  }
}

test('one file of every format opens the same from every input kind', async () => {
  for (const { path, format } of files) {
    const want = await read(path);
    assert.equal(want.format, format, path);
    assert.equal(want.numRows, N, path);
    assert.equal(want.rows.length, N, path);
    const name = basename(path);
    const bytes = new Uint8Array(readFileSync(path));
    const url = `${server.base}/${name}`;
    const kinds: [string, TableInput, OpenTableOptions][] = [
      ['URL string', url, {}],
      ['URL object', new URL(url), {}],
      ['URL with its size', url, { byteLength: bytes.length }],
      ['Uint8Array', bytes, { name }],
      ['ArrayBuffer', bytes.slice().buffer, { name }],
      ['bytes with a format', bytes, format === 'parquet' || format === 'trevni' || format === 'redelm' ? {} : { format: format as 'csv' }],
      ['Blob', new Blob([bytes]), { name }],
      ['File', new File([bytes], name), {}],
      ['source', { byteLength: bytes.length, name, read: async (offset: number, length: number) => bytes.slice(offset, offset + length) }, {}],
    ];
    for (const [kind, input, options] of kinds) assert.deepStrictEqual(await read(input, options), want, `${name} as ${kind}`);
  }
});

test('a dataset opens the same as a directory, a glob, a list of paths and a list of URLs, its partition column included', async () => {
  const want = await read(join(dir, 'ds'));
  assert.equal(want.format, 'dataset');
  assert.equal(want.numRows, N);
  assert.deepEqual(want.rows.map((r) => [r.id, r.k]), records.map((r, i) => [r.id, i < 9 ? 1n : 2n]));
  const paths = ['k=1/a.parquet', 'k=2/b.parquet'];
  for (const [kind, input] of [
    ['glob', join(dir, 'ds', '*', '*.parquet')],
    ['list of paths', paths.map((p) => join(dir, 'ds', p))],
    ['list of URLs', paths.map((p) => new URL(`${server.base}/ds/${p}`))],
    ['list of URL strings', paths.map((p) => `${server.base}/ds/${p}`)],
  ] as const) {
    assert.deepStrictEqual(await read(input), want, kind);
  }
});
