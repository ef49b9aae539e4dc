/**
 * One conversion, from an opened input to an opened output: the library's
 * `convert` and the CLI's command both run it. Text inputs (CSV, JSON) are
 * sampled, given a schema and written to Parquet or Trevni; Parquet and
 * Trevni inputs are read in row batches and written to any format. The
 * output is aborted (nothing left at a file destination) on any failure.
 */
import { InvalidArgumentError, IOError } from '../errors.js';
import type { ColumnPath } from '../schema/tree.js';
import type { WriterOptions } from '../parquet/write/writer.js';
import type { DefinedSchema } from '../schema/builder.js';
import { buildSchema, type SchemaElementLike } from '../schema/tree.js';
import type { SpillFactory } from '../trevni/spill.js';
import type { TrevniVersion } from '../trevni/version.js';
import type { ParquetryWarning, WarningHandler } from '../warnings.js';
import { isTableFormat, type ConvertFormat, type TableFormat } from '../formats.js';
import type { OpenTableOptions } from '../table/open.js';
import type { Table } from '../table/table.js';
import type { CountingSink, OutputSummary, RowOutput, TextBatch } from './output.js';
import type { TextWriters } from './text-columns.js';
import type { BuiltColumn } from './column-builders.js';
import type { BadRow, BadRows } from './pipeline.js';
import type { Cells } from './read-csv.js';
import type { CsvBlockReaders } from './csv-parallel.js';
import type { SchemaChoice } from './shape.js';
import { RowFailure, type InputBytes } from './source.js';
import type { EncodedRowGroup } from '../parquet/write/writer.js';
import type { RowGroupJob } from './row-groups.js';
import type { DatasetOutput } from '../dataset/write.js';
import type { DatasetLayout } from '../dataset/layout.js';

export type { ConvertFormat };

const isTable = isTableFormat;

/** Where a conversion reads: bytes as they come (CSV, JSON), or a table read at any offset (Parquet, Trevni, RedElm, a dataset). */
export interface ConvertInput {
  /** For messages: a path, a URL, `stdin`, or the caller's name. */
  readonly name: string;
  bytes(): Promise<InputBytes>;
  /** `bytes()` may be called again for the same bytes (a file, a URL, bytes in memory; not stdin or a stream). */
  rereadable?: boolean;
  /** The input opened by `openTable` (`format` is the conversion's, absent for a dataset), with the open options that apply to it. */
  table(options: OpenTableOptions): Promise<Table>;
  /** The input is a dataset (a directory or glob of Parquet files). */
  readonly dataset?: boolean;
}

/** Where a conversion writes: a sink opened when the writer starts, and where Trevni's column blocks wait. */
export interface ConvertOutput {
  sink(): Promise<CountingSink>;
  spill(): SpillFactory;
  /** Where a dataset's parts go, for a destination that can hold one (a directory). */
  dataset?(): Promise<DatasetOutput>;
  /** The destination's name in messages, for a dataset. */
  name?: string;
  /**
   * Aborts a destination the caller handed over (a stream, a Sink) when the
   * conversion fails before its writer opened: it is ended one way or the
   * other, as a failure after that aborts it. Absent for a path, where nothing was created.
   */
  discard?(): Promise<void>;
}

/** How the run goes: formats settled, options in the writers' terms. */
export interface RunOptions {
  from: ConvertFormat;
  to: ConvertFormat;
  /** CSV and JSON inputs: the schema file's fields and the type overrides. */
  choice: SchemaChoice;
  sample: number;
  /** CSV input: infer the types from every row (a first pass over the input) instead of the sample, so no value past the sample fails them. */
  widen?: boolean;
  /** Threads (1: the main thread alone). CSV input to Parquet: the main thread and N-1 workers (one encodes the row groups of the blocks the main thread reads; more read and encode); needs `csvReaders`. Parquet to CSV or JSON Lines: the main thread and N-1 workers write the text; needs `textWriters`. Absent: one thread (BENCHMARKS.md: on two quiet cores two CSV threads take less time for more CPU; text threads cost more than they save). */
  threads?: number;
  /** The runtime's threads for reading CSV blocks (the Node entry's worker threads). */
  csvReaders?: CsvBlockReaders;
  /** The runtime's threads for writing a Parquet file's text (the Node entry's worker threads). */
  textWriters?: TextWriters;
  /** What a bad row whose column's type was inferred says of giving the type, in the caller's words (options or flags). */
  typeAdvice: (column: string, sampled: number) => string;
  delimiter?: string;
  header: boolean;
  /** Stop at the first bad row (an InvalidArgumentError naming its line), saying `badRowHint` on how to go on. */
  strict: boolean;
  badRowHint: string;
  onBadRow?: (row: BadRow) => void;
  /** Parquet and RedElm inputs: the projection. */
  columns?: readonly ColumnPath[];
  /** How the table inputs open: each gets those of these that apply to its format. */
  read: Pick<OpenTableOptions, 'verifyChecksums' | 'maxDecompressedBytes' | 'decryption' | 'byteLength' | 'headers'>;
  parquet: WriterOptions;
  /** Parquet output as a dataset of parts (partitioned, rolled by size) rather than one file. */
  dataset?: DatasetLayout;
  trevni: { codec: string; checksum: string; version?: TrevniVersion | 'draft' };
  redelm: { codec: 'gzip' | 'default' | 'snappy'; footer: 'java' | 'json' };
  onWarning?: WarningHandler;
  /** Hears the progress every PROGRESS_EVERY rows written, and at the end. */
  onProgress?: (progress: ConvertProgress) => void;
  /** Checked before each row is written. */
  signal?: AbortSignal;
}

