/**
 * The RLE / bit-packing hybrid read a window at a time (rle.ts decodes it
 * whole): a page's levels and dictionary indices streamed by
 * parquet/chunk-stream.ts, never all at once. Apart from rle.ts, so a read
 * that decodes whole pages does not load it.
 */
import { ByteCursor } from '../bytes/cursor.js';
import { CorruptFileError } from '../errors.js';
import { unpackLsb } from './bits.js';
import { countLevels, decodeRleHybrid, dictionaryIndexWidth, prefixedRuns, RunRest, type LevelCheck } from './rle.js';
import type { IntegerArray } from './types.js';

/** Values a skip decodes at a time inside a bit-packed run. */
const SKIP_SCRATCH = 1024;

/**
 * Hybrid runs decoded a window at a time: each read continues where the
 * last stopped, inside a run if need be. A page's 2^28 levels in one
 * repeated run, or its dictionary indices, are then decoded in windows of
 * what the caller asks for, never all at once.
 */
export class RleStream {
  private readonly rest = new RunRest();
  private readonly group = new Uint32Array(8);
  private scratch: Uint32Array | null = null;

  constructor(private readonly c: ByteCursor, private readonly width: number) {}

  /** Decodes the next `count` values into out[outPos ..]; checked and counted as decodeRleHybrid does. */
  read(count: number, out: IntegerArray, outPos = 0, levels?: LevelCheck): number {
    const r = this.rest;
    const n = Math.min(r.left, count);
    let hits = 0;
    if (n > 0) {
      if (r.packed) {
        this.unpackRest(n, out, outPos);
        if (levels) hits += countLevels(out, outPos, outPos + n, levels);
      } else {
        out.fill(r.value, outPos, outPos + n);
        if (levels && r.value === levels.max) hits += n;
      }
      r.left -= n;
      r.index += n;
    }
    if (n < count) {
      r.left = 0;
      hits += decodeRleHybrid(this.c, this.width, count - n, out, outPos + n, levels, r);
    }
    return hits;
  }

  /**
   * Passes over the next `count` values without writing them anywhere:
   * a repeated run by arithmetic, bit-packed ones through a small scratch
   * buffer. Levels are checked and counted as `read` does (a level above
   * the maximum in rows passed over still makes the page corrupt).
   */
  skip(count: number, levels?: LevelCheck): number {
    if (this.width === 0) return levels && levels.max === 0 ? count : 0;
    const r = this.rest;
    const scratch = (this.scratch ??= new Uint32Array(SKIP_SCRATCH));
    let hits = 0;
    while (count > 0) {
      if (r.left > 0 && !r.packed) {
        const n = Math.min(r.left, count);
        if (levels && r.value === levels.max) hits += n;
        r.left -= n;
        count -= n;
        continue;
      }
      // Inside a bit-packed run, a scratch buffer's worth; else one value, which reads the next run's header into `rest`.
      const n = r.left > 0 ? Math.min(r.left, count, SKIP_SCRATCH) : 1;
      hits += this.read(n, scratch, 0, levels);
      count -= n;
    }
    return hits;
  }

  /** An independent stream at the same place: to look ahead (a repeated leaf's row boundaries) without moving this one. */
  clone(): RleStream {
    const c = this.c;
    const copy = new RleStream(new ByteCursor(c.buf, c.pos, c.end, c.base), this.width);
    const r = this.rest;
    copy.rest.set(r.left, r.packed, r.value, r.at, r.index);
    return copy;
  }

  /** Values [index, index + n) of the current bit-packed run: a partial group through a scratch group, whole groups in place. */
  private unpackRest(n: number, out: IntegerArray, o: number): void {
    const { at, index } = this.rest;
    const w = this.width;
    const { buf, end, base } = this.c;
    const need = Math.ceil(((index + n) * w) / 8);
    if (need > end - at) throw new CorruptFileError(`bit-packed run needs ${need} bytes for ${index + n} values but only ${end - at} remain`, { offset: base + at });
    let i = index;
    let k = o;
    const stop = o + n;
    if (i % 8 !== 0) {
      const g = i - (i % 8);
      const m = Math.min(8, index + n - g);
      unpackLsb(buf, at + (g / 8) * w, w, m, this.group, 0);
      for (let j = i - g; j < m; j++) out[k++] = this.group[j]!;
      i = g + m;
    }
    if (k < stop) unpackLsb(buf, at + (i / 8) * w, w, stop - k, out, k);
  }
}

/**
 * RLE_DICTIONARY indices (a width byte, then runs to the page's end) or RLE
 * booleans (length-prefixed runs of width 1), read or passed over `n` at a
 * time. The width byte is read with the first value, as a page of no
 * values may omit it.
 */
export class HybridValues {
  private runs: RleStream | null = null;

  constructor(private readonly c: ByteCursor, private readonly kind: 'indices' | 'booleans') {}

  read(n: number): Int32Array | Uint8Array {
    const out = this.kind === 'indices' ? new Int32Array(n) : new Uint8Array(n);
    if (n > 0) this.stream().read(n, out);
    return out;
  }

  skip(n: number): void {
    if (n > 0) this.stream().skip(n);
  }

  private stream(): RleStream {
    if (this.runs === null) this.runs = this.kind === 'indices' ? new RleStream(this.c, dictionaryIndexWidth(this.c)) : new RleStream(prefixedRuns(this.c), 1);
    return this.runs;
  }
}
