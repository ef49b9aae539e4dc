/**
 * The names of what a conversion reads and writes: formats by name and by
 * extension, Parquet and Trevni codecs by their names in any case. Plain
 * data (and the magics of io/format.ts), so the CLI checks its options with
 * it without loading the conversion layer (which uses it too).
 */
import type { CodecName } from './codecs/registry.js';
import { detectFormat } from './io/format.js';

/** The formats `convert` reads and writes, by name (`from`, `to`). */
export type ConvertFormat = 'csv' | 'tsv' | 'jsonl' | 'json' | 'parquet' | 'trevni' | 'redelm';

/** The formats read at any offset and written by a file writer (the others are text). */
export type TableFormat = 'parquet' | 'trevni' | 'redelm';

export function isTableFormat(f: ConvertFormat): f is TableFormat {
  return f === 'parquet' || f === 'trevni' || f === 'redelm';
}

/** A delimiter CSV can be read and written with: one character, not the quote or a line break. */
export function isCsvDelimiter(d: string): boolean {
  return d.length === 1 && d !== '"' && d !== '\n' && d !== '\r';
}

const EXTENSIONS: Record<string, ConvertFormat> = {
  csv: 'csv', tsv: 'tsv', tab: 'tsv', jsonl: 'jsonl', ndjson: 'jsonl', json: 'json', parquet: 'parquet', pq: 'parquet',
  trv: 'trevni', trevni: 'trevni', redelm: 'redelm',
};

/** A format's name or extension (`csv`, `.ndjson`, `trv`), any case; undefined when it names none. */
export function namedFormat(name: string): ConvertFormat | undefined {
  return EXTENSIONS[name.toLowerCase().replace(/^\./, '')];
}

/** The format a path's or URL's extension names, if any. */
export function extensionFormat(path: string): ConvertFormat | undefined {
  const name = /^https?:\/\//i.test(path) ? new URL(path).pathname : path;
  const m = /\.([A-Za-z0-9]+)$/.exec(name);
  return m ? EXTENSIONS[m[1]!.toLowerCase()] : undefined;
}

/**
 * Which format an input is: its magic (`head`, its first bytes: Parquet,
 * Trevni, RedElm), else its name's extension (CSV, TSV, JSON Lines, JSON).
 * The one answer `openTable`, `convert`, the CLI and the viewer give.
 */
export function inputFormat(head: Uint8Array | undefined, name: string | undefined): ConvertFormat | undefined {
  return (head && detectFormat(head)) ?? (name !== undefined ? extensionFormat(name) : undefined);
}

const PARQUET_CODECS: Record<string, CodecName> = {
  uncompressed: 'UNCOMPRESSED', none: 'UNCOMPRESSED', snappy: 'SNAPPY', gzip: 'GZIP', brotli: 'BROTLI', zstd: 'ZSTD',
  lz4_raw: 'LZ4_RAW', 'lz4-raw': 'LZ4_RAW', lz4raw: 'LZ4_RAW',
};

/** A Parquet codec a conversion writes, by name in any case (`none` is UNCOMPRESSED); undefined for others. */
export function parquetCodecName(text: string): CodecName | undefined {
  return PARQUET_CODECS[text.toLowerCase()];
}

const TREVNI_CODECS: Record<string, string> = { null: 'null', none: 'null', uncompressed: 'null', deflate: 'deflate', snappy: 'snappy', bzip2: 'bzip2' };

const REDELM_CODECS: Record<string, 'gzip' | 'default' | 'snappy'> = { gzip: 'gzip', default: 'default', zlib: 'default', snappy: 'snappy' };

/** A RedElm (Hadoop) codec by its short name in any case: gzip, default (zlib), snappy; undefined for others. */
export function redElmCodecOf(text: string): 'gzip' | 'default' | 'snappy' | undefined {
  return REDELM_CODECS[text.toLowerCase()];
}

/** A Trevni codec as the file names it (null, deflate, snappy, bzip2), by name in any case; undefined for others. */
export function trevniCodecOf(text: string): string | undefined {
  return TREVNI_CODECS[text.toLowerCase()];
}

