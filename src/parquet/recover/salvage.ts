/**
 * The salvage read: every row group, every column chunk read page by page
 * (chunk-salvage.ts), and the rows rebuilt from what is intact. A row keeps
 * the top-level fields whose every leaf is intact at that row; a field with
 * a lost leaf is MISSING there, never a guess. Rows are assembled by the
 * reader's own assembler over row spans on which the set of lost fields does
 * not change, each leaf's intact run trimmed to the span.
 */
import { ParquetryError, withContext, type ErrorContext } from '../../errors.js';
import type { Source } from '../../io/source.js';
import type { ValueOptions } from '../../schema/convert.js';
import { leavesOf, type LeafNode, type Schema, type SchemaNode } from '../../schema/tree.js';
import { RecordAssembler } from '../../shred/assemble.js';
import { planRecord } from '../../shred/plan.js';
import { DEFAULT_MAX_PAGE_BYTES } from '../page-bounds.js';
import { trimToRanges } from '../filter/prune-pages.js';
import type { Range } from '../filter/indexes.js';
import type { FileMetaData } from '../metadata/index.js';
import { valueOptionsPerLeaf } from '../read-steps.js';
import { ChunkLocator } from '../chunk-locator.js';
import { LeafClaims } from '../claims/claims.js';
import { leafColumn } from '../row-decoding.js';
import { assembleVariant } from '../variant/index.js';
import { described, mergeSpans, MISSING, type Loss } from '../../loss.js';
import { FooterClaims } from './footer-claims.js';
import { salvageChunk, type ChunkSalvage, type Run } from './chunk-salvage.js';

export { MISSING, type Missing } from '../../loss.js';

/**
 * A salvage read holds a row group's rows as objects: one claiming more
 * than DENSE_ROWS rows at more than ROWS_PER_BYTE a byte of its chunks
 * (runs of nulls, which the ordinary reader streams) is refused rather
 * than built.
 */
const DENSE_ROWS = 1 << 20;
const ROWS_PER_BYTE = 64;

/**
 * How `salvageRowGroups` reads: whether to build rows, only whole ones, and the value
 * options.
 */
export interface ParquetSalvageOptions extends ValueOptions {
  /** Only the rows no field lost, instead of those that kept a field too, with MISSING for the rest (default false). */
  wholeOnly?: boolean;
  /**
   * Build the rows (default true). false checks every page (CRC, levels,
   * values) and reports losses without assembling rows: `rows` stay empty.
   */
  rows?: boolean;
  /** Verify page CRC-32s (default true): a mismatch locates damage to the page. */
  verifyChecksums?: boolean;
  maxDecompressedBytes?: number;
}

/**
 * One row group as the salvage read found it: its intact rows (lost fields as `MISSING`), its
 * losses, and what was skipped.
 */
export interface SalvagedRowGroup {
  rowGroup: number;
  /**
   * The rows of the row group that kept at least one field, in order (none
   * when it was skipped); lost fields hold MISSING. `spans` says which rows
   * of the row group they are.
   */
  rows: Record<string, unknown>[];
  spans: Range[];
  /** What this row group lost (empty when whole). */
  losses: Loss[];
  /** Rows that lost a field (returned with it MISSING, or left out). */
  damagedRows: number;
  /** Not read at all: its metadata cannot describe it, or it claims more rows than a salvage read holds (the loss says which). */
  skipped: boolean;
}

/** Where the row groups are: an ordinary footer or a recovered one, over the file's bytes. */
export interface SalvageInput {
  source: Source;
  metadata: FileMetaData;
  schema: Schema;
}

