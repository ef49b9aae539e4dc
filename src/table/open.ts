/**
 * `openTable`, portable: any input as a `Table`. The format is told by the
 * input's first bytes (formats.ts's `inputFormat`: Parquet, Trevni of any
 * version or dialect, RedElm), else by its name's extension or the `format`
 * option (CSV, TSV, JSON Lines, JSON). Each format's code loads when a
 * table of it opens: a Parquet read loads no Trevni, RedElm or CSV code.
 */
import { InvalidArgumentError, UnsupportedOptionError } from '../errors.js';
import { inputFormat, type ConvertFormat } from '../formats.js';
import { FORMAT_MAGIC_BYTES } from '../io/format.js';
import { isS3Address } from '../io/s3/address.js';
import type { S3Options } from '../io/s3/client.js';
import { blobSource, bufferSource, checkedSource, httpSource, withCachedTail, type Source, type SourceLike } from '../io/source.js';
import type { DecryptionOptions } from '../parquet/crypto/options.js';
import type { Filter } from '../parquet/filter/expression.js';
import { ParquetReader } from '../parquet/reader.js';
import type { OpenOptions } from '../parquet/file.js';
import { httpChunkFiles } from '../parquet/file.js';
// Statically: the root exports these (they import the client on first call), and a dynamic import would make them live in every bundle.
import { openS3Source, s3DatasetFileSystem } from '../dataset/s3.js';
import { datasetTable, filterOf, parquetTable } from './parquet.js';
import type { Table } from './table.js';
import type { TextTableOptions } from './text.js';

/** What `openTable` opens: bytes, a Blob (a File), a URL (an http(s) or `s3://` address as a string too), or a source object. */
export type TableInput = Uint8Array | ArrayBuffer | Blob | URL | string | SourceLike;

/** How `openTable` opens an input; the options bound to one format are refused for another. */
export interface OpenTableOptions extends Omit<TextTableOptions, 'name'> {
  /** The format, when neither the input's first bytes nor its name tell it (CSV and JSON have no magic). */
  format?: ConvertFormat;
  /** The input's name in messages, and for its extension. */
  name?: string;
  /** URL inputs: the size, so no HEAD request is made. */
  byteLength?: number;
  /** URL inputs: extra HTTP headers. */
  headers?: Record<string, string>;
  /** `s3://` inputs: the store and credentials (the Node entry reads the AWS settings chain instead). */
  s3?: S3Options;
  /** Parquet, datasets and Trevni: verify stored checksums (default true). */
  verifyChecksums?: boolean;
  /** Parquet, datasets, Trevni and RedElm: the largest decompressed page, block or section accepted, in bytes (default 2^30). */
  maxDecompressedBytes?: number;
  /** Parquet and datasets: keys for files written with modular encryption. */
  decryption?: DecryptionOptions;
  /** Datasets: `key=value` directories as columns (default: when the first file's path has one). */
  hivePartitioning?: boolean | 'auto';
  /** Datasets: every file's columns by name, a column a file lacks read as null (DuckDB's `union_by_name`). */
  unionByName?: boolean;
  /** Datasets: the filter reads will take, when known at open: the schema is read from a file it keeps. */
  filter?: Filter | string;
  /** Stops the open (a text input is read whole at open). */
  signal?: AbortSignal;
}

const TEXT: readonly string[] = ['csv', 'tsv', 'jsonl', 'json'];

/** The formats each format-bound open option applies to: given for another, it is refused, never ignored. */
const OPTION_FORMATS: Record<string, readonly string[]> = {
  verifyChecksums: ['parquet', 'dataset', 'trevni'],
  maxDecompressedBytes: ['parquet', 'dataset', 'trevni', 'redelm'],
  decryption: ['parquet', 'dataset'],
  delimiter: ['csv', 'tsv'],
  header: ['csv', 'tsv'],
  sample: TEXT,
  schema: TEXT,
  types: TEXT,
  strict: TEXT,
  onBadRow: TEXT,
  onWarning: TEXT,
  hivePartitioning: ['dataset'],
  unionByName: ['dataset'],
  filter: ['dataset'],
};

/** Refuses an open option the format cannot honour. */
export function checkOpenOptions(format: string, options: object): void {
  for (const [name, formats] of Object.entries(OPTION_FORMATS)) {
    if ((options as Record<string, unknown>)[name] !== undefined && !formats.includes(format)) {
      throw new UnsupportedOptionError(name, format, `it applies to ${formats.join(', ')} inputs`);
    }
  }
}

/** Of `options`, those that apply to `format` (a caller whose options serve every format, as `convert`'s do, passes these). */
export function applicableOpenOptions<O extends object>(format: string, options: O): Partial<O> {
  return Object.fromEntries(Object.entries(options).filter(([k, v]) => v !== undefined && (OPTION_FORMATS[k]?.includes(format) ?? true))) as Partial<O>;
}

function pick<K extends keyof OpenTableOptions>(o: OpenTableOptions, keys: K[]): Pick<OpenTableOptions, K> {
  const out: Partial<OpenTableOptions> = {};
  for (const k of keys) if (o[k] !== undefined) (out as Record<string, unknown>)[k] = o[k];
  return out as Pick<OpenTableOptions, K>;
}

/** The options of a dataset's open, from a table's. */
export async function datasetOpenOptions(options: OpenTableOptions) {
  const filter = await filterOf(options.filter);
  return { ...pick(options, ['verifyChecksums', 'maxDecompressedBytes', 'decryption', 'headers', 'hivePartitioning', 'unionByName']), ...(filter ? { filter } : {}) };
}

