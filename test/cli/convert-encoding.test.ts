/**
 * `convert --encoding COL=NAME` and `--float-order`: each column written in
 * the encoding asked for (every page header says so), the values reading
 * back as DuckDB reads the input;
 * total-order statistics on the float columns only; a name the writer does
 * not have, a column the output does not have and an encoding the column's
 * type cannot take are usage errors naming what is allowed.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidArgumentError, openParquet } from '../../src/node/index.js';
import { convert } from '../../src/node/entries/convert.js';
import { chunkPages } from '../../src/parquet/inspect/page-headers.js';
import { checkStatistics } from '../../src/parquet/inspect/check-stats.js';
import { DuckFiles } from '../reader/helpers.js';
import { ok, run } from './run-cli.js';

let dir = '';
let csv = '';
const ROWS = 300;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'parquetry-encoding-'));
  csv = join(dir, 'in.csv');
  const lines = ['i,big,d,f,s'];
  for (let i = 0; i < ROWS; i++) lines.push(`${i * 7 - 900},${BigInt(i) * 10_000_000_000n},${i % 10 === 0 ? '-0.0' : (i / 8).toFixed(3)},${i / 4},w${i % 13}`);
  writeFileSync(csv, lines.join('\n') + '\n');
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** The encodings of each column's data pages, from the page headers. */
async function pageEncodings(path: string): Promise<Record<string, string[]>> {
  const r = await openParquet(path);
  const out: Record<string, string[]> = {};
  for (const leaf of r.schema.leaves) {
    const chunk = r.file.metadata.rowGroups[0]!.columns[leaf.columnIndex]!;
    const { pages } = await chunkPages(r.file, r.file.bytes, { rowGroup: 0, leaf, chunk, column: leaf.path.join('.') });
    out[leaf.path.join('.')] = [...new Set(pages.filter((p) => p.type !== 'dictionary').map((p) => String(p.encoding)))];
  }
  await r.close();
  return out;
}

describe('convert --encoding', () => {
  test('BYTE_STREAM_SPLIT on INT32, INT64 and DOUBLE, ALP on FLOAT, DELTA on strings, the dictionary kept where asked; values unchanged', async () => {
    const out = join(dir, 'bss.parquet');
    await ok('convert', csv, out, '-q', '--type', 'i=int32', '--type', 'f=float',
      '--encoding', 'i=BYTE_STREAM_SPLIT', '--encoding', 'big=byte_stream_split', '--encoding', 'd=BYTE_STREAM_SPLIT',
      '--encoding', 'f=alp', '--encoding', 's=DELTA_BYTE_ARRAY');
    assert.deepEqual(await pageEncodings(out), { i: ['BYTE_STREAM_SPLIT'], big: ['BYTE_STREAM_SPLIT'], d: ['BYTE_STREAM_SPLIT'], f: ['ALP'], s: ['DELTA_BYTE_ARRAY'] });
    // The CSV as DuckDB reads it is the truth (DuckDB 1.5 reads neither BYTE_STREAM_SPLIT on integers nor ALP: our reader reads the output).
    const duck = await DuckFiles.create();
    const text = (v: unknown) => JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? String(x) : Object.is(x, -0) ? '-0' : x));
    try {
      const csvRows = (await duck.duck.runAndReadAll(`SELECT i::INTEGER, big::BIGINT, d::DOUBLE, f::FLOAT, s FROM read_csv('${csv}', all_varchar = true)`)).getRows();
      const r = await openParquet(out);
      const rows = (await r.readRows()).map((x) => [x.i, x.big, x.d, x.f, x.s]);
      await r.close();
      assert.equal(text(rows), text(csvRows));
    } finally {
      duck.close();
    }
    // A Parquet input is rewritten in the encodings asked for; RLE_DICTIONARY keeps (here: restores) the dictionary.
    const again = join(dir, 'again.parquet');
    await ok('convert', out, again, '-q', '--encoding', 'd=PLAIN', '--encoding', 's=RLE_DICTIONARY', '--encoding', 'i=DELTA_BINARY_PACKED');
    const enc = await pageEncodings(again);
    assert.deepEqual([enc.i, enc.d, enc.s], [['DELTA_BINARY_PACKED'], ['PLAIN'], ['RLE_DICTIONARY']]);
    const [a, b] = await Promise.all([openParquet(out), openParquet(again)]);
    assert.deepEqual(await b.readRows(), await a.readRows());
    await Promise.all([a.close(), b.close()]);
  });

  test('usage errors: an encoding the type cannot take, a column the output lacks, a name the writer lacks, a non-Parquet output', async () => {
    const out = join(dir, 'bad.parquet');
    const cases: [string[], string][] = [
      [['--encoding', 's=BYTE_STREAM_SPLIT'], "parquetry: --encoding s=BYTE_STREAM_SPLIT: column s is BYTE_ARRAY, whose encodings are PLAIN, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY, RLE_DICTIONARY (see 'parquetry convert --help')\n"],
      [['--encoding', 'd=DELTA_BINARY_PACKED'], "parquetry: --encoding d=DELTA_BINARY_PACKED: column d is DOUBLE, whose encodings are PLAIN, BYTE_STREAM_SPLIT, ALP, RLE_DICTIONARY (see 'parquetry convert --help')\n"],
      [['--encoding', 'nope=PLAIN'], "parquetry: --encoding nope=PLAIN: the output has no leaf column nope (a struct's leaves are named as a.b) (see 'parquetry convert --help')\n"],
      [['--encoding', 'd=GORILLA'], `parquetry: option '--encoding <col=name>' argument 'd=GORILLA' is invalid: the encoding "GORILLA" is not one of PLAIN, RLE, DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT, ALP, RLE_DICTIONARY (see 'parquetry convert --help')\n`],
      [['--float-order', 'ieee'], "parquetry: option '--float-order <type|total>' argument 'ieee' is invalid: must be type or total (see 'parquetry convert --help')\n"],
    ];
    for (const [args, err] of cases) {
      const r = await run('convert', csv, out, '-q', ...args);
      assert.deepEqual([r.code, r.err], [1, err], args.join(' '));
    }
    const r = await run('convert', csv, join(dir, 'x.csv'), '-q', '--encoding', 'd=PLAIN', '--float-order', 'total');
    assert.deepEqual([r.code, r.err], [1, "parquetry: --encoding, --float-order apply to Parquet output only (see 'parquetry convert --help')\n"]);
  });
});

