/**
 * The Trevni salvage read, at block granularity. Blocks of different
 * columns cover different rows, so losses are found per root field (a root
 * column and its descendants), walking its columns row by row:
 *
 * - every block is read, its checksum verified and inflated, whatever the
 *   state of the columns around it, so every damaged block is reported;
 * - a block that fails (checksum, inflating, or decoding any of its values)
 *   loses all its rows: without a checksum, values decoded before the
 *   failure may be garbage, so none of them is trusted;
 * - a child column's values are placed by its parent's lengths, so when the
 *   parent loses a row, the child cannot go on in its block: the rest of
 *   that block is lost too (a loss of kind "ParentLost");
 * - a column whose block descriptors cannot be read loses every row.
 *
 * A field is intact at a row when every column of its tree is. The rows
 * that kept a field then come back with lost fields as MISSING, each
 * field's intact stretches read by the ordinary reader, which places every
 * child column from the start of its block through intact parent values, as
 * the walk did. A row that lost every field holding data is no record (as
 * in Parquet's salvage): it is counted lost and passed over with its
 * stretch, so a header claiming rows that no bytes back costs nothing. A
 * field of a null column (no array) holds no data, so it keeps no row.
 */
import { sameBytes } from '../bytes/same.js';
import { CorruptFileError, ParquetryError } from '../errors.js';
import { described, intersectSpans, mergeSpans, MISSING, type Loss, type Missing, type Span } from '../loss.js';
import { checkEmptyRows } from '../shred/empty-rows.js';
import { assembleRow, type ColumnRowData } from './assemble.js';
import { ColumnCursor, TrevniReader, type TrevniOpenOptions } from './reader.js';
import type { ReadInput } from '../io/source.js';
import { BlockRowsError } from './metadata.js';
import { holdsData, type TrevniBlock, type TrevniColumn } from './types.js';

/** What a walk over every block of the file found. */
export interface TrevniDamage {
  /** Rows the header claims. */
  numRows: number;
  /** Blocks read. */
  blocks: number;
  losses: Loss[];
  /** Per root column (the row's fields, in `roots` order): the rows it lost, sorted and disjoint. */
  lost: Span[][];
}

/** The name a loss of rows that are intact in their own block but cannot be placed (their parent's lengths are lost) carries. */
export const PARENT_LOST = 'ParentLost';

/** Reads every block and value of the file and reports what is lost, field by field. */
export async function findTrevniDamage(reader: TrevniReader): Promise<TrevniDamage> {
  const out: TrevniDamage = { numRows: reader.numRows, blocks: 0, losses: [], lost: [] };
  if (reader.columns.length === 0) checkEmptyRows(reader.numRows, { file: reader.source.name, offset: 4 });
  for (const root of reader.roots) out.lost.push(mergeSpans(await walkField(reader, treeOf(reader, root), out)));
  await loseUnbacked(reader, out);
  return out;
}

/**
 * Columns whose blocks hold other rows than the header says are lost (their
 * descriptors do not read), and the header's count is then in doubt as
 * much as they are. A block doubled can fill a column up to a raised
 * count with rows it already gave: so no field keeps a row from the fewest
 * rows such a column holds on, and a column that agrees with the header
 * through a block that repeats the one before it (same count, same bytes)
 * is lost from the repeat on.
 */
