/**
 * `parquetry convert IN OUT`: CSV, JSON Lines or a JSON array to Parquet or
 * Trevni, and Parquet or Trevni to CSV, JSON Lines, a JSON array, Parquet or
 * Trevni (a rewrite with new writer options), streaming all the way.
 */
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { InvalidArgumentError } from '../errors.js';
import type { WarningCode, WarningHandler } from '../warnings.js';
import type { WriterOptions } from '../parquet/write/writer.js';
import type { DefinedSchema } from '../schema/builder.js';
import { buildSchema, type SchemaElementLike } from '../schema/tree.js';
import { projectSchema } from '../schema/project.js';
import type { ColumnPath } from '../parquet/reader.js';
import { checkCompressionLevel, formatOf, parquetCodec, trevniCodecName, type Format } from './convert-options.js';
import { parseTypeOverride, schemaFromJsonText } from '../convert/types.js';
import { BadRows, textToTable } from '../convert/pipeline.js';
import { openInput } from '../node/convert-input.js';
import { readCsv, type Cells } from '../convert/read-csv.js';
import { readJsonArray, readJsonLines } from '../convert/read-json.js';
import { parquetInput } from '../convert/read-parquet.js';
import { CsvShaper, JsonShaper, type SchemaChoice, type Shaper } from '../convert/shape.js';
import { trevniInput } from '../convert/read-trevni.js';
import { openTrevniFile } from './trevni.js';
import { UsageError } from './usage.js';
import { fsReason } from '../node/fs-errors.js';
import { inputKind, isUrl, notSeekable, openParquetFile, type ReadChecks } from './files.js';
import { discardOpenSinks, openParquetOutput, openTextOutput, openTrevniOutput } from './convert-sink.js';
import type { OutputSummary, RowOutput } from '../convert/output.js';
import { Progress, formatReport, type ProgressState } from './convert-progress.js';

export interface ConvertOptions {
  /** Parquet input: the projection (`--columns`). */
  columns?: (string | string[])[];
  from?: Format;
  to?: Format;
  schema?: string;
  type?: string[];
  sample: number;
  /** A Parquet or a Trevni codec name, checked once the output format is known. */
  codec?: string;
  /** Trevni output: null or crc32. */
  checksum?: string;
  compressionLevel?: number;
  rowGroupSize?: number;
  rowGroupRows?: number;
  pageSize?: number;
  pageVersion?: 1 | 2;
  bloomFilter?: Record<string, { ndv?: number; fpp?: number }>;
  /** false with --no-page-index. */
  pageIndex: boolean;
  /** Parquet output: false with --no-checksums. */
  checksums: boolean;
  /** false with --no-verify-checksums (Parquet and Trevni inputs). */
  verifyChecksums: boolean;
  delimiter?: string;
  header: boolean;
  skipBadRows?: boolean;
  progress?: boolean;
  quiet?: boolean;
}

/** The warnings' words, after the place. */
const WARNING_TEXT: Record<WarningCode, string> = {
  INVALID_UTF8: 'bytes that are not UTF-8 were read as U+FFFD (later ones in this input are not reported)',
  LONE_SURROGATE: 'a string with lone surrogates (a JSON escape such as \\ud800 alone) is written with U+FFFD in their place (later ones in this column are not reported)',
};

function writerOptions(o: ConvertOptions): WriterOptions {
  const w: WriterOptions = {};
  if (o.codec !== undefined) w.codec = parquetCodec(o.codec);
  if (o.compressionLevel !== undefined) w.compressionLevel = o.compressionLevel;
  if (o.rowGroupSize !== undefined) w.rowGroupSize = o.rowGroupSize;
  if (o.rowGroupRows !== undefined) w.rowGroupRows = o.rowGroupRows;
  if (o.pageSize !== undefined) w.pageSize = o.pageSize;
  if (o.pageVersion !== undefined) w.pageVersion = o.pageVersion;
  if (o.bloomFilter !== undefined) w.bloomFilters = o.bloomFilter;
  if (o.pageIndex === false) w.pageIndex = false;
  if (o.checksums === false) w.checksums = false;
  return w;
}

