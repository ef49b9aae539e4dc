/** The formats a conversion reads and writes, known by name, by extension, or by a file's first bytes. */
import { MAGIC as TREVNI_MAGIC } from '../trevni/metadata.js';
import type { ConvertFormat } from './run.js';

const EXTENSIONS: Record<string, ConvertFormat> = {
  csv: 'csv', tsv: 'tsv', tab: 'tsv', jsonl: 'jsonl', ndjson: 'jsonl', json: 'json', parquet: 'parquet', pq: 'parquet',
  trv: 'trevni', trevni: 'trevni',
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

const PARQUET_MAGIC = [0x50, 0x41, 0x52, 0x31]; // PAR1

/** Parquet or Trevni by a file's first four bytes. */
export function magicFormat(head: Uint8Array): 'parquet' | 'trevni' | undefined {
  const starts = (magic: ArrayLike<number>) => head.length >= 4 && [0, 1, 2, 3].every((i) => head[i] === magic[i]);
  return starts(PARQUET_MAGIC) ? 'parquet' : starts(TREVNI_MAGIC) ? 'trevni' : undefined;
}
