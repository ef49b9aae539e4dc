/**
 * Records nested deeper than the nesting limit (200 levels, the deepest schema):
 * every way in (JSON Lines, JSON arrays, a CSV cell of JSON, records in code,
 * schema files and --type) ends in a typed error naming the limit, never a
 * stack overflow; records within it convert and read back as they were.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { BufferSink, InvalidArgumentError, defineSchema, field, inferSchemaFromRecords, writeRecords } from '../../src/index.js';
import { convert, readCsv, readJsonArray, readJsonLines } from '../../src/entries/convert.js';
import { openParquet } from '../../src/node/index.js';
import { parseTypeOverride, schemaFromJsonText } from '../../src/convert/types.js';
import { CLI } from '../cli/bin.js';

const LIMIT = /nests deeper than 200 levels, the nesting limit/;

type Shape = 'object' | 'array' | 'mixed';

/** JSON text of a value `depth` objects/arrays deep, innermost a number: `{"a":{"a":1}}`, `[[1]]`, `{"a":[{"a":[1]}]}`. */
function deepText(shape: Shape, depth: number): string {
  const open: string[] = [];
  const close: string[] = [];
  for (let i = 0; i < depth; i++) {
    const obj = shape === 'object' || (shape === 'mixed' && i % 2 === 0);
    open.push(obj ? '{"a":' : '[');
    close.push(obj ? '}' : ']');
  }
  return open.join('') + '1' + close.reverse().join('');
}

/** The same value built in code, without recursion; the record is always an object. */
function deepValue(shape: Shape, depth: number): Record<string, unknown> {
  let v: unknown = 1;
  for (let i = depth - 1; i >= 1; i--) {
    const obj = shape === 'object' || (shape === 'mixed' && i % 2 === 0);
    v = obj ? { a: v } : [v];
  }
  return { a: v };
}

const SHAPES: Shape[] = ['object', 'array', 'mixed'];
const DEPTHS = [201, 2_000, 100_000];

async function all<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const r of it) out.push(r);
  return out;
}

const typedLimit = (e: unknown) => e instanceof InvalidArgumentError && LIMIT.test(e.message);

test('JSON Lines and JSON arrays nested past the limit are a typed error naming it, strict or not', async () => {
  for (const shape of SHAPES) {
    for (const depth of DEPTHS) {
      // The record itself is an object, so an array shape is wrapped in one.
      const text = shape === 'array' ? `{"x":${deepText(shape, depth - 1)}}` : deepText(shape, depth);
      const what = `${shape} ${depth}`;
      await assert.rejects(readJsonLines(text + '\n'), typedLimit, what);
      await assert.rejects(readJsonLines(text + '\n', { strict: true }), typedLimit, what);
      await assert.rejects(readJsonArray(`[${text}]`), typedLimit, what);
      // Among good records, the deep one is one bad row naming the limit; the others come back.
      const mixed = await readJsonLines(`{"x":1}\n${text}\n{"x":2}\n`);
      assert.deepEqual(await all(mixed.records), [{ x: 1 }, { x: 2 }], what);
      assert.equal(mixed.bad.count, 1);
      assert.match(mixed.bad.first[0]!.text, /^input:2: .*nesting limit/);
      // Numbers a double cannot hold take JSON.parse's reviver, which recurses.
      const big = text.replace('1', '12345678901234567890');
      await assert.rejects(readJsonLines(big + '\n'), typedLimit, `${what} with a big integer`);
    }
  }
});

test('records in code nested past the limit: inferSchemaFromRecords and writeRecords give the typed error', async () => {
  for (const shape of SHAPES) {
    for (const depth of DEPTHS) {
      const record = deepValue(shape, depth);
      assert.throws(() => inferSchemaFromRecords([{ id: 1 }, record]), typedLimit, `${shape} ${depth}`);
      await assert.rejects(writeRecords(new BufferSink(), [record]), typedLimit, `${shape} ${depth}`);
    }
  }
});

test('a deep value for a declared JSON column (JSON.stringify recurses) is the typed error naming the limit', async () => {
  const schema = defineSchema({ j: field.json() });
  for (const shape of SHAPES) {
    const record = { j: deepValue(shape, 100_000) };
    await assert.rejects(writeRecords(new BufferSink(), [record], { schema }), (e: unknown) => e instanceof InvalidArgumentError && /nesting limit/.test(e.message), shape);
  }
});

test('a CSV cell of JSON for a struct column, nested past the limit, is one bad row naming the limit', async () => {
  const deep = deepText('object', 5_000).replaceAll('"', '""');
  const r = await readCsv(`id,j\n1,"{""a"":2}"\n2,"${deep}"\n`, { types: ['j={"a":"int64"}'] });
  assert.deepEqual(await all(r.records), [{ id: 1n, j: { a: 2 } }]);
  assert.equal(r.bad.count, 1);
  assert.match(r.bad.first[0]!.text, LIMIT);
});

test('declared types nested past the limit (a --type text, a schema file) are refused the same way', () => {
  for (const depth of [201, 5_000, 100_000]) {
    assert.throws(() => parseTypeOverride(`x=${'list('.repeat(depth)}string${')'.repeat(depth)}`), typedLimit, `--type ${depth}`);
    assert.throws(() => parseTypeOverride(`x=${'['.repeat(depth)}"string"${']'.repeat(depth)}`), typedLimit, `--type JSON ${depth}`);
    assert.throws(() => schemaFromJsonText(`{"x":${'{"a":'.repeat(depth)}"string"${'}'.repeat(depth)}}`, 's.json'), typedLimit, `schema file ${depth}`);
  }
});

test('records within the limit convert to Parquet and read back as they were', { timeout: 60_000 }, async () => {
  for (const shape of SHAPES) {
    // Lists take two schema levels each, so the deepest writable record depends on the shape.
    const depth = shape === 'object' ? 190 : 60;
    const sink = new BufferSink();
    const text = `{"x":${deepText(shape, depth)}}`;
    const report = await convert(new TextEncoder().encode(text + '\n'), sink, { from: 'jsonl', to: 'parquet' });
    assert.equal(report.numRows, 1, shape);
    const reader = await openParquet(sink.bytes());
    assert.deepEqual(JSON.stringify(await reader.readRows(), (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v)), `[${text}]`, shape);
  }
});

test('the CLI ends a too-deep JSON input with one parquetry: line and exit status 1', { timeout: 60_000 }, () => {
  const cases: Array<[string, string[], string | undefined]> = [
    ['reproducer', [join('..', 'shared', 'fuzz', 't3', 'json-deep-object-2000.jsonl')], undefined],
    ['deep array, stdin', ['-', '--from', 'json'], `[${deepText('mixed', 50_000)}]`],
  ];
  for (const [what, input, stdin] of cases) {
    const r = spawnSync(process.execPath, [...CLI, 'convert', ...input, join('/tmp', `deep-${process.pid}.parquet`)], { encoding: 'utf8', input: stdin });
    assert.equal(r.status, 1, `${what}: ${r.stderr}`);
    const lines = r.stderr.trimEnd().split('\n');
    assert.equal(lines.length, 1, `${what}: ${r.stderr}`);
    assert.match(lines[0]!, /^parquetry: .*nests deeper than 200 levels, the nesting limit/, what);
  }
});
