/**
 * `parquetry convert IN OUT`: CSV, JSON Lines or a JSON array to Parquet,
 * Trevni or RedElm, and Parquet, Trevni or RedElm to CSV, JSON Lines, a JSON
 * array, Parquet, Trevni or RedElm (a rewrite with new writer options),
 * streaming all the way. The
 * conversion is the library's (`convert/run.ts`); here are the arguments,
 * the paths, stdin and stdout, the progress line, interrupts and the report.
 */
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { ColumnOptionsError, InvalidArgumentError } from '../errors.js';
import type { ParquetryWarning, WarningCode } from '../warnings.js';
import type { WriterOptions } from '../parquet/write/writer.js';
import type { FloatOrder } from '../parquet/write/stats.js';
import { checkCompressionLevel, formatOf, parquetCodec, redElmCodecName, trevniCodecName, type EncodingChoice, type Format } from './convert-options.js';
import { inapplicableOptions, isTableFormat } from '../formats.js';
import type { SchemaChoice } from '../convert/shape.js';
import type { SpillFactory } from '../trevni/spill.js';
import { Conversion, type ConvertInput, type ConvertReport } from '../convert/run.js';
import { openInput } from '../node/convert-input.js';
import { defaultConvertThreads } from '../node/convert-threads.js';
import { UsageError } from './usage.js';
import { fsReason } from '../node/fs-errors.js';
import { inputKind, isDatasetInput, isUrl, notSeekable, openTableInput, s3Settings } from './files.js';
import { discardOpenSinks, openOutputSink } from './convert-sink.js';
import type { EncryptionOptions } from '../parquet/crypto/file-encryptor.js';
import { currentDecryption } from './keys.js';
import { Progress, formatReport } from './convert-progress.js';
import { datasetLayout, type DatasetLayout } from '../dataset/layout.js';
import { datasetOutput } from '../node/destination.js';
import { isS3Address } from '../io/s3/address.js';
import { run } from './run-context.js';
import { registerNodeCodecs } from '../node/codecs.js';

// The native codecs where they load, as the library's Node entry has them, and as the CSV worker threads do:
// row groups encoded there compress as they would here.
registerNodeCodecs();

/** Temporary files for a Trevni output's column blocks, the code for them loaded on the first block spilled (no other output spills). */
function lazyTempSpill(): SpillFactory {
  let spill: Promise<SpillFactory> | undefined;
  return async (column) => (await (spill ??= import('../node/temp-spill.js').then((m) => m.tempSpill())))(column);
}

export interface ConvertOptions extends DatasetLayout {
  /** Parquet input: the projection (`--columns`). */
  columns?: (string | string[])[];
  from?: Format;
  to?: Format;
  schema?: string;
  type?: string[];
  sample: number;
  /** CSV input: infer the types from every row (two passes over the input). */
  widen?: boolean;
  threads?: number;
  /** A Parquet, Trevni or RedElm codec name, checked once the output format is known. */
  codec?: string;
  /** Trevni output: null or crc32. */
  checksum?: string;
  /** RedElm output: the RedElm block's form. */
  redelmFooter?: 'java' | 'json';
  /** Trevni output: version 2 (default), 1 (cutting/trevni's) or the wiki draft's Dremel dialect of 1. */
  trevniVersion?: 1 | 2 | 'draft';
  compressionLevel?: number;
  rowGroupSize?: number;
  rowGroupRows?: number;
  pageSize?: number;
  pageVersion?: 1 | 2;
  /** Parquet output: a checkpoint after every N row groups (recoverable after a crash). */
  checkpointEvery?: number;
  bloomFilter?: Record<string, { ndv?: number; fpp?: number }>;
  /** Parquet output: --encoding COL=NAME, a value encoding by column. */
  encoding?: Record<string, EncodingChoice>;
  /** Parquet output: --float-order. */
  floatOrder?: FloatOrder;
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
  encryptFooterKey?: Uint8Array;
  encryptColumn?: Record<string, Uint8Array>;
  plaintextFooter?: boolean;
  algorithm?: 'AES_GCM_V1' | 'AES_GCM_CTR_V1';
  /** false with --no-store-aad-prefix. */
  storeAadPrefix: boolean;
  /** Dataset input (IN a directory or glob): files unified by column name. */
  unionByName?: boolean;
  /** Dataset output (OUT a directory; the layout options are DatasetLayout's). */
  append?: boolean;
  writeSummary?: boolean;
}