/** Row group by row group, everything intact (see the module comment). Throws only on I/O failure or a caller's mistake. */
export async function* salvageRowGroups(input: SalvageInput, options: ParquetSalvageOptions = {}): AsyncGenerator<SalvagedRowGroup> {
  const { source, metadata, schema } = input;
  const decode = { verifyChecksums: options.verifyChecksums ?? true, maxDecompressedBytes: options.maxDecompressedBytes ?? DEFAULT_MAX_PAGE_BYTES };
  const locator = new ChunkLocator(metadata, source.byteLength, { name: source.name, dataEnd: source.byteLength });
  const fields = schema.root.children as SchemaNode[];
  const footer = new FooterClaims(schema, metadata);
  for (let rg = 0; rg < metadata.rowGroups.length; rg++) {
    const group = metadata.rowGroups[rg]!;
    const numRows = group.numRows;
    const ctx: ErrorContext = { file: source.name, rowGroup: rg };
    const chunks = new Map<LeafNode, ChunkSalvage>();
    const losses: Loss[] = [];
    const bytes = Math.min(source.byteLength, group.columns.reduce((n, c) => n + Math.max(0, c.metaData?.totalCompressedSize ?? 0), 0));
    const refused = refusal(numRows, group.columns.length, bytes, schema);
    if (refused) {
      losses.push({ rowGroup: rg, column: '', bytes: { start: 0, end: 0 }, rows: { start: 0, end: Number.isSafeInteger(numRows) && numRows > 0 ? numRows : 0 }, error: refused });
      yield { rowGroup: rg, rows: [], spans: [], losses, damagedRows: 0, skipped: true };
      continue;
    }
    for (const leaf of schema.leaves) {
      const s = await salvageChunk({ source, chunk: group.columns[leaf.columnIndex]!, leaf, claims: () => new LeafClaims(schema.root, leaf, metadata.columnOrders), conflict: (m) => footer.conflict(rg, leaf, m), rowGroup: rg, numRows, locator, ctx: { ...ctx, column: leaf.path.join('.') } }, decode);
      chunks.set(leaf, s);
      // A loop, not a spread: a chunk may lose more pages than the stack holds arguments.
      for (const l of s.losses) losses.push(l);
    }
    if (options.rows === false) {
      yield { rowGroup: rg, rows: [], spans: [], losses, damagedRows: 0, skipped: false };
      continue;
    }
    const lostByField = fields.map((f) => mergeSpans(leavesOf(f).flatMap((l) => chunks.get(l)!.losses.map((x) => x.rows))));
    const rows: Record<string, unknown>[] = [];
    const kept: Range[] = [];
    let damagedRows = 0;
    for (const span of spans(numRows, lostByField)) {
      const lost = fields.map((_, i) => covers(lostByField[i]!, span.start));
      const part = assembleChecked(schema, fields, lost, chunks, span, options, ctx, losses);
      if (lost.some(Boolean)) damagedRows += span.end - span.start;
      // Rows with nothing left are not materialised: a row count the bytes do not back costs nothing.
      if (lost.every(Boolean) || (options.wholeOnly && lost.some(Boolean))) continue;
      const last = kept[kept.length - 1];
      if (last && last.end === span.start) last.end = span.end;
      else kept.push({ ...span });
      for (let r = 0; r < span.end - span.start; r++) {
        const row: Record<string, unknown> = {};
        const got = part?.[r];
        fields.forEach((f, i) => define(row, f.name, lost[i] ? MISSING : got![f.name]));
        rows.push(row);
      }
    }
    yield { rowGroup: rg, rows, spans: kept, losses, damagedRows, skipped: false };
  }
}

/**
 * Rows `span` of the fields not `lost`. Levels that pass page decoding can
 * still disagree between leaves of one field (damage without CRCs): then
 * each field is assembled alone, and one that fails is lost over the span.
 */
