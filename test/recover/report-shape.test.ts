/**
 * Parquet and Trevni recovery report in one shape (`RecoverReport`, with
 * `Loss` records): the same fields mean the same on damaged files of both.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BufferSink, writeRecords } from '../../src/node/index.js';
import { checkParquet, recoverParquet, type RecoverReport } from '../../src/node/entries/recover.js';
import { checkTrevni, recoverTrevni, TrevniWriter } from '../../src/node/entries/trevni.js';

const N = 2000;
const COMMON = ['fieldsNulled', 'format', 'losses', 'numRows', 'rowsLost', 'rowsRecovered', 'rowsWithNulls', 'whole'];
const PARQUET_ONLY = ['foundBy', 'footerError', 'lostFrom', 'rowGroups'];
const TREVNI_ONLY = ['blocks', 'fieldsLost'];

/** A byte in the middle of the file flipped: inside a page or a block, whose CRC then fails. */
function damaged(bytes: Uint8Array): Uint8Array {
  const out = bytes.slice();
  out[Math.floor(out.length / 3)]! ^= 0xff;
  return out;
}

async function files(): Promise<{ parquet: Uint8Array; trevni: Uint8Array }> {
  const rows = Array.from({ length: N }, (_, i) => ({ id: BigInt(i), name: `name ${i}` }));
  const p = new BufferSink();
  await writeRecords(p, rows, { codec: 'UNCOMPRESSED', rowGroupRows: 500, checksums: true });
  const t = new BufferSink();
  const w = await TrevniWriter.open(t, [{ name: 'id', type: 'long' }, { name: 'name', type: 'string' }], { checksum: 'crc32', blockSize: 2000 });
  for (const r of rows) await w.write(r);
  await w.close();
  return { parquet: damaged(p.bytes()), trevni: damaged(t.bytes()) };
}

function checkShape(r: RecoverReport, format: 'parquet' | 'trevni'): void {
  const own = format === 'parquet' ? PARQUET_ONLY : TREVNI_ONLY;
  const other = format === 'parquet' ? TREVNI_ONLY : PARQUET_ONLY;
  const keys = Object.keys(r);
  for (const k of COMMON) assert.ok(keys.includes(k), `${format}: ${k}`);
  for (const k of keys) assert.ok(COMMON.includes(k) || own.includes(k), `${format}: ${k} is not a ${format} report field`);
  for (const k of other) assert.equal(k in r, false, `${format}: ${k}`);
  assert.equal(r.format, format);
  assert.equal(r.numRows, N);
  assert.equal(r.whole, false);
  // Parquet writes a row that lost a field with a null there; Trevni, which has no null, leaves it out.
  assert.ok(r.losses.length > 0 && (format === 'parquet' ? r.rowsWithNulls : r.rowsLost) > 0, `${format}: something lost`);
  assert.equal(r.rowsRecovered + r.rowsLost, r.numRows, `${format}: every claimed row recovered or lost`);
  for (const l of r.losses) {
    assert.deepEqual(Object.keys(l).filter((k) => !['rowGroup', 'page', 'block'].includes(k)).sort(), ['bytes', 'column', 'error', 'rows'], format);
    assert.ok(format === 'parquet' ? l.rowGroup !== undefined && l.block === undefined : l.block !== undefined && l.rowGroup === undefined && l.page === undefined, `${format}: the loss's unit`);
    assert.ok(l.bytes.start < l.bytes.end && l.rows.start < l.rows.end && typeof l.error.name === 'string', format);
  }
}

test('check and recover give one report shape for Parquet and Trevni on damaged files', async () => {
  const { parquet, trevni } = await files();
  for (const [format, report] of [
    ['parquet', await checkParquet(parquet)],
    ['parquet', await recoverParquet(parquet, new BufferSink())],
    ['trevni', await checkTrevni(trevni)],
    ['trevni', await recoverTrevni(trevni, new BufferSink())],
  ] as const) checkShape(report, format);
  // The same damage costs the same kind of record in both: a CRC failure, by column.
  const p = await checkParquet(parquet);
  const t = await checkTrevni(trevni);
  assert.equal(p.losses[0]!.error.name, t.losses[0]!.error.name);
});
