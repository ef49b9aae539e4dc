/**
 * `recover` and `check` as library calls: a salvage read (salvage.ts) of a
 * file found by its footer or its last checkpoint (open.ts), written out as
 * a valid file, or only judged whole or not.
 */
import { ByteWriter } from '../../bytes/writer.js';
import { copySource } from '../../io/copy.js';
import { abortingOnFailure } from '../../io/owned-sink.js';
import type { Sink } from '../../io/sink.js';
import { VERSION } from '../../version.js';
import { encodeFileMetaData } from '../metadata/index.js';
import type { SchemaElementLike } from '../../schema/tree.js';
import type { ReadInput } from '../../io/source.js';
import { ParquetWriter, type WriterOptions } from '../write/writer.js';
import type { RecoverReport } from '../../loss.js';
import { openForSalvage, rowGroupsEnd, type OpenedForSalvage, type SalvageOpenOptions } from './open.js';
import { MISSING, salvageRowGroups, type SalvagedRowGroup, type ParquetSalvageOptions } from './salvage.js';

/** Reads every page of the file (CRCs, levels, values, assembly) and reports what is damaged, without writing anything. */
export async function checkParquet(input: ReadInput, options: ParquetSalvageOptions & SalvageOpenOptions = {}): Promise<RecoverReport> {
  const opened = await openForSalvage(input, options);
  const report = emptyReport(opened);
  for await (const g of salvageRowGroups(opened, options)) tally(report, g, opened.metadata.rowGroups[g.rowGroup]!.numRows);
  return finish(report);
}

/**
 * Writes everything recoverable of `input` to `sink` as an ordinary Parquet
 * file, row group for row group. Lost fields are written as null (said so
 * in `fieldsNulled`); rows with nothing left are dropped. On failure the
 * sink is aborted (a file sink leaves nothing behind).
 */
export function recoverParquet(input: ReadInput, sink: Sink, options: ParquetSalvageOptions & SalvageOpenOptions & { writer?: WriterOptions } = {}): Promise<RecoverReport> {
  return abortingOnFailure(sink, (owned) => recoverInto(input, owned, options));
}

async function recoverInto(input: ReadInput, sink: Sink, options: ParquetSalvageOptions & SalvageOpenOptions & { writer?: WriterOptions }): Promise<RecoverReport> {
  const opened = await openForSalvage(input, options);
  // A first pass checks everything and finds the fields that will hold null, so the output's schema can allow it before any row is written.
  const nulled = new Set<string>();
  const checked = emptyReport(opened);
  // A checkpoint's row groups have page CRCs throughout (the writer insists): their pages are checked without building rows first.
  const quick = opened.foundBy === 'checkpoint' && options.writer === undefined;
  for await (const g of salvageRowGroups(opened, { ...options, rows: !quick })) {
    tally(checked, g, opened.metadata.rowGroups[g.rowGroup]!.numRows);
    for (const row of g.rows) for (const [k, v] of Object.entries(row)) if (v === MISSING) nulled.add(k);
  }
  // Without rows, the lost fields are those of the leaves lost (none are written when only whole rows are).
  if (quick && !options.wholeOnly) for (const l of checked.losses) nulled.add(opened.schema.leaves.find((x) => x.path.join('.') === l.column)?.path[0] ?? l.column);
  // Nothing lost: the verified bytes are copied as they are (with a footer when the file had none), not re-encoded.
  if (checked.losses.length === 0 && options.writer === undefined) {
    await copyWhole(opened, sink);
    checked.rowsRecovered = checked.numRows;
    checked.rowsLost = 0;
    return finish(checked);
  }
  const top = new Set(opened.schema.root.children.filter((c) => nulled.has(c.name) && c.repetition === 'REQUIRED').map((c) => c.element));
  const elements = (opened.metadata.schema as SchemaElementLike[]).map((e) => (top.has(e) ? { ...e, repetitionType: 'OPTIONAL' } : e));
  const kv = Object.fromEntries((opened.metadata.keyValueMetadata ?? []).map((x) => [x.key, x.value ?? '']));
  const w = await ParquetWriter.open(sink, elements, { metadata: kv, ...options.writer });
  const report = emptyReport(opened);
  try {
    for await (const g of salvageRowGroups(opened, options)) {
      tally(report, g, opened.metadata.rowGroups[g.rowGroup]!.numRows);
      for (const row of g.rows) await w.write(Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v === MISSING ? null : v])));
      await w.flushRowGroup();
    }
    await w.close();
  } catch (e) {
    await w.abort();
    throw e;
  }
  report.fieldsNulled = [...nulled];
  return finish(report);
}

/**
 * The file up to the end of its last row group's chunks, then (unless its
 * own footer described it truly) a footer of the row groups found; offsets
 * stay valid because nothing before them moves.
 */
async function copyWhole(o: OpenedForSalvage, sink: Sink): Promise<void> {
  const { source, metadata } = o;
  // A footer that lost row groups (lostFrom) is replaced too: its row count is not the file's.
  const newFooter = o.foundBy !== 'footer' || o.lostFrom !== undefined;
  const end = newFooter ? rowGroupsEnd(metadata) : source.byteLength;
  await copySource(source, sink, end);
  if (newFooter) {
    const w = new ByteWriter(4096);
    const numRows = metadata.rowGroups.reduce((n, g) => n + g.numRows, 0);
    encodeFileMetaData({ ...metadata, numRows, createdBy: metadata.createdBy ?? `parquetry version ${VERSION}` }, w);
    const footer = w.finish();
    const tail = new Uint8Array(8);
    new DataView(tail.buffer).setUint32(0, footer.length, true);
    tail.set([0x50, 0x41, 0x52, 0x31], 4);
    await sink.write(footer);
    await sink.write(tail);
  }
  await sink.close();
}

/** The report of a salvage read before any row group is tallied. */
export function emptyReport(o: OpenedForSalvage): RecoverReport {
  const r: RecoverReport = {
    format: 'parquet', foundBy: o.foundBy, rowGroups: o.metadata.rowGroups.length, numRows: o.metadata.rowGroups.reduce((n, g) => n + g.numRows, 0),
    rowsRecovered: 0, rowsWithNulls: 0, rowsLost: 0, fieldsNulled: [], losses: [], whole: false,
  };
  if (o.footerError) r.footerError = o.footerError;
  if (o.lostFrom) r.lostFrom = o.lostFrom;
  return r;
}

/** Counts a row group into the report. */
function tally(r: RecoverReport, g: SalvagedRowGroup, numRows: number): void {
  // A loop, not a spread: a row group may lose more pages than the stack holds arguments.
  for (const l of g.losses) r.losses.push(l);
  r.rowsLost += numRows - g.rows.length;
  r.rowsRecovered += g.rows.length;
  for (const row of g.rows) if (Object.values(row).includes(MISSING)) r.rowsWithNulls++;
}

/** Whole: read through its footer, nothing lost. */
export function finish(r: RecoverReport): RecoverReport {
  r.whole = r.foundBy === 'footer' && r.losses.length === 0 && r.lostFrom === undefined;
  return r;
}
