/**
 * Row groups found without a footer or checkpoint: page headers walked from
 * the file's start under a schema (and codecs) the caller knows, chunk after
 * chunk in leaf order. Where one chunk ends and the next begins is not in
 * the headers, so every split of the first leaf's pages is tried, and a row
 * group is accepted only when exactly one split lets every other leaf's
 * pages hold the same number of rows: an ambiguous or incomplete row group
 * ends the scan, so nothing found is a guess. The pages themselves are then
 * checked by the salvage read like any other.
 */
import { ByteCursor } from '../../bytes/cursor.js';
import { loadCodec, type CodecName } from '../../codecs/registry.js';
import { LimitError, ParquetryError } from '../../errors.js';
import type { Source } from '../../io/source.js';
import type { LeafNode, Schema } from '../../schema/tree.js';
import { decodeColumnChunk } from '../column-chunk.js';
import { decodePageHeader, type ColumnChunk, type ColumnMetaData, type FileMetaData, type PageHeader, type RowGroup } from '../metadata/index.js';

/** Largest file scanned (it is held in memory while its headers are walked). */
const MAX_SCAN_BYTES = 1 << 30;
/** Splits of the first leaf's pages tried per row group. */
const MAX_SPLITS = 4096;

export interface ScanResult {
  metadata: FileMetaData;
  /** Why the scan stopped where it did: the end of whole row groups, or an ambiguity. */
  stop: { offset: number; reason: string };
}

interface ChunkFound {
  start: number;
  end: number;
  dictionary: boolean;
  firstData: number;
  levels: number;
  rows: number;
  usize: number;
}

/** Row groups of `schema` from offset 4 on, each leaf compressed with `codecOf(leaf)`. */
export async function scanRowGroups(source: Source, schema: Schema, elements: FileMetaData['schema'], codecOf: (leaf: LeafNode) => CodecName): Promise<ScanResult> {
  if (source.byteLength > MAX_SCAN_BYTES) throw new LimitError(`a page-header scan holds the file in memory: ${source.byteLength} bytes is more than ${MAX_SCAN_BYTES}`, { file: source.name });
  for (const leaf of schema.leaves) if (codecOf(leaf) !== 'UNCOMPRESSED') await loadCodec(codecOf(leaf));
  const bytes = await source.read(0, source.byteLength);
  const leaves = schema.leaves;
  const rowGroups: RowGroup[] = [];
  let pos = 4;
  let reason = 'no further complete row group';
  /** Each page's rows as a page of each leaf tried, decoded once. */
  const cache = new Map<string, number | null>();
  while (pos < bytes.length && leaves.length > 0) {
    const found: ChunkFound[][] = [];
    for (const first of splits(bytes, pos, leaves[0]!, codecOf(leaves[0]!), cache)) {
      const chunks = [first];
      for (let i = 1; i < leaves.length && chunks.length === i; i++) {
        const c = chunkOf(bytes, chunks[i - 1]!.end, leaves[i]!, codecOf(leaves[i]!), first.rows, cache);
        if (c) chunks.push(c);
      }
      if (chunks.length === leaves.length) found.push(chunks);
      if (found.length > 1) break;
    }
    if (found.length !== 1) {
      if (found.length > 1) reason = 'the chunks could be split more than one way';
      break;
    }
    const chunks = found[0]!;
    const end = chunks[chunks.length - 1]!.end;
    rowGroups.push({
      columns: chunks.map((c, i) => columnChunk(c, leaves[i]!, codecOf(leaves[i]!))),
      totalByteSize: chunks.reduce((n, c) => n + c.usize, 0),
      numRows: chunks[0]!.rows,
      fileOffset: pos,
      totalCompressedSize: end - pos,
      ordinal: rowGroups.length,
    });
    pos = end;
  }
  const numRows = rowGroups.reduce((n, g) => n + g.numRows, 0);
  return { metadata: { version: 1, schema: elements, numRows, rowGroups }, stop: { offset: pos, reason } };
}

function columnChunk(c: ChunkFound, leaf: LeafNode, codec: CodecName): ColumnChunk {
  const meta: ColumnMetaData = {
    type: leaf.physicalType as ColumnMetaData['type'],
    encodings: [],
    pathInSchema: leaf.path,
    codec: codec as ColumnMetaData['codec'],
    numValues: c.levels,
    totalUncompressedSize: c.usize,
    totalCompressedSize: c.end - c.start,
    dataPageOffset: c.firstData,
  };
  if (c.dictionary) meta.dictionaryPageOffset = c.start;
  return { fileOffset: c.start, metaData: meta };
}

