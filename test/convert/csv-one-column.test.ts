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

test('a one-column CSV with empty lines, in the sample and past it (read from bytes, in blocks), one, two and three threads: the rows DuckDB reads', { timeout: 120_000 }, async () => {
  for (const nl of ['\n', '\r\n']) {
    // 400,000 rows (about 2.7 MB): past the first 256 KiB read as text, blocks of 1 MiB read from their bytes, by
    // workers with three threads; every 7th row is empty, and some are quoted across lines.
    const lines = ['n'];
    for (let i = 0; i < 400_000; i++) lines.push(i % 7 === 3 ? '' : i % 1001 === 5 ? `"two${nl}lines"` : String(i));
    const csv = join(files.dir, 'one.csv');
    writeFileSync(csv, lines.join(nl) + nl);
    const expected = await values(`read_csv(${sqlString(csv)}, header = true)`);
    assert.equal(expected.length, 400_000);
    const out = [1, 2, 3].map((threads) => join(files.dir, `one-${threads}.parquet`));
    for (const [i, path] of out.entries()) {
      const report = await convert(csv, path, { strict: true, threads: i + 1 });
      assert.equal(report.numRows, 400_000, `${JSON.stringify(nl)}, ${i + 1} thread(s)`);
    }
    assert.deepEqual(readFileSync(out[1]!), readFileSync(out[0]!), 'the same bytes with two threads');
    assert.deepEqual(readFileSync(out[2]!), readFileSync(out[0]!), 'the same bytes with three threads');
    assert.deepEqual(await values(`read_parquet(${sqlString(out[0]!)})`), expected);
  }
});

test('no header row and the columns declared: the declared width, not the first record, says whether empty lines are null rows', async () => {
  const rows = async (text: string, schema: Record<string, unknown>): Promise<unknown[]> => {
    const csv = join(files.dir, 'declared.csv');
    writeFileSync(csv, text);
    const out = join(files.dir, 'declared.parquet');
    await convert(csv, out, { header: false, schema, strict: false });
    return values(`read_parquet(${sqlString(out)})`);
  };
  // One column declared, a first record of two cells (a bad row): the empty lines after it are null rows.
  assert.deepEqual(await rows('1,2\n\n1\n\n3\n', { a: 'string' }), [null, '1', null, '3']);
  // Two columns declared, a first record of one cell (a bad row): the empty lines are skipped, not bad rows.
  const csv = join(files.dir, 'declared2.csv');
  writeFileSync(csv, '1\n\n1,2\n\n3,4\n');
  const report = await convert(csv, join(files.dir, 'declared2.parquet'), { header: false, schema: { a: 'string', b: 'string' }, strict: false });
  assert.equal(report.numRows, 2);
  assert.equal(report.badRows, 1);
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
