/**
 * Trevni salvage over block descriptors whose row counts do not account for
 * the blocks' bytes: a block doubled with another block's count lowered to
 * match (the fuzz's c14561: one row came back twice), a header count
 * raised to what a doubled block fills (seed 20261125 case 10646), and
 * counts changed alone. Every row salvage returns must be the original row
 * at the index it gives, field for field where the field came back; none
 * twice; and fewer rows only with a loss reported. Generated variants over
 * the fuzz generator's files (versions 2 and 1) and a nested file.
 */
import { strict as assert } from 'node:assert';
import { it } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import { TrevniReader } from '../../src/node/entries/trevni.js';
import { MISSING, salvage, type Salvage } from '../../src/node/entries/recover.js';
import { salvagedRows } from '../recover/salvaged.js';
import { ParquetryError, bufferSource } from '../../src/node/index.js';
import { generatedFile, type GeneratedKind } from '../../scripts/fuzz/generate.js';
import { applyTrevni, parseTrevni, type TrevniEdit } from '../../scripts/fuzz/trevni.js';

async function rowsOf(bytes: Uint8Array): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  for await (const r of (await TrevniReader.open(bufferSource(bytes))).rows()) rows.push(r);
  return rows;
}

interface Variant {
  label: string;
  edits: TrevniEdit[];
}

/** Doubled blocks with another count lowered to match or to 0, header counts raised to match, counts changed alone. */
function variants(bytes: Uint8Array): Variant[] {
  const model = parseTrevni(bytes)!;
  const out: Variant[] = [];
  const rows = (column: number, block: number, value: number): TrevniEdit => ({ op: 'descriptor', column, block, field: 'rows', value });
  model.columns.forEach((col, c) => {
    const blocks = col.blocks.slice(0, 5);
    blocks.forEach((b, i) => {
      const doubled: TrevniEdit = { op: 'block', action: 'duplicate', column: c, block: i };
      for (const v of [0, b.rows - 1, b.rows + 1]) if (v >= 0) out.push({ label: `column ${c} block ${i} rows ${v}`, edits: [rows(c, i, v)] });
      // The header's count lowered to match (seed 103 cases 5843, 6579: a block of 0 rows, a file of 0).
      out.push({ label: `column ${c} block ${i} rows 0, header rows lowered`, edits: [rows(c, i, 0), { op: 'rowCount', value: String(model.rowCount - BigInt(b.rows)) }] });
      // With one column, that makes a file a writer could have written (two equal blocks): nothing can tell.
      if (model.columns.length > 1) out.push({ label: `column ${c} block ${i} doubled, header rows raised`, edits: [doubled, { op: 'rowCount', value: String(model.rowCount + BigInt(b.rows)) }] });
      blocks.forEach((o, j) => {
        if (j === i || Math.abs(j - i) > 2) return;
        for (const v of new Set([0, Math.max(0, o.rows - b.rows)])) {
          out.push({ label: `column ${c} block ${i} doubled, block ${j} rows ${v}`, edits: [doubled, rows(c, j < i ? j : j + 1, v)] });
        }
      });
    });
  });
  return out;
}

async function sweep(bytes: Uint8Array, name: string): Promise<number> {
  const original = await rowsOf(bytes);
  const failures: string[] = [];
  let cases = 0;
  for (const v of variants(bytes)) {
    let damaged = bytes;
    for (const e of v.edits) damaged = applyTrevni(damaged, { kind: 'trevni', edit: e });
    cases++;
    let s: Salvage;
    try {
      s = await salvage(damaged);
    } catch (e) {
      if (e instanceof ParquetryError) continue;
      throw e;
    }
    const seen = new Set<number>();
    let back = 0;
    let wrong = 0;
    for await (const r of salvagedRows(s)) {
      const o = original[r.row];
      const ok = o !== undefined && !seen.has(r.row) && Object.entries(r.record).every(([k, x]) => x === MISSING || isDeepStrictEqual(x, o[k]));
      seen.add(r.row);
      if (!ok) wrong++;
      if (!Object.values(r.record).includes(MISSING)) back++;
    }
    if (wrong > 0) failures.push(`${name}, ${v.label}: ${wrong} wrong rows`);
    else if (back < original.length && s.report.losses.length === 0) failures.push(`${name}, ${v.label}: ${back} of ${original.length} rows whole, no loss reported`);
    else if (back !== s.report.rowsRecovered - s.report.rowsWithNulls) failures.push(`${name}, ${v.label}: ${back} whole rows back, the report counts ${s.report.rowsRecovered - s.report.rowsWithNulls}`);
  }
  assert.deepStrictEqual(failures.slice(0, 20), []);
  return cases;
}

for (const kind of ['trevni', 'trevni-v1'] as GeneratedKind[]) {
  it(`the fuzz generator's ${kind} files: blocks doubled, counts lowered or raised`, { timeout: 120_000 }, async () => {
    let cases = 0;
    for (let i = 0; i < 5; i++) {
      const f = await generatedFile(21 + 104729, i, kind);
      if (f) cases += await sweep(f, `file ${i}`);
    }
    assert.ok(cases > 100, `only ${cases} cases`);
    process.stderr.write(`  ${cases} cases\n`);
  });
}
