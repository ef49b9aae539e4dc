/**
 * A legal Trevni file may hold what no Parquet schema can: an empty column
 * name, a child column named `$value` (the key its parent's own value takes),
 * nesting deeper than Parquet's limit, and from an Avro schema an empty
 * field name, two fields given one `parquetry.name`, a record with no
 * fields, a decimal precision or fixed size past Parquet's range. Files of
 * each, written by our writers, open as tables and show through `schema`,
 * `meta`, `cat` and `head`; only what needs the table's Parquet form (its
 * schema, its rows, `convert`) fails, with an `UnsupportedError` naming
 * the field. And every file of the Trevni and RedElm corpora shows
 * through the same commands and opens as a table with a schema.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openTable, UnsupportedError } from '../../src/node/index.js';
import { readerOf } from '../../src/table/reader-of.js';
import { BufferSink } from '../../src/io/sink.js';
import { TrevniWriter, type TrevniColumnSpec } from '../../src/trevni/writer.js';
import { AvroTrevniWriter } from '../../src/trevni/avro.js';
import type { TrevniColumnRow } from '../../src/trevni/reader.js';
import { TREVNI_CORPUS, TREVNI_V1_CORPUS, trvFiles } from '../trevni/corpus-util.js';
import { REDELM_CORPUS } from '../redelm/corpus-util.js';
import { run } from '../cli/run-cli.js';

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'parquetry-no-parquet-form-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

interface Case {
  name: string;
  bytes: () => Promise<Uint8Array>;
  rows: number;
  /** The field the Parquet mapping fails at, as the error names it. */
  field: string;
  /** The rows `cat --json` prints, where they are the columns written (plain files). */
  lines?: string[];
}

async function plain(columns: TrevniColumnSpec[], rows: TrevniColumnRow[][]): Promise<Uint8Array> {
  const sink = new BufferSink();
  const w = await TrevniWriter.open(sink, columns);
  for (const r of rows) await w.writeRow(r);
  await w.close();
  return sink.bytes();
}

async function avro(schema: unknown, records: Record<string, unknown>[]): Promise<Uint8Array> {
  const sink = new BufferSink();
  const w = await AvroTrevniWriter.open(sink, schema);
  for (const r of records) await w.write(r);
  await w.close();
  return sink.bytes();
}

/** `depth` array columns, each the child of the one before. */
function nested(depth: number): TrevniColumnSpec[] {
  return Array.from({ length: depth }, (_, i) => ({ name: `c${i}`, type: 'int' as const, array: true, ...(i ? { parent: `c${i - 1}` } : {}) }));
}

/** `depth` Avro arrays, one inside the other. */
function avroArrays(depth: number): unknown {
  let t: unknown = 'int';
  for (let i = 0; i < depth; i++) t = { type: 'array', items: t };
  return t;
}

const CASES: Case[] = [
  { name: 'empty-root', bytes: () => plain([{ name: '', type: 'int' }, { name: 'b', type: 'string' }], [[1, 'x'], [2, 'y']]), rows: 2, field: '', lines: ['{"":1,"b":"x"}', '{"":2,"b":"y"}'] },
  {
    name: 'empty-child',
    bytes: () => plain([{ name: 'arr', type: 'int', array: true }, { name: '', type: 'string', parent: 'arr' }], [[[1, 2], ['s', 't']]]),
    rows: 1, field: 'arr', lines: ['{"arr":[{"$value":1,"":"s"},{"$value":2,"":"t"}]}'],
  },
  // Rows cannot hold both values under one key: the reader refuses them (a typed error); schema and meta still show the file.
  { name: 'child-$value', bytes: () => plain([{ name: 'arr', type: 'int', array: true }, { name: '$value', type: 'string', parent: 'arr' }], [[[1], ['s']]]), rows: 1, field: 'arr' },
  { name: 'too-deep', bytes: () => plain(nested(80), [nested(80).map(() => [])]), rows: 1, field: 'c0', lines: ['{"c0":[]}'] },
  { name: 'avro-empty-name', bytes: () => avro({ type: 'record', name: 'R', fields: [{ name: '', type: 'int' }] }, [{ '': 1 }]), rows: 1, field: 'R' },
  {
    name: 'avro-one-parquet-name',
    bytes: () => avro({ type: 'record', name: 'R', fields: [{ name: 'a', type: 'int', 'parquetry.name': 'x' }, { name: 'b', type: 'int', 'parquetry.name': 'x' }] }, [{ a: 1, b: 2 }]),
    rows: 1, field: 'R',
  },
  { name: 'avro-empty-record', bytes: () => avro({ type: 'record', name: 'R', fields: [{ name: 'a', type: { type: 'record', name: 'E', fields: [] } }] }, [{ a: {} }]), rows: 1, field: 'a' },
  {
    name: 'avro-decimal-precision',
    bytes: () => avro({ type: 'record', name: 'R', fields: [{ name: 'd', type: { type: 'bytes', logicalType: 'decimal', precision: 2000 } }] }, [{ d: new Uint8Array([1]) }]),
    rows: 1, field: 'd',
  },
  { name: 'avro-fixed-size', bytes: () => avro({ type: 'record', name: 'R', fields: [{ name: 'f', type: { type: 'fixed', name: 'F', size: 2 ** 31 } }] }, []), rows: 0, field: 'f' },
  { name: 'avro-too-deep', bytes: () => avro({ type: 'record', name: 'R', fields: [{ name: 'a', type: avroArrays(120) }] }, []), rows: 0, field: 'a' },
];

