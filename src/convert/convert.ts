/**
 * `convert(source, dest, options)`: `parquetry convert` in code, in any
 * runtime. CSV, JSON Lines and JSON arrays to Parquet, Trevni or RedElm;
 * Parquet, Trevni and RedElm to CSV, TSV, JSON Lines, JSON, Parquet, Trevni
 * or RedElm.
 *
 * ```ts
 * const sink = new BufferSink();
 * const report = await convert(response.body, sink, { from: 'csv', to: 'parquet', codec: 'ZSTD' });
 * const bytes = sink.bytes();
 * ```
 * The Node entry adds file paths and Node streams (`convert('in.csv', 'out.parquet')`).
 */
import { InvalidArgumentError, IOError } from '../errors.js';
import { checkedSource, httpSource, type SourceLike } from '../io/source.js';
import { openTable } from '../table/open.js';
import { webStreamSink, type Sink } from '../io/sink.js';
import { type ColumnPath } from '../schema/tree.js';
import type { WriterOptions } from '../parquet/write/writer.js';
import type { DecryptionOptions } from '../parquet/crypto/options.js';
import { memorySpill, type SpillFactory } from '../trevni/spill.js';
import type { TrevniVersion } from '../trevni/version.js';
import type { WarningHandler } from '../warnings.js';
import { encodingChoice, VALUE_ENCODINGS, inputFormat, inapplicableOptions, parquetCodecName, redElmCodecOf, trevniCodecOf } from '../formats.js';
import { FORMAT_MAGIC_BYTES } from '../io/format.js';
import { inputBytes, isBlob, sourceChunks, type TextInput } from './input-bytes.js';
import { countingSink, type CountingSink } from './output.js';
import type { ConvertFormat, ConvertInput, ConvertOutput, ConvertProgress, ConvertReport } from './run.js';
import { checkReadOptions, schemaChoiceOf } from './shape.js';
import type { CsvBlockReaders } from './csv-parallel.js';
import type { TextWriters } from './text-columns.js';
import { STRICT_HINT, type BadRow } from './pipeline.js';
import { datasetLayout, type DatasetLayout } from '../dataset/layout.js';

export type { ConvertFormat, ConvertProgress, ConvertReport, BadRow };

/**
 * What `convert` reads: an http(s) URL (string or URL), bytes, a Blob or
 * File, a Web ReadableStream, an async iterable of chunks, or a random-access
 * source (`{ byteLength, read(offset, length) }`). Parquet and Trevni are
 * read at any offset, so they cannot come from a stream.
 */
export type ConvertSource = TextInput | URL | SourceLike;

/** Where `convert` writes: a Sink (a `BufferSink` keeps the bytes in memory) or a Web WritableStream. */
export type ConvertDestination = Sink | WritableStream<Uint8Array>;

/**
 * The `DatasetLayout` options (partitionBy, maxRowsPerFile, maxBytesPerFile,
 * fileName, maxOpenFiles) make the Parquet output a dataset: a directory of
 * parts (Node: a directory path as the destination; docs/datasets.md, "Datasets: writing").
 */
export interface ConvertOptions extends DatasetLayout {
  /** The input format; default: Parquet, Trevni or RedElm by its magic, else the extension of the URL, File or `name`. */
  from?: ConvertFormat;
  /** The output format; default: the extension of the destination path. */
  to?: ConvertFormat;
  /** The input's name in messages (and for its extension). */
  name?: string;

