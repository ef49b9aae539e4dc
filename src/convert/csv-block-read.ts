/**
 * One block of a CSV input (csv-blocks.ts) read into column vectors, as the
 * one-thread conversion reads the same records: the same tokenizer, the same
 * width check, the same cell readers and checks (a `CsvShaper`'s replica).
 * Plain data in and out, so a worker thread can do it (csv-parallel.ts).
 */
import { InvalidArgumentError } from '../errors.js';
import type { CsvToken, CsvTokenizerState } from './csv-tokenizer.js';
import { csvTokenizer } from './read-csv.js';
import { replicaBatch, widthProblem, type CsvBatchReplica, type CsvColumnBatch } from './shape.js';
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
  rows: number;
  /** The good rows' values, column by column in schema order. */
  columns: unknown[][];
  /** The line each good row starts on. */
  lines: Int32Array;
  bad: BlockBadRow[];
  /** Where the block ended, when not at the start of a record: the next block is read again from here. */
  end: CsvTokenizerState | undefined;
  /** The first good record ending on or after `utf8At` (or the first of all), and the column of its first U+FFFD. */
  probe: { line: number; last: number; column: string | undefined } | undefined;
}

/** A reader of blocks, set up once per thread. */
export class CsvBlockReader {
  private readonly batch: CsvColumnBatch;
  private readonly decoder = new TextDecoder();

  constructor(private readonly setup: CsvBlockSetup) {
    this.batch = replicaBatch(setup.replica);
  }

  read(job: CsvBlockJob): CsvBlockResult {
    const tokenizer = csvTokenizer(this.setup.delimiter, job.start);
    const text = this.decoder.decode(job.bytes);
    const batch = this.batch;
    const lines: number[] = [];
    const bad: BlockBadRow[] = [];
    let probe: CsvBlockResult['probe'];
    let stopped = false;
    // A piece at a time: its records are short-lived (a block's all at once outlived the young generation, and cost a third more).
    for (let at = 0; at < text.length || job.final; at += PIECE) {
      const tokens: CsvToken[] = [];
      if (at < text.length) tokenizer.feed(text.slice(at, at + PIECE), tokens);
      const last = at + PIECE >= text.length;
      if (last && job.final) tokenizer.finish(tokens);
      this.take(tokens, job.utf8At, lines, bad, (p) => (probe ??= p));
      if (last || (stopped = bad.length > 0 && !this.setup.skipBad)) break;
    }
    const end = stopped || job.final || tokenizer.atRecordStart() ? undefined : tokenizer.state();
    return { rows: batch.length, columns: batch.takeColumns(), lines: Int32Array.from(lines), bad, end, probe };
  }

  /** Tokens into the batch, or bad rows; without skipBad, none after the first bad one. */
  private take(tokens: readonly CsvToken[], utf8At: number | undefined, lines: number[], bad: BlockBadRow[], probed: (p: NonNullable<CsvBlockResult['probe']>) => unknown): void {
    const batch = this.batch;
    const width = batch.width;
    let probe: CsvBlockResult['probe'];
    for (const t of tokens) {
      if (bad.length > 0 && !this.setup.skipBad) return;
      if (t.error !== undefined) {
        bad.push({ at: batch.length, line: t.line, why: `malformed CSV: ${t.error}` });
        continue;
      }
      if (probe === undefined && t.last >= (utf8At ?? 0)) {
        probe = { line: t.line, last: t.last, column: utf8At === undefined ? undefined : replacedCell(t.cells, this.setup.headerCells) };
        probed(probe);
      }
      const wrong = widthProblem(width, t.cells.length);
      if (wrong !== undefined) {
        bad.push({ at: batch.length, line: t.line, why: wrong });
        continue;
      }
      try {
        batch.add(t.cells);
      } catch (e) {
        if (!(e instanceof InvalidArgumentError)) throw e;
        bad.push({ at: batch.length, line: t.line, ...rowProblem(e) });
        continue;
      }
      lines.push(t.line);
    }
  }
}
