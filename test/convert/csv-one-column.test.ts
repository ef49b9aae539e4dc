/**
 * A CSV of one column: an empty line is a record of one empty cell, a null,
 * as DuckDB's read_csv reads it and as our CSV writer writes a null there
 * (so Parquet → CSV → Parquet keeps every row). Empty lines were skipped
 * in every table, which dropped those nulls: 3 rows of a, null, b came back
 * as 2. Tables of more columns still skip empty lines (DuckDB does too), and
 * lines before the first record are skipped in both.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { convert } from '../../src/node/entries/convert.js';
import { CsvTokenizer } from '../../src/convert/csv-tokenizer.js';
import { DuckFiles, sqlString } from '../reader/helpers.js';

let files: DuckFiles;
before(async () => {
  files = await DuckFiles.create();
});
after(() => files.close());

const cells = (text: string): Array<string[] | string> => {
  const out: Parameters<CsvTokenizer['feed']>[1] = [];
  const t = new CsvTokenizer({ delimiter: ',', relaxQuotes: false });
  t.feed(text, out);
  t.finish(out);
  return out.map((r) => r.error ?? r.cells);
};

test('the tokenizer: empty lines are nulls after a first record of one cell, skipped after a wider one and before the first', () => {
  assert.deepEqual(cells('a\n\n\n""\nb'), [['a'], [''], [''], [''], ['b']]);
  assert.deepEqual(cells('\r\n\r\na\r\n1\r\n\r\n2\r\n'), [['a'], ['1'], [''], ['2']]);
  assert.deepEqual(cells('a\r1\r\r'), [['a'], ['1'], ['']]);
  assert.deepEqual(cells('a,b\n\n1,2\n\n'), [['a', 'b'], ['1', '2']]);
});

/** The column's values as DuckDB reads `relation`, in order. */
async function values(relation: string): Promise<Array<string | null>> {
  const reader = await files.duck.runAndReadAll(`SELECT CAST(COLUMNS(*) AS VARCHAR) FROM ${relation}`);
  return reader.getRows().map((r) => (r[0] === null ? null : String(r[0])));
}

test('a one-column CSV with empty lines, in the sample and past it (read from bytes), one and two threads: the rows DuckDB reads', async () => {
  for (const nl of ['\n', '\r\n']) {
    // 3000 rows: those past the sample of 1000 are read by the byte scan; every 7th is empty.
    const lines = ['n'];
    for (let i = 0; i < 3000; i++) lines.push(i % 7 === 3 ? '' : String(i));
    const csv = join(files.dir, 'one.csv');
    writeFileSync(csv, lines.join(nl) + nl);
    const expected = await values(`read_csv(${sqlString(csv)}, header = true)`);
    assert.equal(expected.length, 3000);
    const out = [1, 2].map((threads) => join(files.dir, `one-${threads}.parquet`));
    for (const [i, path] of out.entries()) {
      const report = await convert(csv, path, { strict: true, threads: i + 1 });
      assert.equal(report.numRows, 3000, `${JSON.stringify(nl)}, ${i + 1} thread(s)`);
    }
    assert.deepEqual(readFileSync(out[1]!), readFileSync(out[0]!), 'the same bytes whatever the threads');
    assert.deepEqual(await values(`read_parquet(${sqlString(out[0]!)})`), expected);
  }
});

test('Parquet of one nullable column → CSV → Parquet keeps the null rows', async () => {
  const source = await files.write('nulls.parquet', `SELECT CASE WHEN i % 5 = 0 THEN NULL ELSE i END AS v FROM range(2500) t(i)`);
  const csv = join(files.dir, 'nulls.csv');
  const back = join(files.dir, 'back.parquet');
  await convert(source, csv);
  const report = await convert(csv, back, { strict: true });
  assert.equal(report.numRows, 2500);
  assert.deepEqual(await values(`read_parquet(${sqlString(back)})`), await values(`read_parquet(${sqlString(source)})`));
});
