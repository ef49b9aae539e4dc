/**
 * A column chunk decoded a window of rows at a time, for chunks too large
 * in rows to hold decoded (a 166-byte page can define 2^28 nulls) and for
 * reads that want only some rows. Pages are decoded one at a time; a data
 * page of more than PAGE_WINDOW levels is decoded in windows of what the
 * caller asks for (every level and value encoding resumes mid-page:
 * LevelStream, valueStream), so memory and time follow the rows taken,
 * not the levels a header claims. Rows passed over inside a page (skip)
 * have their levels read and their values passed, none made.
 */
import { ByteCursor } from '../bytes/cursor.js';
import { CorruptFileError, UnsupportedError, withContext, type ErrorContext } from '../errors.js';
import { take } from '../encodings/dictionary.js';
import { BitPackedStream } from '../encodings/bit-packed.js';
import { bitWidth, prefixedRuns, type LevelCheck } from '../encodings/rle.js';
import { RleStream } from '../encodings/rle-stream.js';
import type { Values, ValueStream } from '../encodings/types.js';
import type { LeafNode } from '../schema/tree.js';
import { ChunkValues, checkIndices } from './chunk-values.js';
import { checkNulls, Levels, onPage, PageDecoder, PageWalk, type ChunkOptions, type DataPageParts, type RawPage } from './column-chunk.js';
import type { ColumnChunkData } from '../shred/column-data.js';
import type { ColumnMetaData } from './metadata/index.js';
import { decodeValues } from './page-values.js';
import { valueStream } from './page-value-stream.js';
import { concatValues, sliceValues } from './values-concat.js';

/** Data pages with more levels than this are decoded in windows where their encodings allow. */
const PAGE_WINDOW = 1 << 16;

/** Decoded levels and values, and how far `take` has used them. */
interface Segment {
  data: ColumnChunkData;
  at: number;
  vat: number;
}

export class ChunkStream {
  private readonly dec: PageDecoder;
  private readonly walk: PageWalk;
  /** Decoded segments not yet wholly taken, in order. */
  private readonly queue: Segment[] = [];
  /** Rows decoded and not yet taken: levels of an unrepeated leaf, row starts (repetition level 0) of a repeated one. */
  private ahead = 0;
  private win: PageWindows | null = null;
  /** Whether the walk has every level the chunk claims. */
  private ended = false;
  private readonly repeated: boolean;
  /**
   * Rows asked to be passed over and not yet passed (see skip); for a
   * repeated leaf, `midRow` says the last row passed may still go on.
   */
  private toSkip = 0;
  private midRow = false;

  /**
   * A stream over a chunk's bytes; `open` starts it with no pages, which
   * `feed` gives as they are fetched (lazy-column.ts), until `close`.
   */
  constructor(bytes: Uint8Array, base: number, meta: ColumnMetaData, private readonly leaf: LeafNode, opts: ChunkOptions, private readonly ctx: ErrorContext, private open = false) {
    this.dec = new PageDecoder(leaf, meta.codec as string, opts, ctx);
    // An open stream's pages are bounded one by one (PageBounds) and taken a window at a time, never held as one vector.
    if (!open) this.dec.checkChunk(bytes, base, meta.numValues);
    this.walk = new PageWalk(bytes, base, open ? { ...opts, pieces: [] } : opts, meta.numValues, ctx);
    this.repeated = this.dec.repCheck !== null;
  }

  /** An open stream's next pages, whole, in file order. */
  feed(bytes: Uint8Array, base: number): void {
    this.walk.feed(bytes, base);
  }

  /** Every page has been fed: running out of them is now the chunk's fault. */
  close(): void {
    this.open = false;
  }

  /**
   * Passes over the next data page, of `levels` levels, unread, as rows of
   * the pending skip: only at a page boundary (skip ran out of the pages
   * given), in an unrepeated leaf (whose levels are its rows).
   */
  passPage(levels: number): void {
    if (this.repeated || this.queue.length > 0 || (this.win !== null && this.win.left > 0) || levels > this.toSkip) {
      throw new Error('internal error: a page passed over mid-page, past the rows skipped, or in a repeated leaf');
    }
    withContext(this.ctx, () => this.walk.pass(levels));
    this.toSkip -= levels;
  }