/**
 * The table of an opened source: its format told by its first bytes, else
 * its name or `options.format`. The source is closed if the open fails.
 * `openFile`: where a Parquet file's `file_path` chunks are opened (the Node entry's local files).
 */
export async function openTableSource<Row = Record<string, unknown>>(source: Source, options: OpenTableOptions = {}, openFile?: OpenOptions['openFile']): Promise<Table<Row>> {
  const name = options.name ?? source.name;
  try {
    options.signal?.throwIfAborted();
    const head = options.format ? undefined : await source.read(0, Math.min(FORMAT_MAGIC_BYTES, source.byteLength));
    const format = options.format ?? inputFormat(head, name);
    // The first bytes, read to tell the format, are served again from memory: the reader's own magic check costs no second request.
    if (head) source = withCachedTail(source, head, 0);
    if (!format) throw new InvalidArgumentError(`cannot tell the format of ${name ?? 'the input'}: it is not Parquet, Trevni or RedElm, and has no csv, tsv, jsonl or json extension; give options.format`);
    checkOpenOptions(format, options);
    switch (format) {
      case 'parquet':
        return parquetTable<Row>(await ParquetReader.fromSource(source, { ...pick(options, ['verifyChecksums', 'maxDecompressedBytes', 'decryption']), ...(openFile ? { openFile } : {}) }));
      case 'trevni':
        return await (await import('./trevni.js')).trevniTable<Row>(source, pick(options, ['verifyChecksums', 'maxDecompressedBytes']), name);
      case 'redelm':
        return await (await import('./redelm.js')).redElmTable<Row>(source, pick(options, ['maxDecompressedBytes']), name);
      default: {
        const [{ textParquet }, { sourceChunks }] = await Promise.all([import('./text.js'), import('../convert/input-bytes.js')]);
        const text = pick(options, ['delimiter', 'header', 'sample', 'schema', 'types', 'strict', 'onBadRow', 'onWarning']);
        const table = parquetTable<Row>(await textParquet(format, sourceChunks(source), { ...text, ...(name !== undefined ? { name } : {}) }, options.signal), format);
        // The rows are held as Parquet in memory: the input is done with.
        await source.close?.();
        return table;
      }
    }
  } catch (e) {
    await source.close?.();
    throw e;
  }
}

function isSourceLike(v: unknown): v is SourceLike {
  return typeof v === 'object' && v !== null && typeof (v as SourceLike).read === 'function' && typeof (v as SourceLike).byteLength === 'number';
}

/** An `s3://` address that names a prefix or a glob (a dataset) rather than one object. */
function isS3Prefix(address: string): boolean {
  return address.endsWith('/') || /[*?[{]/.test(address);
}

/**
 * Opens any table: a Parquet file, a dataset (a list of URLs, or an `s3://`
 * prefix or glob), a Trevni file (version 2, 1, or the wiki draft), a
 * RedElm file, CSV, TSV, JSON Lines or a JSON array, from bytes, a Blob, a
 * URL or a source object. File paths and directories: the Node entry's
 * `openTable`.
 *
 * @example
 * ```ts
 * import { formatSchema, openTable } from 'parquetry';
 * await using table = await openTable(new URL('https://example.com/data.parquet'));
 * console.log(table.format, table.numRows, formatSchema(table.schema));
 * for await (const row of table.rows({ columns: ['id', 'name'], filter: "name LIKE 'a%'", limit: 10 })) console.log(row);
 * ```
 */
export async function openTable<Row = Record<string, unknown>>(input: TableInput | readonly (string | URL)[], options: OpenTableOptions = {}): Promise<Table<Row>> {
  if (Array.isArray(input) || (typeof input === 'string' && isS3Address(input) && isS3Prefix(input))) {
    checkOpenOptions('dataset', options);
    const { openDataset } = await import('../dataset/index.js');
    const paths = input as string | readonly (string | URL)[];
    const fileSystem = typeof paths === 'string' ? await s3DatasetFileSystem(options.s3) : undefined;
    const dataset = await openDataset(paths, { ...(await datasetOpenOptions(options)), ...(fileSystem ? { fileSystem } : {}) });
    return datasetTable<Row>(dataset);
  }
  // A URL's `file_path` chunks are fetched beside it, as `ParquetReader.open` of a URL fetches them.
  const url = input instanceof URL || (typeof input === 'string' && /^https?:\/\//i.test(input));
  return openTableSource<Row>(await tableSource(input as TableInput, options), options, url ? httpChunkFiles(options.headers) : undefined);
}

/** The source of one file's input. */
async function tableSource(input: TableInput, options: OpenTableOptions): Promise<Source> {
  if (typeof input === 'string' && isS3Address(input)) return openS3Source(input, { ...options.s3, ...pick(options, ['byteLength']) });
  if (input instanceof URL || (typeof input === 'string' && /^https?:\/\//i.test(input))) {
    return httpSource(String(input), pick(options, ['byteLength', 'headers']));
  }
  if (typeof input === 'string') {
    throw new InvalidArgumentError(`"${input.length > 60 ? input.slice(0, 59) + '…' : input}" is not an http(s) or s3:// address: open file paths through the Node entry (import from 'parquetry' in Node)`);
  }
  if (input instanceof Uint8Array || input instanceof ArrayBuffer) return bufferSource(input, options.name);
  if (typeof Blob !== 'undefined' && input instanceof Blob) return blobSource(input, options.name);
  if (isSourceLike(input)) return checkedSource(input);
  throw new InvalidArgumentError('openTable takes bytes, a Blob, a URL, an s3:// address or a source object');
}
