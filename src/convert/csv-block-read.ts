/**
 * One block of a CSV input (csv-blocks.ts) read into built columns
 * (column-builders.ts): its records of the common form found in the bytes
 * (csv-byte-scan.ts) and their cells parsed from the bytes (csv-cells.ts),
 * the rest of the block, from the first record of another form, by the
 * tokenizer on decoded text, as before; the same width check, the same
 * cell readers' rules and refusals (a `CsvShaper`'s replica). Plain data in
 * and out (the columns' buffers transferable), so a worker thread can do it
 * (csv-parallel.ts), or the main thread.
 */
import { InvalidArgumentError } from '../errors.js';
import { buildSchema } from '../schema/tree.js';
import type { BuiltColumn } from './column-builders.js';
import { scanCsvBytes, ScannedCells } from './csv-byte-scan.js';
import { addByteCells, addTextCells, cellColumns, type CellColumn } from './csv-cells.js';
import { recordStartBreak, type CsvToken, type CsvTokenizerState } from './csv-tokenizer.js';
import { csvTokenizer } from './read-csv.js';
import { widthProblem, type CsvBatchReplica } from './shape.js';
import { rowProblem } from './row-problem.js';
import { replacedCell } from './utf8.js';

/** Characters tokenised at a time. */
const PIECE = 1 << 16;

/** What every block of one input is read with. */
export interface CsvBlockSetup {
  delimiter: string;
  /** Stop at the first malformed record of a block (strict: the conversion ends there). */
  skipBad: boolean;
  replica: CsvBatchReplica;
  /** The header row's cells, which name columns in the invalid UTF-8 warning. */
  headerCells: string[] | undefined;
}

export interface CsvBlockJob {
  bytes: Uint8Array;
  /** The tokenizer's state where the block starts. */
  start: CsvTokenizerState;
  final: boolean;
  /** The line of the input's first invalid UTF-8 byte, when it is known and not yet told. */
  utf8At: number | undefined;
}

/** A bad row in its place: after `at` good rows of the block. */
export interface BlockBadRow {
  at: number;
  line: number;
  why: string;
  column?: string | undefined;
}

export interface CsvBlockResult {
  /** The block's bytes, handed back by the thread they were handed to. */
  bytes?: Uint8Array;
  rows: number;
  /** The good rows' values, column by column in schema order. */
  columns: BuiltColumn[];
  bad: BlockBadRow[];
  /** Where the block ended, when not at the start of a record: the next block is read again from here. */
  end: CsvTokenizerState | undefined;
  /** The line after the block's last byte (its first line and the line breaks it holds), when it was read to its end. */
  nextLine: number;
  /** The first good record ending on or after `utf8At` (or the first of all), and the column of its first U+FFFD. */
  probe: { line: number; last: number; column: string | undefined } | undefined;
}

/** A reader of blocks, set up once per thread. */
export class CsvBlockReader {
  private readonly columns: CellColumn[];
  private readonly cells = new ScannedCells();
  /** The delimiter's byte, when it is one (a character past ASCII is read by the tokenizer). */
  private readonly delimiter: number | undefined;
  private rows = 0;

  constructor(private readonly setup: CsvBlockSetup) {
    const r = setup.replica;
    const leaves = new Map(buildSchema(r.elements).leaves.map((leaf) => [leaf.path[0]!, leaf]));
    this.columns = cellColumns(r.names.map((name) => leaves.get(name)!), r.advices);
    const d = setup.delimiter.charCodeAt(0);
    this.delimiter = setup.delimiter.length === 1 && d < 0x80 ? d : undefined;
  }

