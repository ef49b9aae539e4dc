/**
 * The damage campaign: every row group and leaf column of a nested,
 * multi-row-group file gets its page data, a page header or its column
 * metadata damaged, with and without CRCs, offset index and v2 pages; the
 * salvage read must return every field it returns exactly as the undamaged
 * file holds it, and name a loss for every field it cannot return.
 */
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { ParquetReader, type WriterOptions } from '../../src/index.js';
import type { FileMetaData } from '../../src/parquet/metadata/index.js';
import { MISSING, openForSalvage, salvageRowGroups, type SalvagedRowGroup } from '../../src/parquet/recover/index.js';
import { withFooter, writeFile } from './fixtures.js';

interface Located {
  rg: number;
  column: string;
  page: number;
  offset: number;
  size: number;
  rows: { start: number; end: number };
}

async function pagesOf(bytes: Uint8Array): Promise<{ pages: Located[]; reader: ParquetReader }> {
  const reader = await ParquetReader.open(bytes);
  const pages: Located[] = [];
  for (let rg = 0; rg < reader.file.metadata.rowGroups.length; rg++) {
    const n = reader.file.metadata.rowGroups[rg]!.numRows;
    for (const leaf of reader.schema.leaves) {
      const column = leaf.path.join('.');
      const oi = (await reader.file.readOffsetIndex(rg, column))!;
      const locs = oi.pageLocations;
      const page = (rg * 7 + leaf.columnIndex * 3) % locs.length;
      const l = locs[page]!;
      pages.push({ rg, column, page, offset: l.offset, size: l.compressedPageSize, rows: { start: l.firstRowIndex, end: locs[page + 1]?.firstRowIndex ?? n } });
    }
  }
  return { pages, reader };
}

async function salvage(bytes: Uint8Array, options = {}): Promise<SalvagedRowGroup[]> {
  const opened = await openForSalvage(bytes);
  const out: SalvagedRowGroup[] = [];
  for await (const g of salvageRowGroups(opened, options)) out.push(g);
  return out;
}

/** Every returned field equals the original; every MISSING field is named by a loss. */
function checkExact(original: Record<string, unknown>[], groups: SalvagedRowGroup[], rowGroupRows: number): number {
  let missing = 0;
  for (const g of groups) {
    if (g.skipped) continue;
    const at = g.spans.flatMap((s) => Array.from({ length: s.end - s.start }, (_, k) => s.start + k));
    assert.equal(at.length, g.rows.length);
    // A row left out lost every field, each to a named loss.
    const kept = new Set(at);
    for (let r = 0; r < Math.min(rowGroupRows, original.length - g.rowGroup * rowGroupRows); r++) {
      if (kept.has(r)) continue;
      for (const k of Object.keys(original[0]!)) {
        missing++;
        assert.ok(g.losses.some((l) => l.column.split('.')[0] === k && l.rows.start <= r && r < l.rows.end), `rg ${g.rowGroup} row ${r} left out, field ${k} without a loss`);
      }
    }
    g.rows.forEach((row, k) => {
      const r = at[k]!;
      const orig = original[g.rowGroup * rowGroupRows + r]!;
      for (const [k, v] of Object.entries(row)) {
        if (v === MISSING) {
          missing++;
          assert.ok(g.losses.some((l) => l.column.split('.')[0] === k && l.rows.start <= r && r < l.rows.end), `rg ${g.rowGroup} row ${r} field ${k} missing without a loss`);
        } else assert.deepStrictEqual(v, orig[k], `rg ${g.rowGroup} row ${r} field ${k}`);
      }
    });
  }
  return missing;
}

const configs: [string, WriterOptions][] = [
  ['v1 pages, CRCs, offset index', {}],
  ['v2 pages, CRCs, offset index', { pageVersion: 2 }],
  ['v1 pages, CRCs, no offset index', { pageIndex: false }],
  ['v2 pages, no CRCs, no offset index', { pageVersion: 2, checksums: false, pageIndex: false }],
  ['v1 pages, no CRCs, offset index', { checksums: false }],
];