  /** CSV and JSON inputs: the columns and their types, as a `--schema` file gives them: `{ id: 'int64!', tags: ['string'] }`. */
  schema?: Record<string, unknown>;
  /** CSV and JSON inputs: column types in `--type` syntax: `['price=decimal(9,2)']`. */
  types?: string[];
  /** CSV and JSON inputs: records read to infer the schema (default 1000). */
  sample?: number;
  /**
   * CSV and JSON inputs: infer the types from every row instead of the
   * sample (the input is read twice: once to infer, once to convert), so a
   * value past the sample widens its column (CSV: INT64 to DOUBLE, DATE to
   * TIMESTAMP, any to STRING; JSON: INT64 to DOUBLE, a date or timestamp
   * string column to STRING) instead of being a bad row. Needs an input
   * that can be read again: bytes, a Blob, a URL or a source object, not a stream.
   */
  widen?: boolean;
  /**
   * CSV and TSV input to Parquet: the calling thread and `threads` - 1
   * workers. With one worker, the calling thread reads the records past the
   * schema's sample and the worker encodes the row groups; with more, the
   * workers read the records and encode, while the calling thread cuts the
   * input and writes (1: the calling thread does it all, as it does for
   * inputs with about 1 MiB or less past the sample). Row groups from CSV
   * hold at most 122,880 rows unless `rowGroupRows` says otherwise.
   * Parquet to CSV, TSV or JSON Lines: the threads that write the text of a
   * row group of 32,768 rows or more, each a piece of its rows: the calling
   * thread, which decodes it and writes the first piece, and `threads` - 1
   * workers (1: the calling thread alone). The default is 1: on two quiet
   * cores two CSV threads take less time than one for more CPU, and text
   * threads cost more CPU than they save (BENCHMARKS.md); the output is the
   * same byte for byte whatever the number.
   */
  threads?: number;
  /** CSV input or output: the delimiter (default `,`, a tab for TSV). */
  delimiter?: string;
  /** CSV input: the first row names the columns; CSV output: write a header row (default true). */
  header?: boolean;
  /**
   * CSV and JSON inputs: fail on the first bad row (one that cannot be read
   * or does not fit the schema) with an InvalidArgumentError naming its line
   * and column. By default bad rows are skipped, counted in the report and
   * told to `onBadRow`.
   */
  strict?: boolean;
  /** Told of each bad row skipped (not with `strict`): its line, column, reason and text. */
  onBadRow?: (row: BadRow) => void;

  /** Parquet, dataset, Trevni and RedElm inputs: only these columns. */
  columns?: readonly ColumnPath[];
  /** Parquet and Trevni inputs: verify page and block checksums (default true). */
  verifyChecksums?: boolean;
  /** A dataset input (Node: a directory or glob): every file's columns by name, null where a file lacks one (DuckDB's `union_by_name`). */
  unionByName?: boolean;
  /** Parquet, Trevni and RedElm inputs: the largest decompressed page, block or section accepted (default 2^30). */
  maxDecompressedBytes?: number;
  /** Parquet input written with modular encryption: its keys, as `openParquet` takes them (docs/encryption.md). */
  decryption?: DecryptionOptions;
  /** URL inputs: the size (no HEAD request) and extra headers. */
  byteLength?: number;
  headers?: Record<string, string>;

  /** Parquet (UNCOMPRESSED, SNAPPY, GZIP, BROTLI, ZSTD, LZ4_RAW) or Trevni (null, deflate, snappy, bzip2) codec, default snappy; RedElm (gzip, default, snappy), default gzip. */
  codec?: string;
  /** Parquet output: the writer's options of the same names. */
  compressionLevel?: number;
  rowGroupSize?: number;
  rowGroupRows?: number;
  pageSize?: number;
  pageVersion?: 1 | 2;
  bloomFilters?: WriterOptions['bloomFilters'];
  /**
   * Parquet output: value encodings by column path, as `--encoding COL=NAME`:
   * a value encoding (PLAIN, RLE, DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY,
   * DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT, ALP; any case) writes the column
   * without a dictionary, RLE_DICTIONARY with one. The writer refuses one the
   * column's type does not take. `{ price: 'BYTE_STREAM_SPLIT' }`.
   */
  encoding?: Record<string, string>;
  /** Parquet output: the column order of FLOAT, DOUBLE and FLOAT16 statistics, as the writer's `floatOrder` and `--float-order`. */
  floatOrder?: WriterOptions['floatOrder'];
  pageIndex?: boolean;
  /** Parquet output: a CRC-32 in every page header (default true). */
  checksums?: boolean;
  /** Parquet output: written with modular encryption, as the writer's option of that name (docs/encryption.md). */
  encryption?: WriterOptions['encryption'];
  /** Dataset output: add parts to a directory that holds some already. */
  append?: boolean;
  /** Dataset output: then write `_metadata` and `_common_metadata`. */
  writeSummary?: boolean;
  /** Trevni output: each block's checksum, null (default) or crc32. */
  trevniChecksum?: 'null' | 'crc32';
  /** RedElm output: the RedElm block as Java serialization (default, what the prototype reads) or the design page's JSON. */
  redelmFooter?: 'java' | 'json';
  /**
   * Trevni output: version 2 (default), or 1 (cutting/trevni's: no boolean
   * type, no bzip2; a boolean column is refused naming it), or `draft` (the
   * wiki draft's Dremel dialect of version 1: the Parquet schema as it is).
   */
  trevniVersion?: TrevniVersion | 'draft';

