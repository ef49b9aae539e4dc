/**
 * `parquetry column-index`: each column chunk's ColumnIndex and OffsetIndex
 * side by side, one row per page: where the page is, its rows, and the
 * bounds the column index gives it, decoded to the column's JS type.
 */
import { pageEntries, type PageIndexEntry } from '../parquet/filter/indexes.js';
import type { ParquetFile } from '../parquet/file.js';
import type { ColumnPath } from '../schema/tree.js';
import { withOutput } from './output.js';
import { selectChunks } from '../parquet/inspect/page-headers.js';
import type { ChunkRef } from '../parquet/chunk-locator.js';
import { jsonable, renderTable, renderValue } from '../text/render.js';

export interface ChunkIndex {
  rowGroup: number;
  column: string;
  columnIndex: boolean;
  offsetIndex: boolean;
  boundaryOrder?: string;
  /** One entry per page: from the OffsetIndex, with the ColumnIndex's per-page facts when there is one. */
  pages: (Partial<PageIndexEntry> & { page: number; nanCount?: number; unencodedBytes?: number })[];
  /** ColumnIndex level histograms, flattened as the spec stores them (page by page). */
  repetitionLevelHistograms?: number[];
  definitionLevelHistograms?: number[];
}

/** A chunk's page index, read through the file. */
export async function chunkIndex(file: ParquetFile, c: ChunkRef): Promise<ChunkIndex> {
  const path = c.leaf.path;
  const [ci, oi] = await Promise.all([file.readColumnIndex(c.rowGroup, path), file.readOffsetIndex(c.rowGroup, path)]);
  const out: ChunkIndex = { rowGroup: c.rowGroup, column: c.column, columnIndex: ci !== null, offsetIndex: oi !== null, pages: [] };
  if (ci) {
    out.boundaryOrder = ci.boundaryOrder;
    if (ci.repetitionLevelHistograms) out.repetitionLevelHistograms = ci.repetitionLevelHistograms;
    if (ci.definitionLevelHistograms) out.definitionLevelHistograms = ci.definitionLevelHistograms;
  }
  const numRows = file.metadata.rowGroups[c.rowGroup]!.numRows;
  if (oi) {
    out.pages = pageEntries(c.leaf, oi, ci, numRows, { temporal: 'iso' }).map((e, page) => ({ page, ...e }));
  } else if (ci) {
    // A column index without an offset index: bounds without locations.
    out.pages = pageEntries(c.leaf, { pageLocations: ci.nullPages.map(() => ({ offset: 0, compressedPageSize: 0, firstRowIndex: 0 })) }, ci, numRows, { temporal: 'iso' })
      .map(({ nullPage, nullCount, min, max }, page) => ({ page, nullPage, nullCount, min, max }));
  }
  out.pages.forEach((p, i) => {
    if (ci?.nanCounts) p.nanCount = ci.nanCounts[i];
    if (oi?.unencodedByteArrayDataBytes) p.unencodedBytes = oi.unencodedByteArrayDataBytes[i];
  });
  return jsonable(out);
}

function cell(v: unknown, yesNo = false): string {
  return v === undefined ? '' : yesNo ? (v ? 'yes' : 'no') : renderValue(v);
}

export function formatChunkIndex(x: ChunkIndex): string {
  const where = `row group ${x.rowGroup}, column ${x.column}`;
  if (!x.columnIndex && !x.offsetIndex) return `${where}: no page index`;
  const has = x.columnIndex && x.offsetIndex ? '' : x.columnIndex ? ' (column index only, no offset index)' : ' (offset index only, no column index)';
  const head = `${where}: ${x.pages.length} page${x.pages.length === 1 ? '' : 's'}${x.boundaryOrder ? `, boundary order ${x.boundaryOrder}` : ''}${has}`;
  const names = ['page', 'first row', 'rows', 'offset', 'size', 'null page', 'null count', 'min', 'max'];
  const fields: (keyof ChunkIndex['pages'][number])[] = ['page', 'firstRow', 'numRows', 'offset', 'compressedSize', 'nullPage', 'nullCount', 'min', 'max'];
  if (x.pages.some((p) => p.nanCount !== undefined)) {
    names.push('nan count');
    fields.push('nanCount');
  }
  if (x.pages.some((p) => p.unencodedBytes !== undefined)) {
    names.push('unencoded bytes');
    fields.push('unencodedBytes');
  }
  const rows = x.pages.map((p) => Object.fromEntries(names.map((n, i) => [n, cell(x.offsetIndex || i === 0 || i >= 5 ? p[fields[i]!] : undefined, fields[i] === 'nullPage')])));
  return `${head}\n${renderTable(names, rows).split('\n').map((l) => '  ' + l).join('\n')}`;
}

export interface ColumnIndexOptions {
  column?: ColumnPath[];
  rowGroup?: number;
  json?: boolean;
}

/** `parquetry column-index`: a table per chunk, or (`--json`) one JSON object per chunk. */
export function columnIndexCommand(file: ParquetFile, opts: ColumnIndexOptions): Promise<void> {
  return withOutput(async (out) => {
    let first = true;
    let table = false;
    for (const c of selectChunks(file, opts.column, opts.rowGroup)) {
      const x = await chunkIndex(file, c);
      if (opts.json) await out.line(JSON.stringify(x));
      else {
        // Tables are set apart by blank lines; "no page index" lines stay together.
        if (!first && (table || x.pages.length > 0)) await out.line('');
        await out.line(formatChunkIndex(x));
      }
      first = false;
      table = x.pages.length > 0;
    }
  });
}
