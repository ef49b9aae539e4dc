/**
 * `convert --columns`: parquet-java's prune as a projection of the input.
 * The output holds the kept columns only (DuckDB sees just those), with the
 * values DuckDB reads from the input for them; the other writer options
 * apply as in any rewrite (trans-compression).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckFiles } from '../reader/helpers.js';
import { run } from './run-cli.js';

const SAMPLE = 'examples/fixtures/sample.parquet';


// DuckDB in memory and a temp files.dir for the files written, removed after (the reader tests' fixture).
let files: DuckFiles;
before(async () => {
  files = await DuckFiles.create();
});
after(() => files?.close());

const rows = async (sql: string) => (await files.duck.runAndReadAll(sql)).getRowObjectsJson();

test('Parquet to Parquet keeps only the named columns, nested ones with their groups, recompressed', async () => {
  const out = join(files.dir, 'pruned.parquet');
  const r = await run('convert', SAMPLE, out, '--columns', 'id,address.city,tags', '--codec', 'ZSTD', '-q');
  assert.equal(r.code, 0, r.err);
  const described = await rows(`DESCRIBE SELECT * FROM read_parquet('${out}')`);
  assert.deepEqual(described.map((d) => [d.column_name, d.column_type]), [['id', 'BIGINT'], ['tags', 'BIGINT[]'], ['address', 'STRUCT(city VARCHAR)']]);
  assert.deepEqual(
    await rows(`SELECT id, tags, address FROM read_parquet('${out}') ORDER BY id`),
    await rows(`SELECT id, tags, {'city': address.city} AS address FROM read_parquet('${SAMPLE}') ORDER BY id`),
  );
  const codecs = await rows(`SELECT DISTINCT compression FROM parquet_metadata('${out}')`);
  assert.deepEqual(codecs, [{ compression: 'ZSTD' }]);
});

test('Parquet to CSV writes only the named columns', async () => {
  const out = join(files.dir, 'pruned.csv');
  assert.equal((await run('convert', SAMPLE, out, '--columns', 'fruit,id', '-q')).code, 0);
  const got = await rows(`SELECT * FROM read_csv('${out}')`);
  assert.deepEqual(Object.keys(got[0]!), ['id', 'fruit']);
  assert.deepEqual(got, await rows(`SELECT id, fruit FROM read_parquet('${SAMPLE}')`));
});

test('Trevni to CSV writes only the named columns, as the whole file\'s rows have them', async () => {
  const trv = join(files.dir, 'sample.trv');
  assert.equal((await run('convert', SAMPLE, trv, '-q')).code, 0);
  const whole = join(files.dir, 'whole.csv');
  const pruned = join(files.dir, 'pruned-trevni.csv');
  assert.equal((await run('convert', trv, whole, '-q')).code, 0);
  assert.equal((await run('convert', trv, pruned, '--columns', 'price,id', '-q')).code, 0);
  const got = await rows(`SELECT * FROM read_csv('${pruned}')`);
  assert.deepEqual(Object.keys(got[0]!), ['id', 'price']);
  assert.deepEqual(got, await rows(`SELECT id, price FROM read_csv('${whole}')`));
  assert.equal(got.length, (await rows(`SELECT id FROM read_parquet('${SAMPLE}')`)).length);
  assert.match((await run('convert', trv, join(files.dir, 'z.csv'), '--columns', 'nope')).err, /no column "nope"/);
});

test('--columns is for Parquet, Trevni and RedElm inputs; an unknown column is named', async () => {
  const csv = join(files.dir, 'in.csv');
  writeFileSync(csv, 'a,b\n1,2\n');
  const r = await run('convert', csv, join(files.dir, 'x.parquet'), '--columns', 'a');
  assert.equal(r.code, 1);
  assert.match(r.err, /^parquetry: --columns applies to Parquet, Trevni and RedElm inputs only/);
  assert.match((await run('convert', SAMPLE, join(files.dir, 'y.parquet'), '--columns', 'nope')).err, /no column "nope"/);
});
