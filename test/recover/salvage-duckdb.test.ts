/**
 * The damage campaign over a file DuckDB wrote (nested, several row groups;
 * DuckDB writes no page CRCs): page headers and column metadata of every
 * row group and leaf damaged, the salvage read returning only what the
 * undamaged file holds and a loss for everything else.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import { bufferSource } from '../../src/io/source.js';
import { ParquetReader } from '../../src/index.js';
import { chunkPages, selectChunks } from '../../src/parquet/inspect/page-headers.js';
import { MISSING, openForSalvage, salvageRowGroups } from '../../src/parquet/recover/index.js';
import { withDuck } from './duck.js';
import { withFooter } from './fixtures.js';

const oracle = withDuck();

it('DuckDB-written file: every row group and leaf, page header and column metadata damaged', { timeout: 300_000 }, async () => {
  const path = await oracle.files.write('nested.parquet', `SELECT i::BIGINT AS id, CASE WHEN i % 7 = 0 THEN NULL ELSE 'n' || (i % 50) END AS name,
    list_transform(range(i % 4), x -> 't' || x) AS tags, {'a': i * 3, 'b': range(i % 3)} AS s FROM range(30000) t(i)`, 'ROW_GROUP_SIZE 10000');
  const bytes = new Uint8Array(readFileSync(path));
  const reader = await ParquetReader.open(bytes);
  const original = await reader.readRows();
  assert.ok(reader.file.metadata.rowGroups.length >= 3);
  const starts: number[] = [];
  let n = 0;
  for (const g of reader.file.metadata.rowGroups) {
    starts.push(n);
    n += g.numRows;
  }
  const check = async (d: Uint8Array, label: string) => {
    const opened = await openForSalvage(d);
    let losses = 0;
    for await (const g of salvageRowGroups(opened)) {
      losses += g.losses.length;
      const at = g.spans.flatMap((s) => Array.from({ length: s.end - s.start }, (_, k) => s.start + k));
      g.rows.forEach((row, k) => {
        for (const [f, v] of Object.entries(row)) {
          if (v === MISSING) assert.ok(g.losses.some((l) => l.column.split('.')[0] === f && l.rows.start <= at[k]! && at[k]! < l.rows.end), `${label}: ${f} missing without a loss`);
          else assert.deepStrictEqual(v, original[starts[g.rowGroup]! + at[k]!]![f], `${label}: row group ${g.rowGroup} row ${at[k]} field ${f}`);
        }
      });
    }
    return losses;
  };
  assert.equal(await check(bytes, 'undamaged'), 0);
  const source = bufferSource(bytes);
  let damaged = 0;
  for (const ref of selectChunks(reader.file)) {
    const pages = (await chunkPages(reader.file, source, ref)).pages.filter((p) => p.type !== 'dictionary');
    const p = pages[(ref.rowGroup + ref.leaf.columnIndex) % pages.length]!;
    const d = bytes.slice();
    d.fill(0xff, p.offset, p.offset + 3);
    const label = `${ref.column} rg ${ref.rowGroup} page ${p.page} header`;
    assert.ok(await check(d, label) > 0, label);
    damaged++;
  }
  const footerLen = new DataView(bytes.buffer, bytes.byteOffset).getUint32(bytes.length - 8, true);
  const footerAt = bytes.length - 8 - footerLen;
  for (let rg = 0; rg < reader.file.metadata.rowGroups.length; rg++) {
    for (const leaf of reader.schema.leaves) {
      const d = withFooter(bytes, (m) => { m.rowGroups[rg]!.columns[leaf.columnIndex]!.metaData!.totalCompressedSize = 10; }, reader.file.metadata, footerAt);
      assert.ok(await check(d, `rg ${rg} ${leaf.path.join('.')} metadata`) > 0);
      damaged++;
    }
  }
  assert.ok(damaged >= 30);
});
