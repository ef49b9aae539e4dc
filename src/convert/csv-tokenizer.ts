/**
 * CSV text to records, incrementally: a state machine fed text as it comes,
 * each character looked at a bounded number of times, so time is linear in
 * the input whatever it holds (csv-parse rebuilt a field's text for every
 * stray quote in it: quadratic).
 *
 * The dialect is RFC 4180's, as `parquetry convert` has always read it:
 * - cells are split by a one-character delimiter; a cell starting with `"` is
 *   quoted, `""` inside it is a quote, and it may hold delimiters and line breaks;
 * - records end at a line break outside quotes: the first one met (`\n`,
 *   `\r\n` or `\r`) is the input's, and the others are data after that
 *   (but a CR that ends a CRLF input is its last break, the LF lost);
 * - empty lines are skipped, except after a first record of one cell: in a
 *   table of one column an empty line is a record of one empty cell (a null),
 *   as DuckDB reads it and as the CSV writer writes a null there (lines before
 *   the first record are skipped all the same); a record may have any number
 *   of cells (the caller checks);
 * - a quote inside an unquoted cell, or anything but a delimiter or a line
 *   break after a closing quote, makes the record malformed: it is reported
 *   once, and reading goes on at the next line break outside quotes. With
 *   `relaxQuotes` (TSV, whose cells are not quoted by convention) both are
 *   data instead (`55" screen`, `"ab"c`); a quote never closed is malformed in both.
 *
 * Line numbers count the input's line breaks from 1, inside quoted cells too.
 */

export interface CsvTokenizerOptions {
  delimiter: string;
  relaxQuotes: boolean;
  /** Where reading starts (a block of a split input): the state another tokenizer ended a block in. */
  resume?: CsvTokenizerState;
  /** Whether the table is one column, when that is known before its first record (no header row, the columns declared); else the first record says. */
  oneColumn?: boolean;
}

/** A tokenizer's state between chunks, as another tokenizer (a worker's) takes it up. */
export interface CsvTokenizerState {
  at: number;
  newline: number;
  cell: string;
  cells: string[];
  empty: boolean;
  bad: string | undefined;
  line: number;
  recordLine: number;
  pendingCr: boolean;
  /** Whether the first record had one cell (empty lines are records), once a record has said. */
  oneColumn: boolean | undefined;
}

/** A record's cells, or why it is malformed; with the lines it starts and ends on. */
export type CsvToken = { line: number; last: number; cells: string[]; error?: undefined } | { line: number; error: string };

const QUOTE = 34;
const LF = 10;
const CR = 13;

/** Where the tokenizer is: at the start of a cell, in an unquoted one, in a quoted one, or just after a quote inside a quoted one. */
const enum At {
  CellStart,
  Unquoted,
  Quoted,
  QuoteInQuoted,
}

/** The input's line break, once the first one outside quotes has said which. */
const enum Newline {
  Unknown,
  Lf,
  CrLf,
  Cr,
}

/**
 * The line break of a state at the start of a record whose line breaks are
 * LF or CRLF (as `atRecordStart` requires): 'lf' or 'crlf'; undefined for
 * any other state (inside a record, or a resumed one).
 */
export function recordStartBreak(s: CsvTokenizerState): 'lf' | 'crlf' | undefined {
  if (s.at !== At.CellStart || !s.empty || s.pendingCr || s.cells.length > 0 || s.cell !== '' || s.bad !== undefined) return undefined;
  return s.newline === Newline.Lf ? 'lf' : s.newline === Newline.CrLf ? 'crlf' : undefined;
}

export class CsvTokenizer {
  private readonly delimiter: number;
  private readonly relax: boolean;
  private at = At.CellStart;
  private newline = Newline.Unknown;
  /** The current cell's text from earlier chunks (and unescaped quotes). */
  private cell = '';
  private cells: string[] = [];
  /** Nothing of the current record read yet: a line break here is an empty line. */
  private empty = true;
  /** Why the current record is malformed, once it is. */
  private bad: string | undefined;
  private line = 1;
  private recordLine = 1;
  /** A CR at the end of a chunk, whose meaning the next character decides. */
  private pendingCr = false;
  /** Whether the first well-formed record had one cell: then an empty line is a record of one empty cell. */
  private oneColumn: boolean | undefined;