  /** Data kept but changed: invalid UTF-8, lone surrogates, renamed header columns, integers too wide for their type, fields left out. */
  onWarning?: WarningHandler;
  /** Hears how far the conversion is, every 4096 rows written. */
  onProgress?: (progress: ConvertProgress) => void;
  /** Aborts the conversion: the output is discarded and `convert` rejects. */
  signal?: AbortSignal;
}

/** The input and output opened: what the runtime's entry (portable, or Node's with paths) hands to `runConvert`. */
export interface ConvertEnds {
  input: ConvertInput;
  output: ConvertOutput;
  /** The format the input's first bytes or name tell, when it is not given. */
  from(): Promise<ConvertFormat | undefined>;
  /** The destination's extension, when it has one. */
  to: ConvertFormat | undefined;
  /** The runtime's threads for reading CSV (Node's worker threads). */
  csvReaders?: CsvBlockReaders;
  /** The runtime's threads for writing a Parquet file's CSV or JSON Lines (Node's worker threads). */
  textWriters?: TextWriters;
}

/** Runs a conversion between opened ends, with the options in the writers' terms. */
export async function runConvert(ends: ConvertEnds, options: ConvertOptions): Promise<ConvertReport> {
  const signal = options.signal;
  signal?.throwIfAborted();
  checkReadOptions(options);
  if (options.threads !== undefined && !(Number.isSafeInteger(options.threads) && options.threads > 0)) {
    throw new InvalidArgumentError(`threads must be a positive integer; got ${String(options.threads)}`);
  }
  const from = options.from ?? (await ends.from());
  if (!from) throw new InvalidArgumentError(`cannot tell the format of ${ends.input.name}: give options.from (csv, tsv, jsonl, json, parquet, trevni or redelm)`);
  const dataset = datasetLayout(options);
  // A dataset's directory has no extension to tell the format by; datasets are Parquet.
  const to = options.to ?? ends.to ?? (dataset ? 'parquet' : undefined);
  if (!to) throw new InvalidArgumentError('cannot tell the output format: give options.to (parquet, trevni, redelm, csv, tsv, jsonl or json)');
  const bad = inapplicableOptions('code', (name) => (options as Record<string, unknown>)[name] !== undefined, from, to);
  if (bad) {
    throw new InvalidArgumentError(`${bad.names.map((n) => `options.${n}`).join(', ')} ${bad.names.length === 1 ? 'applies' : 'apply'} ${bad.where}, not from ${from} to ${to}`);
  }
  const codec = options.codec;
  const parquetCodec = to === 'parquet' && codec !== undefined ? parquetCodecName(codec) : undefined;
  const trevniCodec = to === 'trevni' ? trevniCodecOf(codec ?? 'snappy') : 'null';
  if (to === 'parquet' && codec !== undefined && !parquetCodec) throw new InvalidArgumentError(`codec "${codec}" is not a Parquet codec: UNCOMPRESSED, SNAPPY, GZIP, BROTLI, ZSTD or LZ4_RAW`);
  if (!trevniCodec) throw new InvalidArgumentError(`codec "${codec}" is not a Trevni codec: null, deflate, snappy or bzip2`);
  const redelmCodec = to === 'redelm' ? redElmCodecOf(codec ?? 'gzip') : 'gzip';
  if (!redelmCodec) throw new InvalidArgumentError(`codec "${codec}" is not a RedElm codec: gzip, default or snappy`);
  const parquet: WriterOptions = {
    ...(parquetCodec ? { codec: parquetCodec } : {}),
    ...pick(options, ['compressionLevel', 'rowGroupSize', 'rowGroupRows', 'pageSize', 'pageVersion', 'bloomFilters', 'floatOrder', 'pageIndex', 'checksums', 'encryption']),
    ...(options.encoding ? { columns: encodingColumns(options.encoding) } : {}),
  };
  // The readers and writers are loaded when a conversion runs, not when the library is imported.
  const { Conversion } = await import('./run.js');
  const conversion = new Conversion(ends.input, ends.output, {
    from, to, choice: schemaChoiceOf(options), sample: options.sample ?? 1000, header: options.header ?? true,
    ...(options.delimiter !== undefined ? { delimiter: options.delimiter } : {}),
    strict: Boolean(options.strict), badRowHint: STRICT_HINT,
    widen: Boolean(options.widen),
    ...(options.threads !== undefined ? { threads: options.threads } : {}),
    ...(ends.csvReaders ? { csvReaders: ends.csvReaders } : {}),
    ...(ends.textWriters ? { textWriters: ends.textWriters } : {}),
    typeAdvice: (c, n) => `its type was inferred from the first ${n} rows: give it in types as '${c}=TYPE', infer from more rows with sample, or from every row with widen`,
    ...(options.onBadRow ? { onBadRow: options.onBadRow } : {}),
    ...(options.columns ? { columns: options.columns } : {}),
    read: pick(options, ['verifyChecksums', 'maxDecompressedBytes', 'decryption', 'byteLength', 'headers']),
    parquet,
    ...(dataset ? { dataset } : {}),
    trevni: { codec: trevniCodec, checksum: options.trevniChecksum ?? 'null', version: options.trevniVersion ?? 2 },
    redelm: { codec: redelmCodec, footer: options.redelmFooter ?? 'java' },
    ...pick(options, ['onWarning', 'onProgress', 'signal']),
  });
  const stop = () => void conversion.abort();
  signal?.addEventListener('abort', stop, { once: true });
  try {
    return await conversion.run();
  } finally {
    signal?.removeEventListener('abort', stop);
  }
}

