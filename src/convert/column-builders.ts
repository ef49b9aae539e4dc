/**
 * Columns built a value at a time in the Parquet column's own storage
 * (typed arrays for numbers, dates and timestamps; one byte buffer and
 * offsets for strings), with a validity byte per row: what a text reader
 * builds instead of a JS value per cell, handed to the writer as leaf
 * entries (`entriesOf`) and between threads as transferable buffers.
 */
import type { LeafEntries, PresentValues } from '../shred/entries.js';
import { copyBytes } from '../bytes/concat.js';
import { LITTLE_ENDIAN } from '../encodings/bits.js';

/** The present rows' values of a built column, in the writer's storage. */
export type BuiltValues =
  | { t: 'typed'; values: Int32Array | BigInt64Array | Float64Array | Uint8Array }
  | { t: 'bytes'; data: Uint8Array; offsets: Int32Array }
  | { t: 'any'; values: unknown[] };

/**
 * A built column: `rows` rows, null where `valid` holds 0 (no `valid`: none
 * is null), the present ones' values in order; a nested leaf's rows have
 * `levels` instead of `valid`.
 */
export interface BuiltColumn {
  rows: number;
  valid: Uint8Array | undefined;
  values: BuiltValues;
  levels?: BuiltLevels;
}

/**
 * A nested leaf's entries: a definition level each (a value where it is
 * `maxDef`), repetition levels when the leaf repeats, and then where each
 * row's entries start (`rowStarts`, rows + 1 of them); else one entry a row.
 */
export interface BuiltLevels {
  def: Uint16Array;
  maxDef: number;
  rep: Uint16Array | null;
  rowStarts: Int32Array | null;
}

const FIRST = 1024;

/** `a`, or a copy with room for `need` elements (at least double its length, at least `first`). */
export function grown<T extends Int32Array | Float64Array | Uint8Array | Uint16Array | BigInt64Array>(a: T, need: number, first = FIRST): T {
  if (need <= a.length) return a;
  const next = new (a.constructor as new (n: number) => T)(Math.max(first, need, a.length * 2));
  next.set(a as never);
  return next;
}

/**
 * Rows and their validity; the values are the subclass's. Each buffer starts
 * at the size it reached in the column taken before (blocks of an input are
 * alike): grown from nothing, each block's buffers were allocated and copied
 * about twice over.
 */
export abstract class ColumnBuilder {
  rows = 0;
  /** Present rows so far. */
  present = 0;
  private valid = new Uint8Array(0);
  private nulls = 0;
  /** Rows of the column taken last. */
  private lastRows = 0;

  /** Elements a buffer of this column starts with, from what the last column taken held (`last`). */
  protected first(last: number): number {
    return Math.max(FIRST, last + (last >> 3));
  }

  /** A null row. */
  null(): void {
    if (this.rows === this.valid.length) this.valid = grown(this.valid, this.rows + 1, this.first(this.lastRows));
    this.valid[this.rows++] = 0;
    this.nulls++;
  }

  /** Marks a present row whose value was just stored at index `present`. */
  protected added(): void {
    if (this.rows === this.valid.length) this.valid = grown(this.valid, this.rows + 1, this.first(this.lastRows));
    this.valid[this.rows++] = 1;
    this.present++;
  }

  /** Drops the rows from `rows` on (a bad row's cells already added). */
  rollback(rows: number): void {
    while (this.rows > rows) {
      if (this.valid[--this.rows] === 1) this.present--;
      else this.nulls--;
    }
    this.truncateValues(this.present);
  }

  protected abstract truncateValues(present: number): void;
  protected abstract takeValues(): BuiltValues;

  /** The column built so far; the builder starts again empty. */
  take(): BuiltColumn {
    const out: BuiltColumn = { rows: this.rows, valid: this.nulls > 0 ? this.valid.subarray(0, this.rows) : undefined, values: this.takeValues() };
    this.lastRows = this.rows;
    this.valid = new Uint8Array(0);
    this.rows = 0;
    this.present = 0;
    this.nulls = 0;
    return out;
  }
}

