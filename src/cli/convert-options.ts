/** Option values of `parquetry convert`: formats, byte sizes, codecs. */
import { InvalidArgumentError as CommanderArgError } from './commander.js';
import { InvalidArgumentError } from '../errors.js';
import { UsageError } from './usage.js';
import type { CodecName } from '../codecs/registry.js';
import { compressionLevel } from '../codecs/levels.js';
import type { ColumnWriteOptions } from '../parquet/write/writer.js';
import { encodingChoice, VALUE_ENCODINGS, extensionFormat, isCsvDelimiter, namedFormat, parquetCodecName, redElmCodecOf, trevniCodecOf, type ConvertFormat } from '../formats.js';

export type Format = ConvertFormat;

/** A format name as given to --from / --to. */
export function formatOption(value: string): Format {
  const f = namedFormat(value);
  if (!f) throw new CommanderArgError('must be csv, tsv, jsonl (ndjson), json, parquet, trevni (trv) or redelm');
  return f;
}

/** The format of a path, from `given` (--from/--to) or the extension. */
export function formatOf(path: string, given: Format | undefined, which: 'input' | 'output'): Format {
  if (given) return given;
  if (path === '-') throw new UsageError(`${which === 'input' ? '--from' : '--to'} is needed to name the format of ${which === 'input' ? 'stdin' : 'stdout'}`);
  const f = extensionFormat(path);
  if (!f) {
    throw new UsageError(
      `cannot tell the format of ${path} from its extension (.csv, .tsv, .jsonl, .ndjson, .json, .parquet, .trv, .redelm); name it with ${which === 'input' ? '--from' : '--to'}`,
    );
  }
  return f;
}

const UNITS: Record<string, number> = {
  '': 1, b: 1,
  k: 1024, kib: 1024, kb: 1000,
  m: 1024 ** 2, mib: 1024 ** 2, mb: 1000 ** 2,
  g: 1024 ** 3, gib: 1024 ** 3, gb: 1000 ** 3,
};

/** `1048576`, `64MB` (10^6), `128MiB` or `128M` (2^20), `1.5GiB`. */
export function parseByteSize(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([A-Za-z]*)\s*$/.exec(text);
  const unit = m ? UNITS[m[2]!.toLowerCase()] : undefined;
  if (!m || unit === undefined) throw new CommanderArgError('must be a size in bytes, like 1048576, 64MB, 128MiB');
  const n = Math.floor(Number(m[1]) * unit);
  if (!Number.isSafeInteger(n) || n <= 0) throw new CommanderArgError('must be a positive size');
  return n;
}

export function positiveInt(text: string): number {
  if (!/^\d+$/.test(text) || Number(text) <= 0 || !Number.isSafeInteger(Number(text))) throw new CommanderArgError('must be a positive whole number');
  return Number(text);
}

export function integer(text: string): number {
  if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(Number(text))) throw new CommanderArgError('must be a whole number');
  return Number(text);
}

/**
 * --codec names a Parquet codec or a Trevni one, and only the output format
 * says which: the option keeps the text, and the command checks it with
 * `parquetCodec` or `trevniCodecName` once the formats are known.
 */
export function parquetCodec(text: string): CodecName {
  const c = parquetCodecName(text);
  if (!c) throw new UsageError(`option '--codec <name>' argument '${text}' is invalid: must be UNCOMPRESSED, SNAPPY, GZIP, BROTLI, ZSTD or LZ4_RAW for Parquet output`);
  return c;
}

/**
 * --compression-level, checked against the Parquet codec it is for (the
 * default SNAPPY when --codec is not given) before anything is read: only
 * GZIP, BROTLI and ZSTD have levels, each its own range.
 */
export function checkCompressionLevel(codec: CodecName, level: number, defaultCodec: boolean): void {
  if (codec !== 'GZIP' && codec !== 'BROTLI' && codec !== 'ZSTD') {
    throw new UsageError(`--compression-level applies to the GZIP, BROTLI and ZSTD codecs only; ${codec} has no levels${defaultCodec ? ' (it is the default: give --codec)' : ''}`);
  }
  try {
    compressionLevel(codec, level);
  } catch (e) {
    if (!(e instanceof InvalidArgumentError)) throw e;
    throw new UsageError(`--compression-level: ${e.detail}`);
  }
}

/** A Trevni codec name as the file stores it: null, deflate, snappy or bzip2 (any case; none/uncompressed mean null); version 1 has no bzip2. */
export function trevniCodecName(text: string, version: 1 | 2 = 2): string {
  const c = trevniCodecOf(text);
  if (!c || (version === 1 && c === 'bzip2')) {
    throw new UsageError(`option '--codec <name>' argument '${text}' is invalid: must be null, deflate${version === 1 ? ' or snappy' : ', snappy or bzip2'} for Trevni${version === 1 ? ' version 1' : ''} output`);
  }
  return c;
}