  /** Rows of a skip not yet passed over (skip). */
  get pending(): number {
    return this.toSkip;
  }

  /** Whether a skip is under way: rows still to pass, or a repeated leaf's row passed over that may go on. */
  get skipping(): boolean {
    return this.toSkip > 0 || this.midRow;
  }

  /**
   * Passes over the next `rows` rows. Rows already decoded are dropped;
   * inside a page the levels are read and the values passed over
   * (valueStream), none made; a page of an unrepeated leaf wholly passed
   * over is dropped once read. Whether the rows are passed: an open stream
   * may need more pages first, and then goes on with them before any take.
   */
  skip(rows: number): boolean {
    this.toSkip += rows;
    return withContext(this.ctx, () => this.pass());
  }

  /** Works through `toSkip`; false when an open stream needs more pages. */
  private pass(): boolean {
    const repeated = this.repeated;
    while (this.toSkip > 0 || this.midRow) {
      if (this.queue.length > 0) {
        // Decoded rows: take the part still needed, or drop them all (a repeated leaf's last one perhaps going on).
        if (this.ahead > this.toSkip || (!repeated && this.ahead === this.toSkip)) {
          const k = this.toSkip;
          this.toSkip = 0;
          this.midRow = false;
          this.take(k);
          return true;
        }
        this.toSkip -= this.ahead;
        this.midRow = repeated;
        this.ahead = 0;
        this.queue.length = 0;
        continue;
      }
      const win = this.win;
      if (win !== null && win.left > 0) {
        if (repeated) {
          const { starts, stopped } = win.skipRows(this.toSkip);
          this.toSkip -= starts;
          this.midRow = !stopped;
        } else {
          const n = Math.min(this.toSkip, win.left);
          win.skip(n);
          this.toSkip -= n;
        }
        continue;
      }
      this.win = null;
      const p = this.walk.next();
      if (p === null) {
        if (this.walk.levels >= this.walk.expected) this.ended = true;
        else if (this.open) return false;
        else throw this.walk.short();
        // The chunk's end closes the row in progress.
        this.midRow = false;
        if (this.toSkip > 0) throw new CorruptFileError(`column chunk ran out of rows: ${this.toSkip} more passed over than it holds`);
        return true;
      }
      onPage(p, () => {
        const d = this.dec.open(p);
        if (d === null) return;
        this.walk.claim(d.n);
        // A page of rows all passed over: its levels are its rows, so nothing in it is needed.
        if (!repeated && d.n <= this.toSkip) this.toSkip -= d.n;
        else this.win = PageWindows.of(this.dec, d, p);
      });
    }
    return true;
  }

  /** Whether the next `rows` rows are decoded or decodable from the pages given so far (decoding what they need). */
  ready(rows: number): boolean {
    return withContext(this.ctx, () => this.fill(rows));
  }

  /** The next `rows` rows (a repeated leaf's rows counted by repetition level 0); fewer left in the chunk is corrupt. */
  take(rows: number): ColumnChunkData {
    return withContext(this.ctx, () => {
      if (!this.fill(rows)) {
        if (this.open) throw new Error('internal error: rows taken before their pages were fed');
        throw new CorruptFileError(`column chunk ran out of rows: ${this.ahead} of the ${rows} asked for`);
      }
      const parts: ColumnChunkData[] = [];
      const repeated = this.repeated;
      let need = rows;
      for (;;) {
        if (need === 0 && !repeated) break;
        const seg = this.queue[0];
        if (seg === undefined) break;
        const { data } = seg;
        let end: number;
        if (repeated) {
          // The rest of the row in progress, then rows until `need` have started and the next one begins.
          const rep = data.rep!;
          end = seg.at;
          for (; end < data.length; end++) {
            if (rep[end] === 0) {
              if (need === 0) break;
              need--;
            }
          }
        } else {
          end = Math.min(data.length, seg.at + need);
          need -= end - seg.at;
        }
        parts.push(this.slice(seg, end));
        if (seg.at >= data.length) this.queue.shift();
        if (repeated && need === 0 && end < data.length) break;
      }
      this.ahead -= rows;
      return this.concat(parts);
    });
  }