/** The output's encryption from --encrypt-* (the AAD prefix is the program-level --aad-prefix). */
function encryptionOptions(o: ConvertOptions, cmd: Command): EncryptionOptions | undefined {
  const given = (name: string) => cmd.getOptionValueSource(name) === 'cli';
  if (!o.encryptFooterKey) {
    const stray = ['encryptColumn', 'plaintextFooter', 'algorithm', 'storeAadPrefix'].filter(given);
    if (stray.length) throw new UsageError('--encrypt-column, --plaintext-footer, --algorithm and --no-store-aad-prefix need --encrypt-footer-key');
    return undefined;
  }
  if (o.checkpointEvery !== undefined) throw new UsageError('--checkpoint-every cannot be combined with --encrypt-footer-key (a checkpoint would store the metadata in the clear)');
  const aadPrefix = currentDecryption()?.aadPrefix;
  return {
    footerKey: o.encryptFooterKey,
    ...(o.encryptColumn ? { columnKeys: o.encryptColumn } : {}),
    ...(o.plaintextFooter ? { plaintextFooter: true } : {}),
    ...(o.algorithm ? { algorithm: o.algorithm } : {}),
    ...(aadPrefix !== undefined ? { aadPrefix, storeAadPrefix: o.storeAadPrefix } : {}),
  };
}

/** The words of the warnings that name a place in the input, after the place. */
const WARNING_TEXT: Partial<Record<WarningCode, string>> = {
  INVALID_UTF8: 'bytes that are not UTF-8 were read as U+FFFD (later ones in this input are not reported)',
  LONE_SURROGATE: 'a string with lone surrogates (a JSON escape such as \\ud800 alone) is written with U+FFFD in their place (later ones in this column are not reported)',
};

/** A warning's line on stderr, in the command's words; undefined for the writer's warnings on a Parquet or Trevni input, which has no lines. */
function warningLine(w: ParquetryWarning, input: string): string | undefined {
  switch (w.code) {
    case 'RENAMED_COLUMN':
    case 'WIDE_INTEGER':
      return `parquetry: warning: ${w.message}`;
    case 'UNKNOWN_FIELD':
      return `parquetry: warning: field "${w.column}" first appears after the sampled rows and is not in the schema; its values are not written (raise --sample, or give --schema / --type)`;
    default:
      if (w.line === undefined) return undefined;
      return `parquetry: warning: ${input}:${w.line}: ${w.column !== undefined ? `column ${w.column}: ` : ''}${WARNING_TEXT[w.code]}`;
  }
}

function writerOptions(o: ConvertOptions): WriterOptions {
  const w: WriterOptions = {};
  if (o.codec !== undefined) w.codec = parquetCodec(o.codec);
  if (o.compressionLevel !== undefined) w.compressionLevel = o.compressionLevel;
  if (o.rowGroupSize !== undefined) w.rowGroupSize = o.rowGroupSize;
  if (o.rowGroupRows !== undefined) w.rowGroupRows = o.rowGroupRows;
  if (o.pageSize !== undefined) w.pageSize = o.pageSize;
  if (o.pageVersion !== undefined) w.pageVersion = o.pageVersion;
  if (o.bloomFilter !== undefined) w.bloomFilters = o.bloomFilter;
  if (o.encoding !== undefined) w.columns = o.encoding;
  if (o.floatOrder !== undefined) w.floatOrder = o.floatOrder;
  if (o.pageIndex === false) w.pageIndex = false;
  if (o.checksums === false) w.checksums = false;
  if (o.checkpointEvery !== undefined) w.checkpointEvery = o.checkpointEvery;
  return w;
}

async function schemaChoice(o: ConvertOptions): Promise<SchemaChoice> {
  const { parseTypeOverride, schemaFromJsonText } = await import('../convert/types.js');
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
  const bad = inapplicableOptions('cli', (name) => cmd.getOptionValueSource(name) === 'cli', inFormat, outFormat);
  if (!bad) return;
  const flags = bad.names.map((n) => '--' + n.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase()).replace(/^(header|page-index|checksums|verify-checksums|store-aad-prefix)$/, 'no-$1'));
  throw new UsageError(`${flags.join(', ')} ${bad.names.length === 1 ? 'applies' : 'apply'} ${bad.where}`);
}

/**
 * Ctrl-C (or SIGTERM) discards the output, so no temporary file is left
 * behind, then ends the run with status 130.
 */