describe('salvage: damage campaign', () => {
  for (const [name, options] of configs) {
    it(name, async () => {
      const bytes = await writeFile(options);
      // Page locations come from the same rows written with an offset index: pages lie at the same offsets.
      const { pages, reader: located } = await pagesOf(await writeFile({ ...options, pageIndex: true }));
      const original = await located.readRows();
      const reader = await ParquetReader.open(bytes);
      const meta = reader.file.metadata;
      const footerOffset = bytes.length - 8 - new DataView(bytes.buffer, bytes.byteOffset).getUint32(bytes.length - 8, true);
      const whole = await salvage(bytes);
      assert.equal(checkExact(original, whole, 1000), 0);
      assert.deepStrictEqual(whole.flatMap((g) => g.losses), []);
      const exactRows = options.pageIndex !== false || options.pageVersion === 2;
      for (const p of pages) {
        const leaf = reader.schema.leaves.find((l) => l.path.join('.') === p.column)!;
        const label = `${p.column} rg ${p.rg} page ${p.page}`;
        // Page data: the CRC finds it (without CRCs, a changed value that still decodes is not damage any reader can see).
        if (options.checksums !== false) {
          const d = bytes.slice();
          d[p.offset + p.size - 2] ^= 0x5a;
          const groups = await salvage(d);
          checkExact(original, groups, 1000);
          const losses = groups.flatMap((g) => g.losses);
          assert.ok(losses.some((l) => l.column === p.column && l.rowGroup === p.rg && l.error.name === 'ChecksumError'), `${label}: ${JSON.stringify(losses)}`);
          if (exactRows || leaf.repLevel === 0) {
            assert.deepStrictEqual(losses.map((l) => l.rows), [p.rows], label);
          } else {
            // v1 pages of a repeated leaf without an offset index: the rest of the chunk, from the row the page may continue.
            assert.deepStrictEqual(losses.map((l) => l.rows), [{ start: Math.max(0, p.rows.start - 1), end: 1000 }], label);
          }
          const skipped = await salvage(d, { skipDamagedRowGroups: true });
          assert.deepStrictEqual(skipped.map((g) => g.skipped), [0, 1, 2].map((i) => i === p.rg));
        }
        // A page header overwritten: its page at least is lost.
        {
          const d = bytes.slice();
          d.fill(0xff, p.offset, p.offset + 4);
          const groups = await salvage(d);
          checkExact(original, groups, 1000);
          const losses = groups.flatMap((g) => g.losses);
          assert.ok(losses.some((l) => l.column === p.column && l.rowGroup === p.rg && l.rows.start <= p.rows.start && p.rows.end <= l.rows.end), `${label}: ${JSON.stringify(losses)}`);
        }
      }
      // Column metadata: each chunk's data page offset, value count or codec damaged.
      for (let rg = 0; rg < meta.rowGroups.length; rg++) {
        for (const leaf of reader.schema.leaves) {
          const edits = [
            (m: FileMetaData) => { m.rowGroups[rg]!.columns[leaf.columnIndex]!.metaData!.dataPageOffset += 3; },
            (m: FileMetaData) => { m.rowGroups[rg]!.columns[leaf.columnIndex]!.metaData!.numValues += 1; },
            (m: FileMetaData) => { m.rowGroups[rg]!.columns[leaf.columnIndex]!.metaData!.totalCompressedSize = bytes.length * 2; },
          ];
          for (const edit of edits) {
            const d = withFooter(bytes, edit, meta, footerOffset);
            const groups = await salvage(d);
            checkExact(original, groups, 1000);
            const losses = groups.flatMap((g) => g.losses);
            assert.ok(losses.every((l) => l.rowGroup === rg), JSON.stringify(losses));
            // A data page offset past a dictionary page is not read (the chunk starts at the dictionary page).
            const chunk = meta.rowGroups[rg]!.columns[leaf.columnIndex]!.metaData!;
            if (edit !== edits[0] || chunk.dictionaryPageOffset === undefined) assert.ok(losses.length > 0, `rg ${rg} ${leaf.path.join('.')} edit ${edits.indexOf(edit)}`);
            // Other row groups of the same column are untouched.
            assert.ok(groups.filter((g) => g.rowGroup !== rg).every((g) => g.losses.length === 0 && g.damagedRows === 0));
          }
        }
      }
    });
  }
});