function assembleChecked(schema: Schema, fields: SchemaNode[], lost: boolean[], chunks: Map<LeafNode, ChunkSalvage>, span: Range, options: ValueOptions, ctx: ErrorContext, losses: Loss[]): Record<string, unknown>[] | null {
  try {
    return assembleSpan(schema, fields.filter((_, i) => !lost[i]), chunks, span, options, ctx);
  } catch (e) {
    if (!(e instanceof ParquetryError)) throw e;
  }
  const rows: Record<string, unknown>[] = Array.from({ length: span.end - span.start }, () => ({}));
  fields.forEach((f, i) => {
    if (lost[i]) return;
    try {
      const part = assembleSpan(schema, [f], chunks, span, options, ctx)!;
      part.forEach((r, k) => define(rows[k]!, f.name, r[f.name]));
    } catch (e) {
      if (!(e instanceof ParquetryError)) throw e;
      lost[i] = true;
      losses.push({ rowGroup: ctx.rowGroup!, column: f.name, bytes: { start: 0, end: 0 }, rows: span, error: described(e) });
    }
  });
  return rows;
}

/**
 * Why a row group is not read at all: metadata that cannot describe it, no
 * columns to hold its rows, or more rows than a salvage read holds at once.
 */
function refusal(numRows: number, chunks: number, bytes: number, schema: Schema): { name: string; message: string } | null {
  if (!(Number.isSafeInteger(numRows) && numRows >= 0) || chunks !== schema.leaves.length) {
    return { name: 'CorruptFileError', message: `row group metadata is inconsistent (${chunks} chunks for ${schema.leaves.length} leaves, ${numRows} rows)` };
  }
  if (schema.leaves.length === 0 && numRows > 0) return { name: 'CorruptFileError', message: `row group claims ${numRows} rows but the schema has no columns` };
  if (numRows > DENSE_ROWS && numRows > ROWS_PER_BYTE * bytes) {
    return { name: 'LimitError', message: `row group claims ${numRows} rows in ${bytes} bytes of chunks: too dense for a salvage read, which holds a row group's rows at once` };
  }
  return null;
}

/** Rows `span` of the intact `fields`, by the reader's assembler; null when no field is intact there. */
function assembleSpan(schema: Schema, fields: SchemaNode[], chunks: Map<LeafNode, ChunkSalvage>, span: Range, options: ValueOptions, ctx: ErrorContext): Record<string, unknown>[] | null {
  if (fields.length === 0) return null;
  const keep = new Set(fields.flatMap((f) => leavesOf(f)));
  const plan = planRecord(schema.root, (l) => keep.has(l));
  const leafOptions = valueOptionsPerLeaf(plan, options);
  const cols = plan.leaves.map((leaf, i) => {
    const c = { ...ctx, column: leaf.path.join('.') };
    return withContext(c, () => {
      const run = runFor(chunks.get(leaf)!.runs, span);
      return leafColumn(leaf, trimToRanges(run.data, leaf, [run.rows], [span]), leafOptions[i]!);
    });
  });
  const asm = new RecordAssembler(plan, cols, (parts, p) => (p.t === 'variant' ? assembleVariant(parts, p.node) : parts));
  return withContext(ctx, () => {
    const out: Record<string, unknown>[] = [];
    for (let r = span.start; r < span.end; r++) out.push(asm.readRow());
    asm.finish();
    return out;
  });
}

/** The run holding every row of `span` (spans never cross a loss, so one does). */
function runFor(runs: Run[], span: Range): Run {
  const run = runs.find((r) => r.rows.start <= span.start && span.end <= r.rows.end);
  if (!run) throw new Error(`internal: no intact run covers rows ${span.start}..${span.end}`);
  return run;
}

/** Row spans cut at every loss boundary of every field. */
function spans(numRows: number, lost: Range[][]): Range[] {
  const cuts = new Set([0, numRows]);
  for (const rs of lost) for (const r of rs) cuts.add(Math.max(0, Math.min(numRows, r.start))).add(Math.max(0, Math.min(numRows, r.end)));
  const sorted = [...cuts].sort((a, b) => a - b);
  const out: Range[] = [];
  for (let i = 0; i + 1 < sorted.length; i++) if (sorted[i]! < sorted[i + 1]!) out.push({ start: sorted[i]!, end: sorted[i + 1]! });
  return out;
}

function covers(ranges: Range[], row: number): boolean {
  return ranges.some((r) => r.start <= row && row < r.end);
}

function define(o: Record<string, unknown>, k: string, v: unknown): void {
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}
