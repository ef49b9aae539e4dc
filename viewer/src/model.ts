/**
 * What the page shows, the same for every format the library reads: a
 * schema tree and rows through `openTable`'s table, a layout (Parquet: row groups → column chunks → pages;
 * RedElm: row groups → columns → their level and value sections; Trevni:
 * the file → columns → blocks) with sizes, and rows read on demand by
 * offset and limit, so nothing is loaded whole.
 */
import { openTable, parseWhere, schemaAnnotation, type Filter, type SchemaNode, type Source, type Table, type TableFormatName } from 'parquetry';
import { redElmSummary, type RedElmReader } from 'parquetry/redelm';
import { TrevniDraftReader, type TrevniBlock, type TrevniColumn } from 'parquetry/trevni';
import { chunkPages, decodeStatistics, selectChunks, type ChunkRef, type ParquetFile } from 'parquetry/inspect';
import { readerOf } from '../../src/table/reader-of.js';

export interface TreeNode {
  name: string;
  detail: string;
  children: TreeNode[];
}

export interface PageBox {
  kind: string;
  /** Parquet: the page's encoding; Trevni: the column's value type. */
  encoding: string;
  offset: number;
  /** Bytes in the file, header included (what the drawing scales by). */
  bytes: number;
  /** Parquet: the page header's bytes. */
  header: number;
  uncompressed: number;
  rows?: number | null;
  firstRow?: number;
  /** Statistics from the page header (Parquet) or the block's first value (Trevni), as the reader's values. */
  stats?: Record<string, unknown>;
  /** The page index's bounds for this page. */
  bounds?: Record<string, unknown>;
}

export interface ChunkBox {
  group: number;
  path: string;
  codec: string;
  encodings: string[];
  bytes: number;
  uncompressed: number;
  values: number;
  stats?: Record<string, unknown>;
  pages?: PageBox[];
  /** Why the pages could not be read. */
  pagesError?: string;
  ref?: ChunkRef;
}

export interface GroupBox {
  label: string;
  rows: number;
  bytes: number;
  uncompressed: number;
  chunks: ChunkBox[];
}

export interface Opened {
  kind: TableFormatName;
  /** A variant of the format worth naming (the Trevni draft's Dremel dialect). */
  dialect?: string;
  name: string;
  /** Bytes of the file (a dataset: of the files the page was given). */
  size: number;
  rows: number;
  schema: TreeNode;
  groups: GroupBox[];
  /** The data table's columns: the row objects' top-level keys. */
  columns: string[];
  /** The table every read goes through: `openTable`'s, whatever the format. */
  table: Table;
  /** Fills `chunk.pages`. */
  loadPages(chunk: ChunkBox): Promise<void>;
  /** Parses a `--where` expression; only tables that filter (Parquet, datasets, CSV and JSON) have one. */
  filter?: (where: string) => Filter;
  /** The file row numbers of the rows matching `filter`, in order. */
  matches(filter: Filter): Promise<number[]>;
  read(offset: number, limit: number, filter?: Filter): Promise<Record<string, unknown>[]>;
}

/** What the page opens: one file, or a dataset's files (the URLs of its Parquet files, `key=value` directories as columns). */
export type Input = Source | { name: string; files: string[]; size: number };

/**
 * Opens any input `openTable` opens: its rows, schema and filter through the
 * table, whatever the format; the layout through the format's own reader
 * (inspection: row groups, pages, blocks and sections are not a table's),
 * the one the table reads through (`readerOf`), so the file opens once.
 */
export async function openFile(input: Input): Promise<Opened> {
  if ('files' in input) return openDatasetFiles(input);
  const table = await openTable(input, { name: input.name ?? 'file' });
  const base = tableView(table, input.name ?? 'file', input.byteLength);
  const parquet = readerOf(table, 'parquet');
  if (parquet) return { ...base, ...parquetLayout(parquet.file) };
  const trevni = readerOf(table, 'trevni');
  if (trevni instanceof TrevniDraftReader) {
    return { ...base, dialect: 'wiki draft, Dremel levels', groups: [await trevniLayout(trevni.numRows, trevni.columns.filter((c) => c.type !== 'null'), (c) => trevni.blocks(c.name))] };
  }
  if (trevni) return { ...base, groups: [await trevniLayout(trevni.numRows, trevni.columns, (c) => trevni.blocks(c.index))] };
  const redElm = readerOf(table, 'redelm');
  return redElm ? { ...base, groups: redElmLayout(redElm) } : base;
}

/** Formats whose tables take a filter (the row formats refuse one: table/rows.ts). */
const UNFILTERED: readonly string[] = ['trevni', 'redelm'];

