/**
 * The portable build (dist/index.js, dist/entries/: what a browser app's
 * bundler reads) after scripts/bundle.mjs rewrote its import() targets to
 * the one lazy hub (dist/lazy-hub.js) and gave the rest a re-export of the
 * root: every rewritten import names a module the hub exports, and the
 * paths through the hub and through those targets read as they did, run
 * unbundled in Node. Like size.test.ts, it needs the build.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
// @ts-expect-error: a JavaScript module without declarations
import { ROOT } from '../../scripts/size-check.mjs';
import { BufferSink, writeRecords } from '../../src/index.js';

const dist = join(ROOT, 'dist');
const load = (file: string) => import(pathToFileURL(join(dist, file)).href);

test('every import() the portable build routes through the hub names a module the hub exports, and the hub names only those', async () => {
  const hub = await load('lazy-hub.js');
  const named = new Set<string>();
  for (const f of readdirSync(dist, { recursive: true, encoding: 'utf8' })) {
    if (!f.endsWith('.js') || /^(chunks|node|cli)\//.test(f)) continue;
    for (const [, name] of readFileSync(join(dist, f), 'utf8').matchAll(/import\("[./]*lazy-hub\.js"\)\.then\(\(hub\) => hub\.(m\d+)\)/g)) named.add(name!);
  }
  assert.ok(named.size > 10, `${named.size} targets`);
  for (const name of named) assert.ok(Object.keys(hub[name] ?? {}).length > 0, `hub.${name}`);
  assert.deepEqual(Object.keys(hub).filter((k) => k !== '__reachesRoot').sort(), [...named].sort());
});

test('through the portable root: a CSV table (hub and an own target), a filtered read and Arrow (hub)', async () => {
  const root = await load('index.js');
  const table = await root.openTable(new TextEncoder().encode('id,name\n1,a\n2,b\n'), { format: 'csv' });
  const rows = [];
  for await (const row of table.rows()) rows.push(row);
  assert.deepEqual(rows.map((r: Record<string, unknown>) => r.name), ['a', 'b']);
  const sink = new BufferSink();
  await writeRecords(sink, [{ id: 1, name: 'a' }, { id: 2, name: 'b' }, { id: 3, name: 'c' }], { codec: 'GZIP' });
  const reader = await root.ParquetReader.open(sink.bytes());
  assert.deepEqual((await reader.readRows({ filter: root.parseWhere('id >= 2') })).map((r: Record<string, unknown>) => r.name), ['b', 'c']);
  assert.equal((await reader.toArrow()).numRows, 3);
});
