/**
 * The FILE arguments of the commands: what format a path is (its magic,
 * else its extension: formats.ts's `inputFormat`, as `openTable` tells it),
 * and why a path cannot be read, in one line.
 */
import { open, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { InvalidArgumentError, IOError } from '../errors.js';
import type { ParquetFile } from '../parquet/file.js';
import type { Source } from '../io/source.js';
import { FORMAT_MAGIC_BYTES } from '../io/format.js';
import { inputFormat, type ConvertFormat } from '../formats.js';
import type { Table } from '../table/table.js';
import { cannotRead } from '../node/fs-errors.js';
import type { Dataset } from '../dataset/dataset.js';
import type { Filter } from '../parquet/filter/expression.js';
import type { S3Settings } from '../node/s3-credentials.js';
import { isS3Address } from '../io/s3/address.js';
import { run, type HttpInputOptions } from './run-context.js';

export function isUrl(path: string): boolean {
  return /^https?:\/\//i.test(path);
}

/** How every `s3://` address of this run is reached (`--no-sign-request`, `--region`, `--endpoint-url`, over the environment's). */
export function s3Settings(): S3Settings {
  return run().s3;
}

export function setS3Settings(settings: S3Settings): void {
  run().s3 = settings;
}

/** The file a path names; a path that cannot be read, or a directory, is an error saying so. */
async function statInput(path: string): Promise<Stats> {
  let st: Stats;
  try {
    st = await stat(path);
  } catch (e) {
    throw cannotRead(path, e);
  }
  if (st.isDirectory()) throw new IOError(`cannot read ${path}: it is a directory`);
  return st;
}

/** The format a file's magic, else its name, tells; undefined when neither does. */
async function fileFormat(path: string): Promise<ConvertFormat | undefined> {
  let fh;
  try {
    fh = await open(path, 'r');
  } catch (e) {
    throw cannotRead(path, e);
  }
  try {
    const b = new Uint8Array(FORMAT_MAGIC_BYTES);
    const { bytesRead } = await fh.read(b, 0, b.length, 0);
    return inputFormat(b.subarray(0, bytesRead), path);
  } catch (e) {
    throw cannotRead(path, e);
  } finally {
    await fh.close();
  }
}

/**
 * What a local path is, with one stat and at most one 8-byte read: a
 * regular file of the format its magic or name tells (`unknown` when
 * neither does), or a stream (a pipe or a device). A stream's first bytes
 * are not read: opening a FIFO waits for a writer, and bytes read from it
 * are gone (convert streams CSV and JSON from one). A path that cannot be
 * read, or a directory, is an error saying so.
 */
export async function inputKind(path: string): Promise<ConvertFormat | 'unknown' | 'stream'> {
  if (!(await statInput(path)).isFile()) return 'stream';
  return (await fileFormat(path)) ?? 'unknown';
}

/** A Parquet or Trevni file must be read at any offset (the footer first, then the chunks). */
export function notSeekable(path: string): IOError {
  return new IOError(`cannot read ${path}: not a regular file (Parquet and Trevni files are read at any offset, which a pipe or device does not allow)`);
}

/**
 * The format of a file to read: a URL or `s3://` object by its extension,
 * a regular file (not a pipe or a device) by its magic, else its extension;
 * Parquet when nothing tells (the Parquet reader then says what it found).
 */
export async function tableFileKind(path: string): Promise<ConvertFormat> {
  if (isUrl(path) || isS3Address(path)) return inputFormat(undefined, path) ?? 'parquet';
  const kind = await inputKind(path);
  if (kind === 'stream') throw notSeekable(path);
  return kind === 'unknown' ? 'parquet' : kind;
}

/** The options every http(s) input of this run is read with. */
export function httpInputOptions(): HttpInputOptions {
  return run().http;
}

/** Sets the options every http(s) input of this run is read with (from the program's options). */
export function setHttpInputOptions(options: HttpInputOptions): void {
  run().http = options;
}

/**
 * A URL's size: `--byte-length`, else from a HEAD request made here rather
 * than by the reader, so that a failure says what the server answered (the
 * reader's message tells a library caller to pass byteLength).
 */
export async function urlLength(url: string): Promise<number> {
  const { http } = run();
  if (http.byteLength !== undefined) return http.byteLength;
  let res: Response;
  try {
    res = await fetch(url, { method: 'HEAD', headers: http.headers });
  } catch (e) {
    const cause = (e as Error & { cause?: Error }).cause;
    throw new IOError(`cannot read ${url}: ${cause?.message ?? (e as Error).message}`, {}, { cause: e });
  }
  if (!res.ok) throw new IOError(`cannot read ${url}: the server answered ${res.status}${res.statusText ? ' ' + res.statusText : ''}`);
  const length = res.headers.get('content-length');
  if (length === null || !/^\d+$/.test(length)) {
    throw new IOError(`cannot read ${url}: the server gave no Content-Length (a Parquet file is read in byte ranges, and its footer is found from its size)`);
  }
  return Number(length);
}

/** The bytes of a Parquet file named on the command line, for the commands that read raw structures. */
export async function openSource(file: string): Promise<Source> {
  const { http, s3 } = run();
  if (isS3Address(file)) return (await import('../node/s3.js')).openS3Source(file, s3);
  if (isUrl(file)) {
    const { httpSource } = await import('../io/source.js');
    return httpSource(file, { byteLength: await urlLength(file), headers: http.headers });
  }
  const { fileSource } = await import('../node/file-source.js');
  return fileSource(file);
}

/** What the reading commands ask of a reader: `--no-verify-checksums` reads damaged pages and blocks anyway. */
export interface ReadChecks {
  verifyChecksums?: boolean;
}

export const NO_VERIFY_CHECKSUMS_HELP = 'read pages (Parquet CRC-32) and blocks (Trevni) whose stored checksum does not match, instead of failing';

/** A Parquet file named on the command line: a path, or a URL read with Range requests. */
export async function openParquetFile(file: string, checks: ReadChecks = {}): Promise<ParquetFile> {
  // The library is imported when a file is opened, not when the program starts (a usage error or --help needs none of it).
  const open = (await import('../node/open-parquet.js')).openParquetFile;
  const { decryption, http, s3 } = run();
  const options = { ...checks, ...(decryption ? { decryption } : {}) };
  if (isS3Address(file)) return open(file, { ...options, s3 });
  return isUrl(file) ? open(file, { ...options, byteLength: await urlLength(file), headers: http.headers }) : open(file, options);
}

/**
 * Whether FILE names a dataset (docs/datasets.md): a directory, or a glob
 * that is not itself the name of a file; an `s3://` prefix or glob.
 */
export async function isDatasetInput(path: string): Promise<boolean> {
  const { isDatasetPath } = await import('../node/dataset-path.js');
  return isDatasetPath(path, run().s3);
}

/** A dataset named on the command line, read with the run's keys and checks; `filter`, the run's `--where`, picks the file the schema is read from. */
export async function openDatasetInput(path: string, checks: ReadChecks = {}, unionByName = false, filter?: Filter): Promise<Dataset> {
  const { openDataset } = await import('../node/dataset.js');
  const { decryption, s3 } = run();
  return openDataset(path, { ...checks, unionByName, ...(decryption ? { decryption } : {}), ...(isS3Address(path) ? { s3 } : {}), ...(filter ? { filter } : {}) });
}

/**
 * FILE (a file of any format, or a dataset) as a table, opened by
 * `openTable` with the run's keys, checks, `--http-header`s and S3
 * settings; `--union-by-name` and `--where` for a dataset. Options a format
 * cannot honour are refused by the table, naming them.
 */
export async function openTableInput(file: string, checks: ReadChecks = {}, dataset: { unionByName?: boolean; filter?: Filter } = {}, given?: ConvertFormat): Promise<Table> {
  const { openTable } = await import('../node/table.js');
  // `convert --from` names a file's format only when it already found the input is no dataset.
  const isDataset = given === undefined && await isDatasetInput(file);
  // Neither magic nor extension: openTable would say to give options.format, which the command line has no option for.
  if (!isDataset && given === undefined && !isUrl(file) && !isS3Address(file) && (await inputKind(file)) === 'unknown') {
    throw new InvalidArgumentError(`cannot tell the format of ${file}: it is not Parquet, Trevni or RedElm, and has no .csv, .tsv, .jsonl or .json extension (name it so, or convert it with --from FORMAT)`);
  }
  const format = isDataset ? 'dataset' : given ?? await tableFileKind(file);
  const { http, s3, decryption: keys } = run();
  const decryption = format === 'parquet' || format === 'dataset' ? keys : undefined;
  return openTable(file, {
    ...(checks.verifyChecksums === false ? { verifyChecksums: false } : {}),
    ...(decryption ? { decryption } : {}),
    // `convert --from`: the format given, not told again.
    ...(given && !isDataset ? { format: given } : {}),
    ...(isDataset ? { ...(dataset.unionByName ? { unionByName: true } : {}), ...(dataset.filter ? { filter: dataset.filter } : {}) } : {}),
    ...(isS3Address(file) ? { s3 } : {}),
    ...(isUrl(file) ? { byteLength: await urlLength(file), ...(http.headers ? { headers: http.headers } : {}) } : {}),
  });
}

/** Runs `fn` on an open reader, then closes it, whether `fn` succeeded or not. */
export async function closing<R extends { close(): Promise<void> }>(reader: R, fn: (r: R) => Promise<void>): Promise<void> {
  try {
    await fn(reader);
  } finally {
    await reader.close();
  }
}

/** Runs `fn` on the Parquet file `file`, closing it afterwards. */
export async function withParquetFile(file: string, fn: (f: ParquetFile) => Promise<void>, checks: ReadChecks = {}): Promise<void> {
  return closing(await openParquetFile(file, checks), fn);
}

const FORMAT_NAMES: Record<ConvertFormat, string> = {
  parquet: 'Parquet', trevni: 'Trevni', redelm: 'RedElm', csv: 'CSV', tsv: 'TSV', jsonl: 'JSON Lines', json: 'JSON',
};

/**
 * For the commands that read the structures of some formats only: FILE, told
 * by its magic (else its extension), is of one of `formats`, or the error
 * names its format and the commands that read it. A file nothing tells
 * passes as Parquet (the reader then says what it found).
 */
export async function checkFormats(command: string, file: string, formats: readonly ConvertFormat[] = ['parquet']): Promise<ConvertFormat> {
  const kind = await tableFileKind(file);
  if (!formats.includes(kind)) {
    const name = FORMAT_NAMES[kind];
    const what = formats.map((f) => FORMAT_NAMES[f]).join(' and ');
    throw new InvalidArgumentError(`${command} is for ${what} files; ${file} is a ${name} file (schema, meta, cat and head read ${name} files)`);
  }
  return kind;
}

/**
 * For the commands that read Parquet structures only (pages, column-index,
 * bloom-filter...): FILE is a readable Parquet file, or a URL.
 */
export async function checkParquetOnly(command: string, file: string): Promise<void> {
  await checkFormats(command, file);
}