/** Numbers in a typed array: Int32Array (INT32, DATE), Float64Array (DOUBLE), Uint8Array of 0 and 1 (BOOLEAN). */
export class NumberBuilder<T extends Int32Array | Float64Array | Uint8Array> extends ColumnBuilder {
  private values: T;
  constructor(private readonly make: new (n: number) => T) {
    super();
    this.values = new make(0);
  }
  private lastPresent = 0;
  add(v: number): void {
    if (this.present === this.values.length) this.values = grown(this.values, this.present + 1, this.first(this.lastPresent));
    this.values[this.present] = v;
    this.added();
  }
  protected truncateValues(): void {}
  protected takeValues(): BuiltValues {
    const values = this.values.subarray(0, this.present);
    this.lastPresent = this.present;
    this.values = new this.make(0);
    return { t: 'typed', values };
  }
}

const TWO_32 = 4294967296;

/** INT64 values; a safe integer number is stored as its two 32-bit halves, with no bigint made. */
export class Int64Builder extends ColumnBuilder {
  private values = new BigInt64Array(0);
  private halves = new Int32Array(0);
  private lastPresent = 0;
  private room(): void {
    if (this.present < this.values.length) return;
    this.values = grown(this.values, this.present + 1, this.first(this.lastPresent));
    this.halves = new Int32Array(this.values.buffer, this.values.byteOffset, this.values.length * 2);
  }
  add(v: bigint): void {
    this.room();
    this.values[this.present] = v;
    this.added();
  }
  /** A safe integer. */
  addNumber(v: number): void {
    this.room();
    if (LITTLE_ENDIAN) {
      const hi = Math.floor(v / TWO_32);
      const i = this.present * 2;
      this.halves[i] = (v - hi * TWO_32) | 0;
      this.halves[i + 1] = hi;
    } else this.values[this.present] = BigInt(v);
    this.added();
  }
  protected truncateValues(): void {}
  protected takeValues(): BuiltValues {
    const values = this.values.subarray(0, this.present);
    this.lastPresent = this.present;
    this.values = new BigInt64Array(0);
    this.halves = new Int32Array(0);
    return { t: 'typed', values };
  }
}

const QUOTE = 34;
const encoder = new TextEncoder();

/** Byte strings: one buffer and an offset per present row (offsets[i] to offsets[i + 1]). */
export class BytesBuilder extends ColumnBuilder {
  private data = new Uint8Array(0);
  private offsets = new Int32Array(0);
  private end = 0;
  private lastPresent = 0;
  private lastEnd = 0;

  private room(n: number): void {
    if (this.end + n > this.data.length) this.data = grown(this.data, this.end + n, this.first(this.lastEnd));
    if (this.present + 2 > this.offsets.length) this.offsets = grown(this.offsets, this.present + 2, this.first(this.lastPresent + 1));
  }

  private close(): void {
    this.offsets[this.present + 1] = this.end;
    this.added();
  }

  /** The bytes src[start, end); with `escaped`, each `""` in them as one `"` (a quoted CSV cell). */
  addBytes(src: Uint8Array, start: number, end: number, escaped: boolean): void {
    this.room(end - start);
    const data = this.data;
    if (!escaped) {
      copyBytes(data, this.end, src, start, end);
      this.end += end - start;
    } else {
      let at = this.end;
      for (let i = start; i < end; i++) {
        const c = src[i]!;
        data[at++] = c;
        if (c === QUOTE) i++;
      }
      this.end = at;
    }
    this.close();
  }

  /** Text as UTF-8. */
  addText(s: string): void {
    this.room(s.length * 3);
    this.end += encoder.encodeInto(s, this.data.subarray(this.end)).written;
    this.close();
  }

  protected truncateValues(present: number): void {
    // No offsets yet when nothing was ever added.
    this.end = present > 0 ? this.offsets[present]! : 0;
  }