const PROGRESS_EVERY = 4096;

/** What a conversion read and wrote, and the bad rows it skipped. */
export interface ConvertReport {
  /** Names of the input and output, as messages give them. */
  input: string;
  output: string;
  /** Input records read: rows of a Parquet or Trevni input; records of a text input, bad ones included, the header row not. */
  rowsRead: number;
  /** Rows in the output (its `numRows`): the rows read, bad ones skipped. */
  numRows: number;
  /** Parquet output only. */
  rowGroups?: number;
  /** Dataset output only: the parts written. */
  files?: number;
  /** Bytes of a text input read. */
  bytesRead?: number;
  bytesWritten: number;
  /** Bad input rows skipped, and the first ten. */
  badRows: number;
  firstBadRows: BadRow[];
}

/** A conversion's progress, given to `onProgress`. */
export interface ConvertProgress {
  /** Fraction of the input read, when the input's size is known. */
  fraction: number | undefined;
  rowsRead: number;
  /** Rows written so far. */
  numRows: number;
}

/** A conversion under way: its progress can be polled, and it can be aborted from outside (an interrupt). */
export class Conversion {
  /** The output once open, and the input line being written (for the writer's warnings). */
  private readonly state: { output?: RowOutput; line?: number } = {};
  private poll: () => ConvertProgress = () => ({ fraction: undefined, rowsRead: 0, numRows: 0 });
  private aborting: Promise<void> | undefined;

  constructor(private readonly input: ConvertInput, private readonly out: ConvertOutput, private readonly o: RunOptions) {}

  progress(): ConvertProgress {
    return this.poll();
  }

  /** Discards the output once it is open (once, however many ask); before, there is nothing to discard. */
  abort(): Promise<void> {
    const output = this.state.output;
    if (!output) return Promise.resolve();
    return (this.aborting ??= output.abort().catch(() => undefined));
  }

  async run(): Promise<ConvertReport> {
    if (this.input.dataset && this.o.from !== 'parquet') throw new InvalidArgumentError(`${this.input.name} is a dataset of Parquet files; it is not read as ${this.o.from}`);
    if (this.o.dataset) {
      if (!this.out.dataset) throw new InvalidArgumentError('a dataset (partitionBy, maxRowsPerFile, maxBytesPerFile, fileName, maxOpenFiles) is written to a directory: give a directory path as the destination');
      if (this.o.to !== 'parquet') throw new InvalidArgumentError(`a dataset is written as Parquet, not ${this.o.to}`);
    }
    try {
      return isTable(this.o.from) ? await this.fromTable(this.o.from) : await this.fromText();
    } catch (e) {
      if (this.state.output) await this.abort();
      else await this.out.discard?.().catch(() => undefined);
      throw e;
    }
  }

  /** Warnings with the input's line (the writer's come while it takes the record of that line). */
  private warn(w: ParquetryWarning): void {
    const line = this.state.line;
    this.o.onWarning?.(w.line === undefined && line !== undefined ? { ...w, line } : w);
  }

