/**
 * What a run of a column chunk's level entries holds, counted as the file's
 * claims about it are tested (claims.ts): nulls (both ways writers count them),
 * level histograms, rows, non-null values, NaNs, unencoded byte-array bytes,
 * the least and greatest values, and (for a whole chunk) the distinct
 * values. A tally takes entries a segment at a time, so a chunk decoded a
 * window of rows at a time (reader.columns() on a large chunk) is counted
 * as one.
 */
import { isByteArrays, type Values } from '../../encodings/types.js';
import { valueReader } from '../../schema/convert.js';
import type { LeafNode } from '../../schema/tree.js';
import { canonicalValue } from '../../text/canonical.js';
import type { ColumnChunkData } from '../../shred/column-data.js';
import { compareBytes, compareD, type D, type Domain } from '../filter/compare.js';
import { compareTotalOrder } from '../float-order.js';

/** One decoded window of a chunk, with what reading its values needs. */
export interface Window {
  c: ColumnChunkData;
  /** Position in `vals` of the i-th non-null value of the window. */
  at: (i: number) => number;
  vals: Values;
  isNaN: (p: number) => boolean;
  /** Position `p` against a domain value, and two positions. */
  withD: (p: number, d: D) => number;
  pair: (p: number, q: number) => number;
  /** The value at `p` as a domain value (bytes copied), as the reader's value, and as canonical text. */
  d: (p: number) => D;
  value: (p: number) => unknown;
  text: (p: number) => string;
  /** Byte length of the byte array at `p` (0 for other types). */
  bytes: (p: number) => number;
  /** The PLAIN bytes of the fixed-width value at `p` (a view; byte arrays: their bytes). */
  plain: (p: number) => Uint8Array;
}

export function window(c: ColumnChunkData, leaf: LeafNode, domain: Domain): Window {
  const dict = c.indices && c.dictionary;
  const idx = c.indices;
  const vals = (dict ? c.dictionary : c.values)!;
  const at = dict ? (i: number) => idx![i]! : (i: number) => i;
  const read = valueReader(leaf.kind, vals);
  const text = (p: number): string => canonicalValue(leaf.kind, read(p));
  if (domain.type === 'bytes' && isByteArrays(vals)) {
    const { data, offsets } = vals;
    return {
      c, at, vals, text, value: read,
      plain: (p) => data.subarray(offsets[p]!, offsets[p + 1]!),
      isNaN: () => false,
      withD: (p, d) => compareBytes(data, offsets[p]!, offsets[p + 1]!, d as Uint8Array),
      pair: (p, q) => compareBytes(data, offsets[p]!, offsets[p + 1]!, data.subarray(offsets[q]!, offsets[q + 1]!)),
      d: (p) => data.slice(offsets[p]!, offsets[p + 1]!),
      bytes: (p) => offsets[p + 1]! - offsets[p]!,
    };
  }
  const num = domain.reader(vals);
  const bytes = isByteArrays(vals) ? (p: number) => vals.offsets[p + 1]! - vals.offsets[p]! : () => 0;
  let plain: (p: number) => Uint8Array;
  if (isByteArrays(vals)) plain = (p) => vals.data.subarray(vals.offsets[p]!, vals.offsets[p + 1]!);
  else {
    const a = vals as Exclude<Values, { offsets: unknown }>;
    const all = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    const w = a.BYTES_PER_ELEMENT;
    plain = (p) => all.subarray(p * w, (p + 1) * w);
  }
  return {
    c, at, vals, text, bytes, value: read, plain,
    isNaN: (p) => Number.isNaN(num(p)),
    withD: (p, d) => compareD(num(p), d),
    pair: (p, q) => compareD(num(p), num(q)),
    d: num,
  };
}

export class Tally {
  entries = 0;
  rows = 0;
  values = 0;
  nans = 0;
  /** Entries below the leaf's definition level, and those of them in an existing value slot (see claims.ts' elementSlotDef). */
  nullEntries = 0;
  nullValues = 0;
  byteArrayBytes = 0;
  readonly repHistogram: number[];
  readonly defHistogram: number[];
  min: D | undefined;
  max: D | undefined;
  minText = '';
  maxText = '';
  /**
   * Distinct values, when asked for: by their bytes, or for floats as the
   * column order tells them apart ('value': by number, -0 and +0 one value,
   * NaNs one; 'bits': by bit pattern, as total order does).
   */
  readonly distinct: Set<unknown> | undefined;
  private readonly distinctBy: 'value' | 'bits';
  /** Float values: zeros seen (bit 1 for -0, bit 2 for +0), and the least and greatest NaN in total order (PLAIN bytes). */
  zeros = 0;
  nanLo: Uint8Array | undefined;
  nanHi: Uint8Array | undefined;