  /** After the row group's last rows: the pages hold no more levels than those rows, and as many as the chunk's count. */
  finish(): void {
    withContext(this.ctx, () => {
      let left = this.win ? this.win.left : 0;
      for (const s of this.queue) left += s.data.length - s.at;
      if (left === 0) left = this.nextSegment(1)?.data.length ?? 0;
      if (left > 0) throw new CorruptFileError(`column chunk has level entries beyond the row group's last row`);
    });
  }

  /** Whether `rows` rows are ready: a repeated leaf's last one closed by the next row's start or the chunk's end. */
  private enough(rows: number): boolean {
    return this.repeated ? this.ahead > rows || (this.ended && this.ahead >= rows) : this.ahead >= rows;
  }

  /** Decodes pages into the queue until `rows` rows are ready or the pages given run out; whether they are ready. */
  private fill(rows: number): boolean {
    if ((this.toSkip > 0 || this.midRow) && !this.pass()) return false;
    while (!this.enough(rows)) {
      const want = this.repeated ? Math.max(rows - this.ahead + 1, 1024) : rows - this.ahead;
      const seg = this.nextSegment(want);
      if (seg === null) return this.enough(rows);
      this.enqueue(seg);
    }
    return true;
  }

  private enqueue(seg: Segment): void {
    let n = seg.data.length;
    if (this.repeated) {
      const rep = seg.data.rep!;
      n = 0;
      for (let i = 0; i < rep.length; i++) if (rep[i] === 0) n++;
    }
    this.ahead += n;
    this.queue.push(seg);
  }

  /** Decoded levels for at least one more entry: a whole page, or a window of about `want` levels of a large one. Null at the chunk's end, or, open, at the end of the pages given. */
  private nextSegment(want: number): Segment | null {
    for (;;) {
      if (this.win !== null) {
        if (this.win.left > 0) return { data: this.win.next(Math.min(Math.max(want, 1), PAGE_WINDOW)), at: 0, vat: 0 };
        this.win = null;
      }
      const p = this.walk.next();
      if (p === null) {
        if (this.walk.levels >= this.walk.expected) this.ended = true;
        else if (!this.open) throw this.walk.short();
        return null;
      }
      const data = onPage(p, () => {
        const d = this.dec.open(p);
        if (d === null) return null;
        this.walk.claim(d.n);
        if (d.n <= PAGE_WINDOW) return this.wholePage(d);
        this.win = PageWindows.of(this.dec, d, p);
        return null;
      });
      if (data !== null && data.length > 0) return { data, at: 0, vat: 0 };
    }
  }

  private wholePage(d: DataPageParts): ColumnChunkData {
    const { leaf, dec } = this;
    const sink = {
      def: dec.defCheck ? new Levels(leaf.defLevel > 255, d.n) : null,
      rep: dec.repCheck ? new Levels(leaf.repLevel > 255, d.n) : null,
      values: new ChunkValues(leaf),
      room: d.n,
    };
    const present = dec.decode(d, sink);
    return {
      def: sink.def ? sink.def.result() : null,
      rep: sink.rep ? sink.rep.result() : null,
      length: d.n,
      valueCount: present,
      ...sink.values.finish(dec.dictionary),
    };
  }

