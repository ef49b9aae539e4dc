/**
 * JSON Lines → Parquet against DuckDB: the same lines read by DuckDB's
 * `read_json` and converted by us, then both read back by DuckDB and
 * compared column by column, in the input's order: the column types (any
 * integer type as one) and every value as text (doubles by their value, timestamps as ISO text to the
 * microsecond, lists and structs as DuckDB prints them). The lines are the
 * bench's (bench/textout-data.ts: integers, strings, doubles of up to 17
 * digits, dates and timestamps as text, booleans, nulls, a list of strings,
 * a struct), with lines of other forms among them: keys in another order or
 * missing, nulls for every column, escapes, surrogate pairs and other
 * non-ASCII text, integers at the edges of INT64, doubles with exponents.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { convert } from '../../src/node/entries/convert.js';
import { DuckFiles, sqlIdent, sqlString } from '../reader/helpers.js';
import { xorshift } from '../../bench/convert-data.js';
import { textoutLines } from '../../bench/textout-data.js';

let files: DuckFiles;
before(async () => {
  files = await DuckFiles.create();
});
after(() => files.close());

/** A relation's columns (name, DuckDB type) and its rows as normalised text, in order. */
async function normalised(relation: string): Promise<{ columns: string[][]; rows: Array<Array<string | null>> }> {
  const described = (await files.duck.runAndReadAll(`DESCRIBE SELECT * FROM ${relation}`)).getRowObjectsJson();
  // Integers by their digits: DuckDB takes 9223372036854775807 for UBIGINT, and a column with it and negatives for HUGEINT.
  const columns = described.map((r) => [String(r.column_name), String(r.column_type).replace(/^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT)$/, 'an integer')]);
  const exprs = columns.map(([c, t]) => {
    const q = sqlIdent(c!);
    if (t === 'DOUBLE') return `CAST(${q} AS VARCHAR)`;
    if (t!.startsWith('TIMESTAMP')) return `strftime(CAST(${q} AS TIMESTAMP), '%Y-%m-%dT%H:%M:%S.%f')`;
    return `CAST(${q} AS VARCHAR)`;
  });
  const reader = await files.duck.runAndReadAll(`SELECT ${exprs.join(', ')} FROM ${relation}`);
  return { columns, rows: reader.getRows().map((r) => r.map((v) => (v === null ? null : String(v)))) };
}

/** The bench's lines, with one in about 40 of another form. */
function lines(count: number): string[] {
  const next = xorshift(77);
  const odd = [
    (o: Record<string, unknown>) => JSON.stringify(Object.fromEntries(Object.entries(o).reverse())),
    (o: Record<string, unknown>) => JSON.stringify({ id: o.id, tags: o.tags }),
    (o: Record<string, unknown>) => JSON.stringify(Object.fromEntries(Object.keys(o).map((k) => [k, k === 'id' ? o.id : null]))),
    (o: Record<string, unknown>) => JSON.stringify({ ...o, name: `tab\there "quoted" back\\slash \u00e9\u20ac \ud83d\ude00 \u0001` }),
    (o: Record<string, unknown>) => JSON.stringify(o).replace(/"name":"[^"]*"/, '"name":"\\u00e9\\ud83d\\ude00 \\n\\/"'),
    (o: Record<string, unknown>) => JSON.stringify(o).replace(/"id":\d+/, `"id":${next() % 2 ? '9223372036854775807' : '-9223372036854775808'}`),
    (o: Record<string, unknown>) => JSON.stringify(o).replace(/"score":[^,]*/, `"score":${['1e300', '-2.5E-3', '4.9e-324', '1.7976931348623157e308', '0.30000000000000004', '-0.0', '123456789012345678'][next() % 7]}`),
    (o: Record<string, unknown>) => JSON.stringify({ ...o, tags: [], place: { zip: 1 } }),
    (o: Record<string, unknown>) => ` ${JSON.stringify(o, null, 1).replaceAll('\n', ' ')} \r`,
  ];
  const out: string[] = [];
  for (const text of textoutLines(count, 91)) {
    const r = next();
    out.push(r % 40 === 0 && out.length > 1000 ? odd[(r >>> 8) % odd.length]!(JSON.parse(text) as Record<string, unknown>) : text);
  }
  return out;
}

test('JSON Lines to Parquet: the rows and types DuckDB reads from the same lines', { timeout: 180_000 }, async () => {
  const input = join(files.dir, 'in.jsonl');
  writeFileSync(input, lines(12_000).join('\n') + '\n');
  const ours = join(files.dir, 'ours.parquet');
  const report = await convert(input, ours, { from: 'jsonl', strict: true });
  assert.equal(report.numRows, 12_000);
  const expected = await normalised(`read_json(${sqlString(input)})`);
  const got = await normalised(`read_parquet(${sqlString(ours)})`);
  assert.deepEqual(got.columns, expected.columns, 'the columns and their types, in the input\'s order');
  assert.equal(got.rows.length, expected.rows.length);
  for (let i = 0; i < expected.rows.length; i++) assert.deepEqual(got.rows[i], expected.rows[i], `row ${i + 1}`);
});