  constructor(private readonly leaf: LeafNode, private readonly slotDef: number, distinct: false | 'value' | 'bits') {
    this.repHistogram = new Array<number>(leaf.repLevel + 1).fill(0);
    this.defHistogram = new Array<number>(leaf.defLevel + 1).fill(0);
    this.distinct = distinct ? new Set() : undefined;
    this.distinctBy = distinct || 'value';
  }

  /** Entries [e0, e1) of the window, whose non-null values are its values [v0, v1). */
  add(w: Window, e0: number, e1: number, v0: number, v1: number): void {
    const { def, rep } = w.c;
    this.entries += e1 - e0;
    if (rep) {
      for (let k = e0; k < e1; k++) {
        const r = rep[k]!;
        this.repHistogram[r] = (this.repHistogram[r] ?? 0) + 1;
        if (r === 0) this.rows++;
      }
    } else {
      this.repHistogram[0]! += e1 - e0;
      this.rows += e1 - e0;
    }
    if (def) {
      const maxDef = this.leaf.defLevel;
      for (let k = e0; k < e1; k++) {
        const d = def[k]!;
        this.defHistogram[d] = (this.defHistogram[d] ?? 0) + 1;
        if (d < maxDef) {
          this.nullEntries++;
          if (d >= this.slotDef) this.nullValues++;
        }
      }
    } else this.defHistogram[this.leaf.defLevel]! += e1 - e0;
    this.values += v1 - v0;
    let min = -1;
    let max = -1;
    const keys = this.distinct;
    const float = this.leaf.kind.kind === 'float' || this.leaf.kind.kind === 'float16';
    const byBits = keys && (float ? this.distinctBy === 'bits' : isByteArrays(w.vals)) ? new TextDecoder('latin1') : undefined;
    for (let i = v0; i < v1; i++) {
      const p = w.at(i);
      this.byteArrayBytes += w.bytes(p);
      if (keys) {
        if (byBits) keys.add(byBits.decode(w.plain(p)));
        else keys.add(w.d(p));
      }
      if (w.isNaN(p)) {
        this.nans++;
        const b = w.plain(p);
        if (this.nanLo === undefined || compareTotalOrder(b, this.nanLo) < 0) this.nanLo = b.slice();
        if (this.nanHi === undefined || compareTotalOrder(b, this.nanHi) > 0) this.nanHi = b.slice();
        continue;
      }
      if (float && w.d(p) === 0) {
        const b = w.plain(p);
        this.zeros |= b[b.length - 1]! & 0x80 ? 1 : 2;
      }
      if (min < 0 || w.pair(p, min) < 0) min = p;
      if (max < 0 || w.pair(p, max) > 0) max = p;
    }
    if (min >= 0 && (this.min === undefined || w.withD(min, this.min) < 0)) {
      this.min = w.d(min);
      this.minText = w.text(min);
    }
    if (max >= 0 && (this.max === undefined || w.withD(max, this.max) > 0)) {
      this.max = w.d(max);
      this.maxText = w.text(max);
    }
  }

  /** Adds what `t` counted (its distinct values aside): a chunk's tally from its pages' without counting each value twice. */
  absorb(t: Tally): void {
    this.entries += t.entries;
    this.rows += t.rows;
    this.values += t.values;
    this.nans += t.nans;
    this.nullEntries += t.nullEntries;
    this.nullValues += t.nullValues;
    this.byteArrayBytes += t.byteArrayBytes;
    t.repHistogram.forEach((n, i) => (this.repHistogram[i] = (this.repHistogram[i] ?? 0) + n));
    t.defHistogram.forEach((n, i) => (this.defHistogram[i] = (this.defHistogram[i] ?? 0) + n));
    if (t.min !== undefined && (this.min === undefined || compareD(t.min, this.min) < 0)) {
      this.min = t.min;
      this.minText = t.minText;
    }
    if (t.max !== undefined && (this.max === undefined || compareD(t.max, this.max) > 0)) {
      this.max = t.max;
      this.maxText = t.maxText;
    }
    this.zeros |= t.zeros;
    if (t.nanLo && (this.nanLo === undefined || compareTotalOrder(t.nanLo, this.nanLo) < 0)) this.nanLo = t.nanLo;
    if (t.nanHi && (this.nanHi === undefined || compareTotalOrder(t.nanHi, this.nanHi) > 0)) this.nanHi = t.nanHi;
  }

  /** Whether `n` is an honest null count here: writers count null values (Arrow) or every entry below the leaf's level (parquet-java). */
  nullsHold(n: number): boolean {
    return n >= this.nullValues && n <= this.nullEntries;
  }

  get nullsText(): string {
    return this.nullValues === this.nullEntries ? String(this.nullEntries) : `${this.nullValues} (null values) or ${this.nullEntries} (null entries)`;
  }
}