describe('convert --float-order', () => {
  test('total: IEEE_754_TOTAL_ORDER and NaN counts on the float columns, TYPE_ORDER on the others; check-stats finds no lie', async () => {
    const out = join(dir, 'total.parquet');
    await ok('convert', csv, out, '-q', '--type', 'f=float', '--float-order', 'total');
    const r = await openParquet(out);
    const orders = Object.fromEntries(r.schema.leaves.map((l) => [l.path.join('.'), r.file.metadata.columnOrders![l.columnIndex]!.type]));
    assert.deepEqual(orders, { i: 'TYPE_ORDER', big: 'TYPE_ORDER', d: 'IEEE_754_TOTAL_ORDER', f: 'IEEE_754_TOTAL_ORDER', s: 'TYPE_ORDER' });
    const d = r.file.metadata.rowGroups[0]!.columns[2]!.metaData!.statistics!;
    assert.equal(d.nanCount, 0);
    // -0.0 is in the data, so total order's min is -0 (TYPE_ORDER writes -0 for any zero min).
    assert.deepEqual([...d.minValue!], [0, 0, 0, 0, 0, 0, 0, 0x80]);
    assert.deepEqual((await checkStatistics(r.file)).lies, []);
    await r.close();
  });
});

describe('convert() options encoding and floatOrder (the library twins of --encoding and --float-order)', () => {
  test('the same encodings and column orders as the command writes', async () => {
    const out = join(dir, 'lib.parquet');
    await convert(csv, out, {
      types: ['i=int32', 'f=float'], floatOrder: 'total',
      encoding: { i: 'BYTE_STREAM_SPLIT', big: 'delta_binary_packed', d: 'BYTE_STREAM_SPLIT', f: 'ALP', s: 'RLE_DICTIONARY' },
    });
    assert.deepEqual(await pageEncodings(out), { i: ['BYTE_STREAM_SPLIT'], big: ['DELTA_BINARY_PACKED'], d: ['BYTE_STREAM_SPLIT'], f: ['ALP'], s: ['RLE_DICTIONARY'] });
    const cli = join(dir, 'cli.parquet');
    await ok('convert', csv, cli, '-q', '--type', 'i=int32', '--type', 'f=float', '--float-order', 'total',
      '--encoding', 'i=BYTE_STREAM_SPLIT', '--encoding', 'big=DELTA_BINARY_PACKED', '--encoding', 'd=BYTE_STREAM_SPLIT', '--encoding', 'f=ALP', '--encoding', 's=RLE_DICTIONARY');
    const [a, b] = await Promise.all([openParquet(out), openParquet(cli)]);
    assert.deepEqual(a.file.metadata.columnOrders, b.file.metadata.columnOrders);
    assert.equal(a.file.metadata.columnOrders![2]!.type, 'IEEE_754_TOTAL_ORDER');
    assert.deepEqual(a.file.metadata.rowGroups[0]!.columns.map((c) => c.metaData!.statistics), b.file.metadata.rowGroups[0]!.columns.map((c) => c.metaData!.statistics));
    assert.deepEqual(await a.readRows(), await b.readRows());
    assert.deepEqual((await checkStatistics(a.file)).lies, []);
    await Promise.all([a.close(), b.close()]);
  });

  test('refusals: an unknown name, an encoding the type cannot take, a text output', async () => {
    await assert.rejects(convert(csv, join(dir, 'x1.parquet'), { encoding: { i: 'ZIGZAG' } }), (e: unknown) => e instanceof InvalidArgumentError && /ZIGZAG.*is not one of PLAIN/.test(e.message));
    await assert.rejects(convert(csv, join(dir, 'x2.parquet'), { encoding: { s: 'BYTE_STREAM_SPLIT' } }), InvalidArgumentError);
    await assert.rejects(convert(csv, join(dir, 'x3.csv'), { floatOrder: 'total' }), (e: unknown) => e instanceof InvalidArgumentError && /floatOrder applies to Parquet output only/.test(e.message));
  });
});
