/**
 * Summary files (`_metadata`, `_common_metadata`) checked against the parts
 * they summarize: every row group of `_metadata` must be, field for field,
 * the row group of the part its `file_path` names, as that part's own footer
 * says (parts we write and parts DuckDB writes), in lexicographic part order.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { IOError, openParquet, UnsupportedError, writeParquet, writeSummaryFiles } from '../../src/node/index.js';
import { CorruptFileError } from '../../src/errors.js';
import { listDatasetFiles } from '../../src/node/dataset-files.js';
import { run } from '../cli/run-cli.js';
import { duckAndTempDir, footerOf } from './setup.js';

const env = duckAndTempDir('parquetry-summary-');

/** The parts a dataset directory holds, by a listing independent of the library's. */
function partsOf(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const entry of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const name = entry.name;
      if (name.startsWith('.') || name.startsWith('_')) continue;
      const p = rel ? `${rel}/${name}` : name;
      if (entry.isDirectory()) walk(p);
      else if (name.endsWith('.parquet')) out.push(p);
    }
  };
  walk('');
  return out.sort();
}

/** `_metadata` and `_common_metadata` of `dir` against each part's footer, field for field. */
async function checkSummary(dir: string): Promise<void> {
  const parts = partsOf(dir);
  assert.ok(parts.length >= 2, 'a dataset of several parts');
  const bytes = readFileSync(join(dir, '_metadata'));
  assert.deepEqual([...bytes.subarray(0, 4)], [0x50, 0x41, 0x52, 0x31], '_metadata starts with PAR1, as parquet-java writes it');
  const summary = await footerOf(join(dir, '_metadata'));
  const footers = await Promise.all(parts.map((p) => footerOf(join(dir, ...p.split('/')))));
  const expected = parts.flatMap((p, i) => footers[i]!.rowGroups.map((rg) => ({ path: p, rg })));
  assert.equal(summary.rowGroups.length, expected.length);
  summary.rowGroups.forEach((rg, i) => {
    const { path, rg: own } = expected[i]!;
    for (const chunk of rg.columns) assert.equal(chunk.filePath, path, `row group ${i}: every chunk names its part`);
    const stripped = { ...rg, columns: rg.columns.map(({ filePath: _, ...c }) => c) };
    assert.deepEqual(stripped, own, `row group ${i} is ${path}'s own row group`);
  });
  assert.equal(summary.numRows, footers.reduce((n, f) => n + f.numRows, 0));
  assert.deepEqual(summary.schema, footers[0]!.schema);
  assert.deepEqual(summary.keyValueMetadata, footers[0]!.keyValueMetadata);
  assert.equal(summary.createdBy, footers[0]!.createdBy);
  assert.deepEqual(summary.columnOrders, footers[0]!.columnOrders);

  const common = await footerOf(join(dir, '_common_metadata'));
  assert.deepEqual(common, { ...summary, numRows: 0, rowGroups: [] });
  // A reader takes _common_metadata for an empty file of the dataset's schema.
  const reader = await openParquet(join(dir, '_common_metadata'));
  assert.equal(reader.numRows, 0);
  assert.deepEqual(await reader.readRows(), []);
  await reader.close();
}

