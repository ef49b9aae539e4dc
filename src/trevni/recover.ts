/**
 * `check` and `recover` for Trevni as library calls, over the salvage read
 * (salvage.ts): judge a file whole or not, or write the rows intact in
 * every field to a new Trevni file of the same version, columns and
 * metadata.
 */
import { copySource } from '../io/copy.js';
import { abortingOnFailure } from '../io/owned-sink.js';
import type { Sink } from '../io/sink.js';
import type { RecoverReport } from '../loss.js';
import type { ColumnRowData } from './assemble.js';
import { findTrevniDamage, lostRows, openTrevniForSalvage, salvageTrevniRows, type TrevniDamage } from './salvage.js';
import { TrevniReader, type TrevniOpenOptions } from './reader.js';
import type { ReadInput } from '../io/source.js';
import type { SpillFactory } from './spill.js';
import { KEY } from './types.js';
import { TrevniWriter, type TrevniColumnSpec } from './writer.js';

/** Reads every block and value (checksums verified) and reports what is damaged, writing nothing. */
export async function checkTrevni(input: ReadInput, options: TrevniOpenOptions = {}): Promise<RecoverReport> {
  const reader = await TrevniReader.open(input, { ...options, truncated: true });
  try {
    return trevniReport(reader, await findTrevniDamage(reader));
  } finally {
    await reader.close();
  }
}

/** `recoverTrevni`'s options: the reader's, and where finished blocks wait. */
export interface TrevniRecoverOptions extends TrevniOpenOptions {
  /** Where the writer's finished blocks wait for its close (in memory by default; the CLI uses temporary files). */
  spill?: SpillFactory;
}

/**
 * Writes the rows of `input` that are intact in every field to `sink`, as a
 * Trevni file of the input's version, columns (codecs, checksums, metadata)
 * and file metadata. Trevni has no null a column of any type can hold, so a
 * row with a lost field is left out, not written with a null; `salvage`
 * (`parquetry/recover`) gives such rows with the field MISSING. A whole file is
 * copied byte for byte. On failure the sink is aborted.
 */
export function recoverTrevni(input: ReadInput, sink: Sink, options: TrevniRecoverOptions = {}): Promise<RecoverReport> {
  return abortingOnFailure(sink, (owned) => recoverInto(input, owned, options));
}

async function recoverInto(input: ReadInput, sink: Sink, options: TrevniRecoverOptions): Promise<RecoverReport> {
  const salvage = await openTrevniForSalvage(input, options);
  const { reader } = salvage;
  try {
    const r = trevniReport(reader, salvage);
    if (r.whole) {
      await copy(reader, sink);
      return r;
    }
    const columns: TrevniColumnSpec[] = reader.columns.map((c) => ({
      name: c.name,
      type: c.type,
      metadata: c.metadata.filter((m) => m.key !== KEY.name && m.key !== KEY.type).map((m) => ({ key: m.key, value: m.value })),
    }));
    const metadata = reader.metadata.map((m) => ({ key: m.key, value: m.value }));
    const w = await TrevniWriter.open(sink, columns, { metadata, version: reader.format.version, ...(options.spill ? { spill: options.spill } : {}) });
    try {
      for await (const row of salvageTrevniRows(salvage, { wholeOnly: true })) await w.writeColumnData(row.data as ColumnRowData[]);
      await w.close();
    } catch (e) {
      await w.abort();
      throw e;
    }
    return r;
  } finally {
    await reader.close();
  }
}

async function copy(reader: TrevniReader, sink: Sink): Promise<void> {
  await copySource(reader.source, sink, reader.fileLength);
  await sink.close();
}

/** The report of a Trevni file's damage: the rows intact in every field recovered, every other row lost. */
export function trevniReport(reader: TrevniReader, d: TrevniDamage): RecoverReport {
  const rowsLost = lostRows(d.lost).reduce((n, s) => n + s.end - s.start, 0);
  return {
    format: 'trevni',
    numRows: d.numRows,
    rowsRecovered: d.numRows - rowsLost,
    rowsWithNulls: 0,
    rowsLost,
    fieldsNulled: [],
    losses: d.losses,
    whole: d.losses.length === 0,
    blocks: d.blocks,
    fieldsLost: reader.roots.flatMap((root, i) => (d.lost[i]!.length ? [{ field: reader.columns[root]!.name, rows: d.lost[i]! }] : [])),
  };
}
