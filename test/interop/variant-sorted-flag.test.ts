/**
 * VARIANT metadata flagged "sorted" whose strings are not in order, as DuckDB
 * 1.5.2 wrote it: DuckDB reads such a file, and so must parquetry, with the
 * same values. The file is made here: our writer writes the VARIANT's two
 * binary columns as a plain group, then the footer is rewritten with the
 * group annotated VARIANT (the writer does not write VARIANT columns itself).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { ByteWriter } from '../../src/bytes/writer.js';
import { decodeFileMetaData } from '../../src/parquet/metadata/index.js';
import { encodeFileMetaData } from '../../src/parquet/metadata/encode.js';
import { BufferSink, ParquetReader, ParquetWriter, bufferSource, defineSchema, field } from '../../src/index.js';

const utf8 = new TextEncoder();

/** Metadata version 1 with the sorted flag set, over strings in the order given. */
function sortedFlagMetadata(keys: string[]): Uint8Array {
  const strs = keys.map((k) => utf8.encode(k));
  const offsets = [0];
  for (const s of strs) offsets.push(offsets[offsets.length - 1]! + s.length);
  return Uint8Array.from([0x11, keys.length, ...offsets, ...strs.flatMap((s) => [...s])]);
}

/** An object whose fields are (dictionary id, short string): 1-byte ids and offsets, fields in the order given. */
function object(fields: Array<[number, string]>): Uint8Array {
  const values = fields.map(([, s]) => [(utf8.encode(s).length << 2) | 1, ...utf8.encode(s)]);
  const offsets = [0];
  for (const v of values) offsets.push(offsets[offsets.length - 1]! + v.length);
  return Uint8Array.from([0x02, fields.length, ...fields.map(([id]) => id), ...offsets, ...values.flat()]);
}

/** A Parquet file of one VARIANT column `v`, one row per (metadata, value). */
async function variantFile(rows: Array<{ metadata: Uint8Array; value: Uint8Array }>): Promise<Uint8Array> {
  const sink = new BufferSink();
  const w = await ParquetWriter.open(sink, defineSchema({ v: field.struct({ metadata: field.binary().required(), value: field.binary().required() }) }));
  for (const v of rows) await w.write({ v });
  await w.close();
  const file = sink.bytes();
  const footerLength = new DataView(file.buffer, file.byteOffset).getUint32(file.length - 8, true);
  const footerStart = file.length - 8 - footerLength;
  const meta = decodeFileMetaData(file.subarray(footerStart, file.length - 8));
  const group = meta.schema.find((e) => e.name === 'v')!;
  group.logicalType = { type: 'VARIANT', specificationVersion: 1 } as typeof group.logicalType;
  const out = new ByteWriter();
  out.bytes(file.subarray(0, footerStart));
  const before = out.length;
  encodeFileMetaData(meta, out);
  out.u32le(out.length - before);
  out.bytes(utf8.encode('PAR1'));
  return out.finish();
}

test('VARIANT metadata flagged sorted over unsorted strings reads as DuckDB reads it', async () => {
  const meta = sortedFlagMetadata(['zeta', 'alpha', 'mid']);
  // Fields listed in key order (as the spec asks), in dictionary order, and in neither.
  const rows = [[[1, 'a'], [2, 'm'], [0, 'z']], [[0, 'z'], [1, 'a'], [2, 'm']], [[2, 'm'], [0, 'z']]] as Array<Array<[number, string]>>;
  const file = await variantFile(rows.map((r) => ({ metadata: meta, value: object(r) })));
  const reader = await ParquetReader.open(bufferSource(file));
  const ours: unknown[] = [];
  for await (const row of reader.rows()) ours.push((row as { v: unknown }).v);
  assert.deepEqual(ours, [{ alpha: 'a', mid: 'm', zeta: 'z' }, { alpha: 'a', mid: 'm', zeta: 'z' }, { mid: 'm', zeta: 'z' }]);
  for (const v of ours) assert.deepEqual(Object.keys(v as object), Object.keys(v as object).sort());

  const dir = mkdtempSync(join(tmpdir(), 'parquetry-variant-'));
  try {
    const path = join(dir, 'sorted-flag.parquet');
    writeFileSync(path, file);
    const db = await DuckDBInstance.create(':memory:', { threads: '1' });
    const conn = await db.connect();
    const result = await conn.runAndReadAll(`SELECT v::JSON::VARCHAR AS j FROM read_parquet('${path}')`);
    const duck = result.getRows().map(([j]) => JSON.parse(String(j)) as unknown);
    conn.closeSync();
    db.closeSync();
    assert.deepEqual(ours, duck);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