/** The inspection commands: each must succeed on any file our writers or the Java references write (the Trevni corpus's quirks include a file whose CRCs Java wrote wrong). */
const SHOW = [['schema'], ['meta'], ['meta', '--json'], ['cat'], ['cat', '--json'], ['head']];
const unchecked = (path: string) => (cmd: string[]) => (path.endsWith('.trv') && (cmd[0] === 'cat' || cmd[0] === 'head') ? [...cmd, '--no-verify-checksums'] : cmd);

for (const c of CASES) {
  test(`a Trevni file with no Parquet form (${c.name}): shown by every inspection command; its Parquet form refused, naming the field`, async () => {
    const path = join(dir, `${c.name}.trv`);
    writeFileSync(path, await c.bytes());
    for (const cmd of SHOW.map(unchecked(path))) {
      const r = await run(...cmd, path);
      // A child named $value cannot be a row's key beside its parent's value: the reader says so, naming it.
      if (c.name === 'child-$value' && cmd[0] !== 'schema' && cmd[0] !== 'meta') {
        assert.match(r.err, /column \$value is a child of arr/, `${cmd.join(' ')}: ${r.err}`);
        continue;
      }
      assert.equal(r.code, 0, `${cmd.join(' ')}: ${r.err}`);
      if (c.rows > 0 || cmd[0] === 'schema' || cmd[0] === 'meta') assert.ok(r.out.length > 0, cmd.join(' '));
    }
    if (c.lines) assert.deepEqual((await run('cat', '--json', path)).out.split('\n').filter(Boolean), c.lines);

    await using table = await openTable(path);
    assert.equal(table.format, 'trevni');
    assert.equal(table.numRows, c.rows);
    assert.equal(readerOf(table, 'trevni')!.numRows, c.rows);
    const named = (e: unknown) => e instanceof UnsupportedError && e.message.includes(`field ${JSON.stringify(c.field)} has no Parquet form`);
    assert.throws(() => table.schema, named);
    assert.throws(() => table.rows(), named);
    await assert.rejects(table.toArrow(), named);

    const converted = await run('convert', path, join(dir, `${c.name}.parquet`));
    assert.notEqual(converted.code, 0);
    assert.match(converted.err, new RegExp(`field ${JSON.stringify(c.field).replace(/\$/g, '\\$')} has no Parquet form`));
  });
}

test('every file of the Trevni (version 2 and 1) and RedElm corpora: shown by every inspection command, opened as a table with a schema', async () => {
  const files = [
    ...trvFiles(TREVNI_CORPUS).map((f) => join(TREVNI_CORPUS, f)),
    ...trvFiles(TREVNI_V1_CORPUS).map((f) => join(TREVNI_V1_CORPUS, f)),
    ...readdirSync(REDELM_CORPUS).filter((f) => f.endsWith('.redelm')).map((f) => join(REDELM_CORPUS, f)),
  ];
  assert.ok(files.length >= 45, `${files.length} files`);
  for (const path of files) {
    for (const cmd of SHOW.map(unchecked(path))) {
      const r = await run(...cmd, path);
      assert.equal(r.code, 0, `${cmd.join(' ')} ${path}: ${r.err}`);
    }
    await using table = await openTable(path);
    assert.ok(table.schema.root, path);
  }
});

test('an Avro record of no fields reads as a Trevni file of no columns: rows with no fields', async () => {
  const path = join(dir, 'avro-no-fields.trv');
  writeFileSync(path, await avro({ type: 'record', name: 'R', fields: [] }, [{}, {}]));
  await using table = await openTable(path);
  assert.deepEqual(table.schema.leaves, []);
  const rows: unknown[] = [];
  for await (const r of table.rows()) rows.push(r);
  assert.deepEqual(rows, [{}, {}]);
  assert.equal((await run('convert', path, join(dir, 'avro-no-fields.jsonl'))).code, 0);
});
