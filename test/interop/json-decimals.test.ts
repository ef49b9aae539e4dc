/**
 * JSON numbers into DECIMAL (and integer) columns through `parquetry convert`:
 * the values DuckDB reads back are the JSON text's, digit for digit, from
 * JSON Lines and from a JSON array; a number the column cannot hold exactly
 * is an error naming the line and the column.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { runWith, type CliResult } from '../cli/run-cli.js';

let dir: string;
let instance: DuckDBInstance;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'parquetry-json-decimals-'));
  instance = await DuckDBInstance.create(':memory:', { threads: '1' });
});
after(() => {
  instance.closeSync();
  rmSync(dir, { recursive: true, force: true });
});

function convert(input: string, ...args: string[]): Promise<CliResult> {
  return runWith(['convert', input, ...args]);
}

async function duck(sql: string): Promise<string[][]> {
  const conn = await instance.connect();
  try {
    return (await conn.runAndReadAll(sql)).getRows().map((r) => r.map(String));
  } finally {
    conn.closeSync();
  }
}

// [JSON text of d, the DECIMAL(38,10) value DuckDB must read, JSON text of n (an INT64), its value]
const ROWS: Array<[string, string, string, string]> = [
  ['1123456789012345678.0000000001', '1123456789012345678.0000000001', '9007199254740993', '9007199254740993'],
  ['-9999999999999999999999999999.9999999999', '-9999999999999999999999999999.9999999999', '-9223372036854775808', '-9223372036854775808'],
  ['0.1', '0.1000000000', '12345678901234567.0', '12345678901234567'],
  ['1.2345678901234567890e9', '1234567890.1234567890', '9.223372036854775807e18', '9223372036854775807'],
  ['123456789.123456789000000', '123456789.1234567890', '1', '1'],
];

for (const form of ['jsonl', 'json'] as const) {
  test(`${form}: DECIMAL(38,10) and INT64 values are the JSON text's, exactly (read by DuckDB)`, async () => {
    const records = ROWS.map(([d, , n]) => `{"d": ${d}, "n": ${n}}`);
    const input = join(dir, `in.${form}`);
    writeFileSync(input, form === 'jsonl' ? records.join('\n') + '\n' : `[\n${records.join(',\n')}\n]\n`);
    const output = join(dir, `${form}.parquet`);
    const r = await convert(input, output, '--type', 'd=decimal(38,10)', '--type', 'n=int64');
    assert.equal(r.code, 0, r.err);
    const got = await duck(`SELECT d::VARCHAR, n::VARCHAR FROM read_parquet('${output}')`);
    assert.deepEqual(got, ROWS.map(([, d, , n]) => [d, n]));
  });
}

test('a JSON number its column cannot hold exactly is an error naming the line and the column', async () => {
  const types = ['a=decimal(38,10)', 'b=decimal(9,2)', 'c=int64', 'e=int32'].flatMap((t) => ['--type', t]);
  // Line 1 is good; each later line has one number its column cannot hold.
  const lines: Array<[string, RegExp]> = [
    ['{"a": 1, "b": 1, "c": 1, "e": 1}', /^$/],
    ['{"a": 1.00000000000000000001}', /:2: column a: .*got 1\.00000000000000000001 \(number\): more than 10 fractional digits/],
    ['{"a": 123456789012345678901234567890.5}', /:3: column a: .*more than 38 digits/],
    ['{"b": 1234567.125}', /:4: column b: .*more than 2 fractional digits/],
    ['{"c": 12345678901234567.5}', /:5: column c: .*got 12345678901234567\.5 \(number\): not an integer/],
    ['{"e": 2.5}', /:6: column e: .*got 2\.5 \(number\)/],
  ];
  for (const form of ['jsonl', 'json'] as const) {
    const input = join(dir, `bad.${form}`);
    const records = lines.map(([l]) => l);
    writeFileSync(input, form === 'jsonl' ? records.join('\n') + '\n' : `[${records.join(',\n')}]\n`);
    // Without --skip-bad-rows, the first bad row ends the conversion.
    const first = await convert(input, join(dir, 'bad.parquet'), ...types);
    assert.equal(first.code, 1, first.err);
    assert.match(first.err, lines[1]![1]);
    // With it, every bad row is listed.
    const all = await convert(input, join(dir, 'bad.parquet'), ...types, '--skip-bad-rows');
    assert.equal(all.code, 0, all.err);
    for (const [, message] of lines.slice(1)) assert.match(all.err, message, form);
    assert.match(all.err, /wrote 1 row/);
  }
});
