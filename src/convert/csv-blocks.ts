/**
 * A CSV input's bytes cut into blocks that threads can tokenise apart: each
 * block ends just after an LF, chosen (as DuckDB's parallel reader does) by
 * quote parity, so that it is likely outside quotes: an even number of quotes
 * before it. Likely, not proven (a stray quote in a malformed record, or TSV's
 * quotes as data, break parity): a block's reader proves it by ending at a
 * record start, and the next block is read again from where it did end
 * otherwise (csv-parallel.ts).
 */
import { concatBytes } from '../bytes/concat.js';
import { countByte, countBytes } from '../bytes/count.js';

const LF = 10;
const QUOTE = 34;
/** Earlier LFs tried when the last one in a block has odd quote parity. */
const PARITY_TRIES = 16;

/** A block of the input: its bytes, the line its first byte is on (1 + LFs before it), and whether it is the input's last. */
export interface CsvBlock {
  bytes: Uint8Array;
  line: number;
  final: boolean;
}

export class CsvBlocks {
  /** Bytes read past the last block. */
  private carry: Uint8Array = new Uint8Array(0);
  /** Quotes before the carry, mod 2. */
  private parity = 0;
  private line = 1;
  private ended = false;
  /** Quotes and line breaks are counted (off: one thread reads the blocks in turn, each from where the last ended). */
  private counted = true;
  /** In turn: the buffer the last block was put together in, which its reader is done with when it asks for the next. */
  private spare: Uint8Array | undefined;

  constructor(private readonly chunks: AsyncIterator<Uint8Array>) {}

  /** Where the last block ended, as a tokenizer that read it says: the parity of the next cut starts from the truth. */
  endedInQuotes(inside: boolean): void {
    this.parity = inside ? 1 : 0;
  }

  /**
   * The blocks from here on are read in turn by one reader, which knows
   * where each ended (its line, and whether inside quotes): they are cut
   * after any LF, their quotes and lines not counted (a pass over the
   * input's bytes saved), and their `line` is NaN. A block is put together
   * in the buffer of the one before (not a new buffer of about 1 MiB each,
   * which the collector was made to sweep: 100 MiB of them for 100 MB of
   * input), so it is the caller's only until it asks for the next.
   */
  inTurn(): void {
    this.counted = false;
    this.line = NaN;
  }

  /**
   * The next block of at least `min` bytes (less at the end of the input),
   * or undefined when none is left; `soon`: fewer, once a chunk with an LF
   * has come (a stream's rows are read as they come: the schema may settle
   * before more arrive).
   */
  async next(min: number, soon = false): Promise<CsvBlock | undefined> {
    const parts = [this.carry];
    let size = this.carry.length;
    let lf = this.carry.lastIndexOf(LF);
    while (!this.ended && (size < min || lf < 0) && !(soon && lf >= 0)) {
      const step = await this.chunks.next();
      if (step.done) {
        this.ended = true;
        break;
      }
      const chunk = step.value;
      const last = chunk.lastIndexOf(LF);
      if (last >= 0) lf = size + last;
      parts.push(chunk);
      size += chunk.length;
    }
    if (size === 0) return undefined;
    const buf = parts.length === 1 ? parts[0]! : this.counted ? concatBytes(parts) : this.joined(parts, size);
    if (!this.counted) {
      const near = this.ended ? -1 : buf.indexOf(LF, min - 1);
      return this.part(buf, this.ended ? buf.length : (near >= 0 ? near : lf) + 1, 0, 0);
    }
    if (this.ended) {
      this.carry = new Uint8Array(0);
      return this.cut(buf, true, 0, countBytes(buf, 0, buf.length, LF, QUOTE)[0]);
    }
    // The first LF past `min`: a chunk far larger than a block (bytes in memory) is cut into many.
    const near = buf.indexOf(LF, min - 1);
    let end = (near >= 0 ? near : lf) + 1;
    let [lines, quotes] = countBytes(buf, 0, end, LF, QUOTE);
    // The last LF with an even number of quotes before it, among the last few.
    for (let cut = end, before = quotes, tries = 0; (this.parity + quotes) % 2 === 1 && tries < PARITY_TRIES; tries++) {
      const prev = cut < 2 ? -1 : buf.lastIndexOf(LF, cut - 2);
      if (prev < 0) break;
      before -= countByte(buf, prev + 1, cut, QUOTE);
      cut = prev + 1;
      if ((this.parity + before) % 2 === 0) {
        lines -= countByte(buf, cut, end, LF);
        end = cut;
        quotes = before;
      }
    }
    return this.part(buf, end, quotes, lines);
  }

  /** `parts` end to end in the spare buffer (grown when too small; a carry that is a view of it is copied as set() copies an overlapping range). */
  private joined(parts: readonly Uint8Array[], size: number): Uint8Array {
    if (!this.spare || this.spare.length < size) this.spare = new Uint8Array(size + (size >> 3));
    let at = 0;
    for (const p of parts) {
      this.spare.set(p, at);
      at += p.length;
    }
    return this.spare.subarray(0, size);
  }

  /** The block of buf[0, end), the rest carried (the input's last when it ended and nothing is). */
  private part(buf: Uint8Array, end: number, quotes: number, lines: number): CsvBlock {
    // The block and the carry must not share a buffer (a thread may be handed the block's, detaching
    // every view of it): the smaller is copied, as a rule the carry, the part of a line past the cut.
    const final = this.ended && end === buf.length;
    if (buf.length - end > end) {
      this.carry = buf.subarray(end);
      return this.cut(buf.slice(0, end), final, quotes, lines);
    }
    this.carry = end < buf.length ? buf.slice(end) : new Uint8Array(0);
    return this.cut(buf.subarray(0, end), final, quotes, lines);
  }

  /**
   * A block of `bytes` with `quotes` quotes (the last block's are not counted:
   * no parity is needed after it) and `lines` LFs. Its buffer is its alone (a
   * concatenation, a copy, or the rest of one whose other views are gone).
   */
  private cut(bytes: Uint8Array, final: boolean, quotes: number, lines: number): CsvBlock {
    const block = { bytes, line: this.line, final };
    this.line += lines;
    this.parity = (this.parity + quotes) % 2;
    return block;
  }
}