/** The first leaf's chunk ending after each of its data pages in turn (a dictionary page after data pages starts another chunk). */
function* splits(bytes: Uint8Array, start: number, leaf: LeafNode, codec: CodecName, cache: Map<string, number | null>): Generator<ChunkFound> {
  const walk = new ChunkWalk(bytes, start, leaf, codec, cache);
  for (let n = 0; n < MAX_SPLITS && walk.step(); n++) if (walk.chunk.rows > 0) yield { ...walk.chunk };
}

/** The chunk of `leaf` at `start` holding exactly `rows` rows, or null. */
function chunkOf(bytes: Uint8Array, start: number, leaf: LeafNode, codec: CodecName, rows: number, cache: Map<string, number | null>): ChunkFound | null {
  const walk = new ChunkWalk(bytes, start, leaf, codec, cache);
  while (walk.chunk.rows < rows) if (!walk.step()) return null;
  return walk.chunk.rows === rows ? walk.chunk : null;
}

/** A chunk's pages one at a time, each decoded as the leaf's: rows from its levels (or its value count, for an unrepeated leaf). */
class ChunkWalk {
  chunk: ChunkFound;
  private dict: { bytes: Uint8Array; base: number } | null = null;

  constructor(private readonly bytes: Uint8Array, start: number, private readonly leaf: LeafNode, private readonly codec: CodecName, private readonly cache: Map<string, number | null>) {
    this.chunk = { start, end: start, dictionary: false, firstData: start, levels: 0, rows: 0, usize: 0 };
  }

  /** Takes the next data page (and a leading dictionary page); false when there is none that fits. */
  step(): boolean {
    const c = this.chunk;
    for (;;) {
      const page = this.header(c.end);
      if (!page) return false;
      const { header, next } = page;
      if (header.type === 'DICTIONARY_PAGE') {
        if (c.end !== c.start) return false;
        this.dict = { bytes: this.bytes.subarray(c.start, next), base: c.start };
        c.dictionary = true;
        c.usize += header.uncompressedPageSize;
        c.end = next;
        c.firstData = next;
        continue;
      }
      const data = header.dataPageHeader ?? header.dataPageHeaderV2;
      if (!data) return false;
      const rows = this.rows(header, c.end, next);
      if (rows === null) return false;
      c.levels += data.numValues;
      c.rows += rows;
      c.usize += header.uncompressedPageSize;
      c.end = next;
      return true;
    }
  }

  private header(at: number): { header: PageHeader; next: number } | null {
    try {
      const cur = new ByteCursor(this.bytes, at, this.bytes.length, 0);
      const header = decodePageHeader(cur);
      const size = header.compressedPageSize;
      if (!(size >= 0 && header.uncompressedPageSize >= 0) || size > cur.remaining) return null;
      return { header, next: cur.pos + size };
    } catch (e) {
      if (e instanceof ParquetryError) return null;
      throw e;
    }
  }

  /** The page's rows when it decodes as this leaf's page (CRC, levels, values), else null. */
  private rows(header: PageHeader, at: number, next: number): number | null {
    const key = `${this.leaf.columnIndex}:${this.dict?.base ?? -1}:${at}`;
    const known = this.cache.get(key);
    if (known !== undefined) return known;
    const rows = this.decodeRows(header, at, next);
    this.cache.set(key, rows);
    return rows;
  }

  private decodeRows(header: PageHeader, at: number, next: number): number | null {
    const n = (header.dataPageHeader ?? header.dataPageHeaderV2)!.numValues;
    try {
      const piece = { bytes: this.bytes.subarray(at, next), base: at };
      const meta = { codec: this.codec, numValues: n } as ColumnMetaData;
      const d = decodeColumnChunk(piece.bytes, at, meta, this.leaf, { verifyChecksums: true, pieces: this.dict ? [this.dict, piece] : [piece], numValues: n }, {});
      if (d.rep === null) return n;
      // A page must start a row: one that continues a row cannot be placed without the page before it.
      if (d.length > 0 && d.rep[0] !== 0) return null;
      let rows = 0;
      for (let i = 0; i < d.length; i++) if (d.rep[i] === 0) rows++;
      if (header.dataPageHeaderV2 && header.dataPageHeaderV2.numRows !== rows) return null;
      return rows;
    } catch (e) {
      if (e instanceof ParquetryError) return null;
      throw e;
    }
  }
}