async function schemaChoice(o: ConvertOptions): Promise<SchemaChoice> {
  let fields: SchemaChoice['fields'];
  if (o.schema !== undefined) {
    let text: string;
    try {
      text = await readFile(o.schema, 'utf8');
    } catch (e) {
      throw new InvalidArgumentError(`cannot read the schema file ${o.schema}: ${fsReason(e)}`);
    }
    fields = schemaFromJsonText(text, o.schema);
  }
  return { fields, overrides: (o.type ?? []).map(parseTypeOverride) };
}

/** Options that mean nothing for the chosen formats are refused, not ignored. */
function checkApplicable(cmd: Command, inFormat: Format, outFormat: Format): void {
  const given = (name: string) => cmd.getOptionValueSource(name) === 'cli';
  const refuse = (names: string[], why: string) => {
    const bad = names.filter(given);
    if (bad.length) {
      const flags = bad.map((n) => '--' + n.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase()).replace(/^(header|page-index|checksums|verify-checksums)$/, 'no-$1'));
      throw new UsageError(`${flags.join(', ')} ${bad.length === 1 ? 'applies' : 'apply'} ${why}`);
    }
  };
  if (outFormat !== 'parquet' && outFormat !== 'trevni') refuse(['codec'], 'to Parquet output only (and to Trevni output)');
  if (outFormat !== 'parquet') refuse(['compressionLevel', 'rowGroupSize', 'rowGroupRows', 'pageSize', 'pageVersion', 'bloomFilter', 'pageIndex', 'checksums'], 'to Parquet output only');
  if (outFormat !== 'trevni') refuse(['checksum'], 'to Trevni output only');
  if (inFormat === 'parquet' || inFormat === 'trevni') refuse(['schema', 'type', 'sample', 'skipBadRows'], 'to CSV and JSON inputs only');
  else refuse(['verifyChecksums'], 'to Parquet and Trevni inputs only');
  if (inFormat !== 'parquet') refuse(['columns'], 'to Parquet input only');
  const csvSide = inFormat === 'csv' || inFormat === 'tsv' || outFormat === 'csv' || outFormat === 'tsv';
  if (!csvSide) refuse(['delimiter', 'header'], 'to CSV input or output only');
}

/**
 * Ctrl-C (or SIGTERM) discards the output, so no temporary file is left
 * behind, then ends the program with status 130.
 */
