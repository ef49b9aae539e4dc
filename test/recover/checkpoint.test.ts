/**
 * Checkpoints: a finished checkpointed file is an ordinary Parquet file for
 * DuckDB and hyparquet; cut anywhere, it recovers to every row group before
 * its last complete checkpoint, and nothing else.
 */
import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { BufferSink, InvalidArgumentError, ParquetReader, ParquetWriter } from '../../src/index.js';
import { openForSalvage, recoverParquet, salvageRowGroups, MISSING } from '../../src/parquet/recover/index.js';
import { CHECKPOINT_MARKER } from '../../src/parquet/write/checkpoint.js';
import { planRecord } from '../../src/shred/plan.js';
import { checkDuckValues, checkHyparquet } from '../writer/oracles.js';
import { schema, writeFile } from './fixtures.js';
import { withDuck } from './duck.js';

/** Offsets of the checkpoint frames in a file. */
function markers(bytes: Uint8Array): number[] {
  const out: number[] = [];
  for (let i = bytes.indexOf(CHECKPOINT_MARKER[0]!); i >= 0; i = bytes.indexOf(CHECKPOINT_MARKER[0]!, i + 1)) {
    if (CHECKPOINT_MARKER.every((b, k) => bytes[i + k] === b)) out.push(i);
  }
  return out;
}

describe('checkpoints', () => {
  const oracle = withDuck();

  it('a closed checkpointed file reads exactly in parquetry, DuckDB and hyparquet; the checkpoints cost a stated fraction', async () => {
    const plain = await writeFile({}, 6000);
    const expected = await (await ParquetReader.open(plain)).readRows();
    for (const every of [1, 2]) {
      const bytes = await writeFile({ checkpointEvery: every }, 6000);
      assert.equal(markers(bytes).length, 6 / every);
      assert.equal(markers(plain).length, 0);
      assert.deepStrictEqual(await (await ParquetReader.open(bytes)).readRows(), expected);
      const path = join(oracle.files.dir, `every-${every}.parquet`);
      writeFileSync(path, bytes);
      const plan = planRecord((await ParquetReader.open(bytes)).schema.root);
      await checkDuckValues(oracle.duck, path, `checkpointEvery ${every}`, expected, plan);
      await checkHyparquet(path, `checkpointEvery ${every}`, expected, plan);
      // The chained frames add the schema and the new row groups' metadata each time: well under 10% here (1,000-row row groups of ~20 KB).
      assert.ok(bytes.length - plain.length < plain.length * 0.1, `${bytes.length} vs ${plain.length}`);
    }
  });

  it('checkpointEvery needs CRCs and a positive count', async () => {
    await assert.rejects(ParquetWriter.open(new BufferSink(), schema, { checkpointEvery: 1, checksums: false }), InvalidArgumentError);
    await assert.rejects(ParquetWriter.open(new BufferSink(), schema, { checkpointEvery: 0 }), InvalidArgumentError);
  });

  it('a file cut at any byte recovers every row group before its last whole checkpoint', async () => {
    const bytes = await writeFile({ checkpointEvery: 1 }, 5000);
    const expected = await (await ParquetReader.open(bytes)).readRows();
    const frames = markers(bytes);
    const footerStart = bytes.length - 8 - new DataView(bytes.buffer, bytes.byteOffset).getUint32(bytes.length - 8, true);
    // Cuts at every frame's edges and at spread points between them.
    const cuts = new Set<number>();
    for (const f of frames) for (const d of [-1, 0, 1, 17, 30]) cuts.add(f + d);
    for (let c = 4; c < footerStart; c += 7919) cuts.add(c);
    for (const cut of [...cuts].sort((a, b) => a - b)) {
      const d = bytes.slice(0, cut);
      // A frame is complete when its marker, length, CRC and payload all lie before the cut.
      const dv = new DataView(bytes.buffer, bytes.byteOffset);
      const complete = frames.filter((f) => f + 24 + dv.getUint32(f + 16, true) <= cut);
      let opened;
      try {
        opened = await openForSalvage(d);
      } catch {
        assert.equal(complete.length, 0, `cut ${cut} failed with ${complete.length} complete frames before it`);
        continue;
      }
      assert.equal(opened.foundBy, 'checkpoint');
      const groups = opened.metadata.rowGroups.length;
      // Every complete frame is used: with checkpointEvery 1, one row group each.
      assert.equal(groups, complete.length, `cut ${cut}`);
      const rows: Record<string, unknown>[] = [];
      for await (const g of salvageRowGroups(opened)) {
        assert.deepStrictEqual(g.losses, []);
        rows.push(...g.rows);
      }
      assert.deepStrictEqual(rows, expected.slice(0, rows.length));
      assert.equal(rows.length, groups * 1000);
      assert.ok(!rows.some((r) => Object.values(r).includes(MISSING)));
    }
  });

  it('recoverParquet writes what a cut file holds as a file DuckDB reads', async () => {
    const bytes = await writeFile({ checkpointEvery: 1 }, 3500);
    const expected = await (await ParquetReader.open(bytes)).readRows();
    const frames = markers(bytes);
    const cut = frames[2]! + 40; // inside the third frame: two row groups are safe
    const sink = new BufferSink();
    const report = await recoverParquet(bytes.slice(0, cut), sink);
    assert.equal(report.foundBy, 'checkpoint');
    assert.equal(report.rowsRecovered, 2000);
    assert.deepStrictEqual(report.losses, []);
    const out = sink.bytes();
    const path = join(oracle.files.dir, 'recovered.parquet');
    writeFileSync(path, out);
    const reader = await ParquetReader.open(out);
    assert.deepStrictEqual(await reader.readRows(), expected.slice(0, 2000));
    await checkDuckValues(oracle.duck, path, 'recovered', expected.slice(0, 2000), planRecord(reader.schema.root));
  });
});