async function loseUnbacked(reader: TrevniReader, out: TrevniDamage): Promise<void> {
  let short: { col: TrevniColumn; e: BlockRowsError } | undefined;
  let doubted = false;
  for (const col of reader.columns) {
    try {
      await reader.blocks(col.index);
    } catch (e) {
      if (!(e instanceof ParquetryError)) throw e;
      if (!(e instanceof BlockRowsError)) continue;
      doubted = true;
      if (e.rows < (short?.e.rows ?? reader.numRows)) short = { col, e };
    }
  }
  if (!doubted) return;
  const lose = (roots: number[], col: TrevniColumn, rows: Span, error: unknown) => {
    // Rows every field named lost already are not reported twice.
    const size = (spans: Span[]) => spans.reduce((k, x) => k + x.end - x.start, 0);
    if (roots.every((i) => size(intersectSpans(out.lost[i]!, [rows])) === rows.end - rows.start)) return;
    out.losses.push({ column: col.name, bytes: columnBytes(reader, col), rows, error: described(error) });
    for (const i of roots) out.lost[i] = mergeSpans([...out.lost[i]!, rows]);
  };
  if (short) lose([...reader.roots.keys()], short.col, { start: short.e.rows, end: reader.numRows }, short.e);
  for (const [i, root] of reader.roots.entries()) {
    for (const col of treeOf(reader, root)) {
      const at = await repeatedBlock(reader, col);
      if (at) lose([i], col, { start: at.firstRow, end: reader.numRows }, new CorruptFileError(`block ${at.index} of column ${col.name} repeats the block before it, and the file's row count is in doubt`, { column: col.name, offset: at.offset }));
    }
  }
}

/** The first block of `col` that repeats the one before it (count, sizes and bytes), if any. */
async function repeatedBlock(reader: TrevniReader, col: TrevniColumn): Promise<(TrevniBlock & { index: number }) | undefined> {
  let blocks: readonly TrevniBlock[];
  try {
    blocks = await reader.blocks(col.index);
  } catch (e) {
    if (e instanceof ParquetryError) return undefined;
    throw e;
  }
  for (let i = 1; i < blocks.length; i++) {
    const [a, b] = [blocks[i - 1]!, blocks[i]!];
    if (a.numRows !== b.numRows || a.compressedSize !== b.compressedSize || a.uncompressedSize !== b.uncompressedSize) continue;
    if (b.offset + b.compressedSize > reader.fileLength) break;
    if (sameBytes(await reader.source.read(a.offset, a.compressedSize), await reader.source.read(b.offset, b.compressedSize))) return { ...b, index: i };
  }
  return undefined;
}

/** The root column and its descendants, parents before children (file order). */
function treeOf(reader: TrevniReader, root: number): TrevniColumn[] {
  const tree: TrevniColumn[] = [];
  const add = (ci: number) => {
    tree.push(reader.columns[ci]!);
    for (const k of reader.columns[ci]!.children) add(k);
  };
  add(root);
  return tree.sort((a, b) => a.index - b.index);
}

/** One column's place in the walk. */
interface ColumnWalk {
  col: TrevniColumn;
  blocks: readonly TrevniBlock[] | null;
  cursor: ColumnCursor | null;
  /** Index of the block holding the current row. */
  block: number;
  /** The first row the column is not dead at (dead while row < deadUntil). */
  deadUntil: number;
  /** Values the column held at the current row (a child's slots), when alive. */
  count: number;
  /** Lost whole: a block's count was disproved. */
  unplaced?: boolean;
}