/** `options.encoding` as the writer's column options. */
function encodingColumns(encoding: Record<string, string>): NonNullable<WriterOptions['columns']> {
  if (typeof encoding !== 'object' || encoding === null) throw new InvalidArgumentError('options.encoding must be an object of column path to encoding name');
  const out: NonNullable<WriterOptions['columns']> = {};
  for (const [column, name] of Object.entries(encoding)) {
    const choice = typeof name === 'string' ? encodingChoice(name) : undefined;
    if (!choice) throw new InvalidArgumentError(`options.encoding.${column}: ${JSON.stringify(name)} is not one of ${[...VALUE_ENCODINGS, 'RLE_DICTIONARY'].join(', ')}`, { column });
    out[column] = choice;
  }
  return out;
}

/** The options of `keys` that are set. */
export function pick<T extends object, K extends keyof T>(o: T, keys: K[]): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const k of keys) if (o[k] !== undefined) out[k] = o[k];
  return out;
}

function isSourceLike(v: unknown): v is SourceLike {
  return typeof v === 'object' && v !== null && typeof (v as SourceLike).read === 'function' && typeof (v as SourceLike).byteLength === 'number';
}

/** A Blob read at any offset. */
function blobSource(blob: Blob, name: string): SourceLike {
  return { byteLength: blob.size, name, read: (offset, length) => blob.slice(offset, offset + length).arrayBuffer() };
}