it('a cut checkpointed file with a damaged page in a required column is rewritten, that column made optional and null where lost', async () => {
  const bytes = await writeFile({ checkpointEvery: 1 }, 3000);
  const reader = await ParquetReader.open(bytes);
  const expected = await reader.readRows();
  const oi = (await reader.file.readOffsetIndex(0, 'id'))!;
  const page = oi.pageLocations[2]!;
  const d = bytes.slice(0, markers(bytes)[2]! + 5);
  d[page.offset + page.compressedPageSize - 3] ^= 0x40;
  const sink = new BufferSink();
  const report = await recoverParquet(d, sink);
  assert.equal(report.foundBy, 'checkpoint');
  assert.deepStrictEqual(report.fieldsNulled, ['id']);
  assert.deepStrictEqual(report.losses.map((l) => [l.rowGroup, l.column, l.error.name]), [[0, 'id', 'ChecksumError']]);
  const out = await ParquetReader.open(sink.bytes());
  assert.equal(out.schema.leaves[0]!.repetition, 'OPTIONAL');
  const lost = (i: number) => i >= page.firstRowIndex && i < oi.pageLocations[3]!.firstRowIndex;
  assert.deepStrictEqual(await out.readRows(), expected.slice(0, 2000).map((r, i) => (lost(i) ? { ...r, id: null } : r)));
});

it('checkpointEvery with encryption is refused before anything is created: an encrypted file is written whole at close()', async () => {
  const { openWriter } = await import('../../src/node/index.js');
  const { mkdtempSync, readdirSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'parquetry-ckpt-enc-'));
  await assert.rejects(openWriter(join(dir, 'x.parquet'), schema, { checkpointEvery: 1, encryption: { footerKey: new Uint8Array(16) } as never }), InvalidArgumentError);
  assert.deepStrictEqual(readdirSync(dir), []);
  rmSync(dir, { recursive: true });
});