async function walkField(reader: TrevniReader, tree: TrevniColumn[], out: TrevniDamage): Promise<Span[]> {
  const n = reader.numRows;
  const lost: Span[] = [];
  const walks = new Map<number, ColumnWalk>();
  for (const col of tree) {
    const w: ColumnWalk = { col, blocks: null, cursor: null, block: -1, deadUntil: 0, count: 0 };
    try {
      w.blocks = await reader.blocks(col.index);
      w.cursor = new ColumnCursor(reader, col, w.blocks);
    } catch (e) {
      if (!(e instanceof ParquetryError)) throw e;
      w.deadUntil = n;
      out.losses.push({ column: col.name, bytes: columnBytes(reader, col), rows: { start: 0, end: n }, error: described(e) });
      lost.push({ start: 0, end: n });
    }
    walks.set(col.index, w);
  }
  const blockSpan = (w: ColumnWalk) => {
    const b = w.blocks![w.block]!;
    return { start: b.firstRow, end: b.firstRow + b.numRows };
  };
  // A block whose values do not fit its row count (too few bytes, or bytes left over) has a count other than the one
  // written. The counts still add up to the file's rows (or the descriptors would not read), so another block's count
  // or presence is wrong too, before or after it: no block's first row is known, and the column is lost.
  const kill = (w: ColumnWalk, from: number, error: { name: string; message: string }) => {
    const b = w.blocks![w.block]!;
    const rows = error.name === PARENT_LOST ? { start: from, end: b.firstRow + b.numRows } : { start: 0, end: n };
    w.unplaced ||= error.name !== PARENT_LOST;
    w.deadUntil = rows.end;
    out.losses.push({ column: w.col.name, block: w.block, bytes: inFile(reader, b.offset, b.offset + b.compressedSize + b.checksumSize), rows, error });
    lost.push(rows);
  };
  /** Kills the column from the block it leaves when the block's rows, all read, left bytes unread (or hold none and it has bytes). */
  const leftOver = (w: ColumnWalk) => {
    const b = w.blocks![w.block]!;
    const read = b.numRows > 0 ? w.deadUntil < b.firstRow + b.numRows && w.cursor!.unread : holdsData(w.col) && b.uncompressedSize > 0;
    if (read && !w.unplaced) kill(w, b.firstRow, { name: 'CorruptFileError', message: `block ${w.block} of column ${w.col.name}: its ${b.numRows} rows leave bytes of its ${b.uncompressedSize} unread` });
  };
  const parentLost = (w: ColumnWalk, row: number) => ({
    name: PARENT_LOST,
    message: `its parent column ${reader.columns[w.col.parentIndex]!.name} lost row ${row}, and with it the lengths that place this block's values from there on`,
  });
  // A lone null column holds no bytes per row, so no row of it can fail: only its blocks are checked (a walk row by row would run on a count nothing backs).
  let row = holdsData(tree[0]!) ? 0 : n;
  while (row < n) {
    let alive = 0;
    for (const col of tree) {
      const w = walks.get(col.index)!;
      if (!w.blocks) continue;
      const parent = col.parentIndex < 0 ? undefined : walks.get(col.parentIndex)!;
      const parentDead = parent !== undefined && row < parent.deadUntil;
      // Blocks that hold no row are passed, but still checked; a block that fails is dead over its rows.
      while (w.block < 0 || row >= blockSpan(w).end) {
        if (w.block >= 0) leftOver(w);
        w.block++;
        await checkBlock(reader, w, out, lost);
      }
      if (row < w.deadUntil) continue;
      if (parentDead) {
        kill(w, row, parentLost(w, row));
        continue;
      }
      try {
        if (row === blockSpan(w).start) await w.cursor!.load(row);
        w.count = w.cursor!.read(parent ? parent.count : 1).values.length;
        alive++;
      } catch (e) {
        if (!(e instanceof ParquetryError)) throw e;
        kill(w, row, described(e));
      }
    }
    // With every column dead, nothing changes before the first of them comes back: no loop on rows nothing backs.
    // (A reduce, not Math.min's arguments: a field may have more columns than the stack holds arguments.)
    row = alive > 0 ? row + 1 + passFreeRows(tree, walks, row, n) : Math.max(row + 1, tree.reduce((m, c) => Math.min(m, walks.get(c.index)!.deadUntil), Infinity));
  }
  // Blocks past the last row walked (a column's trailing empty blocks, or every block of a lone null column) are checked too.
  for (const w of walks.values()) {
    if (!w.blocks) continue;
    if (w.block >= 0) leftOver(w);
    while (w.block + 1 < w.blocks.length) {
      w.block++;
      await checkBlock(reader, w, out, lost);
      leftOver(w);
    }
  }
  return lost;
}

/**
 * Passes the rows after `row` that every live column of the field reads
 * without a byte (a run code's rows: one varint stands for up to 2^30 empty
 * arrays), staying inside each column's block and short of each dead
 * column's return, so the walk costs the bytes, not the rows they stand
 * for. Returns how many rows it passed. A dead column's descendants are
 * dead too, so every live column's parent is live.
 */