  protected takeValues(): BuiltValues {
    const out: BuiltValues = { t: 'bytes', data: this.data.subarray(0, this.end), offsets: this.offsets.subarray(0, this.present + 1) };
    this.lastPresent = this.present;
    this.lastEnd = this.end;
    this.data = new Uint8Array(0);
    this.offsets = new Int32Array(0);
    this.end = 0;
    return out;
  }
}

/** JS values, each taken by the writer's coercion. */
export class AnyBuilder extends ColumnBuilder {
  private values: unknown[] = [];
  add(v: unknown): void {
    this.values[this.present] = v;
    this.added();
  }
  protected truncateValues(present: number): void {
    this.values.length = present;
  }
  protected takeValues(): BuiltValues {
    const values = this.values;
    values.length = this.present;
    this.values = [];
    return { t: 'any', values };
  }
}

/** The buffers of built columns, for a transfer list. */
export function builtBuffers(columns: readonly BuiltColumn[]): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  for (const c of columns) {
    if (c.valid) out.add(c.valid.buffer as ArrayBuffer);
    for (const a of c.levels ? [c.levels.def, c.levels.rep, c.levels.rowStarts] : []) if (a) out.add(a.buffer as ArrayBuffer);
    const v = c.values;
    if (v.t === 'typed') out.add(v.values.buffer as ArrayBuffer);
    else if (v.t === 'bytes') {
      out.add(v.data.buffer as ArrayBuffer);
      out.add(v.offsets.buffer as ArrayBuffer);
    }
  }
  return [...out];
}

/**
 * Slices of built columns as the writer's leaf entries, rows in increasing
 * order (a slice taken again shorter starts where it did): where each
 * column's present values stand at the slice's first row is kept, not counted again.
 */
export class EntrySlicer {
  private row: number[];
  private at: number[];

  constructor(private readonly columns: readonly BuiltColumn[]) {
    this.row = columns.map(() => 0);
    this.at = columns.map(() => 0);
  }

  /** Column `k`'s rows start..end (start no lower than any slice's before). */
  entries(k: number, start: number, end: number): LeafEntries {
    const c = this.columns[k]!;
    if (c.levels) return this.levelled(k, c.levels, c.values, start, end);
    const valid = c.valid;
    let def: Uint16Array | null = null;
    let first = start;
    let count = end - start;
    if (valid) {
      let at = this.at[k]!;
      for (let i = this.row[k]!; i < start; i++) at += valid[i]!;
      this.row[k] = start;
      this.at[k] = at;
      first = at;
      def = new Uint16Array(end - start);
      count = 0;
      for (let i = start; i < end; i++) count += def[i - start] = valid[i]!;
    }
    return { n: end - start, rep: null, def, values: presentSlice(c.values, first, first + count) };
  }

  /** A nested leaf's entries of rows start..end; `row` and `at` keep its entry and value at the last slice's start. */
  private levelled(k: number, l: BuiltLevels, values: BuiltValues, start: number, end: number): LeafEntries {
    const from = l.rowStarts ? l.rowStarts[start]! : start;
    const to = l.rowStarts ? l.rowStarts[end]! : end;
    const def = l.def;
    let at = this.at[k]!;
    for (let i = this.row[k]!; i < from; i++) if (def[i] === l.maxDef) at++;
    this.row[k] = from;
    this.at[k] = at;
    let count = 0;
    for (let i = from; i < to; i++) if (def[i] === l.maxDef) count++;
    return { n: to - from, rep: l.rep ? l.rep.subarray(from, to) : null, def: def.subarray(from, to), values: presentSlice(values, at, at + count) };
  }
}

function presentSlice(v: BuiltValues, from: number, to: number): PresentValues {
  switch (v.t) {
    case 'typed':
      return { t: 'typed', values: v.values.subarray(from, to) };
    case 'bytes':
      return { t: 'bytes', data: v.data, starts: v.offsets.subarray(from, to), ends: v.offsets.subarray(from + 1, to + 1) };
    case 'any':
      return { t: 'any', values: v.values.slice(from, to) };
  }
}