/** The value encodings a Parquet column can be given by name (`--encoding`, convert's `encoding`), besides RLE_DICTIONARY. */
export const VALUE_ENCODINGS = ['PLAIN', 'RLE', 'DELTA_BINARY_PACKED', 'DELTA_LENGTH_BYTE_ARRAY', 'DELTA_BYTE_ARRAY', 'BYTE_STREAM_SPLIT', 'ALP'] as const;

export type ValueEncodingName = (typeof VALUE_ENCODINGS)[number];

/**
 * The writer's column options for an encoding name (any case): a value
 * encoding turns the dictionary off for the column (it is what the column
 * is written in); RLE_DICTIONARY keeps the dictionary. Undefined for
 * another name. Whether the column's type takes it is the writer's check.
 */
export function encodingChoice(name: string): { dictionary: boolean; encoding?: ValueEncodingName } | undefined {
  const n = name.toUpperCase();
  if (n === 'RLE_DICTIONARY') return { dictionary: true };
  return (VALUE_ENCODINGS as readonly string[]).includes(n) ? { dictionary: false, encoding: n as ValueEncodingName } : undefined;
}

/**
 * Options that mean something for some formats only, refused elsewhere
 * rather than ignored: by the command (its flags as its parser names them)
 * and by `convert` (its options), the first scope that fails naming them.
 */
const OPTION_SCOPES: ReadonlyArray<{ cli: readonly string[]; code: readonly string[]; where: string; applies(from: ConvertFormat, to: ConvertFormat): boolean }> = [
  { cli: ['codec'], code: ['codec'], where: 'to Parquet output only (and to Trevni and RedElm outputs)', applies: (_f, t) => isTableFormat(t) },
  {
    cli: ['compressionLevel', 'rowGroupSize', 'rowGroupRows', 'pageSize', 'pageVersion', 'bloomFilter', 'encoding', 'floatOrder', 'pageIndex', 'checksums', 'checkpointEvery', 'encryptFooterKey', 'encryptColumn', 'plaintextFooter', 'algorithm', 'storeAadPrefix'],
    code: ['compressionLevel', 'rowGroupSize', 'rowGroupRows', 'pageSize', 'pageVersion', 'bloomFilters', 'encoding', 'floatOrder', 'pageIndex', 'checksums', 'encryption'],
    where: 'to Parquet output only', applies: (_f, t) => t === 'parquet',
  },
  { cli: ['checksum', 'trevniVersion'], code: ['trevniChecksum', 'trevniVersion'], where: 'to Trevni output only', applies: (_f, t) => t === 'trevni' },
  { cli: ['redelmFooter'], code: ['redelmFooter'], where: 'to RedElm output only', applies: (_f, t) => t === 'redelm' },
  { cli: ['schema', 'type', 'sample', 'skipBadRows'], code: ['schema', 'types', 'sample'], where: 'to CSV and JSON inputs only', applies: (f) => !isTableFormat(f) },
  { cli: ['verifyChecksums'], code: ['verifyChecksums'], where: 'to Parquet and Trevni inputs only', applies: (f) => f === 'parquet' || f === 'trevni' },
  { cli: [], code: ['decryption'], where: 'to Parquet input only', applies: (f) => f === 'parquet' },
  { cli: [], code: ['maxDecompressedBytes'], where: 'to Parquet, Trevni and RedElm inputs only', applies: (f) => isTableFormat(f) },
  { cli: ['columns'], code: ['columns'], where: 'to Parquet, Trevni and RedElm inputs only', applies: (f) => isTableFormat(f) },
  {
    cli: ['delimiter', 'header'], code: ['delimiter', 'header'], where: 'to CSV input or output only',
    applies: (f, t) => f === 'csv' || f === 'tsv' || t === 'csv' || t === 'tsv',
  },
];

/** The given options (by `side`'s names) that do not apply from `from` to `to`, and where they would; undefined when all apply. */
export function inapplicableOptions(
  side: 'cli' | 'code', given: (name: string) => boolean, from: ConvertFormat, to: ConvertFormat,
): { names: string[]; where: string } | undefined {
  for (const scope of OPTION_SCOPES) {
    if (scope.applies(from, to)) continue;
    const names = scope[side].filter(given);
    if (names.length) return { names, where: scope.where };
  }
  return undefined;
}