  constructor(options: CsvTokenizerOptions) {
    this.delimiter = options.delimiter.charCodeAt(0);
    this.relax = options.relaxQuotes;
    if (options.resume) Object.assign(this, options.resume);
    else if (options.oneColumn !== undefined) this.oneColumn = options.oneColumn;
  }

  /** The state to resume from, for a tokenizer given the input that follows. */
  state(): CsvTokenizerState {
    const { at, newline, cell, cells, empty, bad, line, recordLine, pendingCr, oneColumn } = this;
    return { at, newline, cell, cells: [...cells], empty, bad, line, recordLine, pendingCr, oneColumn };
  }

  /**
   * Between records: what follows starts a record, on the line given, and
   * line breaks are LF (possibly after a CR), so a block of input cut after
   * an LF can be read by a tokenizer of its own (`startState`).
   */
  atRecordStart(): boolean {
    return this.at === At.CellStart && this.empty && !this.pendingCr && (this.newline === Newline.Lf || this.newline === Newline.CrLf);
  }

  /** Inside a quoted cell (after its opening quote or a `""`). */
  inQuotes(): boolean {
    return this.at === At.Quoted;
  }

  /** The state at the start of a record on `line`, with the line break `of` this tokenizer's. */
  startState(line: number): CsvTokenizerState {
    return { at: At.CellStart, newline: this.newline, cell: '', cells: [], empty: true, bad: undefined, line, recordLine: line, pendingCr: false, oneColumn: this.oneColumn };
  }

  /** The line the next record starts on (when atRecordStart). */
  get nextLine(): number {
    return this.line;
  }

  /** Reads `text`; finished records and malformed ones go to `out`. */
  feed(text: string, out: CsvToken[]): void {
    const s = this.pendingCr ? '\r' + text : text;
    this.pendingCr = false;
    this.run(s, false, out);
  }

  /** The input ended: the last record, or a quote never closed. */
  finish(out: CsvToken[]): void {
    if (this.pendingCr) {
      this.pendingCr = false;
      this.run('\r', true, out);
    }
    if (this.at === At.Quoted) {
      this.bad ??= `Quote Not Closed: the input ends inside the quoted field ${this.cells.length + 1}`;
      this.endRecord(out);
    } else if (!this.empty) {
      this.endCell('');
      this.endRecord(out);
    }
  }

  /**
   * The length of the line break at `s[i]` (a CR or LF outside quotes): 0
   * when it is data, -1 when a CR ends the text and the next chunk decides.
   */
  private breakAt(s: string, i: number, final: boolean): number {
    const c = s.charCodeAt(i);
    switch (this.newline) {
      case Newline.Lf:
        return c === LF ? 1 : 0;
      case Newline.Cr:
        return c === CR ? 1 : 0;
      case Newline.CrLf:
        if (c !== CR) return 0;
        if (i + 1 < s.length) return s.charCodeAt(i + 1) === LF ? 2 : 0;
        // A CR that ends the input is its last line break, the LF lost (a file cut short, a writer's slip), as DuckDB reads it.
        return final ? 1 : -1;
      case Newline.Unknown:
        if (c === LF) {
          this.newline = Newline.Lf;
          return 1;
        }
        if (i + 1 < s.length) {
          this.newline = s.charCodeAt(i + 1) === LF ? Newline.CrLf : Newline.Cr;
          return this.newline === Newline.CrLf ? 2 : 1;
        }
        if (!final) return -1;
        this.newline = Newline.Cr;
        return 1;
    }
  }

  /** Line breaks in `s[from, to)`, counted as the input's break (LF until it is known). */
  private countLines(s: string, from: number, to: number): void {
    const mark = this.newline === Newline.Cr ? '\r' : '\n';
    for (let i = s.indexOf(mark, from); i >= 0 && i < to; i = s.indexOf(mark, i + 1)) this.line++;
  }

  private endCell(tail: string): void {
    this.cells.push(this.cell + tail);
    this.cell = '';
  }