  private async openTableOutput(schema: DefinedSchema | SchemaElementLike[], metadata?: Record<string, string>): Promise<RowOutput> {
    const o = this.o;
    if (o.to === 'parquet') {
      const onWarning = o.onWarning ? (w: ParquetryWarning) => this.warn(w) : undefined;
      const options = { ...o.parquet, ...(metadata ? { metadata } : {}), ...(onWarning ? { onWarning } : {}) };
      if (o.dataset && this.out.dataset) {
        const { datasetOutput } = await import('./write-dataset.js');
        return this.watched(datasetOutput(await this.out.dataset(), this.out.name ?? 'output', schema, { ...options, ...o.dataset }));
      }
      const { parquetOutput } = await import('./write-parquet.js');
      return this.watched(await parquetOutput(await this.out.sink(), schema, options));
    }
    const tree = Array.isArray(schema) ? buildSchema(schema) : schema.schema;
    if (o.to === 'redelm') {
      const onWarning = o.onWarning ? (w: ParquetryWarning) => this.warn(w) : undefined;
      const { redElmOutput } = await import('./write-redelm.js');
      return this.watched(await redElmOutput(() => this.out.sink(), tree, { ...o.redelm, ...(onWarning ? { onWarning } : {}) }));
    }
    const { trevniOutput } = await import('./write-trevni.js');
    return this.watched(await trevniOutput(() => this.out.sink(), tree, { ...o.trevni, spill: this.out.spill() }));
  }

  /** The output, its writes checked against the abort signal and counted for the progress callback. */
  private watched(output: RowOutput): RowOutput {
    const { signal, onProgress } = this.o;
    if (!signal && !onProgress) return output;
    let n = 0;
    /** A batch of rows written: told once for each PROGRESS_EVERY boundary it crossed. */
    const batched = async (write: () => Promise<void>) => {
      if (signal?.aborted) throw new IOError('the conversion was aborted', {}, { cause: signal.reason });
      const before = output.rows;
      await write();
      const after = output.rows;
      if (onProgress && Math.floor((n + after - before) / PROGRESS_EVERY) > Math.floor(n / PROGRESS_EVERY)) onProgress(this.progress());
      n += after - before;
    };
    return {
      get name() {
        return output.name;
      },
      get rows() {
        return output.rows;
      },
      get bytes() {
        return output.bytes;
      },
      write: async (row) => {
        if (signal?.aborted) throw new IOError('the conversion was aborted', {}, { cause: signal.reason });
        await output.write(row);
        if (onProgress && ++n % PROGRESS_EVERY === 0) onProgress(this.progress());
      },
      ...(output.writeBuilt ? { writeBuilt: (columns: readonly BuiltColumn[], start: number, end: number) => batched(() => output.writeBuilt!(columns, start, end)) } : {}),
      ...(output.rowGroups ? { rowGroups: { setup: output.rowGroups.setup, write: (group: EncodedRowGroup | RowGroupJob) => batched(() => output.rowGroups!.write(group)) } } : {}),
      ...(output.writeText ? { writeText: (text: TextBatch) => batched(() => output.writeText!(text)) } : {}),
      close: async () => {
        const summary = await output.close();
        onProgress?.(this.progress());
        return summary;
      },
      abort: () => output.abort(),
    };
  }

  private async fromTable(format: TableFormat): Promise<ConvertReport> {
    const o = this.o;
    // The reader and the text writers, loaded for a table input only (a CSV to Parquet job loads neither).
    const input = await (await import('./table-input.js')).openTableInput(format, this.input, o);
    try {
      const total = input.total;
      this.poll = () => ({ fraction: total > 0 ? input.rowsRead / total : undefined, rowsRead: input.rowsRead, numRows: this.state.output?.rows ?? 0 });
      const forText = !isTable(o.to);
      let output: RowOutput;
      let text: AsyncGenerator<TextBatch | Record<string, unknown>[]> | undefined;
      if (isTable(o.to)) {
        output = this.state.output = await this.openTableOutput(input.elements, input.metadata);
      } else {
        const delimiter = o.delimiter ?? (o.to === 'tsv' ? '\t' : ',');
        const format = o.to === 'tsv' ? 'csv' : o.to;
        const { textOutput } = await import('./write-text.js');
        output = this.state.output = this.watched(await textOutput(format, await this.out.sink(), { columns: input.columns, delimiter, header: o.header }));
        if (output.writeText && format !== 'json') text = input.text?.({ format, delimiter });
      }
      for await (const batch of text ?? input.batches(forText)) {
        if (Array.isArray(batch)) for (const row of batch) await output.write(row);
        else await output.writeText!(batch);
      }
      return this.report(await output.close(), input.rowsRead, undefined, undefined);
    } finally {
      await input.close();
    }
  }

