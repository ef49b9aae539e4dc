/**
 * What schema, meta, cat and head show of a Trevni file, from the reader
 * its table reads with. Files of the wiki draft's Dremel dialect print
 * as Parquet files do: the schema in message syntax, rows in the Parquet form.
 */
import { InvalidArgumentError } from '../errors.js';
import { formatSchema } from '../text/schema-text.js';
// Module by module, not trevni/index.js: meta must not load the writers.
import { TrevniDraftReader } from '../trevni/draft/reader.js';
import { TrevniReader } from '../trevni/reader.js';
import { printRecords, withOutput } from './output.js';
import { renderRecord, renderTable, renderValue } from '../text/render.js';

type AnyTrevni = TrevniReader | TrevniDraftReader;

/** One line per column: name, type and flags, indented under its parent. */
export function trevniSchema(r: AnyTrevni): string {
  if (r instanceof TrevniDraftReader) return formatSchema(r.schema);
  const depth = (i: number): number => (r.columns[i]!.parentIndex < 0 ? 0 : 1 + depth(r.columns[i]!.parentIndex));
  return r.columns
    .map((c) => `${'  '.repeat(depth(c.index))}${c.name}: ${c.type}${c.array ? '[]' : ''}${c.hasIndexValues ? ' (values)' : ''}`)
    .join('\n');
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** A metadata value as text when it is UTF-8, else as hex. */
function text(value: Uint8Array): string {
  try {
    return strictUtf8.decode(value);
  } catch {
    return renderValue(value);
  }
}

export async function trevniMeta(r: AnyTrevni, json: boolean): Promise<string> {
  const columns = [];
  for (const c of r.columns) {
    // A draft file's group columns hold no blocks.
    const blocks = r instanceof TrevniReader ? await r.blocks(c.index) : c.type === 'null' ? [] : await r.blocks(c.name);
    columns.push({
      name: c.name, type: c.type, array: c.array, parent: c.parent, codec: c.codec, checksum: c.checksum,
      blocks: blocks.length, compressedSize: blocks.reduce((n, b) => n + b.compressedSize, 0), uncompressedSize: blocks.reduce((n, b) => n + b.uncompressedSize, 0),
    });
  }
  const summary = {
    format: 'trevni', version: r.format.version, ...(r instanceof TrevniDraftReader ? { dialect: 'dremel' } : {}), numRows: r.numRows, columns: columns.length, fileLength: r.fileLength,
    metadata: Object.fromEntries(r.metadata.map((m) => [m.key, text(m.value)])),
    columnChunks: columns,
  };
  if (json) return JSON.stringify(summary, null, 2);
  const out = [`format:   trevni`, `version:  ${r.format.version}${r instanceof TrevniDraftReader ? ' (wiki draft, Dremel levels)' : ''}`, `rows:     ${r.numRows}`, `columns:  ${columns.length}`, `size:     ${r.fileLength} bytes`];
  for (const [k, v] of Object.entries(summary.metadata)) out.push(`  ${k}: ${v.length > 200 ? v.slice(0, 200) + '…' : v}`);
  for (const c of columns) {
    out.push(`${c.name}: ${c.type}${c.array ? '[]' : ''}${c.parent ? ` (in ${c.parent})` : ''} ${c.codec}/${c.checksum}, ${c.blocks} blocks, ${c.compressedSize} / ${c.uncompressedSize} bytes`);
  }
  return out.join('\n');
}

export function trevniCat(r: AnyTrevni, opts: { columns?: string[]; offset?: number; limit?: number; json?: boolean }, table: boolean): Promise<void> {
  if (r instanceof TrevniDraftReader && opts.columns) throw new InvalidArgumentError('--columns is not read for files of the Trevni draft dialect: they are read whole');
  return withOutput(async (out) => {
    const read = { offset: opts.offset, limit: opts.limit, columns: opts.columns };
    if (opts.json) {
      for await (const line of r.canonicalRows(read)) await out.line(line);
    } else if (table) {
      const rows: Record<string, unknown>[] = [];
      for await (const row of r.rows(read)) rows.push(row);
      const names = rows.length ? Object.keys(rows[0]!) : r instanceof TrevniReader ? r.roots.map((i) => r.columns[i]!.name) : r.schema.root.children.map((c) => c.name);
      await out.line(renderTable(names, rows));
    } else {
      await printRecords(out, r.rows(read), renderRecord);
    }
  });
}

export { renderValue };
