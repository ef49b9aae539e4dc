/**
 * Sorting a column over the whole file, in the page, in the background:
 * the column's values are read in batches, then the row numbers are merge
 * sorted a slice at a time, the page's event loop served between slices, so
 * scrolling and the cancel button keep working. The order is DuckDB's
 * `ORDER BY col [DESC]`: nulls last both ways, strings by code point (as
 * UTF-8 bytes compare), NaN above every number; ties keep file order.
 */
import type { LeafNode, Table } from 'parquetry';
import { compareUtf8 } from '../../src/bytes/utf8-checks.js';

/** The most rows a whole-file sort takes (docs/viewer.md states it): their keys and row numbers are held in memory. */
export const SORT_MAX_ROWS = 1_000_000;

/** Work done between two yields to the event loop, in values merged or read. */
const SLICE = 1 << 16;

export type Progress = (done: number, total: number) => void;

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** Exact decimal texts (`-12.30`) of one column, so of one scale: by sign, then digits before the point, then the text. */
function compareDecimals(a: string, b: string): number {
  const na = a.startsWith('-');
  const nb = b.startsWith('-');
  if (na !== nb) return na ? -1 : 1;
  const ia = a.indexOf('.') < 0 ? a.length : a.indexOf('.');
  const ib = b.indexOf('.') < 0 ? b.length : b.indexOf('.');
  const magnitude = ia !== ib ? ia - ib : a < b ? -1 : a > b ? 1 : 0;
  return na ? -magnitude : magnitude;
}

/** Two non-null values of one column, as the column's kind orders them. */
export function compareValues(leaf: LeafNode, a: unknown, b: unknown): number {
  if (leaf.kind.kind === 'decimal' && typeof a === 'string') return compareDecimals(a, b as string);
  if (typeof a === 'string') return compareUtf8(a, b as string);
  if (a instanceof Uint8Array) return compareBytes(a, b as Uint8Array);
  if (typeof a === 'number' && (Number.isNaN(a) || Number.isNaN(b as number))) return Number(Number.isNaN(a)) - Number(Number.isNaN(b as number));
  if (typeof a === 'boolean') return Number(a) - Number(b);
  return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
}

const tick = () => new Promise<void>((resolve) => setTimeout(resolve));

/**
 * The file's row numbers in the order of column `leaf` (a top-level leaf):
 * keys read, then sorted; `progress` hears of both halves. Throws the
 * signal's reason once it is aborted.
 */
export async function sortRows(table: Table, leaf: LeafNode, descending: boolean, signal: AbortSignal, progress: Progress): Promise<Int32Array> {
  const n = table.numRows;
  const keys: unknown[] = [];
  // Batches of a slice: each one read and handed over before the next, so the page stays live.
  for await (const batch of table.rowBatches({ columns: [leaf.path], batchSize: SLICE, signal })) {
    for (const row of batch) keys.push(row[leaf.name]);
    progress(keys.length, 2 * n);
    await tick();
  }
  const cmp = (x: number, y: number): number => {
    const a = keys[x];
    const b = keys[y];
    if (a === null || a === undefined) return b === null || b === undefined ? 0 : 1;
    if (b === null || b === undefined) return -1;
    const c = compareValues(leaf, a, b);
    return descending ? -c : c;
  };
  return mergeSort(keys.length, cmp, signal, (done) => progress(n + done, 2 * n));
}

/** A stable bottom-up merge sort of 0..n-1 by `cmp`, yielding to the event loop every SLICE values merged. */
async function mergeSort(n: number, cmp: (a: number, b: number) => number, signal: AbortSignal, progress: (done: number) => void): Promise<Int32Array> {
  let src = Int32Array.from({ length: n }, (_, i) => i);
  let dst = new Int32Array(n);
  const passes = Math.max(1, Math.ceil(Math.log2(Math.max(n, 2))));
  let pass = 0;
  let since = 0;
  for (let width = 1; width < n; width *= 2, pass++) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n);
      const hi = Math.min(lo + 2 * width, n);
      let i = lo;
      let j = mid;
      let k = lo;
      // Left first on ties: rows of equal keys keep their file order.
      while (i < mid && j < hi) dst[k++] = cmp(src[i]!, src[j]!) <= 0 ? src[i++]! : src[j++]!;
      while (i < mid) dst[k++] = src[i++]!;
      while (j < hi) dst[k++] = src[j++]!;
      since += hi - lo;
      if (since >= SLICE) {
        since = 0;
        progress(Math.round(((pass + hi / n) / passes) * n));
        await tick();
        signal.throwIfAborted();
      }
    }
    [src, dst] = [dst, src];
  }
  progress(n);
  return src;
}