  read(job: CsvBlockJob): CsvBlockResult {
    const bad: BlockBadRow[] = [];
    let probe: CsvBlockResult['probe'];
    const probed = (p: NonNullable<CsvBlockResult['probe']>) => (probe ??= p);
    this.rows = 0;
    let start = job.start;
    let from = 0;
    let stopped = false;
    let nextLine = job.start.line;
    const lineBreak = recordStartBreak(job.start);
    // The invalid UTF-8 warning's record is found in text (U+FFFD); bytes are read only when no warning waits.
    if (lineBreak !== undefined && this.delimiter !== undefined && job.utf8At === undefined) {
      const end = scanCsvBytes(
        job.bytes, 0, job.start.line, { delimiter: this.delimiter, relaxQuotes: this.setup.delimiter === '\t', crlf: lineBreak === 'crlf', final: job.final, emptyLineRecords: job.start.oneColumn === true }, this.cells,
        (cells, line, last) => {
          probe ??= { line, last, column: undefined };
          this.record(cells, job.bytes, line, bad);
          return !(bad.length > 0 && !this.setup.skipBad);
        },
      );
      stopped = end.stopped;
      from = end.at;
      nextLine = end.line;
      if (from > 0) start = { ...job.start, line: end.line, recordLine: end.line };
    }
    let tokenizer;
    if (!stopped && (from < job.bytes.length || job.final)) {
      tokenizer = csvTokenizer(this.setup.delimiter, start);
      stopped = this.readText(tokenizer, job, from, bad, probed);
    }
    const end = stopped || job.final || !tokenizer || tokenizer.atRecordStart() ? undefined : tokenizer.state();
    if (tokenizer) nextLine = tokenizer.nextLine;
    return { rows: this.rows, columns: this.columns.map((c) => c.builder.take()), bad, end, nextLine, probe };
  }

  /** The block's text from byte `from` through the tokenizer; whether it stopped at a bad row. */
  private readText(tokenizer: ReturnType<typeof csvTokenizer>, job: CsvBlockJob, from: number, bad: BlockBadRow[], probed: (p: NonNullable<CsvBlockResult['probe']>) => unknown): boolean {
    // A byte order mark past the block's start is data, as it was when the block was decoded whole.
    const text = (from === 0 ? new TextDecoder() : new TextDecoder('utf-8', { ignoreBOM: true })).decode(job.bytes.subarray(from));
    // A piece at a time: its records are short-lived (a block's all at once outlived the young generation, and cost a third more).
    for (let at = 0; at < text.length || job.final; at += PIECE) {
      const tokens: CsvToken[] = [];
      if (at < text.length) tokenizer.feed(text.slice(at, at + PIECE), tokens);
      const last = at + PIECE >= text.length;
      if (last && job.final) tokenizer.finish(tokens);
      this.take(tokens, job.utf8At, bad, probed);
      if (bad.length > 0 && !this.setup.skipBad) return true;
      if (last) break;
    }
    return false;
  }


  /** A record of the byte scan into the columns, or a bad row. */
  private record(cells: ScannedCells, bytes: Uint8Array, line: number, bad: BlockBadRow[]): void {
    const wrong = widthProblem(this.columns.length, cells.count);
    if (wrong !== undefined) bad.push({ at: this.rows, line, why: wrong });
    else {
      // No closure per record (a million records made a million): the try stands here.
      try {
        addByteCells(this.columns, bytes, cells.starts, cells.ends, cells.escaped);
        this.rows++;
      } catch (e) {
        this.refused(e, line, bad);
      }
    }
  }

  /** A cell's refusal as a bad row (anything else thrown goes on). */
  private refused(e: unknown, line: number, bad: BlockBadRow[]): void {
    if (!(e instanceof InvalidArgumentError)) throw e;
    bad.push({ at: this.rows, line, ...rowProblem(e) });
  }

  /** Tokens into the columns, or bad rows; without skipBad, none after the first bad one. */
  private take(tokens: readonly CsvToken[], utf8At: number | undefined, bad: BlockBadRow[], probed: (p: NonNullable<CsvBlockResult['probe']>) => unknown): void {
    const columns = this.columns;
    let probe: CsvBlockResult['probe'];
    for (const t of tokens) {
      if (bad.length > 0 && !this.setup.skipBad) return;
      if (t.error !== undefined) {
        bad.push({ at: this.rows, line: t.line, why: `malformed CSV: ${t.error}` });
        continue;
      }
      if (probe === undefined && t.last >= (utf8At ?? 0)) {
        probe = { line: t.line, last: t.last, column: utf8At === undefined ? undefined : replacedCell(t.cells, this.setup.headerCells) };
        probed(probe);
      }
      const wrong = widthProblem(columns.length, t.cells.length);
      if (wrong !== undefined) {
        bad.push({ at: this.rows, line: t.line, why: wrong });
        continue;
      }
      try {
        addTextCells(columns, t.cells);
        this.rows++;
      } catch (e) {
        this.refused(e, t.line, bad);
      }
    }
  }
}
