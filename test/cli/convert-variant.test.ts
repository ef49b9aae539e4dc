/**
 * `convert --type COL=variant`: a JSON column stored as VARIANT (shredded in
 * the shape its sampled values call for) rather than inferred as a struct.
 * The values read back, by parquetry and by DuckDB's JSON cast, are the
 * input's JSON; a --where on a path inside the variant gives the rows an
 * evaluation of the input gives; check-stats finds no lie.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openParquet } from '../../src/node/index.js';
import { DuckFiles } from '../reader/helpers.js';
import { ok } from './run-cli.js';

let duck: DuckFiles;
let input = '';
before(async () => {
  duck = await DuckFiles.create();
  input = join(duck.dir, 'in.jsonl');
  const lines: string[] = [];
  for (let i = 0; i < 400; i++) {
    const payload = i % 10 ? { a: i, b: `x${i}`, c: [i / 4, null, i % 3 === 0] } : i % 20 ? `text ${i}` : { a: 'not a number', z: { deep: [1, { e: 'é' }] } };
    lines.push(JSON.stringify({ id: i, payload }));
  }
  writeFileSync(input, lines.join('\n') + '\n');
});
after(() => duck.close());

test('convert --type payload=variant stores the JSON column as a shredded VARIANT', async () => {
  const out = join(duck.dir, 'out.parquet');
  await ok('convert', input, out, '-q', '--type', 'payload=variant', '--row-group-rows', '100');
  const want = readFileSync(input, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { id: number; payload: unknown });
  const r = await openParquet(out);
  try {
    const group = r.schema.root.children.find((c) => c.name === 'payload')!;
    assert.equal(group.isLeaf ? undefined : group.kind, 'variant');
    assert.ok(r.schema.leaves.some((l) => l.path.join('.') === 'payload.typed_value.a.typed_value'), 'the sampled objects shred a');
    assert.deepEqual((await r.readRows()).map((x) => x.payload), want.map((w) => w.payload));
  } finally {
    await r.close();
  }
  const sorted = (v: unknown): unknown => Array.isArray(v) ? v.map(sorted) : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted((v as Record<string, unknown>)[k])])) : v;
  const rows = (await duck.duck.runAndReadAll(`SELECT payload::JSON::VARCHAR FROM read_parquet('${out}') ORDER BY id`)).getRows();
  assert.deepEqual(rows.map(([j]) => sorted(JSON.parse(String(j)))), want.map((w) => sorted(w.payload)));
  const selected = (await ok('cat', out, '--where', 'payload.a > 385', '--json', '--columns', 'id')).trim().split('\n').map((l) => (JSON.parse(l) as { id: number }).id);
  assert.deepEqual(selected, want.filter((w) => typeof (w.payload as { a?: unknown })?.a === 'number' && (w.payload as { a: number }).a > 385).map((w) => w.id));
  assert.match(await ok('check-stats', out), /no lies found/);
});
