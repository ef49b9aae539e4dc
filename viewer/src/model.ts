/**
 * What the page shows, the same for every format the library reads: a
 * schema tree, a layout (Parquet: row groups → column chunks → pages;
 * RedElm: row groups → columns → their level and value sections; Trevni:
 * the file → columns → blocks) with sizes, and rows read on demand by
 * offset and limit, so nothing is loaded whole.
 */
import {
  FORMAT_MAGIC_BYTES, ParquetReader, RedElmReader, TrevniDraftReader, TrevniReader, chunkPages, decodeStatistics, detectFormat, openTable, openTrevni, parseWhere,
  redElmSummary, schemaAnnotation, selectChunks, type ChunkRef, type FileFormat, type Filter, type SchemaNode, type Source, type TrevniBlock, type TrevniColumn,
} from 'parquetry';

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
  kind: FileFormat | 'csv' | 'tsv' | 'jsonl' | 'json';
  /** A variant of the format worth naming (the Trevni draft's Dremel dialect). */
  dialect?: string;
  name: string;
  size: number;
  rows: number;
  schema: TreeNode;
  groups: GroupBox[];
  /** The data table's columns: the row objects' top-level keys. */
  columns: string[];
  /** Fills `chunk.pages`. */
  loadPages(chunk: ChunkBox): Promise<void>;
  /** Parses a `--where` expression; only Parquet files have one. */
  filter?: (where: string) => Filter;
  /** Rows matching `filter` (counting through the smallest column). */
  count(filter: Filter): Promise<number>;
  read(offset: number, limit: number, filter?: Filter): Promise<Record<string, unknown>[]>;
}

/**
 * Opens a Parquet, Trevni (any version or dialect) or RedElm file, told
 * apart by its magic, else any other table `openTable` tells by its name
 * (CSV, TSV, JSON Lines, JSON), as the CLI tells them.
 */
export async function openFile(source: Source): Promise<Opened> {
  const head = await source.read(0, Math.min(source.byteLength, FORMAT_MAGIC_BYTES));
  switch (detectFormat(head)) {
    case 'parquet':
      return openParquetFile(source);
    case 'trevni': {
      const r = await openTrevni(source);
      return r instanceof TrevniDraftReader ? openTrevniDraft(source, r) : openTrevniFile(source, r);
    }
    case 'redelm':
      return openRedElmFile(source, await RedElmReader.open(source));
    default:
      return openTextFile(source);
  }
}

/**
 * CSV, TSV, JSON Lines or JSON, read into a table at open: no layout to
 * draw, rows and filters as Parquet's. `openTable` tells the format by the
 * name, and says when it cannot.
 */
async function openTextFile(source: Source): Promise<Opened> {
  const table = await openTable(source, { name: source.name ?? 'file' });
  const columns = table.schema.root.isLeaf ? [] : table.schema.root.children.map((c) => c.name);
  return {
    kind: table.format as Opened['kind'], name: source.name ?? 'file', size: source.byteLength, rows: table.numRows,
    schema: schemaTree(table.schema.root),
    groups: [],
    columns,
    loadPages: async () => {},
    filter: (where) => parseWhere(where, 'filter'),
    async count(filter) {
      let n = 0;
      for await (const batch of table.rowBatches({ filter, columns: columns.slice(0, 1), batchSize: 8192 })) n += batch.length;
      return n;
    },
    read: sequentialReads((offset, filter) => table.rows({ offset, ...(filter ? { filter } : {}), temporal: 'iso' })),
  };
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

async function openParquetFile(source: Source): Promise<Opened> {
  const reader = await ParquetReader.fromSource(source);
  const m = reader.metadata;
  const groups: GroupBox[] = m.rowGroups.map((rg, i) => ({ label: `row group ${i}`, rows: rg.numRows, bytes: 0, uncompressed: 0, chunks: [] }));
  for (const ref of selectChunks(reader)) {
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
  const smallest = [...reader.schema.leaves].sort((a, b) => a.path.length - b.path.length)[0];
  return {
    kind: 'parquet', name: source.name ?? 'file', size: source.byteLength, rows: reader.numRows,
    schema: schemaTree(reader.schema.root),
    groups,
    columns: reader.plan().fields.map((f) => f.name),
    async loadPages(chunk) {
      if (chunk.pages || !chunk.ref) return;
      try {
        const [walk, index] = await Promise.all([chunkPages(reader, source, chunk.ref), reader.pageIndex(chunk.group, chunk.ref.leaf.path)]);
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
    filter: (where) => parseWhere(where, 'filter'),
    async count(filter) {
      let n = 0;
      for await (const batch of reader.rowBatches({ filter, columns: smallest ? [smallest.path] : [], batchSize: 8192 })) n += batch.length;
      return n;
    },
    read: sequentialReads((offset, filter) => reader.rows({ offset, filter, temporal: 'iso' })),
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

async function openTrevniFile(source: Source, r: TrevniReader): Promise<Opened> {
  const tree = (i: number): TreeNode => {
    const c = r.columns[i]!;
    return { name: c.name, detail: `${c.type}${c.array ? '[]' : ''}`, children: c.children.map(tree) };
  };
  const file = await trevniLayout(r.numRows, r.columns, (c) => r.blocks(c.index));
  return {
    kind: 'trevni', name: source.name ?? 'file', size: source.byteLength, rows: r.numRows,
    schema: { name: 'trevni', detail: `${r.columns.length} columns`, children: r.roots.map(tree) },
    groups: [file],
    columns: r.roots.map((i) => r.columns[i]!.name),
    loadPages: async () => {},
    count: async () => r.numRows,
    read: sequentialReads((offset) => r.rows({ offset })),
  };
}

/** A Parquet schema tree (RedElm's and the Trevni draft's schemas are such trees too). */
function schemaTree(root: SchemaNode): TreeNode {
  return { name: root.name || 'schema', detail: 'message', children: root.isLeaf ? [] : root.children.map(parquetTree) };
}

/** A draft-dialect Trevni file: its leaf columns' blocks, like any Trevni file's; rows in the Parquet form. */
async function openTrevniDraft(source: Source, r: TrevniDraftReader): Promise<Opened> {
  // Group columns hold no blocks.
  const file = await trevniLayout(r.numRows, r.columns.filter((c) => c.type !== 'null'), (c) => r.blocks(c.name));
  return {
    kind: 'trevni', dialect: 'wiki draft, Dremel levels', name: source.name ?? 'file', size: source.byteLength, rows: r.numRows,
    schema: schemaTree(r.schema.root),
    groups: [file],
    columns: r.schema.root.children.map((c) => c.name),
    loadPages: async () => {},
    count: async () => r.numRows,
    read: sequentialReads((offset) => r.rows({ offset })),
  };
}

/**
 * A RedElm file: row groups of columns, each column drawn as its three
 * sections (repetition levels, definition levels, values), compressed
 * each on its own.
 */
function openRedElmFile(source: Source, r: RedElmReader): Opened {
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
  return {
    kind: 'redelm', name: source.name ?? 'file', size: source.byteLength, rows: r.numRows,
    schema: schemaTree(r.schema.root),
    groups,
    columns: r.plan().fields.map((f) => f.name),
    loadPages: async () => {},
    count: async () => r.numRows,
    read: sequentialReads((offset) => r.rows({ offset })),
  };
}