function passFreeRows(tree: TrevniColumn[], walks: Map<number, ColumnWalk>, row: number, n: number): number {
  let rows = n - row - 1;
  const values = new Map<number, number>();
  for (const col of tree) {
    const w = walks.get(col.index)!;
    if (!w.blocks || row < w.deadUntil) {
      rows = Math.min(rows, w.deadUntil - row - 1);
    } else {
      const free = w.cursor!.freeRows(col.parentIndex < 0 ? 1 : values.get(col.parentIndex)!);
      values.set(col.index, free.values);
      rows = Math.min(rows, free.rows);
    }
    if (rows <= 0) return 0;
  }
  for (const col of tree) {
    if (values.has(col.index)) walks.get(col.index)!.cursor!.passFree(rows, col.parentIndex < 0 ? 1 : values.get(col.parentIndex)!);
  }
  return rows;
}

/**
 * Reads, verifies and inflates block `w.block` of the column; on failure
 * records the loss, adds the block's rows to the field's `lost` and marks
 * the column dead over them.
 */
async function checkBlock(reader: TrevniReader, w: ColumnWalk, out: TrevniDamage, lost: Span[]): Promise<void> {
  const b = w.blocks![w.block]!;
  out.blocks++;
  try {
    await reader.blockData(w.col.index, w.block);
  } catch (e) {
    if (!(e instanceof ParquetryError)) throw e;
    const rows = { start: b.firstRow, end: b.firstRow + b.numRows };
    out.losses.push({ column: w.col.name, block: w.block, bytes: inFile(reader, b.offset, b.offset + b.compressedSize + b.checksumSize), rows, error: described(e) });
    lost.push(rows);
    w.deadUntil = Math.max(w.deadUntil, rows.end);
  }
}

/** A column's bytes: from its start to the next column's, or to the end of the file. */
function columnBytes(reader: TrevniReader, col: TrevniColumn): Span {
  const next = reader.columns[col.index + 1];
  return inFile(reader, col.start, next && next.start >= col.start ? next.start : reader.fileLength);
}

/** The part of [start, end) the file holds: a truncated file's descriptors place columns and blocks past its end. */
function inFile(reader: TrevniReader, start: number, end: number): Span {
  const n = reader.fileLength;
  return { start: Math.min(start, n), end: Math.min(end, n) };
}

/**
 * A Trevni file opened for salvage, as Parquet's `openForSalvage` opens one:
 * its reader and the damage found; `salvageTrevniRows` then reads what is
 * intact. The caller closes `reader`.
 */
export interface OpenedTrevniForSalvage extends TrevniDamage {
  reader: TrevniReader;
}

/** Which rows `salvageTrevniRows` yields. */
export interface TrevniSalvageOptions {
  /** Only the rows no field lost (default false: also those that kept a field holding data). */
  wholeOnly?: boolean;
}

/**
 * One row that kept a field holding data: its record (lost fields as `MISSING`) and whether it is
 * whole.
 */
export interface SalvagedTrevniRow {
  /** The row's index in the file. */
  row: number;
  record: Record<string, unknown>;
  data: (ColumnRowData | undefined)[];
  /** No field is MISSING. */
  whole: boolean;
}

/**
 * Opens a Trevni file (versions 1 and 2; a corrupt header loses the file,
 * so it throws) and finds its damage.
 */
export async function openTrevniForSalvage(input: ReadInput, options: TrevniOpenOptions = {}): Promise<OpenedTrevniForSalvage> {
  // A truncated file loses the columns and blocks past its end, not everything.
  const reader = await TrevniReader.open(input, { ...options, truncated: true });
  try {
    return { ...(await findTrevniDamage(reader)), reader };
  } catch (e) {
    await reader.close();
    throw e;
  }
}