  private endRecord(out: CsvToken[]): void {
    if (this.bad !== undefined) out.push({ line: this.recordLine, error: this.bad });
    else {
      out.push({ line: this.recordLine, last: this.line, cells: this.cells });
      this.oneColumn ??= this.cells.length === 1;
    }
    this.cells = [];
    this.bad = undefined;
    this.empty = true;
    this.at = At.CellStart;
  }

  private malformed(why: string): void {
    this.bad ??= why;
  }

  private run(s: string, final: boolean, out: CsvToken[]): void {
    const n = s.length;
    const delimiter = this.delimiter;
    /** Where the current cell's text in `s` starts. */
    let mark = 0;
    let i = 0;
    while (i < n) {
      switch (this.at) {
        case At.CellStart: {
          const c = s.charCodeAt(i);
          if (this.empty && (c === LF || c === CR)) {
            // An empty line: skipped, or in a table of one column a null.
            const len = this.breakAt(s, i, final);
            if (len < 0) {
              this.pendingCr = true;
              return;
            }
            if (len > 0) {
              if (this.oneColumn) out.push({ line: this.line, last: this.line, cells: [''] });
              this.line++;
              this.recordLine = this.line;
              i += len;
              continue;
            }
          }
          this.empty = false;
          if (c === QUOTE) {
            this.at = At.Quoted;
            mark = ++i;
          } else {
            this.at = At.Unquoted;
            mark = i;
          }
          continue;
        }
        case At.Unquoted: {
          let j = i;
          let c = 0;
          for (; j < n; j++) {
            c = s.charCodeAt(j);
            if (c === delimiter || c === QUOTE || c === LF || c === CR) break;
          }
          if (j === n) {
            this.cell += s.slice(mark, n);
            return;
          }
          if (c === delimiter) {
            this.endCell(s.slice(mark, j));
            this.at = At.CellStart;
            i = j + 1;
            continue;
          }
          if (c === QUOTE) {
            if (!this.relax) this.malformed(`Invalid Opening Quote: a quote inside field ${this.cells.length + 1}, which is not quoted (a quoted field starts with the quote)`);
            i = j + 1;
            continue;
          }
          const len = this.breakAt(s, j, final);
          if (len < 0) {
            this.cell += s.slice(mark, j);
            this.pendingCr = true;
            return;
          }
          if (len === 0) {
            // A line break that is not the input's: data, counted as a line if it is an LF.
            if (c === LF && this.newline !== Newline.Cr) this.line++;
            i = j + 1;
            continue;
          }
          this.endCell(s.slice(mark, j));
          this.endRecord(out);
          this.line++;
          this.recordLine = this.line;
          i = j + len;
          continue;
        }
        case At.Quoted: {
          const j = s.indexOf('"', i);
          const end = j < 0 ? n : j;
          this.countLines(s, i, end);
          this.cell += s.slice(mark, end);
          if (j < 0) return;
          this.at = At.QuoteInQuoted;
          i = j + 1;
          mark = i;
          continue;
        }
        case At.QuoteInQuoted: {
          const c = s.charCodeAt(i);
          if (c === QUOTE) {
            // `""`: one quote, still inside.
            this.cell += '"';
            this.at = At.Quoted;
            mark = ++i;
            continue;
          }
          if (c === delimiter) {
            this.at = At.Unquoted; // ends the cell there, with nothing more
            mark = i;
            continue;
          }
          if (c === LF || c === CR) {
            const len = this.breakAt(s, i, final);
            if (len < 0) {
              this.pendingCr = true;
              return;
            }
            if (len > 0) {
              this.at = At.Unquoted;
              mark = i;
              continue;
            }
          }
          // Text after the closing quote: the rest of the cell is read unquoted.
          if (this.relax) this.cell = `"${this.cell}"`;
          else this.malformed(`Invalid Closing Quote: ${JSON.stringify(s[i])} after the closing quote of field ${this.cells.length + 1}, instead of a delimiter or a line break`);
          this.at = At.Unquoted;
          mark = i;
          continue;
        }
      }
    }
    // The text ended in a cell: keep what it has of it.
    if (this.at === At.Unquoted) this.cell += s.slice(mark, n);
  }
}
