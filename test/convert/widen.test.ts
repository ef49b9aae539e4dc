/**
 * Inference that does not surprise: a value past the sample that does not
 * fit its column's inferred type says how to give the type (--type COL=TYPE,
 * --sample N, --widen), and widening infers from every row instead, so the
 * column takes the type that holds them all (checked against the type
 * inference gives the whole input as its sample, and the rows read back
 * against the input's text).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BufferSink, inferSchemaFromCsv, openParquet } from '../../src/node/index.js';
import { convert, readCsv } from '../../src/node/entries/convert.js';
import { run } from '../cli/run-cli.js';

/** Columns whose type changes past the first rows: [name, first values, a later value, the type every value fits]. */
const CHANGES: Array<[string, string, string, string]> = [
  ['n', '1', '2.5', 'DOUBLE'],
  ['n', '1', '9223372036854775808', 'DOUBLE'],
  ['n', '1', 'x', 'STRING'],
  ['d', '2024-01-01', '2024-01-02 10:30:00', 'TIMESTAMP'],
  ['d', '2024-01-01', '2024-01-02 10:30', 'TIMESTAMP'],
  ['d', '2024-01-01', 'soon', 'STRING'],
  ['t', '2024-01-01 10:00:00', '2024-01-01 10:00:00.123456', 'TIMESTAMP'],
  ['b', 'true', '1', 'STRING'],
  ['b', 'false', '', 'BOOLEAN'],
];

function csvOf(name: string, first: string, later: string, rows: number): string {
  const lines = [`id,${name}`];
  for (let i = 1; i <= rows; i++) lines.push(`${i},${i === rows ? later : first}`);
  return lines.join('\n') + '\n';
}

function typeName(s: { schema: { leaves: ReadonlyArray<{ path: readonly string[]; physicalType: string; element: { logicalType?: { type: string } } }> } }, column: string): string {
  const leaf = s.schema.leaves.find((l) => l.path[0] === column)!;
  const logical = leaf.element.logicalType?.type;
  if (logical === 'STRING' || logical === 'TIMESTAMP' || logical === 'DATE') return logical;
  return leaf.physicalType;
}

test('a value past the sample that does not fit its inferred type: the bad row names --type COL=TYPE, --sample N and --widen (CLI) or types, sample and widen (code)', { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'parquetry-widen-'));
  try {
    for (const [name, first, later, wide] of CHANGES) {
      // Where the later value fits what the sample gave (a null, a finer fraction), nothing fails.
      if (typeName(inferSchemaFromCsv(['id', name], [['1', first]]), name) === wide) continue;
      const csv = join(dir, 'in.csv');
      writeFileSync(csv, csvOf(name, first, later, 30));
      const r = await run('convert', csv, join(dir, 'out.parquet'), '--sample', '10');
      assert.equal(r.code, 1, r.err);
      assert.match(r.err, new RegExp(`in\\.csv:31: column ${name}: .*inferred from the first 10 rows: give it with --type ${name}=TYPE, infer from more rows with --sample N, or from every row with --widen`), `${name}: ${first} then ${later}`);
      const skipped: string[] = [];
      await convert(new TextEncoder().encode(csvOf(name, first, later, 30)), new BufferSink(), { from: 'csv', to: 'parquet', sample: 10, onBadRow: (b) => skipped.push(b.text) });
      assert.equal(skipped.length, 1);
      assert.match(skipped[0]!, new RegExp(`give it in types as '${name}=TYPE', infer from more rows with sample, or from every row with widen`));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('widening infers from every row: the type inference gives the whole input, every row kept, values as written', { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'parquetry-widen-'));
  try {
    for (const [name, first, later, wide] of CHANGES) {
      // Past one chunk of input too, so the first read and the second cut it alike.
      for (const rows of [30, 40_000]) {
        const text = csvOf(name, first, later, rows);
        const lines = text.trim().split('\n').slice(1).map((l) => l.split(','));
        const whole = inferSchemaFromCsv(['id', name], lines);
        assert.equal(typeName(whole, name), wide, `${name}: ${first} then ${later}`);
        const sink = new BufferSink();
        const report = await convert(new TextEncoder().encode(text), sink, { from: 'csv', to: 'parquet', sample: 10, widen: true, strict: true });
        assert.equal(report.numRows, rows);
        const reader = await openParquet(sink.bytes());
        assert.equal(typeName(reader, name), wide, `${name}: ${first} then ${later}, widened`);
        const back: Array<Record<string, unknown>> = [];
        for await (const row of reader.rows()) back.push(row);
        const last = back[rows - 1]![name];
        if (wide === 'STRING') assert.equal(last, later);
        if (wide === 'DOUBLE') assert.equal(last, Number(later));
        assert.equal(back.length, rows);
      }
    }
    // The CLI's flag, from a file; stdin cannot be read twice.
    const csv = join(dir, 'in.csv');
    writeFileSync(csv, csvOf('n', '1', 'x', 30));
    const r = await run('convert', csv, join(dir, 'out.parquet'), '--sample', '10', '--widen');
    assert.equal(r.code, 0, r.err);
    const stdin = await run('convert', '-', join(dir, 'out.parquet'), '--from', 'csv', '--widen');
    assert.equal(stdin.code, 1);
    assert.match(stdin.err, /widening reads the input twice .* stdin can be read once only: give a file/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('widening from a stream is refused before anything is written; the record reader in code keeps its sample', async () => {
  const stream = new ReadableStream<Uint8Array>({ start: (c) => (c.enqueue(new TextEncoder().encode('a\n1\n')), c.close()) });
  await assert.rejects(convert(stream, new BufferSink(), { from: 'csv', to: 'parquet', widen: true }), /widening reads the input twice/);
  const json = new ReadableStream<Uint8Array>({ start: (c) => (c.enqueue(new TextEncoder().encode('{"a":1}\n')), c.close()) });
  await assert.rejects(convert(json, new BufferSink(), { from: 'jsonl', to: 'parquet', widen: true }), /widening reads the input twice/);
  const { bad, records } = await readCsv(csvOf('n', '1', 'x', 30), { sample: 10 });
  for await (const _ of records);
  assert.equal(bad.count, 1);
  assert.match(bad.first[0]!.text, /give it in types as 'n=TYPE', or infer from more rows with sample/);
});
