/**
 * CSV records found in the input's bytes, from a record start: each
 * record's cells as byte ranges (no string, no array per record), for the
 * records of the common form, which csv-tokenizer.ts would read the same:
 * quoted or unquoted cells, line breaks of the input's kind (LF or CRLF),
 * valid UTF-8. At the first record of any other kind (a malformed one,
 * TSV's quotes as data after a quoted cell, invalid UTF-8, a record the
 * block's end cuts) it stops at that record's start, for the tokenizer to
 * read the rest of the block from there.
 */

const QUOTE = 34;
const LF = 10;
const CR = 13;

export interface ByteScanOptions {
  delimiter: number;
  /** A quote inside an unquoted cell is data (TSV). */
  relaxQuotes: boolean;
  crlf: boolean;
  /** The bytes end the input: the last record needs no line break. */
  final: boolean;
  /** An empty line is a record of one empty cell (a table of one column), not skipped. */
  emptyLineRecords?: boolean;
}

/** A record's cells: cell i is bytes[starts[i], ends[i]), `escaped[i]` when it is quoted with `""` inside. */
export class ScannedCells {
  count = 0;
  starts = new Int32Array(64);
  ends = new Int32Array(64);
  escaped = new Uint8Array(64);

  push(start: number, end: number, escaped: number): void {
    if (this.count === this.starts.length) {
      const n = this.count * 2;
      const grow = <T extends Int32Array | Uint8Array>(a: T): T => {
        const b = new (a.constructor as new (n: number) => T)(n);
        b.set(a as never);
        return b;
      };
      this.starts = grow(this.starts);
      this.ends = grow(this.ends);
      this.escaped = grow(this.escaped);
    }
    this.starts[this.count] = start;
    this.ends[this.count] = end;
    this.escaped[this.count++] = escaped;
  }
}

/**
 * Where a scan stopped: `at` the byte offset of the record it left to the
 * tokenizer, which starts on `line` (at the end: bytes.length); `stopped`
 * when the caller asked it to.
 */
export interface ByteScanEnd {
  at: number;
  line: number;
  stopped: boolean;
}

/** The length of the UTF-8 sequence at b[i] (a byte of 0x80 or more), or -1 when it is not a valid one. */
function sequenceLength(b: Uint8Array, i: number, n: number): number {
  const c = b[i]!;
  if (c < 0xc2 || c > 0xf4) return -1;
  if (c < 0xe0) return i + 1 < n && (b[i + 1]! & 0xc0) === 0x80 ? 2 : -1;
  if (c < 0xf0) {
    if (i + 2 >= n) return -1;
    const c1 = b[i + 1]!;
    if ((c1 & 0xc0) !== 0x80 || (c === 0xe0 && c1 < 0xa0) || (c === 0xed && c1 > 0x9f)) return -1;
    return (b[i + 2]! & 0xc0) === 0x80 ? 3 : -1;
  }
  if (i + 3 >= n) return -1;
  const c1 = b[i + 1]!;
  if ((c1 & 0xc0) !== 0x80 || (c === 0xf0 && c1 < 0x90) || (c === 0xf4 && c1 > 0x8f)) return -1;
  return (b[i + 2]! & 0xc0) === 0x80 && (b[i + 3]! & 0xc0) === 0x80 ? 4 : -1;
}

let plainFor = -1;
let plainTable = new Uint8Array(256);

/** 1 for the bytes an unquoted cell passes over without a look: ASCII but the delimiter, the quote, CR and LF. */
function plainBytes(delimiter: number): Uint8Array {
  if (plainFor !== delimiter) {
    plainTable = new Uint8Array(256);
    for (let c = 0; c < 0x80; c++) plainTable[c] = c === delimiter || c === QUOTE || c === CR || c === LF ? 0 : 1;
    plainFor = delimiter;
  }
  return plainTable;
}

/**
 * Scans records from b[at] (a record start on `line`), giving each to
 * `record` with its first and last line; `record` returns false to stop.
 */
export function scanCsvBytes(
  b: Uint8Array, at: number, line: number, o: ByteScanOptions, cells: ScannedCells,
  record: (cells: ScannedCells, line: number, last: number) => boolean,
): ByteScanEnd {
  const n = b.length;
  const delimiter = o.delimiter;
  const crlf = o.crlf;
  const relax = o.relaxQuotes;
  const final = o.final;
  const plain = plainBytes(delimiter);
  let i = at;
  for (;;) {
    // The start of a record: empty lines skipped (in a table of one column, records of one empty cell).
    const start = i;
    const first = line;
    if (i >= n) return { at: n, line, stopped: false };
    let c = b[i]!;
    const blank = !crlf ? (c === LF ? 1 : 0) : c === CR && i + 1 < n && b[i + 1] === LF ? 2 : 0;
    if (blank > 0) {
      line++;
      i += blank;
      if (o.emptyLineRecords) {
        cells.count = 0;
        cells.push(start, start, 0);
        if (!record(cells, first, first)) return { at: i, line, stopped: true };
      }
      continue;
    }
    cells.count = 0;
    /** The record's last line break's length, once met (0: the input's end). */
    let ended = -1;
    while (ended < 0) {
      if (c === QUOTE) {
        let j = i + 1;
        let escaped = 0;
        for (;;) {
          if (j >= n) return { at: start, line: first, stopped: false }; // a quote not closed, or cut by the block's end
          const q = b[j]!;
          if (q === QUOTE) {
            if (j + 1 < n && b[j + 1] === QUOTE) {
              escaped = 1;
              j += 2;
              continue;
            }
            break;
          }
          if (q < 0x80) {
            if (q === LF) line++;
            j++;
          } else {
            const len = sequenceLength(b, j, n);
            if (len < 0) return { at: start, line: first, stopped: false };
            j += len;
          }
        }
        cells.push(i + 1, j, escaped);
        i = j + 1;
      } else {
        let j = i;
        for (; j < n; j++) {
          // Plain bytes (most) are passed over in a loop of one table lookup each.
          while (j < n && plain[b[j]!] === 1) j++;
          if (j >= n) break;
          const u = b[j]!;
          if (u === delimiter) break;
          if (u <= QUOTE) {
            if (u === QUOTE) {
              if (relax) continue;
              return { at: start, line: first, stopped: false };
            }
            if (u === LF) {
              if (!crlf) break;
              line++; // data in a CRLF input, counted as a line
            } else if (u === CR && crlf) {
              if (j + 1 >= n) return { at: start, line: first, stopped: false };
              if (b[j + 1] === LF) break;
            }
          } else if (u >= 0x80) {
            const len = sequenceLength(b, j, n);
            if (len < 0) return { at: start, line: first, stopped: false };
            j += len - 1;
          }
        }
        cells.push(i, j, 0);
        i = j;
      }
      // After a cell: a delimiter, the record's line break, or the end.
      if (i >= n) {
        if (!final) return { at: start, line: first, stopped: false };
        ended = 0;
        break;
      }
      c = b[i]!;
      if (c === delimiter) {
        i++;
        if (i >= n) {
          if (!final) return { at: start, line: first, stopped: false };
          cells.push(i, i, 0);
          ended = 0;
          break;
        }
        c = b[i]!;
        continue;
      }
      if (!crlf && c === LF) ended = 1;
      else if (crlf && c === CR && i + 1 < n && b[i + 1] === LF) ended = 2;
      else return { at: start, line: first, stopped: false }; // text after a closing quote
    }
    const last = line;
    i += ended;
    if (ended > 0) line++;
    if (!record(cells, first, last)) return { at: i, line, stopped: true };
  }
}