  /** Entries [seg.at, end) of a segment, as views; the segment moves past them. */
  private slice(seg: Segment, end: number): ColumnChunkData {
    const { data, at, vat } = seg;
    const def = data.def;
    let present = end - at;
    if (def !== null) {
      const max = this.leaf.defLevel;
      present = 0;
      for (let p = at; p < end; p++) if (def[p] === max) present++;
    }
    seg.at = end;
    seg.vat = vat + present;
    if (at === 0 && end === data.length) return data;
    return {
      def: def ? def.subarray(at, end) : null,
      rep: data.rep ? data.rep.subarray(at, end) : null,
      length: end - at,
      valueCount: present,
      values: data.values ? sliceValues(data.values, vat, vat + present) : null,
      dictionary: data.dictionary,
      indices: data.indices ? data.indices.subarray(vat, vat + present) : null,
    };
  }

  /** Parts in order as one chunk's data: dictionary and indices kept when every part with values shares the dictionary. */
  private concat(parts: ColumnChunkData[]): ColumnChunkData {
    if (parts.length === 1) return parts[0]!;
    let length = 0;
    let valueCount = 0;
    for (const p of parts) {
      length += p.length;
      valueCount += p.valueCount;
    }
    const levels = (pick: (p: ColumnChunkData) => Uint8Array | Uint16Array | null): Uint8Array | Uint16Array | null => {
      const first = parts.map(pick).find((x) => x !== null);
      if (first === undefined || first === null) return null;
      const out = new (first.constructor as Uint8ArrayConstructor | Uint16ArrayConstructor)(length);
      let o = 0;
      for (const p of parts) {
        out.set(pick(p)!, o);
        o += p.length;
      }
      return out;
    };
    const live = parts.filter((p) => p.valueCount > 0);
    const dictionary = live[0]?.dictionary ?? null;
    let values: Values | null = null;
    let indices: Int32Array | null = null;
    if (live.length > 0 && live.every((p) => p.indices !== null && p.dictionary === dictionary)) {
      indices = new Int32Array(valueCount);
      let o = 0;
      for (const p of live) {
        indices.set(p.indices!, o);
        o += p.valueCount;
      }
    } else {
      values = live.length === 0 ? decodeValues('PLAIN', this.leaf, new Uint8Array(0), 0, 0, 0) : concatValues(live.map((p) => (p.indices ? take(p.dictionary!, p.indices) : p.values!)));
    }
    return { def: levels((p) => p.def), rep: levels((p) => p.rep), length, valueCount, values, dictionary: indices ? dictionary : null, indices };
  }
}

/** A page's levels, resumed: RLE runs, or v1's deprecated BIT_PACKED. */
type LevelStream = RleStream | BitPackedStream;

/**
 * A data page read a window at a time, or passed over in part: levels
 * resumed with their LevelStream, values with the page's ValueStream
 * (dictionary indices resumed like levels).
 */
class PageWindows {
  left: number;
  private nulls = 0;
  private stream: ValueStream | null = null;

  private constructor(
    private readonly dec: PageDecoder,
    private readonly d: DataPageParts,
    private readonly page: RawPage,
    private readonly rep: LevelStream | null,
    private readonly def: LevelStream | null,
    /** The values' bytes: data[pos..end). */
    private readonly values: { data: Uint8Array; pos: number; end: number },
    private readonly dict: boolean,
  ) {
    this.left = d.n;
  }

  /** Windows over page `d`. */
  static of(dec: PageDecoder, d: DataPageParts, page: RawPage): PageWindows {
    const dict = d.encoding === 'PLAIN_DICTIONARY' || d.encoding === 'RLE_DICTIONARY';
    if (dict && dec.dictionary === null) throw new CorruptFileError('dictionary-encoded page but the chunk has no dictionary page');
    let rep: LevelStream | null;
    let def: LevelStream | null;
    let values: { data: Uint8Array; pos: number; end: number };
    if (d.v2) {
      const runs = (check: LevelCheck | null, start: number, end: number) => (check === null ? null : new RleStream(new ByteCursor(d.data, start, end), bitWidth(check.max)));
      rep = runs(dec.repCheck, 0, d.rl);
      def = runs(dec.defCheck, d.rl, d.rl + d.dl);
      values = { data: d.section!, pos: 0, end: d.section!.length };
    } else {
      const c = new ByteCursor(d.data);
      const levels = (check: LevelCheck | null, encoding: string): LevelStream | null => {
        if (check === null) return null;
        if (encoding === 'RLE') return new RleStream(prefixedRuns(c), bitWidth(check.max));
        if (encoding === 'BIT_PACKED') return new BitPackedStream(c, bitWidth(check.max), d.n);
        throw new UnsupportedError(`level encoding ${encoding}`);
      };
      rep = levels(dec.repCheck, d.levelEncodings.rep);
      def = levels(dec.defCheck, d.levelEncodings.def);
      values = { data: d.data, pos: c.pos, end: d.data.length };
    }
    return new PageWindows(dec, d, page, rep, def, values, dict);
  }