/** What every table shows the same way: schema, rows, filter and count; no layout. */
function tableView(table: Table, name: string, size: number): Opened {
  const columns = table.schema.root.isLeaf ? [] : table.schema.root.children.map((c) => c.name);
  const filterable = !UNFILTERED.includes(table.format);
  return {
    kind: table.format, name, size, rows: table.numRows, table,
    schema: schemaTree(table.schema.root),
    groups: [],
    columns,
    loadPages: async () => {},
    ...(filterable ? { filter: (where: string) => parseWhere(where, 'filter') } : {}),
    matches: (filter) => matchingRows(table, filter),
    read: sequentialReads((offset, filter) => table.rows({ offset, ...(filter ? { filter } : {}), temporal: 'iso' })),
  };
}

/** The top-level columns a filter tests: the rows read with only these still decide it. */
function filterColumns(f: Filter, out = new Map<string, string[]>()): string[][] {
  if ('and' in f || 'or' in f) for (const g of 'and' in f ? f.and : f.or) filterColumns(g, out);
  else if ('not' in f) filterColumns(f.not, out);
  else {
    const top = typeof f.column === 'string' ? f.column.split('.')[0]! : f.column[0]!;
    out.set(top, [top]);
  }
  return [...out.values()];
}

/** Whether two values read with the same options are the same value (NaN is itself, bytes by content). */
function same(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (a instanceof Uint8Array) return b instanceof Uint8Array && a.length === b.length && a.every((x, i) => x === b[i]);
  if (a instanceof Date) return b instanceof Date && Object.is(a.getTime(), b.getTime());
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/**
 * Where the rows matching `filter` are in the file. The table's reads give
 * matches without their places, so the filter's columns are read twice,
 * all rows and the matching ones, and walked together: a filter is decided
 * by the values it tests, so a row with the same values as the next match
 * matches too, and one with other values does not; each match is the next
 * row equal to it.
 */
async function matchingRows(table: Table, filter: Filter): Promise<number[]> {
  const columns = filterColumns(filter);
  const all = table.rows({ columns });
  const out: number[] = [];
  let at = 0;
  for await (const match of table.rows({ columns, filter })) {
    for (;; at++) {
      const next = await all.next();
      if (next.done) throw new Error(`a matching row was not found among the file's rows after row ${at}`);
      if (same(next.value, match)) break;
    }
    out.push(at++);
  }
  await all.return?.();
  return out;
}

/** A dataset: its files read as one table, the partition directories' `key=value` as columns; no layout. */
async function openDatasetFiles(input: { name: string; files: string[]; size: number }): Promise<Opened> {
  const urls = input.files.map((f) => new URL(f, location.href).href);
  return tableView(await openTable(urls), input.name, input.size);
}

function parquetTree(node: SchemaNode): TreeNode {
  const type = !node.isLeaf ? 'group' : node.physicalType === 'FIXED_LEN_BYTE_ARRAY' ? `fixed_len_byte_array(${node.typeLength})` : node.physicalType.toLowerCase();
  const ann = schemaAnnotation(node);
  const detail = `${node.repetition.toLowerCase()} ${type}${ann ? ` (${ann})` : ''}`;
  return { name: node.name, detail, children: node.isLeaf ? [] : node.children.map(parquetTree) };
}

/** Rows a read may skip through its open iterator rather than open a new one that fetches and decodes the row group again. */
const SKIP_AHEAD = 50_000;

/**
 * Reads by offset and limit through one open row iterator: a read that
 * starts where the last one ended, or up to SKIP_AHEAD rows after
 * (scrolling down), continues it, so a row group is decoded once, not once
 * per block of rows; any other read opens a new one. Reads run one at a time.
 */
function sequentialReads(open: (offset: number, filter?: Filter) => AsyncIterator<Record<string, unknown>>): Opened['read'] {
  let cursor: { at: number; filter?: Filter; rows: AsyncIterator<Record<string, unknown>> } | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  const read = async (offset: number, limit: number, filter?: Filter) => {
    if (!cursor || cursor.filter !== filter || offset < cursor.at || offset - cursor.at > SKIP_AHEAD) {
      await cursor?.rows.return?.();
      cursor = { at: offset, filter, rows: open(offset, filter) };
    }
    // A short jump ahead skips rows already decoded rather than fetching the row group again.
    for (; cursor.at < offset; cursor.at++) if ((await cursor.rows.next()).done) break;
    const out: Record<string, unknown>[] = [];
    while (out.length < limit) {
      const r = await cursor.rows.next();
      if (r.done) break;
      out.push(r.value);
    }
    cursor.at += out.length;
    return out;
  };
  return (offset, limit, filter) => {
    const p = queue.then(() => read(offset, limit, filter));
    queue = p.catch(() => undefined);
    return p;
  };
}

/** A Parquet file's row groups and column chunks, their pages read on demand. */
function parquetLayout(file: ParquetFile): Pick<Opened, 'groups' | 'loadPages'> {
  const m = file.metadata;
  const groups: GroupBox[] = m.rowGroups.map((rg, i) => ({ label: `row group ${i}`, rows: rg.numRows, bytes: 0, uncompressed: 0, chunks: [] }));
  for (const ref of selectChunks(file)) {
    const md = ref.chunk.metaData;
    const g = groups[ref.rowGroup]!;
    const chunk: ChunkBox = {
      group: ref.rowGroup, path: ref.column, codec: String(md?.codec ?? '?'), encodings: (md?.encodings ?? []).map(String),
      bytes: md?.totalCompressedSize ?? 0, uncompressed: md?.totalUncompressedSize ?? 0, values: md?.numValues ?? 0,
      stats: md?.statistics ? { ...decodeStatistics(ref.leaf, md.statistics, { temporal: 'iso' }) } : undefined, ref,
    };
    g.chunks.push(chunk);
    g.bytes += chunk.bytes;
    g.uncompressed += chunk.uncompressed;
  }
  return {
    groups,
    async loadPages(chunk) {
      if (chunk.pages || !chunk.ref) return;
      try {
        const [walk, index] = await Promise.all([chunkPages(file, file.bytes, chunk.ref), file.pageIndex(chunk.group, chunk.ref.leaf.path)]);
        const bounds = new Map(index?.map((e) => [e.offset, e]));
        chunk.pages = walk.pages.map((p) => {
          const b = bounds.get(p.offset);
          return {
            kind: p.type, encoding: p.encoding ?? '?', offset: p.offset, bytes: p.headerSize + p.compressedSize, header: p.headerSize, uncompressed: p.uncompressedSize,
            rows: p.rows, firstRow: p.firstRow, stats: p.statistics && { ...p.statistics },
            bounds: b && { min: b.min, max: b.max, nullCount: b.nullCount, nullPage: b.nullPage },
          };
        });
      } catch (e) {
        chunk.pagesError = (e as Error).message;
      }
    },
  };
}

/** A Trevni file as one group: its columns, each drawn as its blocks. */
async function trevniLayout(rows: number, columns: readonly TrevniColumn[], blocksOf: (c: TrevniColumn) => Promise<readonly TrevniBlock[]>): Promise<GroupBox> {
  const file: GroupBox = { label: 'file', rows, bytes: 0, uncompressed: 0, chunks: [] };
  for (const c of columns) {
    const blocks = await blocksOf(c);
    const chunk: ChunkBox = {
      group: 0, path: c.name, codec: c.codec, encodings: [c.type],
      bytes: blocks.reduce((n, b) => n + b.compressedSize, 0), uncompressed: blocks.reduce((n, b) => n + b.uncompressedSize, 0),
      values: blocks.reduce((n, b) => n + b.numRows, 0),
      pages: blocks.map((b) => ({
        kind: 'block', encoding: c.type, offset: b.offset, bytes: b.compressedSize, header: 0, uncompressed: b.uncompressedSize,
        rows: b.numRows, firstRow: b.firstRow, stats: b.firstValue === undefined ? undefined : { firstValue: b.firstValue },
      })),
    };
    file.chunks.push(chunk);
    file.bytes += chunk.bytes;
    file.uncompressed += chunk.uncompressed;
  }
  return file;
}

/** A Parquet schema tree (RedElm's and the Trevni draft's schemas are such trees too). */
function schemaTree(root: SchemaNode): TreeNode {
  return { name: root.name || 'schema', detail: 'message', children: root.isLeaf ? [] : root.children.map(parquetTree) };
}

/**
 * A RedElm file's row groups of columns, each column drawn as its three
 * sections (repetition levels, definition levels, values), compressed
 * each on its own.
 */
function redElmLayout(r: RedElmReader): GroupBox[] {
  const summary = redElmSummary(r);
  const codec = summary.codec.slice(summary.codec.lastIndexOf('.') + 1);
  const groups: GroupBox[] = summary.blocks.map((b, g) => {
    const chunks = b.columns.map((c, i): ChunkBox => {
      const m = r.metadata.blocks[g]!.columns[i]!;
      const section = (kind: string, start: number, end: number, uncompressed: number): PageBox => ({ kind, encoding: kind, offset: start, bytes: end - start, header: 0, uncompressed });
      return {
        group: g, path: c.path, codec, encodings: [c.type], bytes: c.compressedSize, uncompressed: c.uncompressedSize, values: c.entries,
        pages: [
          section('repetition levels', m.repetitionStart, m.definitionStart, m.repetitionUncompressedLength),
          section('definition levels', m.definitionStart, m.dataStart, m.definitionUncompressedLength),
          section('values', m.dataStart, m.dataEnd, m.dataUncompressedLength),
        ],
      };
    });
    return { label: `row group ${g}`, rows: b.records, bytes: chunks.reduce((n, c) => n + c.bytes, 0), uncompressed: chunks.reduce((n, c) => n + c.uncompressed, 0), chunks };
  });
  return groups;
}