function onInterrupt(discard: () => Promise<void>): { stop: () => void; readonly interrupted: boolean } {
  let interrupted = false;
  // A signal's handler runs outside the run's async context: it is taken here.
  const context = run();
  const handler = () => {
    if (interrupted) return;
    interrupted = true;
    void discard().finally(() => {
      context.io.stderr.write('\nparquetry: interrupted\n');
      context.terminate(130);
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

/**
 * The input format: --from, else its magic, else the extension (as `cat` and `openTable` tell). A Parquet, Trevni or RedElm input must be a file read at any offset.
 */
async function inputFormat(path: string, given: Format | undefined, dataset: boolean): Promise<Format> {
  if (path === '-' || isUrl(path) || isS3Address(path)) return given ?? formatOf(path, undefined, 'input');
  if (dataset) {
    if (given !== undefined && given !== 'parquet') throw new UsageError(`${path} is a dataset of Parquet files; --from ${given} does not apply`);
    return 'parquet';
  }
  const kind = await inputKind(path);
  const format = given ?? (kind === 'stream' || kind === 'unknown' ? formatOf(path, undefined, 'input') : kind);
  if (isTableFormat(format) && kind === 'stream') throw notSeekable(path);
  return format;
}

/** IN as the conversion reads it: a path, a URL (Parquet), an `s3://` object, stdin (CSV and JSON), or a dataset (a directory, glob or S3 prefix). */
async function cliInput(inPath: string, dataset: false | { unionByName: boolean }): Promise<ConvertInput> {
  // The table formats are read at any offset; stdin is read once, in order.
  const whyNotStdin: Record<string, string> = {
    parquet: 'a Parquet input must be a file or URL (its footer is at the end)',
    trevni: 'a Trevni input must be a file (its columns are read from their offsets)',
    redelm: 'a RedElm input must be a file (its footer is at the end)',
  };
  const bytes = isS3Address(inPath) && !dataset
    ? (await import('../node/s3.js')).s3ConvertInput(inPath, s3Settings()).bytes
    : () => openInput(inPath, run().io.stdin);
  return {
    ...(dataset ? { dataset: true } : {}),
    name: inPath === '-' ? 'stdin' : inPath,
    bytes,
    rereadable: inPath !== '-',
    table: async (o) => {
      if (inPath === '-') throw new UsageError(`${whyNotStdin[o.format ?? 'parquet']}, not stdin`);
      return openTableInput(inPath, { verifyChecksums: o.verifyChecksums }, dataset ? { unionByName: dataset.unionByName } : {}, o.format);
    },
  };
}

export async function convert(inPath: string, outPath: string, o: ConvertOptions, cmd: Command): Promise<void> {
  const dataset = datasetLayout(o);
  if (!dataset && (o.append || o.writeSummary)) throw new UsageError('--append and --write-summary apply to a dataset output (--partition-by, --max-rows-per-file, --max-bytes-per-file, --file-name or --max-open-files)');
  if (dataset && outPath === '-') throw new UsageError('a dataset is written to a directory, not stdout');
  if (dataset && o.to !== undefined && o.to !== 'parquet') throw new UsageError(`a dataset is written as Parquet, not ${o.to}`);
  // An unknown codec name, or a level it does not have, is a usage error before anything is read or created.
  const outFormat = dataset ? 'parquet' : formatOf(outPath, o.to, 'output');
  const trevniCodecs = o.trevniVersion === 'draft' ? 1 : o.trevniVersion;
  if (o.codec !== undefined && outFormat === 'trevni') trevniCodecName(o.codec, trevniCodecs);
  else if (o.codec !== undefined && outFormat === 'redelm') redElmCodecName(o.codec);
  else if (o.codec !== undefined && outFormat === 'parquet') parquetCodec(o.codec);
  if (o.compressionLevel !== undefined && outFormat === 'parquet') {
    checkCompressionLevel(parquetCodec(o.codec ?? 'SNAPPY'), o.compressionLevel, o.codec === undefined);
  }
  const fromDataset = await isDatasetInput(inPath);
  if (o.unionByName && !fromDataset) throw new UsageError('--union-by-name applies to a dataset input (a directory or glob) only');
  const inFormat = await inputFormat(inPath, o.from, fromDataset);
  checkApplicable(cmd, inFormat, outFormat);
  const encryption = encryptionOptions(o, cmd);
  if (dataset && encryption) throw new UsageError('--encrypt-footer-key writes one file; a dataset output is not encrypted');
  if (inPath !== '-' && outPath !== '-' && inPath === outPath) throw new UsageError('IN and OUT are the same file');
  if (outPath === '-' && isTableFormat(outFormat) && run().io.stdout.isTTY) {
    throw new UsageError(`not writing ${{ parquet: 'Parquet', trevni: 'Trevni', redelm: 'RedElm' }[outFormat]} to a terminal: redirect stdout, or give an output file`);
  }
  const fromText = !isTableFormat(inFormat);
  if (fromText && !isTableFormat(outFormat)) {
    throw new UsageError(
      `convert writes ${inFormat.toUpperCase()} input to Parquet only, or to Trevni (.trv) or RedElm (.redelm); Parquet, Trevni and RedElm inputs can go to CSV, JSON Lines or JSON`,
    );
  }
  const choice: SchemaChoice = fromText ? await schemaChoice(o) : { fields: undefined, overrides: [] };
  const quiet = Boolean(o.quiet);
  const showProgress = !quiet && (o.progress ?? Boolean(run().io.stderr.isTTY));
  const input = await cliInput(inPath, fromDataset && { unionByName: Boolean(o.unionByName) });
  const output = {
    sink: () => openOutputSink(outPath), spill: lazyTempSpill,
    ...(dataset ? { name: outPath, dataset: () => datasetOutput(outPath, { append: o.append, writeSummary: o.writeSummary }, s3Settings()) } : {}),
  };
  const threads = o.threads ?? (await defaultConvertThreads({ from: inFormat, to: outFormat, path: inPath }));
  // The worker pools (and the CSV builders the CSV pool hands over) load only for more than one thread: a conversion on one never starts one.
  const workers = threads > 1
    ? { csvReaders: (await import('../node/csv-workers.js')).csvWorkers, textWriters: (await import('../node/text-workers.js')).textWriters }
    : {};
  const conversion = new Conversion(input, output, {
    from: inFormat, to: outFormat, choice, sample: o.sample, header: o.header,
    ...(o.delimiter !== undefined ? { delimiter: o.delimiter } : {}),
    strict: !o.skipBadRows, badRowHint: '--skip-bad-rows skips bad rows',
    widen: Boolean(o.widen),
    threads, ...workers,
    typeAdvice: (c, n) => `its type was inferred from the first ${n} rows: give it with --type ${c}=TYPE, infer from more rows with --sample N, or from every row with --widen`,
    ...(o.columns ? { columns: o.columns } : {}),
    read: { verifyChecksums: o.verifyChecksums },
    // --codec names a codec of the output's format only.
    parquet: outFormat === 'parquet' ? { ...writerOptions(o), ...(encryption ? { encryption } : {}) } : {},
    ...(dataset ? { dataset } : {}),
    trevni: { codec: outFormat === 'trevni' ? trevniCodecName(o.codec ?? 'snappy', trevniCodecs) : 'null', checksum: o.checksum ?? 'null', version: o.trevniVersion ?? 2 },
    redelm: { codec: outFormat === 'redelm' ? redElmCodecName(o.codec ?? 'gzip') : 'gzip', footer: o.redelmFooter ?? 'java' },
    onWarning: (w) => {
      const line = quiet ? undefined : warningLine(w, input.name);
      if (line !== undefined) progress.message(line);
    },
  });
  const progress = new Progress(showProgress, `converting ${input.name}`, () => {
    const p = conversion.progress();
    return { fraction: p.fraction, rows: p.numRows };
  }, run().io.stderr);
  // One discard, however many paths ask for it (an interrupt and the error it causes).
  let discarding: Promise<void> | undefined;
  const discard = () => (discarding ??= (async () => {
    progress.stop();
    await conversion.abort();
    await discardOpenSinks();
  })());
  const interrupts = onInterrupt(discard);
  let report: ConvertReport;
  try {
    progress.start();
    report = await conversion.run();
  } catch (e) {
    await discard();
    // The writer checks each --encoding and --bloom-filter against the schema once it is known.
    const noLeaf = (c: string) => `the output has no leaf column ${c} (a struct's leaves are named as a.b)`;
    if (e instanceof ColumnOptionsError && e.option === 'bloomFilters') throw new UsageError(`--bloom-filter ${e.column}: ${noLeaf(e.column)}`);
    if (e instanceof ColumnOptionsError) {
      const named = `--encoding ${e.column}=${o.encoding?.[e.column]?.encoding ?? 'RLE_DICTIONARY'}`;
      throw new UsageError(e.encodings ? `${named}: column ${e.column} is ${e.type}, whose encodings are ${[...e.encodings, 'RLE_DICTIONARY'].join(', ')}` : `${named}: ${noLeaf(e.column)}`);
    }
    // An interrupt made the writing fail: its handler ends the program.
    if (interrupts.interrupted) await new Promise<never>(() => undefined);
    throw e;
  } finally {
    interrupts.stop();
  }
  progress.stop();
  if (quiet) return;
  const listed = report.firstBadRows;
  for (const s of listed) run().io.stderr.write(`parquetry: skipped ${s.text}\n`);
  if (report.badRows > listed.length) run().io.stderr.write(`parquetry: ... and ${report.badRows - listed.length} more\n`);
  run().io.stderr.write(formatReport({
    rows: report.numRows, rowGroups: report.rowGroups, files: report.files, bytes: report.bytesWritten, to: report.output,
    seconds: progress.seconds, skipped: report.badRows,
  }) + '\n');
}