describe('writeSummaryFiles', () => {
  test('parts we write: _metadata holds each part footer\'s row groups with file_path set', async () => {
    const dir = join(env.root, 'ours');
    mkdirSync(join(dir, 'k=a'), { recursive: true });
    mkdirSync(join(dir, 'k=b'), { recursive: true });
    const rows = (n: number, from: number) => Array.from({ length: n }, (_, i) => ({ id: BigInt(from + i), name: i % 3 ? `n${from + i}` : null, tags: [`t${i % 4}`] }));
    const options = { rowGroupRows: 40, metadata: { origin: 'summary test' }, bloomFilters: { name: true as const } };
    await writeParquet(join(dir, 'k=b', 'part-0.parquet'), rows(100, 0), options);
    await writeParquet(join(dir, 'k=a', 'part-1.parquet'), rows(30, 100), options);
    await writeParquet(join(dir, 'k=a', 'part-0.parquet'), rows(90, 130), options);
    writeFileSync(join(dir, '_SUCCESS'), '');
    writeFileSync(join(dir, 'k=a', '.part-2.parquet.parquetry-tmp-0'), 'unfinished');
    const result = await writeSummaryFiles(dir);
    assert.deepEqual(result.parts, ['k=a/part-0.parquet', 'k=a/part-1.parquet', 'k=b/part-0.parquet']);
    assert.equal(result.metadata.numRows, 220);
    await checkSummary(dir);
  });

  test('parts DuckDB writes (COPY ... PARTITION_BY): the same, field for field', async () => {
    const dir = join(env.root, 'duck');
    await env.db.run(`COPY (SELECT i % 3 AS year, i::BIGINT AS id, 'v' || i AS s, CASE WHEN i % 5 = 0 THEN NULL ELSE i / 7 END AS d, [i, i + 1] AS l
      FROM range(30000) t(i)) TO '${dir}' (FORMAT parquet, PARTITION_BY (year), ROW_GROUP_SIZE 4096)`);
    const result = await writeSummaryFiles(dir);
    assert.equal(result.parts.length, 3);
    assert.equal(result.metadata.numRows, 30000);
    assert.ok(result.metadata.rowGroups.length > 3, 'several row groups per part');
    await checkSummary(dir);
  });

  test('parts that disagree in schema are refused, both named; the summaries there stay as they were', async () => {
    const dir = join(env.root, 'mismatch');
    mkdirSync(dir);
    await writeParquet(join(dir, 'a.parquet'), [{ id: 1n, x: 'a' }]);
    await writeParquet(join(dir, 'b.parquet'), [{ id: 2n, x: 'b' }]);
    await writeSummaryFiles(dir);
    const before = readFileSync(join(dir, '_metadata'));
    await writeParquet(join(dir, 'c.parquet'), [{ id: 3n, x: 3 }]);
    await assert.rejects(writeSummaryFiles(dir), (e: unknown) => {
      assert.ok(e instanceof UnsupportedError);
      assert.match(e.message, /a\.parquet and c\.parquet have different schemas \(column x differs in type\)/);
      return true;
    });
    assert.deepEqual(readFileSync(join(dir, '_metadata')), before);
  });

  test('key-value metadata with two values for one key is refused, as parquet-java refuses it', async () => {
    const dir = join(env.root, 'kv');
    mkdirSync(dir);
    await writeParquet(join(dir, 'a.parquet'), [{ id: 1n }], { metadata: { run: '1' } });
    await writeParquet(join(dir, 'b.parquet'), [{ id: 2n }], { metadata: { run: '2' } });
    await assert.rejects(writeSummaryFiles(dir), /parts a\.parquet and b\.parquet give key-value metadata "run" different values/);
  });

  test('a file that is not Parquet fails, named; ignoreInvalidFiles leaves it out and says so', async () => {
    const dir = join(env.root, 'invalid');
    mkdirSync(dir);
    await writeParquet(join(dir, 'a.parquet'), [{ id: 1n }]);
    await writeParquet(join(dir, 'c.parquet'), [{ id: 2n }]);
    writeFileSync(join(dir, 'b.txt'), 'not parquet at all');
    await assert.rejects(writeSummaryFiles(dir), (e: unknown) => e instanceof CorruptFileError && e.context.file === join(dir, 'b.txt'));
    const result = await writeSummaryFiles(dir, { ignoreInvalidFiles: true });
    assert.deepEqual(result.parts, ['a.parquet', 'c.parquet']);
    assert.deepEqual(result.skipped.map((s) => s.path), ['b.txt']);
    await checkSummary(dir);
  });

  test('a symbolic link loop is refused, naming the link', async () => {
    const dir = join(env.root, 'loop');
    mkdirSync(join(dir, 'sub'), { recursive: true });
    await writeParquet(join(dir, 'sub', 'a.parquet'), [{ id: 1n }]);
    symlinkSync('..', join(dir, 'sub', 'back'));
    await assert.rejects(listDatasetFiles(dir), (e: unknown) => e instanceof IOError && e.message.includes(join(dir, 'sub', 'back')) && /loop/.test(e.message));
  });

  test('parts outside the directory are a caller mistake', async () => {
    await assert.rejects(writeSummaryFiles(join(env.root, 'ours'), { parts: ['../duck/year=0/data_0.parquet'] }), /is not inside/);
  });

  test('a part whose name no reader would take as a file_path (a backslash, an escaped ..) is refused before anything is written', async () => {
    for (const name of ['a\\b', '%2e%2e', '%252E%252e']) {
      const dir = join(env.root, `refused-${readdirSync(env.root).length}`);
      mkdirSync(join(dir, name), { recursive: true });
      await writeParquet(join(dir, 'ok.parquet'), [{ id: 1n }]);
      await writeParquet(join(dir, name, 'p.parquet'), [{ id: 2n }]);
      await assert.rejects(writeSummaryFiles(dir), (e: unknown) => e instanceof UnsupportedError && e.message.includes(`${name}/p.parquet`), name);
      assert.deepEqual(readdirSync(dir).filter((f) => f.startsWith('_')), [], `${name}: nothing written`);
    }
  });

  test('parquetry summary DIR writes both files and prints what it did', async () => {
    const dir = join(env.root, 'cli');
    mkdirSync(dir);
    await writeParquet(join(dir, 'a.parquet'), [{ id: 1n }, { id: 2n }]);
    await writeParquet(join(dir, 'b.parquet'), [{ id: 3n }]);
    const r = run('summary', dir, '--json');
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(JSON.parse(r.out), { written: [join(dir, '_common_metadata'), join(dir, '_metadata')], parts: 2, rowGroups: 2, numRows: 3, skipped: [] });
    await checkSummary(dir);
    const bad = run('summary', join(env.root, 'mismatch'));
    assert.equal(bad.code, 1);
    assert.match(bad.err, /^parquetry: parts a\.parquet and c\.parquet have different schemas/);
  });
});
