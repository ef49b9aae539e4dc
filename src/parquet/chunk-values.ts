/**
 * The values of a column chunk, gathered page by page. Runs of pages that
 * need no decoding beyond a copy (PLAIN numbers, dictionary indices) are
 * decoded straight into one buffer sized for the rest of the chunk, so a
 * scan allocates a buffer per chunk rather than one per page plus a
 * concatenation at the end.
 */
import { ByteCursor } from '../bytes/cursor.js';
import { CorruptFileError } from '../errors.js';
import { take } from '../encodings/dictionary.js';
import { fixedWidth, fixedWidthValues } from '../encodings/plain.js';
import { decodeDictionaryIndices } from '../encodings/rle.js';
import { valueCount, type Values } from '../encodings/types.js';
import type { LeafNode } from '../schema/tree.js';
import { decodeValues } from './page-values.js';
import { concatValues } from './values-concat.js';

/** A run of consecutive pages decoded into one growing buffer. */
interface Run {
  kind: 'indices' | 'fixed';
  /** Int32Array for indices; little-endian bytes for fixed-width numbers. */
  buf: Int32Array | Uint8Array;
  /** Values in the run. */
  count: number;
}

type Part = Run | { kind: 'values'; values: Values };

/** The types whose PLAIN pages are a plain copy of little-endian numbers. */
const COPIED_TYPES: ReadonlySet<string> = new Set(['INT32', 'FLOAT', 'INT64', 'DOUBLE']);

/** A first buffer never larger than this many values, whatever the metadata claims: it grows if the pages really hold more. */
const MAX_INITIAL_VALUES = 1 << 24;

export class ChunkValues {
  private readonly parts: Part[] = [];
  private readonly width: number;

  constructor(private readonly leaf: LeafNode) {
    this.width = COPIED_TYPES.has(leaf.physicalType) ? fixedWidth(leaf.physicalType) : 0;
  }

  /**
   * Adds a page's `count` values from data[pos..end) in `encoding`. `room`
   * bounds the values still to come in the chunk, this page's included
   * (from the chunk's level count): it sizes a run's buffer. `owned` says
   * `data` is a buffer of this page's alone (decompressed), which the
   * values may then keep as a view.
   */
  add(encoding: string, data: Uint8Array, pos: number, end: number, count: number, room: number, hasDictionary: boolean, owned: boolean): void {
    if (encoding === 'PLAIN_DICTIONARY' || encoding === 'RLE_DICTIONARY') {
      if (!hasDictionary) throw new CorruptFileError('dictionary-encoded page but the chunk has no dictionary page');
      const run = this.run('indices', count, room) as { buf: Int32Array; count: number };
      decodeDictionaryIndices(new ByteCursor(data, pos, end), count, run.buf, run.count);
      run.count += count;
    } else if (encoding === 'PLAIN' && this.width > 0) {
      const size = count * this.width;
      if (size > end - pos) throw new CorruptFileError(`${count} PLAIN ${this.leaf.physicalType} values need ${size} bytes but only ${end - pos} remain`);
      // A chunk held in one page (DuckDB's and arrow-rs's usual layout) is
      // viewed in place: no buffer to allocate. Values that follow the
      // levels unaligned move back over them (already decoded) to the
      // alignment below, one memmove in the page.
      const shift = (data.byteOffset + pos) % this.width;
      if (owned && this.parts.length === 0 && count >= room && shift <= pos) {
        if (shift > 0) data.copyWithin(pos - shift, pos, pos + size);
        const values = fixedWidthValues(this.leaf.physicalType, data.subarray(pos - shift, pos - shift + size), count, this.width);
        this.parts.push({ kind: 'values', values });
        return;
      }
      const run = this.run('fixed', count, room) as { buf: Uint8Array; count: number };
      run.buf.set(data.subarray(pos, pos + size), run.count * this.width);
      run.count += count;
    } else {
      this.parts.push({ kind: 'values', values: decodeValues(encoding, this.leaf, data, pos, end, count, owned) });
    }
  }

  /** The last part if it is a run of `kind` with room for `count` more values (grown if need be), else a new run. */
  private run(kind: Run['kind'], count: number, room: number): Run {
    const unit = kind === 'indices' ? 1 : this.width;
    const last = this.parts[this.parts.length - 1];
    if (last && last.kind === kind) {
      const need = (last.count + count) * unit;
      if (need > last.buf.length) last.buf = grow(last.buf, Math.max(need, last.buf.length * 2));
      return last;
    }
    const capacity = Math.max(count, Math.min(room, MAX_INITIAL_VALUES)) * unit;
    const run: Run = { kind, buf: kind === 'indices' ? new Int32Array(capacity) : new Uint8Array(capacity), count: 0 };
    this.parts.push(run);
    return run;
  }

  /**
   * The chunk's values: dictionary and indices when every page was
   * dictionary-encoded (indices checked against the dictionary), else dense
   * values with dictionary pages resolved.
   */
  finish(dictionary: Values | null): { values: Values | null; dictionary: Values | null; indices: Int32Array | null } {
    const parts = this.parts;
    if (parts.length === 1 && parts[0]!.kind === 'indices') {
      const run = parts[0] as Run;
      const indices = trim(run.buf as Int32Array, run.count);
      checkIndices(indices, dictionary!);
      return { values: null, dictionary, indices };
    }
    if (parts.length === 0) return { values: decodeValues('PLAIN', this.leaf, new Uint8Array(0), 0, 0, 0), dictionary: null, indices: null };
    const values = concatValues(parts.map((p) => {
      if (p.kind === 'values') return p.values;
      if (p.kind === 'indices') return take(dictionary!, trim(p.buf as Int32Array, p.count));
      const bytes = trim(p.buf as Uint8Array, p.count * this.width);
      return fixedWidthValues(this.leaf.physicalType, bytes, p.count, this.width);
    }));
    return { values, dictionary: null, indices: null };
  }
}

/** Dictionary indices kept as they are (not resolved by `take`) are checked once, here. */
export function checkIndices(indices: Int32Array, dictionary: Values): void {
  const size = valueCount(dictionary);
  for (let i = 0; i < indices.length; i++) {
    const k = indices[i]!;
    if (k < 0 || k >= size) throw new CorruptFileError(`dictionary index ${k} is outside the ${size}-entry dictionary`);
  }
}

function grow<T extends Int32Array | Uint8Array>(buf: T, capacity: number): T {
  const next = new (buf.constructor as new (n: number) => T)(capacity);
  next.set(buf);
  return next;
}

/** The first `n` entries; copied when the buffer is mostly unused, so a sparse chunk does not keep its whole estimate alive. */
function trim<T extends Int32Array | Uint8Array>(buf: T, n: number): T {
  if (n === buf.length) return buf;
  return (n < buf.length / 2 ? buf.slice(0, n) : buf.subarray(0, n)) as T;
}