  /** The next `want` levels (at most what is left) and their values. */
  next(want: number): ColumnChunkData {
    const k = Math.min(want, this.left);
    return onPage(this.page, () => {
      const { dec } = this;
      const wide = (max: number): Uint8Array | Uint16Array => (max > 255 ? new Uint16Array(k) : new Uint8Array(k));
      let rep: Uint8Array | Uint16Array | null = null;
      let def: Uint8Array | Uint16Array | null = null;
      if (this.rep) this.rep.read(k, (rep = wide(dec.repCheck!.max)), 0, dec.repCheck!);
      const present = this.def ? this.def.read(k, (def = wide(dec.defCheck!.max)), 0, dec.defCheck!) : k;
      this.passed(k, present);
      const out: ColumnChunkData = { def, rep, length: k, valueCount: present, values: null, dictionary: null, indices: null };
      const values = this.valueStream().read(present);
      if (this.dict) {
        const indices = values as Int32Array;
        checkIndices(indices, dec.dictionary!);
        out.dictionary = dec.dictionary;
        out.indices = indices;
      } else out.values = values;
      return out;
    });
  }

  /** Passes over the next `k` levels (at most what is left) and their values: levels read and checked, no value made. */
  skip(k: number): void {
    k = Math.min(k, this.left);
    onPage(this.page, () => {
      const { dec } = this;
      if (this.rep) this.rep.skip(k, dec.repCheck!);
      const present = this.def ? this.def.skip(k, dec.defCheck!) : k;
      this.passed(k, present);
      this.valueStream().skip(present);
    });
  }

  /**
   * A repeated leaf: passes over the levels up to the start of the row
   * `rows` row starts on, or to the page's end if it comes first. The row
   * starts passed, and whether it stopped at a row's start.
   */
  skipRows(rows: number): { starts: number; stopped: boolean } {
    const look = this.rep!.clone();
    const scratch = new Uint16Array(Math.min(this.left, 4096));
    let levels = 0;
    let starts = 0;
    let stopped = false;
    onPage(this.page, () => {
      while (!stopped && levels < this.left) {
        const n = Math.min(scratch.length, this.left - levels);
        look.read(n, scratch, 0, this.dec.repCheck!);
        let k = 0;
        for (; k < n; k++) {
          if (scratch[k] === 0) {
            if (starts === rows) {
              stopped = true;
              break;
            }
            starts++;
          }
        }
        levels += k;
      }
    });
    this.skip(levels);
    return { starts, stopped };
  }

  /** Counts `k` levels of which `present` hold values; at the page's end, its stated nulls are checked. */
  private passed(k: number, present: number): void {
    this.left -= k;
    this.nulls += k - present;
    if (this.left === 0) checkNulls(this.d, this.nulls);
  }

  /**
   * The page's values, opened on first use. Encodings whose layout depends
   * on the page's value count (DELTA_*, BYTE_STREAM_SPLIT) are told it,
   * counted from a look ahead over the definition levels.
   */
  private valueStream(): ValueStream {
    if (this.stream === null) {
      const { dec, d, values } = this;
      const total = this.def ? this.def.clone().skip(this.left, dec.defCheck!) : this.left;
      this.stream = valueStream(d.encoding, dec.leaf, values.data, values.pos, values.end, total + (d.n - this.left - this.nulls));
    }
    return this.stream;
  }
}
