/**
 * `parquetry convert IN OUTDIR --partition-by ...` and `convert()` with a
 * dataset layout: a file DuckDB writes (many types, nulls, awkward partition
 * values) converted to a partitioned dataset, which DuckDB reads back equal to
 * the file, row for row and type for type, pruning by partition.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { BufferSink } from '../../src/io/sink.js';
import { convert, InvalidArgumentError } from '../../src/node/index.js';
import { convert as portableConvert } from '../../src/index.js';
import { duckAndTempDir, footerOf } from '../dataset/setup.js';
import { run } from './run-cli.js';

const env = duckAndTempDir('parquetry-convert-dataset-');

const COLUMNS = 'id, k, n, d, dt, ts, s, l, st, b, f';

/** DuckDB writes the input: every type below, nulls, and partition values that need encoding. */
async function source(): Promise<string> {
  const path = join(env.root, 'source.parquet');
  await env.db.run(`COPY (SELECT i::BIGINT AS id,
      (['a/b', 'x=y', 'São Paulo', 'NULL', '__HIVE_DEFAULT_PARTITION__', '', 'plain', NULL])[i % 8 + 1] AS k,
      CASE WHEN i % 5 = 0 THEN NULL ELSE (i % 3)::INTEGER END AS n,
      (i / 7)::DECIMAL(9, 2) AS d, DATE '2024-01-01' + (i % 400)::INTEGER AS dt, TIMESTAMP '2024-01-01 00:00:00' + to_seconds(i * 37) AS ts,
      CASE WHEN i % 11 = 0 THEN NULL ELSE 'v' || i END AS s, [i, i + 1]::INTEGER[] AS l, {'a': i::INTEGER, 'b': 'b' || (i % 9)} AS st,
      ('\\x' || lpad(to_hex(i % 256), 2, '0'))::BLOB AS b, i / 3.0 AS f
    FROM range(4000) t(i)) TO '${path}' (FORMAT parquet)`);
  return path;
}

function dataset(dir: string): string {
  return `read_parquet('${dir}/**/*.parquet', hive_partitioning = true, hive_types = {'k': VARCHAR, 'n': INTEGER})`;
}

async function rows(sql: string): Promise<unknown[][]> {
  return (await env.db.runAndReadAll(sql)).getRowsJson() as unknown[][];
}

describe('convert to a dataset', () => {
  test('parquetry convert --partition-by: DuckDB reads the dataset equal to the input, row for row and type for type', async () => {
    const input = await source();
    const out = join(env.root, 'cli-out');
    const r = run('convert', input, out, '--partition-by', 'k,n', '--max-rows-per-file', '300', '--write-summary');
    assert.equal(r.code, 0, r.err);
    const parts = (await footerOf(join(out, '_metadata'))).rowGroups.map((rg) => rg.columns[0]!.filePath!);
    const files = new Set(parts);
    assert.match(r.err, new RegExp(`^wrote 4,000 rows in ${parts.length} row groups and ${files.size} files, .* to ${out} `));
    assert.deepEqual(await rows(`DESCRIBE SELECT ${COLUMNS} FROM ${dataset(out)}`), await rows(`DESCRIBE SELECT ${COLUMNS} FROM '${input}'`));
    for (const [a, b] of [[dataset(out), `'${input}'`], [`'${input}'`, dataset(out)]]) {
      assert.deepEqual(await rows(`SELECT count(*)::INTEGER FROM (SELECT ${COLUMNS} FROM ${a} EXCEPT ALL SELECT ${COLUMNS} FROM ${b})`), [[0]]);
    }
    // One directory per pair of values, null and the strings that look like it kept apart.
    assert.deepEqual(readdirSync(out).sort(), ['_common_metadata', '_metadata', 'k=', 'k=%4EULL', 'k=%5F_HIVE_DEFAULT_PARTITION__', 'k=S%C3%A3o%20Paulo', 'k=__HIVE_DEFAULT_PARTITION__', 'k=a%2Fb', 'k=plain', 'k=x%3Dy']);
    const plan = (await rows(`EXPLAIN ANALYZE SELECT id FROM ${dataset(out)} WHERE k = 'a/b' AND n = 1`)).map((x) => String(x[1])).join('\n');
    const expected = [...files].filter((f) => f.startsWith('k=a%2Fb/n=1/')).length;
    assert.ok(expected > 0);
    assert.match(plan, new RegExp(`Scanning Files:[\\s│]*${expected}/${files.size}\\b`));
  });

  test('convert() in code: a directory destination with a dataset layout, the report counting the parts', async () => {
    const input = await source();
    const out = join(env.root, 'lib-out');
    const report = await convert(input, out, { partitionBy: ['n'], maxRowsPerFile: 1000 });
    assert.equal(report.numRows, 4000);
    assert.equal(report.output, out);
    assert.equal(report.files, readdirSync(out).flatMap((d) => readdirSync(join(out, d))).length);
    assert.ok(report.files! >= 4);
    assert.deepEqual(await rows(`SELECT count(*)::INTEGER, count(n)::INTEGER FROM read_parquet('${out}/**/*.parquet', hive_partitioning = true)`), [[4000, 3200]]);
    // The portable entry has no directories: a dataset layout needs one.
    await assert.rejects(portableConvert(new Uint8Array(0), new BufferSink(), { from: 'csv', partitionBy: ['n'] }), (e: unknown) => e instanceof InvalidArgumentError && /directory/.test(e.message));
  });

  test('usage errors: dataset flags without a dataset, to stdout, encrypted, or not Parquet', async () => {
    const input = await source();
    const cases: [string[], RegExp][] = [
      [['--append'], /--append and --write-summary apply to a dataset output/],
      [['--partition-by', 'k', '--encrypt-footer-key', '00112233445566778899aabbccddeeff'], /a dataset output is not encrypted/],
      [['--partition-by', 'k', '--to', 'jsonl'], /a dataset is written as Parquet, not jsonl/],
      [['--partition-by', 'nope'], /partition column nope is not a top-level field of the schema/],
    ];
    for (const [flags, message] of cases) {
      const r = run('convert', input, join(env.root, 'usage-out'), ...flags);
      assert.equal(r.code, 1, flags.join(' '));
      assert.match(r.err, message);
    }
    const r = run('convert', input, '-', '--max-rows-per-file', '10');
    assert.match(r.err, /a dataset is written to a directory, not stdout/);
    assert.throws(() => readdirSync(join(env.root, 'usage-out')), /ENOENT/, 'nothing was created');
  });
});
