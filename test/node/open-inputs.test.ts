/**
 * `openTrevni` and `openRedElm` follow `openParquet`'s pattern: the same
 * input kinds (a path, an http(s) URL string, a URL, bytes, a Blob, a
 * source) and the same URL options, each kind reading the same rows.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileSource, openParquet, writeParquet, bufferSource } from '../../src/node/index.js';
import { convert } from '../../src/node/entries/convert.js';
import { openRedElm } from '../../src/node/entries/redelm.js';
import { openTrevni } from '../../src/node/entries/trevni.js';
import { serveRanges, type RangeServer } from '../reader/range-server.js';

const records = Array.from({ length: 300 }, (_, i) => ({ id: i, name: `n${i}`, score: i / 4 }));
const openers = {
  parquet: (input: never, options: object) => openParquet(input, options),
  trevni: (input: never, options: object) => openTrevni(input, options),
  redelm: (input: never, options: object) => openRedElm(input, options),
};
type Kind = keyof typeof openers;
let dir: string;
let server: RangeServer;
const files = new Map<Kind, string>();

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'parquetry-open-inputs-'));
  files.set('parquet', join(dir, 't.parquet'));
  await writeParquet(files.get('parquet')!, records);
  for (const to of ['trevni', 'redelm'] as const) {
    files.set(to, join(dir, `t.${to}`));
    await convert(files.get('parquet')!, files.get(to)!, { to });
  }
  server = await serveRanges((path) => {
    const kind = path.slice(1) as Kind;
    return files.has(kind) ? new Uint8Array(readFileSync(files.get(kind)!)) : undefined;
  });
});

after(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function rowsOf(reader: { numRows: number; rows(): AsyncIterable<Record<string, unknown>>; close?(): Promise<void> }): Promise<[number, string]> {
  const out: unknown[] = [];
  for await (const row of reader.rows()) out.push(row);
  await reader.close?.();
  return [reader.numRows, JSON.stringify(out, (_, v) => (typeof v === 'bigint' ? String(v) : v))];
}

test('every opener takes a path, an http(s) URL string, a URL, bytes, a Blob and a source, and reads the same rows from each', async () => {
  for (const [kind, open] of Object.entries(openers) as [Kind, (input: never, options: object) => Promise<never>][]) {
    const path = files.get(kind)!;
    const bytes = new Uint8Array(readFileSync(path));
    const want = await rowsOf(await open(bytes as never, {}));
    assert.equal(want[0], records.length, kind);
    const inputs: [string, unknown][] = [
      ['path', path],
      ['http string', `${server.base}/${kind}`],
      ['URL', new URL(`${server.base}/${kind}`)],
      ['ArrayBuffer', bytes.slice().buffer],
      ['Blob', new Blob([bytes])],
      ['source', await fileSource(path)],
      ['buffer source', bufferSource(bytes)],
    ];
    for (const [name, input] of inputs) assert.deepEqual(await rowsOf(await open(input as never, {})), want, `${kind} from a ${name}`);
  }
});

test('the URL options mean the same to every opener: byteLength skips the HEAD request', async () => {
  for (const [kind, open] of Object.entries(openers) as [Kind, (input: never, options: object) => Promise<never>][]) {
    const byteLength = readFileSync(files.get(kind)!).length;
    server.hits.length = 0;
    await rowsOf(await open(new URL(`${server.base}/${kind}`) as never, { byteLength }));
    assert.ok(server.hits.length > 0 && server.hits.every((h) => h.method === 'GET'), `${kind}: ${JSON.stringify(server.hits.map((h) => h.method))}`);
    server.hits.length = 0;
    await rowsOf(await open(`${server.base}/${kind}` as never, {}));
    assert.equal(server.hits[0]?.method, 'HEAD', `${kind}: without byteLength the size is asked first`);
  }
});
