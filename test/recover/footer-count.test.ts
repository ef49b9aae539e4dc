/**
 * A footer that still decodes but has lost row groups (zeroed bytes shorten
 * its list, as the fuzz's seed 108 case 5261 did): its own row count says
 * rows are missing, so check and recover report the loss from the end of
 * the row groups it describes, and recover's output footer counts only the
 * rows it holds. Every row group dropped from the end, for our nested file
 * and for a file DuckDB wrote.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { BufferSink, ParquetReader } from '../../src/index.js';
import type { FileMetaData } from '../../src/parquet/metadata/index.js';
import { checkParquet, recoverParquet } from '../../src/parquet/recover/index.js';
import { withDuck } from './duck.js';
import { withFooter, writeFile } from './fixtures.js';

async function footerOf(bytes: Uint8Array): Promise<{ meta: FileMetaData; footerOffset: number }> {
  const reader = await ParquetReader.open(bytes);
  const len = new DataView(bytes.buffer, bytes.byteOffset).getUint32(bytes.length - 8, true);
  return { meta: reader.file.metadata, footerOffset: bytes.length - 8 - len };
}

/** Drops the footer's row groups from `keep` on, leaving its row count, and checks what check and recover say. */
async function dropRowGroups(bytes: Uint8Array): Promise<number> {
  const { meta, footerOffset } = await footerOf(bytes);
  const all = (await (await ParquetReader.open(bytes)).readRows()).map((r) => JSON.stringify(r, (_, v) => (typeof v === 'bigint' ? `${v}n` : v)));
  let cases = 0;
  for (let keep = 0; keep < meta.rowGroups.length; keep++) {
    const damaged = withFooter(bytes, (m) => void m.rowGroups.splice(keep), meta, footerOffset);
    const kept = meta.rowGroups.slice(0, keep).reduce((n, g) => n + g.numRows, 0);
    const checked = await checkParquet(damaged);
    assert.equal(checked.whole, false, `keep ${keep}: not whole`);
    assert.ok(checked.lostFrom, `keep ${keep}: the loss is reported`);
    assert.match(checked.lostFrom!.reason, new RegExp(`counts ${meta.numRows} rows but its row groups hold ${kept}`));
    const sink = new BufferSink();
    const report = await recoverParquet(damaged, sink);
    assert.equal(report.whole, false);
    assert.equal(report.rowsRecovered, kept);
    const out = await ParquetReader.open(sink.bytes());
    assert.equal(out.file.metadata.numRows, kept, 'the output footer counts the rows it holds');
    const back = (await out.readRows()).map((r) => JSON.stringify(r, (_, v) => (typeof v === 'bigint' ? `${v}n` : v)));
    assert.deepEqual(back, all.slice(0, kept), 'the rows kept are the original first rows');
    cases++;
  }
  return cases;
}

describe('a footer that lost row groups', () => {
  const ctx = withDuck();

  it('our nested file, every row group dropped from the end', async () => {
    assert.equal(await dropRowGroups(await writeFile()), 3);
  });

  it('a file DuckDB wrote with several row groups', async () => {
    const path = await ctx.files.write('groups.parquet', "SELECT range AS id, 'v' || (range % 97) AS s, [range, range + 1] AS l FROM range(5000)", 'ROW_GROUP_SIZE 1000');
    assert.ok((await dropRowGroups(new Uint8Array(readFileSync(path)))) >= 2);
  });

  it('a footer whose count is 0, as some writers leave it, is no loss', async () => {
    const bytes = await writeFile();
    const { meta, footerOffset } = await footerOf(bytes);
    const report = await checkParquet(withFooter(bytes, (m) => void (m.numRows = 0), meta, footerOffset));
    assert.equal(report.whole, true);
    assert.equal(report.lostFrom, undefined);
  });
});
