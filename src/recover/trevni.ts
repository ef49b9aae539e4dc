/**
 * `salvage` of a Trevni file (version 2 or 1): every block read at open,
 * then the rows that kept a field in batches of stretches of rows, every
 * loss with the first batch.
 */
import { asParquetryError, UnsupportedError } from '../errors.js';
import type { Source } from '../io/source.js';
import type { Span } from '../loss.js';
import { readTrevniHeader } from '../trevni/reader.js';
import { trevniReport } from '../trevni/recover.js';
import { openTrevniForSalvage, salvageTrevniRows, type OpenedTrevniForSalvage } from '../trevni/salvage.js';
import { salvaged, type Salvage, type SalvageBatch, type SalvageOptions } from './salvaged.js';

/** Most rows a batch holds: Trevni's rows come one by one, and a batch is what a caller holds at once. */
const BATCH_ROWS = 4096;

export async function trevniSalvage(source: Source, options: SalvageOptions): Promise<Salvage> {
  const dialect = await readTrevniHeader(source, true).then((h) => h.dialect, (e: unknown) => {
    throw asParquetryError(e, { file: source.name });
  });
  if (dialect === 'dremel') {
    throw new UnsupportedError('a file of the Trevni wiki draft\'s dialect has no salvage read: it is read whole or not at all', { file: source.name });
  }
  const open = {
    ...(options.verifyChecksums !== undefined ? { verifyChecksums: options.verifyChecksums } : {}),
    ...(options.maxDecompressedBytes !== undefined ? { maxDecompressedBytes: options.maxDecompressedBytes } : {}),
  };
  const opened = await openTrevniForSalvage(source, open);
  return salvaged({ format: 'trevni', report: trevniReport(opened.reader, opened), batches: batches(opened, options.wholeOnly ?? false), close: () => opened.reader.close() });
}

async function* batches(opened: OpenedTrevniForSalvage, wholeOnly: boolean): AsyncGenerator<SalvageBatch> {
  let losses = opened.losses;
  let rows: Record<string, unknown>[] = [];
  let spans: Span[] = [];
  for await (const r of salvageTrevniRows(opened, { wholeOnly })) {
    const last = spans[spans.length - 1];
    if (last && last.end === r.row) last.end++;
    else spans.push({ start: r.row, end: r.row + 1 });
    rows.push(r.record);
    if (rows.length === BATCH_ROWS) {
      yield { rows, spans, losses };
      [rows, spans, losses] = [[], [], []];
    }
  }
  // The losses reach the caller even when no row came back.
  if (rows.length > 0 || losses.length > 0) yield { rows, spans, losses };
}
