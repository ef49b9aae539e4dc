/**
 * Inference that does not surprise, for JSON input: a value past the sample
 * that does not fit its column's inferred type says how to give the type
 * (--type COL=TYPE, --sample N, --widen), and widening infers from every
 * record, so the column takes the type that holds them all: the type and
 * the values DuckDB's read_json gives the same input (which samples 20,480
 * records, all of these), compared normalised.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BufferSink, openParquet } from '../../src/node/index.js';
import { convert } from '../../src/node/entries/convert.js';
import { DuckFiles } from '../reader/helpers.js';
import { run } from '../cli/run-cli.js';

let duck: DuckFiles;
before(async () => {
  duck = await DuckFiles.create();
});
after(() => duck?.close());

/**
 * Fields whose type changes past the first records: [name, first value, a
 * later value, whether the later value fails the sample's type (`1e3` is
 * the integer 1000 to an INT64 column, but makes the column DOUBLE when
 * inference sees it)]; read_json and widening agree on each.
 */
const CHANGES: Array<[string, string, string, boolean]> = [
  ['n', '1', '2.5', true],
  ['n', '1', '1e3', false],
  ['n', '7', '9223372036854775808', true],
  ['d', '"2024-01-01"', '"soon"', true],
  ['t', '"2024-01-01 10:00:00"', '"later"', true],
  ['u', '"123e4567-e89b-12d3-a456-426614174000"', '"not a uuid"', true],
];

function lines(name: string, first: string, later: string, rows: number): string {
  return Array.from({ length: rows }, (_, i) => `{"id":${i + 1},"${name}":${i === rows - 1 ? later : first}}`).join('\n') + '\n';
}

const norm = (v: unknown): string => (v === null || v === undefined ? 'null' : typeof v === 'bigint' || typeof v === 'number' ? String(Number(v)) : String(v));

test('a JSON value past the sample that does not fit its inferred type: the bad row names --type COL=TYPE, --sample N and --widen (CLI) or types, sample and widen (code)', { timeout: 120_000 }, async () => {
  for (const [name, first, later, fails] of CHANGES) {
    if (!fails) continue;
    for (const [format, text] of [['jsonl', lines(name, first, later, 30)], ['json', `[${lines(name, first, later, 30).trim().split('\n').join(',\n')}]`]] as const) {
      const input = join(duck.dir, `in.${format}`);
      writeFileSync(input, text);
      const r = await run('convert', input, join(duck.dir, 'out.parquet'), '--sample', '10');
      assert.equal(r.code, 1, r.err);
      assert.match(r.err, new RegExp(`in\\.${format}:30: column ${name}: .*inferred from the first 10 rows: give it with --type ${name}=TYPE, infer from more rows with --sample N, or from every row with --widen`), `${format} ${name}: ${first} then ${later}`);
      const skipped: string[] = [];
      await convert(new TextEncoder().encode(text), new BufferSink(), { from: format, to: 'parquet', sample: 10, onBadRow: (b) => skipped.push(b.text) });
      assert.equal(skipped.length, 1);
      assert.match(skipped[0]!, new RegExp(`give it in types as '${name}=TYPE', infer from more rows with sample, or from every row with widen`));
    }
  }
  // A type given with --type is not advised on.
  const input = join(duck.dir, 'typed.jsonl');
  writeFileSync(input, lines('n', '1', '"x"', 30));
  const r = await run('convert', input, join(duck.dir, 'out.parquet'), '--sample', '10', '--type', 'n=int32');
  assert.equal(r.code, 1);
  assert.doesNotMatch(r.err, /inferred from/);
});

test('JSON widening infers from every record: the type and values read_json gives, every row kept', { timeout: 120_000 }, async () => {
  for (const [name, first, later] of CHANGES) {
    for (const rows of [30, 20_000]) {
      const input = join(duck.dir, 'wide.jsonl');
      writeFileSync(input, lines(name, first, later, rows));
      const ours = join(duck.dir, 'ours.parquet');
      const r = await run('convert', input, ours, '--sample', '10', '--widen');
      assert.equal(r.code, 0, r.err);
      const theirs = await duck.write('theirs.parquet', `SELECT * FROM read_json('${input}')`);
      const types = async (file: string) => (await duck.duck.runAndReadAll(`SELECT column_type FROM (DESCRIBE SELECT * FROM '${file}') WHERE column_name = '${name}'`)).getRows()[0]![0];
      assert.equal(await types(ours), await types(theirs), `${name}: ${first} then ${later}`);
      const values = async (file: string) => (await duck.duck.runAndReadAll(`SELECT id, "${name}" FROM '${file}' ORDER BY id`)).getRows().map((row) => row.map(norm).join(' '));
      assert.deepEqual(await values(ours), await values(theirs));
      const reader = await openParquet(ours);
      assert.equal(reader.numRows, rows);
      await reader.close();
    }
  }
});
