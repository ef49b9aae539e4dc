/**
 * `salvage`: the salvage read of a damaged file, whatever its format, told
 * by its magic. Each format finds its damage its own way (Parquet row
 * group by row group, page by page; Trevni block by block, at open) and
 * gives the same thing back: batches of the rows that kept a field, a lost
 * field as MISSING, with the losses found and, once read, one report
 * (docs/decisions/one-salvage.md).
 */
import { UnsupportedError, UnsupportedOptionError } from '../errors.js';
import { detectFormat, FORMAT_MAGIC_BYTES } from '../io/format.js';
import { inputSource, type ReadInput } from '../io/source.js';
import type { Salvage, SalvageOptions } from './salvaged.js';

export type { Salvage, SalvageBatch, SalvageOptions } from './salvaged.js';

/** Options only Parquet honours: a Trevni file has no footer to do without, and its rows are assembled without the value options. */
const PARQUET_ONLY = ['schema', 'codec', 'like', 'int64', 'decimal', 'temporal'] as const;

/**
 * Opens a damaged or unfinished Parquet or Trevni file (version 2 or 1),
 * told by its magic, for its salvage read: bytes, a Blob, a URL or a
 * source object. A file with neither magic is read as Parquet, whose
 * footer, last checkpoint or page headers (`like`, or `schema` and
 * `codec`) may still find its rows. Throws when nothing can be read: a
 * Parquet file with neither footer nor checkpoint and no schema to scan
 * by, a Trevni file whose header is damaged, a RedElm file or one of the
 * Trevni wiki draft's dialect (no salvage read).
 *
 * @example
 * ```ts
 * import { salvage, MISSING } from 'parquetry/recover';
 * await using s = await salvage(bytes);
 * for await (const batch of s) {
 *   for (const row of batch.rows) console.log(Object.values(row).includes(MISSING) ? 'damaged' : 'whole', row);
 * }
 * console.log(s.report.rowsRecovered, s.report.rowsLost, s.report.losses);
 * ```
 */
export async function salvage(input: ReadInput, options: SalvageOptions = {}): Promise<Salvage> {
  const source = await inputSource(input);
  try {
    const head = await source.read(0, Math.min(FORMAT_MAGIC_BYTES, source.byteLength));
    const format = detectFormat(head);
    if (format === 'redelm') throw new UnsupportedError('a RedElm file has no salvage read: it is read whole or not at all', { file: source.name });
    if (format === 'trevni') {
      for (const o of PARQUET_ONLY) if (options[o] !== undefined) throw new UnsupportedOptionError(o, 'trevni', 'it applies to Parquet files', { file: source.name });
      return await (await import('./trevni.js')).trevniSalvage(source, options);
    }
    return await (await import('./parquet.js')).parquetSalvage(source, options);
  } catch (e) {
    await source.close?.();
    throw e;
  }
}