/** --checksum: a Trevni checksum, null or crc32 (any case; none means null). */
/** A RedElm output's codec: gzip, default (zlib) or snappy. */
export function redElmCodecName(text: string): 'gzip' | 'default' | 'snappy' {
  const c = redElmCodecOf(text);
  if (!c) throw new UsageError(`option '--codec <name>' argument '${text}' is invalid: must be gzip, default or snappy for RedElm output`);
  return c;
}

/** --redelm-footer: the RedElm block's form. */
export function redElmFooterOption(text: string): 'java' | 'json' {
  const t = text.toLowerCase();
  if (t === 'java' || t === 'json') return t;
  throw new CommanderArgError('must be java or json');
}

export function checksumOption(text: string): string {
  const t = text.toLowerCase();
  if (t === 'null' || t === 'none') return 'null';
  if (t === 'crc32') return 'crc32';
  throw new CommanderArgError('must be null or crc32');
}

/** --trevni-version: 1, 2, or draft (the wiki draft's Dremel dialect of version 1). */
export function trevniVersionOption(text: string): 1 | 2 | 'draft' {
  if (text.toLowerCase() === 'draft') return 'draft';
  if (text !== '1' && text !== '2') throw new CommanderArgError('must be 1, 2 or draft');
  return text === '1' ? 1 : 2;
}

export function pageVersionOption(text: string): 1 | 2 {
  if (text !== '1' && text !== '2') throw new CommanderArgError('must be 1 or 2');
  return text === '1' ? 1 : 2;
}

/** One character, with `\t` (as typed, a backslash and a t) and `tab` for a tab. */
export function delimiterOption(text: string): string {
  const d = text === '\\t' || text.toLowerCase() === 'tab' ? '\t' : text;
  if (!isCsvDelimiter(d)) throw new CommanderArgError('must be one character (not a quote or a line break); \\t for a tab');
  return d;
}

/** Collects a repeatable option. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/**
 * `--bloom-filter col[:ndv[:fpp]]` (repeatable): collected into the writer's
 * `bloomFilters` option. The column is the text before the first colon;
 * an empty ndv (`col::0.001`) keeps its default.
 */
export function bloomFilterOption(text: string, previous: Record<string, { ndv?: number; fpp?: number }> | undefined): Record<string, { ndv?: number; fpp?: number }> {
  const [column, ndvText, fppText, ...more] = text.split(':');
  if (!column || more.length) throw new CommanderArgError('must be col[:ndv[:fpp]]');
  const spec: { ndv?: number; fpp?: number } = {};
  if (ndvText) {
    const ndv = Number(ndvText);
    if (!/^\d+$/.test(ndvText) || !Number.isSafeInteger(ndv) || ndv <= 0) throw new CommanderArgError(`the ndv "${ndvText}" is not a positive whole number`);
    spec.ndv = ndv;
  }
  if (fppText) {
    const fpp = Number(fppText);
    if (!(fpp > 0 && fpp < 1)) throw new CommanderArgError(`the fpp "${fppText}" is not a number between 0 and 1`);
    spec.fpp = fpp;
  }
  return { ...(previous ?? {}), [column]: spec };
}

/** What `--encoding COL=NAME` sets for its column: a value encoding without the dictionary, or the dictionary (RLE_DICTIONARY). */
export type EncodingChoice = Pick<ColumnWriteOptions, 'encoding' | 'dictionary'>;

/** `--encoding COL=NAME` (repeatable): the column's value encoding, any case (see encodingChoice). */
export function encodingOption(text: string, previous: Record<string, EncodingChoice> | undefined): Record<string, EncodingChoice> {
  const eq = text.lastIndexOf('=');
  const column = text.slice(0, eq);
  if (eq <= 0) throw new CommanderArgError('must be COL=ENCODING');
  const choice = encodingChoice(text.slice(eq + 1));
  if (!choice) throw new CommanderArgError(`the encoding "${text.slice(eq + 1)}" is not one of ${[...VALUE_ENCODINGS, 'RLE_DICTIONARY'].join(', ')}`);
  return { ...(previous ?? {}), [column]: choice };
}

/** `--float-order type|total`: the column order of float columns' statistics. */
export function floatOrderOption(text: string): 'type' | 'total' {
  const t = text.toLowerCase();
  if (t !== 'type' && t !== 'total') throw new CommanderArgError('must be type or total');
  return t;
}