/** The input ends for a portable source. */
export function sourceInput(source: ConvertSource, options: ConvertOptions): { input: ConvertInput; from(): Promise<ConvertFormat | undefined> } {
  const url = source instanceof URL ? source.href : typeof source === 'string' && /^https?:\/\//i.test(source) ? source : undefined;
  const fileName = isBlob(source) && typeof (source as File).name === 'string' ? (source as File).name : undefined;
  const name = options.name ?? url ?? fileName ?? (isSourceLike(source) ? source.name : undefined) ?? 'input';
  const headers = options.headers;
  // Random access: bytes, a Blob, a URL or a source object; streams are read once, in order.
  let random: (() => Promise<SourceLike | Uint8Array>) | undefined;
  if (url !== undefined) random = () => httpSource(url, { ...(headers ? { headers } : {}), ...(options.byteLength !== undefined ? { byteLength: options.byteLength } : {}) });
  else if (source instanceof Uint8Array || source instanceof ArrayBuffer) random = async () => (source instanceof Uint8Array ? source : new Uint8Array(source));
  else if (isBlob(source)) random = async () => blobSource(source, name);
  else if (isSourceLike(source)) random = async () => source;
  else if (typeof source === 'string') {
    throw new InvalidArgumentError(`"${source.length > 60 ? source.slice(0, 59) + '…' : source}" is not an http(s) URL: pass text as bytes, and file paths through the Node entry (import from 'parquetry' in Node)`);
  }
  const table = async (): Promise<SourceLike | Uint8Array> => {
    if (!random) throw new InvalidArgumentError(`${name}: Parquet, Trevni and RedElm inputs are read at any offset: give bytes, a Blob, a URL or a source object, not a stream`);
    return random();
  };
  const input: ConvertInput = {
    name,
    rereadable: random !== undefined,
    bytes: async () => {
      if (url !== undefined) {
        const response = await fetch(url, headers ? { headers } : {});
        if (!response.ok || !response.body) throw new IOError(`cannot read ${url}: the server answered ${response.status}`);
        return inputBytes(response.body, name);
      }
      if (random && !(source instanceof Uint8Array || source instanceof ArrayBuffer || isBlob(source))) {
        const s = source as SourceLike;
        return inputBytes(sourceChunks(s), name, s.byteLength);
      }
      return inputBytes(source as TextInput, name);
    },
    table: async (o) => {
      const t = await table();
      return openTable(t instanceof Uint8Array ? t : checkedSource(t), { ...o, name });
    },
  };
  return {
    input,
    async from() {
      let head: Uint8Array | undefined;
      if (random && url === undefined) {
        const s = await random();
        const b = s instanceof Uint8Array ? s.subarray(0, FORMAT_MAGIC_BYTES) : await s.read(0, Math.min(FORMAT_MAGIC_BYTES, s.byteLength));
        head = b instanceof Uint8Array ? b : new Uint8Array(b);
      }
      return inputFormat(head, name);
    },
  };
}

/** A Sink, or a Web WritableStream as one. */
export function destinationSink(dest: ConvertDestination): Sink {
  return isWritableStream(dest) ? webStreamSink(dest) : dest;
}

/** Output ends on a sink made by `open` when first needed; Trevni's column blocks wait in memory. */
export function sinkOutput(open: () => Sink, name = 'output', spill: () => SpillFactory = memorySpill): ConvertOutput {
  // One sink however it is reached: a Web stream is locked to the writer its sink takes.
  let sink: CountingSink | undefined;
  const opened = () => (sink ??= countingSink(open(), name));
  return {
    sink: async () => opened(),
    spill,
    discard: () => opened().abort(),
  };
}

function isWritableStream(v: ConvertDestination): v is WritableStream<Uint8Array> {
  return typeof (v as WritableStream).getWriter === 'function';
}

/**
 * Converts `source` to `dest`: CSV, JSON Lines or a JSON array to Parquet,
 * Trevni or RedElm, or Parquet, Trevni or RedElm to any of those formats and
 * CSV/TSV, JSON Lines, JSON. Streams all the way (a Parquet input one row group
 * at a time); on failure the destination is aborted. Returns what was read and
 * written. The Node entry point's `convert` also takes paths and Node streams.
 *
 * @example
 * ```ts
 * const sink = new BufferSink();
 * await convert((await fetch('data.csv')).body!, sink, { from: 'csv', to: 'parquet' });
 * const bytes = sink.bytes();
 * ```
 */
export async function convert(source: ConvertSource, dest: ConvertDestination, options: ConvertOptions = {}): Promise<ConvertReport> {
  const { input, from } = sourceInput(source, options);
  return runConvert({ input, output: sinkOutput(() => destinationSink(dest)), from, to: undefined }, options);
}