  private async fromText(): Promise<ConvertReport> {
    const o = this.o;
    if (!isTable(o.to)) throw new InvalidArgumentError(`a ${o.from.toUpperCase()} input converts to Parquet, Trevni or RedElm only, not to ${o.to.toUpperCase()}`);
    // Text input's machinery, loaded for it only (a Parquet to CSV job loads none of it).
    const [{ BadRows, textToTable }, { CsvShaper, JsonShaper }] = await Promise.all([import('./pipeline.js'), import('./shape.js')]);
    const input = await this.input.bytes();
    try {
      const state = this.state;
      const bad = new BadRows(o.strict, input.name, o.badRowHint, o.onBadRow);
      // Every good record is written, so the records read are the rows written and the bad ones.
      this.poll = () => {
        const written = state.output?.rows ?? 0;
        return { fraction: input.size ? input.bytesRead / input.size : undefined, rowsRead: written + bad.count, numRows: written };
      };
      const open = (schema: DefinedSchema) => this.openTableOutput(schema);
      const onWarning = o.onWarning ? (w: ParquetryWarning) => this.warn(w) : undefined;
      const sampleSize = o.choice.fields ? 0 : o.sample;
      let summary: OutputSummary;
      if (o.from === 'csv' || o.from === 'tsv') {
        const delimiter = o.delimiter ?? (o.from === 'tsv' ? '\t' : ',');
        const shaper = new CsvShaper(o.choice, onWarning, (column) => o.typeAdvice(column, sampleSize));
        if (o.widen && sampleSize > 0) {
          const { readCsv } = await import('./read-csv.js');
          await this.firstPass(input.name, (again) => shaper.inferFromAll(readCsv(again, { delimiter, skipBad: true, header: o.header, width: shaper.knownWidth(o.header) }), o.header));
        }
        // The first record is the header row, or (no header) fixes the number of columns.
        const header = (first: Cells): boolean => {
          if (o.header) shaper.setHeader(first);
          else shaper.noHeader(first);
          return o.header;
        };
        // Past the sample, the records are read in blocks into built columns: by worker threads, or here.
        const threads = o.csvReaders ? (o.threads ?? 1) : 1;
        const { parallelCsv } = await import('./csv-parallel.js');
        const p = parallelCsv(input, shaper, { delimiter, header: o.header, width: shaper.knownWidth(o.header), skipBad: !o.strict, threads, ...(o.csvReaders ? { readers: o.csvReaders } : {}), ...(onWarning ? { onWarning } : {}) });
        try {
          summary = await textToTable(p.items, shaper, open, sampleSize, state, bad, header, p.tail);
        } finally {
          await p.close();
        }
      } else {
        const shaper = new JsonShaper(o.choice, onWarning, (column) => o.typeAdvice(column, sampleSize));
        const [{ readJsonArray, readJsonLines }, { readJsonLinesColumns }] = await Promise.all([import('./read-json.js'), import('./json-columns.js')]);
        const records = o.from === 'jsonl' ? readJsonLines : readJsonArray;
        if (o.widen && sampleSize > 0) {
          // Every record's whole floats noted, as inference sees them all; a failure of the input's
          // structure (a JSON array not closed) ends this pass, for the second to report in place.
          await this.firstPass(input.name, (again) => shaper.inferFromAll(records(again, { sampled: Number.MAX_SAFE_INTEGER })).catch((e: unknown) => {
            if (!(e instanceof RowFailure)) throw e;
          }));
        }
        const read = { sampled: sampleSize, ...(onWarning ? { onWarning } : {}) };
        // JSON Lines past the sample are read from their bytes into columns where the output takes them (json-columns.ts).
        const { items, tail } = o.from === 'jsonl' ? readJsonLinesColumns(input, read) : { items: readJsonArray(input, read), tail: undefined };
        summary = await textToTable(items, shaper, open, sampleSize, state, bad, undefined, tail);
      }
      return this.report(summary, summary.rows + bad.count, input.bytesRead, bad);
    } finally {
      await input.close();
    }
  }

  /** Widening's first read of the input, to infer the types from every record; refused for an input that can be read once only. */
  private async firstPass(name: string, read: (again: InputBytes) => Promise<void>): Promise<void> {
    if (!this.input.rereadable) throw new InvalidArgumentError(`widening reads the input twice (once to infer the types from every row), and ${name} can be read once only: give a file`);
    const again = await this.input.bytes();
    try {
      await read(again);
    } finally {
      await again.close();
    }
  }

  private report(summary: OutputSummary, rowsRead: number, bytesRead: number | undefined, bad: BadRows | undefined): ConvertReport {
    return {
      input: this.input.name, output: this.state.output!.name, rowsRead, numRows: summary.rows,
      ...(summary.rowGroups !== undefined ? { rowGroups: summary.rowGroups } : {}),
      ...(summary.files !== undefined ? { files: summary.files } : {}),
      ...(bytesRead !== undefined ? { bytesRead } : {}),
      bytesWritten: summary.bytes, badRows: bad?.count ?? 0, firstBadRows: [...(bad?.first ?? [])].sort((a, b) => a.line - b.line),
    };
  }
}
