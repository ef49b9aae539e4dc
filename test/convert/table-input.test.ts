/**
 * `convert` opens a table input (Parquet, Trevni, RedElm, a dataset)
 * through `openTable`: every format gives the rows DuckDB reads from the
 * same Parquet, a dataset's progress has its total from the open, a
 * Parquet rewrite keeps the file's key-value metadata, and the read options
 * reach the formats they apply to.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BufferSink, ChecksumError, InvalidArgumentError, defineSchema, field, openParquet, ParquetWriter } from '../../src/node/index.js';
import { convert, type ConvertProgress } from '../../src/node/entries/convert.js';
import { DuckFiles } from '../reader/helpers.js';

const files = await DuckFiles.create();
after(() => files.close());

const schema = defineSchema({ id: field.int64().required(), name: field.string(), day: field.date() });
const row = (i: number) => ({ id: BigInt(i), name: i % 5 ? `n${i}` : null, day: i % 7 ? 19000 + i : null });

async function parquet(rows: number, first = 0, metadata?: Record<string, string>): Promise<Uint8Array> {
  const sink = new BufferSink();
  const w = await ParquetWriter.open(sink, schema, { rowGroupRows: 300, ...(metadata ? { metadata } : {}) });
  for (let i = first; i < first + rows; i++) await w.write(row(i));
  await w.close();
  return sink.bytes();
}

/** DuckDB's rows of a Parquet file, as JSON Lines text of `id,name,day` (dates as ISO text, or `days` since the epoch: RedElm has no DATE). */
async function duckLines(path: string, days = false): Promise<string[]> {
  const day = days ? "datediff('day', DATE '1970-01-01', day)::INTEGER" : "strftime(day, '%Y-%m-%d')";
  const r = await files.duck.runAndReadAll(`SELECT id::VARCHAR AS sid, name, ${day} AS iso FROM '${path}' ORDER BY id`);
  return r.getRowObjectsJson().map((o) => JSON.stringify({ id: o.sid, name: o.name, day: o.iso }));
}

async function jsonl(source: string): Promise<string[]> {
  const out = new BufferSink();
  await convert(source, out, { to: 'jsonl' });
  return new TextDecoder().decode(out.bytes()).trim().split('\n').map((l) => {
    const o = JSON.parse(l);
    return JSON.stringify({ id: String(o.id), name: o.name, day: o.day });
  });
}

test('every table format converts to the rows DuckDB reads from the Parquet it came from', async () => {
  const src = join(files.dir, 'src.parquet');
  writeFileSync(src, await parquet(1000));
  const expected = await duckLines(src);
  assert.deepEqual(await jsonl(src), expected, 'parquet');
  for (const to of ['trv', 'redelm']) {
    const path = join(files.dir, `src.${to}`);
    await convert(src, path);
    assert.deepEqual(await jsonl(path), to === 'redelm' ? await duckLines(src, true) : expected, to);
  }
  const dir = join(files.dir, 'ds');
  mkdirSync(dir);
  writeFileSync(join(dir, 'a.parquet'), await parquet(400));
  writeFileSync(join(dir, 'b.parquet'), await parquet(600, 400));
  assert.deepEqual(await jsonl(dir), expected, 'dataset');
});

test("a dataset's progress runs to its total, counted at open", async () => {
  const dir = join(files.dir, 'progress');
  mkdirSync(dir);
  writeFileSync(join(dir, 'a.parquet'), await parquet(5000));
  writeFileSync(join(dir, 'b.parquet'), await parquet(5000, 5000));
  const progress: ConvertProgress[] = [];
  await convert(dir, new BufferSink(), { to: 'csv', onProgress: (p) => progress.push(p) });
  assert.ok(progress.length > 1);
  assert.ok(progress.every((p) => p.fraction !== undefined && p.fraction >= 0 && p.fraction <= 1), JSON.stringify(progress.slice(0, 3)));
  assert.equal(progress.at(-1)!.fraction, 1);
});

test('a Parquet rewrite keeps the key-value metadata; the read options reach the formats they apply to', async () => {
  const bytes = await parquet(1000, 0, { origin: 'test', empty: '' });
  const out = new BufferSink();
  await convert(bytes, out, { to: 'parquet' });
  const kv = (await openParquet(out.bytes())).file.metadata.keyValueMetadata ?? [];
  assert.deepEqual(kv.filter((e) => e.key === 'origin' || e.key === 'empty').map((e) => [e.key, e.value ?? '']), [['origin', 'test'], ['empty', '']]);
  // A page's bytes changed: refused with the checksum verified, read without.
  const reader = await openParquet(bytes);
  const page = (await reader.file.readOffsetIndex(1, 'name'))!.pageLocations[0]!;
  const damaged = bytes.slice();
  damaged[page.offset + page.compressedPageSize - 1] ^= 0x01;
  await assert.rejects(convert(damaged, new BufferSink(), { to: 'jsonl' }), (e: unknown) => e instanceof ChecksumError);
  await convert(damaged, new BufferSink(), { to: 'jsonl', verifyChecksums: false });
  // RedElm has no checksums to verify: the option is refused for it, naming it, before anything opens.
  const red = join(files.dir, 'red.redelm');
  writeFileSync(join(files.dir, 'for-red.parquet'), bytes);
  await convert(join(files.dir, 'for-red.parquet'), red);
  await assert.rejects(convert(new Uint8Array(readFileSync(red)), new BufferSink(), { to: 'jsonl', verifyChecksums: false }), (e: unknown) => e instanceof InvalidArgumentError && /verifyChecksums/.test(e.message));
  const back = new BufferSink();
  await convert(new Uint8Array(readFileSync(red)), back, { to: 'jsonl', maxDecompressedBytes: 1 << 20 });
  assert.equal(new TextDecoder().decode(back.bytes()).trim().split('\n').length, 1000);
});