function onInterrupt(discard: () => Promise<void>): { stop: () => void; readonly interrupted: boolean } {
  let interrupted = false;
  const handler = () => {
    if (interrupted) return;
    interrupted = true;
    void discard().finally(() => {
      process.stderr.write('\nparquetry: interrupted\n');
      process.exit(130);
    });
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return {
    stop: () => {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    },
    get interrupted() {
      return interrupted;
    },
  };
}

interface Run {
  summary: OutputSummary;
  skipped: BadRows | undefined;
  output: string;
}

/** Parquet or Trevni input, as the command reads it: a schema for the writers, and rows. */
interface TableInput {
  elements: SchemaElementLike[];
  /** Key-value metadata to keep in a Parquet rewrite. */
  metadata: Record<string, string> | undefined;
  /** Top-level column names (CSV header). */
  columns: string[];
  total: number;
  readonly rowsRead: number;
  batches(forText: boolean): AsyncGenerator<Record<string, unknown>[]>;
  close(): Promise<void>;
}

async function openTableInput(format: 'parquet' | 'trevni', path: string, checks: ReadChecks, columns?: readonly ColumnPath[]): Promise<TableInput> {
  if (format === 'trevni') {
    if (path === '-') throw new UsageError('a Trevni input must be a file (its columns are read from their offsets), not stdin');
    const t = await trevniInput(await openTrevniFile(path, checks));
    return {
      elements: t.schema.elements,
      metadata: undefined,
      columns: t.schema.fields.map(([name]) => name),
      total: t.reader.rowCount,
      get rowsRead() {
        return t.rowsRead;
      },
      batches: (forText) => t.batches(forText),
      close: () => t.close(),
    };
  }
  if (path === '-') throw new UsageError('a Parquet input must be a file or URL (its footer is at the end), not stdin');
  const p = parquetInput(await openParquetFile(path, checks), columns);
  const kv = p.reader.metadata.keyValueMetadata ?? [];
  return {
    elements: columns ? projectSchema(p.reader.schema, p.reader.selectLeaves(columns)) : p.reader.metadata.schema as SchemaElementLike[],
    metadata: Object.fromEntries(kv.map((e) => [e.key, e.value ?? ''])),
    columns: p.reader.plan(columns).fields.map((f) => f.name),
    total: p.reader.numRows,
    get rowsRead() {
      return p.rowsRead;
    },
    batches: (forText) => p.batches(forText),
    close: () => p.reader.close(),
  };
}

/** Parquet or Trevni output for a schema (text outputs take the top-level names). */
function openTableOutput(
  format: 'parquet' | 'trevni', path: string, schema: DefinedSchema | SchemaElementLike[], o: ConvertOptions, metadata?: Record<string, string>,
  onWarning?: WarningHandler,
): Promise<RowOutput> {
  if (format === 'parquet') return openParquetOutput(path, schema, { ...writerOptions(o), ...(metadata ? { metadata } : {}), ...(onWarning ? { onWarning } : {}) });
  const tree = Array.isArray(schema) ? buildSchema(schema) : schema.schema;
  return openTrevniOutput(path, tree, { codec: trevniCodecName(o.codec ?? 'snappy'), checksum: o.checksum ?? 'null' });
}

/**
 * The input format: --from, else Trevni's magic (as `cat` tells), else the
 * extension. A Parquet or Trevni input must be a file read at any offset.
 */
async function inputFormat(path: string, given: Format | undefined): Promise<Format> {
  if (path === '-' || isUrl(path)) return given ?? formatOf(path, undefined, 'input');
  const kind = await inputKind(path);
  const format = given ?? (kind === 'trevni' ? 'trevni' : formatOf(path, undefined, 'input'));
  if ((format === 'parquet' || format === 'trevni') && kind === 'stream') throw notSeekable(path);
  return format;
}

export async function convert(inPath: string, outPath: string, o: ConvertOptions, cmd: Command): Promise<void> {
  // An unknown codec name, or a level it does not have, is a usage error before anything is read or created.
  const outFormat = formatOf(outPath, o.to, 'output');
  if (o.codec !== undefined && outFormat === 'trevni') trevniCodecName(o.codec);
  else if (o.codec !== undefined && outFormat === 'parquet') parquetCodec(o.codec);
  if (o.compressionLevel !== undefined && outFormat === 'parquet') {
    checkCompressionLevel(parquetCodec(o.codec ?? 'SNAPPY'), o.compressionLevel, o.codec === undefined);
  }
  const inFormat = await inputFormat(inPath, o.from);
  checkApplicable(cmd, inFormat, outFormat);
  if (inPath !== '-' && outPath !== '-' && inPath === outPath) throw new UsageError('IN and OUT are the same file');
  if (outPath === '-' && (outFormat === 'parquet' || outFormat === 'trevni') && process.stdout.isTTY) {
    throw new UsageError(`not writing ${outFormat === 'parquet' ? 'Parquet' : 'Trevni'} to a terminal: redirect stdout, or give an output file`);
  }
  const quiet = Boolean(o.quiet);
  const showProgress = !quiet && (o.progress ?? Boolean(process.stderr.isTTY));
  const state: { output?: RowOutput; line?: number } = {};
  let poll: () => ProgressState = () => ({ fraction: undefined, rows: state.output?.rows ?? 0 });
  const progress = new Progress(showProgress, `converting ${inPath === '-' ? 'stdin' : inPath}`, () => poll());
  // One discard, however many paths ask for it (an interrupt and the error it causes).
  let discarding: Promise<void> | undefined;
  const discard = () => (discarding ??= (async () => {
    progress.stop();
    await state.output?.abort().catch(() => undefined);
    await discardOpenSinks();
  })());
  const interrupts = onInterrupt(discard);
  let run: Run;
  try {
    progress.start();
    if (inFormat === 'parquet' || inFormat === 'trevni') {
      const input = await openTableInput(inFormat, inPath, { verifyChecksums: o.verifyChecksums }, o.columns);
      try {
        const total = input.total;
        poll = () => ({ fraction: total > 0 ? input.rowsRead / total : undefined, rows: state.output?.rows ?? 0 });
        const forText = outFormat !== 'parquet' && outFormat !== 'trevni';
        if (outFormat === 'parquet' || outFormat === 'trevni') {
          state.output = await openTableOutput(outFormat, outPath, input.elements, o, input.metadata);
        } else {
          const format = outFormat === 'tsv' ? 'csv' : outFormat;
          const delimiter = o.delimiter ?? (outFormat === 'tsv' ? '\t' : ',');
          state.output = await openTextOutput(format, outPath, { columns: input.columns, delimiter, header: o.header });
        }
        const output = state.output;
        for await (const batch of input.batches(forText)) for (const row of batch) await output.write(row);
        run = { summary: await output.close(), skipped: undefined, output: output.name };
      } finally {
        await input.close();
      }
    } else {
      if (outFormat !== 'parquet' && outFormat !== 'trevni') {
        throw new UsageError(
          `convert writes ${inFormat.toUpperCase()} input to Parquet only, or to Trevni (.trv); Parquet and Trevni inputs can go to CSV, JSON Lines or JSON`,
        );
      }
      const choice = await schemaChoice(o);
      const input = await openInput(inPath);
      // Text the readers or the writer kept with U+FFFD in it: where, once per input (and per column for the writer).
      const onWarning: WarningHandler = (w) => {
        if (!quiet) progress.message(`parquetry: warning: ${input.name}:${w.line ?? state.line}: ${w.column !== undefined ? `column ${w.column}: ` : ''}${WARNING_TEXT[w.code]}`);
      };
      const open = (schema: DefinedSchema) => openTableOutput(outFormat, outPath, schema, o, undefined, onWarning);
      poll = () => ({ fraction: input.size ? input.bytesRead / input.size : undefined, rows: state.output?.rows ?? 0 });
      const bad = new BadRows(Boolean(o.skipBadRows), input.name, '--skip-bad-rows');
      const sampleSize = choice.fields ? 0 : o.sample;
      try {
        let summary: OutputSummary;
        if (inFormat === 'csv' || inFormat === 'tsv') {
          const delimiter = o.delimiter ?? (inFormat === 'tsv' ? '\t' : ',');
          const shaper = new CsvShaper(choice, (what) => {
            if (!quiet) progress.message(`parquetry: warning: ${what}`);
          });
          const items = readCsv(input, { delimiter, skipBad: Boolean(o.skipBadRows), header: o.header, onWarning });
          // The first record is the header row, or (--no-header) fixes the number of columns.
          const header = (first: Cells): boolean => {
            if (o.header) {
              for (const what of shaper.setHeader(first)) if (!quiet) progress.message(`parquetry: warning: ${what}`);
            } else shaper.noHeader(first);
            return o.header;
          };
          summary = await textToTable(items, shaper, open, sampleSize, state, bad, header);
        } else {
          const shaper = new JsonShaper(choice, (key) => {
            if (!quiet) progress.message(`parquetry: warning: field "${key}" first appears after the sampled rows and is not in the schema; its values are not written (raise --sample, or give --schema / --type)`);
          });
          const items = inFormat === 'jsonl' ? readJsonLines(input, { onWarning }) : readJsonArray(input, { onWarning });
          summary = await textToTable(items, shaper, open, sampleSize, state, bad);
        }
        run = { summary, skipped: bad, output: state.output!.name };
      } finally {
        await input.close();
      }
    }
  } catch (e) {
    await discard();
    // An interrupt made the writing fail: its handler ends the program.
    if (interrupts.interrupted) await new Promise<never>(() => undefined);
    throw e;
  } finally {
    interrupts.stop();
  }
  progress.stop();
  if (quiet) return;
  const skipped = run.skipped;
  if (skipped && skipped.count > 0) {
    const listed = [...skipped.first].sort((a, b) => a.line - b.line);
    for (const s of listed) process.stderr.write(`parquetry: skipped ${s.text}\n`);
    if (skipped.count > listed.length) process.stderr.write(`parquetry: ... and ${skipped.count - listed.length} more\n`);
  }
  process.stderr.write(formatReport({
    rows: run.summary.rows, rowGroups: run.summary.rowGroups, bytes: run.summary.bytes, to: run.output,
    seconds: progress.seconds, skipped: skipped?.count ?? 0,
  }) + '\n');
}
