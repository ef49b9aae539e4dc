/**
 * `parquetry pages`: every page header of every selected column chunk, as
 * the library's page-header walk (`parquet/inspect/page-headers.ts`) reads them.
 */
import { MissingKeyError } from '../errors.js';
import { chunkPages, selectChunks, type ChunkPages } from '../parquet/inspect/page-headers.js';
import type { ParquetFile } from '../parquet/file.js';
import { type ColumnPath } from '../schema/tree.js';
import { withOutput } from './output.js';
import { withParquetFile } from './files.js';
import { jsonable, renderTable, renderValue } from '../text/render.js';
import { run } from './run-context.js';

/** A chunk stored in another file (`file_path`): its offsets in that file, which it names. */
function inChunkFile(parquet: ParquetFile, cp: ChunkPages): ChunkPages & { file?: string } {
  const at = parquet.locate(cp.start);
  if (at.filePath === undefined) return cp;
  const shift = cp.start - at.offset;
  return { ...cp, file: at.filePath, start: at.offset, pages: cp.pages.map((p) => ({ ...p, file: at.filePath, offset: p.offset - shift })) };
}

function cell(v: unknown): string {
  return v === undefined ? '' : v === null ? '?' : renderValue(v);
}

/** A chunk's pages as text: a line for the chunk, then a table with a row per page. */
export function formatChunkPages(cp: ChunkPages & { file?: string }): string {
  const values = cp.pages.reduce((n, p) => n + (p.type === 'data v1' || p.type === 'data v2' ? p.numValues ?? 0 : 0), 0);
  const head = `row group ${cp.rowGroup}, column ${cp.column}${cp.encrypted ? ' (encrypted)' : ''}${cp.file === undefined ? '' : ` in ${cp.file}`}: ${cp.pages.length} page${cp.pages.length === 1 ? '' : 's'}, bytes ${cp.start}..${cp.start + cp.length}, ${values} values` +
    (values !== cp.numValues ? ` (the chunk metadata says ${cp.numValues})` : '');
  const names = ['page', 'type', 'offset', 'header', 'compressed', 'uncompressed', 'encoding', 'values', 'nulls', 'rows', 'first row', 'min', 'max', 'null count', 'crc'];
  const rows = cp.pages.map((p) => Object.fromEntries(names.map((n, i) => [n, cell([
    p.page, p.type, p.offset, p.headerSize, p.compressedSize, p.uncompressedSize, p.encoding, p.numValues, p.numNulls, p.rows,
    p.firstRow, p.statistics?.min, p.statistics?.max, p.statistics?.nullCount, p.crc ? 'yes' : 'no',
  ][i])])));
  return `${head}\n${renderTable(names, rows).split('\n').map((l) => '  ' + l).join('\n')}`;
}

export interface PagesOptions {
  column?: ColumnPath[];
  rowGroup?: number;
  json?: boolean;
}

/**
 * `parquetry pages`: text tables per chunk, or (`--json`) one JSON object
 * per page. An encrypted chunk whose key was not given is skipped, and said
 * so on stderr.
 */
export async function pagesCommand(file: string, opts: PagesOptions): Promise<void> {
  // The file's own bytes: chunks in other files (`file_path`) are read through the file, which opened them as `openParquet` does.
  await withParquetFile(file, (parquet) => withOutput(async (out) => {
    const source = parquet.bytes;
    let first = true;
    for (const c of selectChunks(parquet, opts.column, opts.rowGroup)) {
      const walked = await chunkPages(parquet, source, c).catch((e: unknown) => {
        if (!(e instanceof MissingKeyError)) throw e;
        const flag = c.chunk.cryptoMetadata?.type === 'ENCRYPTION_WITH_COLUMN_KEY' ? `--column-key ${c.column}:HEX` : '--footer-key HEX';
        run().io.stderr.write(`parquetry: skipped row group ${c.rowGroup}, column ${c.column}: encrypted, and its key was not given (${flag})\n`);
      });
      if (!walked) continue;
      // Statistics as JSON can hold them: bigints as digits, binary as text.
      const cp = jsonable(inChunkFile(parquet, walked));
      if (opts.json) {
        for (const p of cp.pages) await out.line(JSON.stringify(p));
      } else {
        if (!first) await out.line('');
        await out.line(formatChunkPages(cp));
      }
      first = false;
    }
  }));
}