/**
 * The rows of the file that kept a field holding data (and those no field
 * lost), in order, with their root fields (TrevniReader.rows' shape) and
 * each lost field as MISSING; `data` is the row's column data (columnData's
 * shape), undefined for the columns of lost fields. Rows left out are
 * passed over in stretches, not one by one.
 */
export function salvageTrevniRows(opened: OpenedTrevniForSalvage, options: TrevniSalvageOptions = {}): AsyncGenerator<SalvagedTrevniRow> {
  return options.wholeOnly ? wholeRows(opened.reader, opened.lost) : salvagedRows(opened.reader, opened.lost);
}

async function* salvagedRows(reader: TrevniReader, lost: Span[][]): AsyncGenerator<SalvagedTrevniRow> {
  const kept = keptRows(reader, lost);
  const trees = reader.roots.map((root) => treeOf(reader, root));
  const fields = reader.roots.map((root, i) => fieldRows(reader, root, lost[i]!, kept));
  try {
    for (const span of kept) {
      for (let row = span.start; row < span.end; row++) {
        const data: (ColumnRowData | undefined)[] = new Array(reader.columns.length);
        const record: Record<string, unknown> = {};
        let whole = true;
        for (let i = 0; i < fields.length; i++) {
          const next = await fields[i]!.next();
          const root = reader.roots[i]!;
          if (next.done || next.value === MISSING) {
            record[reader.columns[root]!.name] = MISSING;
            whole = false;
            continue;
          }
          for (const c of trees[i]!) data[c.index] = next.value[c.index];
          Object.assign(record, assembleRow(reader.columns, data, [root]));
        }
        yield { row, record, data, whole };
      }
    }
  } finally {
    for (const f of fields) await f.return(undefined);
  }
}

/** The rows a salvage read gives: those no field lost, and those a field holding data kept (sorted, disjoint). */
function keptRows(reader: TrevniReader, lost: Span[][]): Span[] {
  let lostAll: Span[] = [{ start: 0, end: reader.numRows }];
  reader.roots.forEach((root, i) => {
    if (holdsData(reader.columns[root]!)) lostAll = intersectSpans(lostAll, lost[i]!);
  });
  return gaps(intersectSpans(lostAll, lostRows(lost)), reader.numRows);
}

async function* wholeRows(reader: TrevniReader, lost: Span[][]): AsyncGenerator<SalvagedTrevniRow> {
  for (const s of gaps(lostRows(lost), reader.numRows)) {
    let row = s.start;
    for await (const data of reader.columnData({ offset: s.start, limit: s.end - s.start })) {
      yield { row: row++, record: assembleRow(reader.columns, data, reader.roots), data, whole: true };
    }
  }
}

/** The rows any field lost: the union of the fields' spans, sorted and disjoint. */
export function lostRows(lost: Span[][]): Span[] {
  return mergeSpans(lost.flat());
}

/** The stretches of [0, n) that `spans` (sorted, disjoint) leave out. */
function gaps(spans: Span[], n: number): Span[] {
  const out: Span[] = [];
  let at = 0;
  for (const s of [...spans, { start: n, end: n }]) {
    if (s.start > at) out.push({ start: at, end: s.start });
    at = s.end;
  }
  return out;
}

/** A field's data over the `kept` rows: MISSING over its lost spans, the ordinary reader's column data over the stretches between them. */
async function* fieldRows(reader: TrevniReader, root: number, lost: Span[], kept: Span[]): AsyncGenerator<(ColumnRowData | undefined)[] | Missing> {
  const name = reader.columns[root]!.name;
  for (const k of kept) {
    let row = k.start;
    for (const span of [...intersectSpans(lost, [k]), { start: k.end, end: k.end }]) {
      if (span.start > row) yield* reader.columnData({ offset: row, limit: span.start - row, columns: [name] });
      for (let r = span.start; r < span.end; r++) yield MISSING;
      row = span.end;
    }
  }
}
