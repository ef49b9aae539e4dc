/**
 * A filtered read of one row group, in the order that reads least: chunk
 * statistics, then bloom filters (`=`, `in`), then the page index (only the
 * pages overlapping the row ranges that can match, in every column read),
 * then exact filtering of the decoded filter columns. The reader supplies
 * fetching (coalesced), chunk locations and decoding through `ScanHost`;
 * page indexes and bloom filters are cached per chunk in `IndexCache`.
 */
import { ByteCursor } from '../../bytes/cursor.js';
import { CorruptFileError, ParquetryError, withContext, type ErrorContext } from '../../errors.js';
import type { LeafNode } from '../../schema/tree.js';
import { hashPhysical, loadBloomHasher, parseBloomFilter, type ParsedBloomFilter } from '../bloom/index.js';
import type { ColumnChunkData } from '../../shred/column-data.js';
import { ModuleType } from '../crypto/aad.js';
import type { LazyColumn, PageLocation } from '../lazy-column.js';
import { RowSelection } from '../row-selection.js';
import type { FileDecryptor } from '../crypto/decryptor.js';
import { decodePageHeader, type ColumnIndex, type OffsetIndex } from '../metadata/index.js';
import { readsNoChunks, type ChunkLocation, type ChunkLocator } from '../chunk-locator.js';
import { bloomStartInside, columnIndexRange, offsetIndexRange, structRange } from '../index-ranges.js';
import type { Fetched } from '../../io/coalesce.js';
import type { Domain, Lit } from './compare.js';
import { evaluateRows, selectedRows } from './evaluate.js';
import type { BoundFilter } from './expression.js';
import { filterDomains, filterLeaves } from './expression.js';
import {
  bloomFilterExtent, BLOOM_HEADER_GUESS, checkColumnIndex, checkOffsetIndex, parseColumnIndex, parseOffsetIndex, type Range,
} from './indexes.js';
import { matchingRanges, pagesFor, rangeRows, trimToRanges, usableColumnIndex, type LeafPageIndex } from './prune-pages.js';
import { bloomCandidates, possible, rowGroupStats } from './prune-stats.js';

/** What a scan needs of the file it reads: where chunks lie, fetching (coalesced), decryption and decoding. */
export interface ScanHost {
  readonly locator: ChunkLocator;
  /** Reads the ranges, neighbours in one request. */
  fetch(ranges: Range[]): Promise<Fetched[]>;
  loadDecoders(refs: ChunkLocation[]): Promise<void>;
  decode(ref: ChunkLocation, buf: Uint8Array, base: number, pieces?: { pieces: { bytes: Uint8Array; base: number }[]; numValues: number }): ColumnChunkData;
  /** Runs decodes, again once the page encodings are loaded when a page needs one its chunk's metadata did not list. */
  decoded<T>(decode: () => T): Promise<T>;
  /** For an encrypted file: chunks, indexes and bloom filters are decrypted before use. */
  readonly decryptor?: FileDecryptor;
  /** The chunk read page by page as rows are asked of it (its codec loaded first), passing over pages by `pages` (its offset index) where given. */
  lazy(ref: ChunkLocation, pages?: readonly PageLocation[]): Promise<LazyColumn>;
}

/** An index structure's bytes, decrypted when its chunk is encrypted. */
async function plainIndex(host: ScanHost, ref: ChunkLocation, b: { buf: Uint8Array; base: number } | null, type: typeof ModuleType.COLUMN_INDEX | typeof ModuleType.OFFSET_INDEX): Promise<{ buf: Uint8Array; base: number } | null> {
  const d = host.decryptor;
  if (!b || !d?.encrypted(ref.chunk, ref.ctx)) return b;
  return { buf: await d.decryptIndex(ref.chunk, b.buf, type, { ...ref.ctx, offset: b.base }), base: b.base };
}

interface Indexes {
  ci: ColumnIndex | null;
  oi: OffsetIndex | null;
}

/** Page indexes and bloom filters already read, per row group and column. */
export class IndexCache {
  private readonly indexes = new Map<string, Promise<Indexes>>();
  private readonly blooms = new Map<string, Promise<ParsedBloomFilter | null>>();

  constructor(private readonly host: ScanHost) {}

  /** The chunk's column index and offset index (each null when absent), validated against each other and the chunk. */
  pageIndexes(rg: number, leaf: LeafNode): Promise<Indexes> {
    return this.manyIndexes(rg, [leaf], 'both').then((m) => m.get(leaf)!);
  }

  /**
   * Several chunks' indexes, those not yet cached read in one batch
   * (coalesced). `offset` reads only the offset indexes (a column index
   * then shows as null).
   */
  async manyIndexes(rg: number, leaves: LeafNode[], want: 'both' | 'offset'): Promise<Map<LeafNode, Indexes>> {
    const key = (l: LeafNode, w: string): string => `${rg}/${l.columnIndex}/${w}`;
    const cached = (l: LeafNode): Promise<Indexes> | undefined => this.indexes.get(key(l, 'both')) ?? (want === 'offset' ? this.indexes.get(key(l, 'offset')) : undefined);
    const missing = leaves.filter((l) => cached(l) === undefined);
    if (missing.length > 0) {
      const refs = missing.map((l) => this.host.locator.locate(rg, l));
      const ranges: Range[] = [];
      const spots = refs.map((r) => {
        const ci = want === 'both' ? columnIndexRange(this.host.locator.fileSize, r, r.ctx) : null;
        const oi = offsetIndexRange(this.host.locator.fileSize, r, r.ctx);
        return { ci: ci ? ranges.push(ci) - 1 : -1, oi: oi ? ranges.push(oi) - 1 : -1 };
      });
      const fetched = this.host.fetch(ranges);
      refs.forEach((r, i) => {
        const s = spots[i]!;
        const p = fetched.then(async (bufs) => {
          const [ci, oi] = await Promise.all([
            plainIndex(this.host, r, s.ci >= 0 ? bufs[s.ci]! : null, ModuleType.COLUMN_INDEX),
            plainIndex(this.host, r, s.oi >= 0 ? bufs[s.oi]! : null, ModuleType.OFFSET_INDEX),
          ]);
          return this.decodeIndexes(rg, r, ci, oi);
        });
        const k = key(r.leaf, want);
        this.indexes.set(k, p);
        p.catch(() => this.indexes.delete(k));
      });
    }
    const out = new Map<LeafNode, Indexes>();
    for (const l of leaves) out.set(l, await cached(l)!);
    return out;
  }

  private decodeIndexes(rg: number, ref: ChunkLocation, ciBuf: { buf: Uint8Array; base: number } | null, oiBuf: { buf: Uint8Array; base: number } | null): Indexes {
    const numRows = this.host.locator.metadata.rowGroups[rg]!.numRows;
    return withContext(ref.ctx, () => {
      let oi = oiBuf ? parseOffsetIndex(oiBuf.buf, oiBuf.base, ref.ctx) : null;
      const shift = ref.fileBase;
      if (oi && shift) oi = { ...oi, pageLocations: oi.pageLocations.map((l) => ({ ...l, offset: l.offset + shift })) };
      if (oi) checkOffsetIndex(oi, numRows, { start: ref.start, end: ref.end }, ref.ctx);
      const ci = ciBuf ? parseColumnIndex(ciBuf.buf, ciBuf.base, ref.ctx) : null;
      if (ci) checkColumnIndex(ci, oi ? oi.pageLocations.length : undefined, ref.ctx);
      return { ci, oi };
    });
  }

  /** The chunk's bloom filter, or null when it has none. */
  bloom(rg: number, leaf: LeafNode): Promise<ParsedBloomFilter | null> {
    const key = `${rg}/${leaf.columnIndex}`;
    let p = this.blooms.get(key);
    if (!p) {
      p = this.readBloom(rg, leaf);
      this.blooms.set(key, p);
      p.catch(() => this.blooms.delete(key));
    }
    return p;
  }

  private async readBloom(rg: number, leaf: LeafNode): Promise<ParsedBloomFilter | null> {
    const ref = this.host.locator.locate(rg, leaf);
    const off = ref.meta.bloomFilterOffset;
    if (off === undefined) return null;
    const { locator } = this.host;
    const ctx = { ...ref.ctx, offset: off };
    let len = ref.meta.bloomFilterLength;
    if (this.host.decryptor?.encrypted(ref.chunk, ref.ctx)) return this.readEncryptedBloom(ref, off, len, ctx);
    if (len === undefined) {
      // Older files do not record the length: read the header first, then the bitset.
      if (!bloomStartInside(locator.fileSize, off, 1)) throw new CorruptFileError(`bloom filter offset ${off} lies outside the ${locator.fileSize}-byte file`, ctx);
      const [head] = await this.host.fetch([{ start: off, end: Math.min(off + BLOOM_HEADER_GUESS, locator.fileSize - 8) }]);
      len = bloomFilterExtent(head!.buf, off, ref.ctx);
      if (len <= head!.buf.length) return parseBloomFilter(head!.buf.subarray(0, len), ctx);
    }
    const range = structRange(locator.fileSize, off, len, 'bloom filter', ref.ctx)!;
    const [b] = await this.host.fetch([range]);
    return withContext(ref.ctx, () => parseBloomFilter(b!.buf, ctx));
  }

  /** An encrypted bloom filter: header module then bitset module, each with its length, decrypted before it is parsed. */
  private async readEncryptedBloom(ref: ChunkLocation, off: number, len: number | undefined, ctx: ErrorContext): Promise<ParsedBloomFilter> {
    const { locator } = this.host;
    if (len === undefined) {
      // The two module lengths give the extent: the header module's, then the bitset module's after it.
      if (!bloomStartInside(locator.fileSize, off, 4)) throw new CorruptFileError(`bloom filter offset ${off} lies outside the ${locator.fileSize}-byte file`, ctx);
      const [h] = await this.host.fetch([{ start: off, end: off + 4 }]);
      const headerLen = 4 + new DataView(h!.buf.buffer, h!.buf.byteOffset, 4).getUint32(0, true);
      const at = off + headerLen;
      if (!bloomStartInside(locator.fileSize, at, 4)) throw new CorruptFileError(`bloom filter header module of ${headerLen} bytes runs past the file`, ctx);
      const [b] = await this.host.fetch([{ start: at, end: at + 4 }]);
      len = headerLen + 4 + new DataView(b!.buf.buffer, b!.buf.byteOffset, 4).getUint32(0, true);
    }
    const range = structRange(locator.fileSize, off, len, 'bloom filter', ref.ctx)!;
    const [b] = await this.host.fetch([range]);
    const plain = await this.host.decryptor!.decryptBloom(ref.chunk, b!.buf, ctx);
    return withContext(ref.ctx, () => parseBloomFilter(plain, ctx));
  }
}

/** A bloom filter answer for a normalised literal: false only when the value is surely absent. */
export function bloomMightContain(domain: Domain, bf: ParsedBloomFilter, lit: Lit): boolean {
  if (lit.k === 'null') return false;
  if (lit.k !== 'val') return true;
  if (!lit.exact) return false;
  const phys = domain.physical(lit.lo);
  if (phys === undefined) return true;
  return bf.filter.mightContain(hashPhysical(domain.leaf.physicalType, phys));
}

export interface FilteredGroup {
  /** Decoded data of the projected leaves, trimmed to the rows read. */
  columns: ColumnChunkData[];
  /** Rows read (the kept row ranges). */
  rows: number;
  /** Indexes (among the rows read) of the rows that match. */
  selected: Int32Array;
}

/**
 * The row ranges of row group `rg` where the filter can match, in the order
 * that reads least (module comment): null when pruning proves none does.
 */
async function candidateRanges(host: ScanHost, cache: IndexCache, rg: number, f: BoundFilter): Promise<Range[] | null> {
  const group = host.locator.metadata.rowGroups[rg]!;
  if (readsNoChunks(group)) return null;
  const { numRows } = group;
  const doms = filterDomains(f);
  const fLeaves = filterLeaves(f);
  const orders = host.locator.metadata.columnOrders;
  const stats = rowGroupStats(doms, (leaf) => host.locator.locate(rg, leaf).meta, orders);
  // 1. chunk statistics
  if (!possible(f, (l) => stats.get(l)).canTrue) return null;
  // 2. bloom filters, for = and in
  const blooms = [...bloomCandidates(f)].filter((l) => host.locator.locate(rg, l).meta.bloomFilterOffset !== undefined);
  if (blooms.length > 0) {
    await loadBloomHasher();
    const filters = await Promise.all(blooms.map((l) => cache.bloom(rg, l).catch((e: unknown) => {
      if (e instanceof ParquetryError && e.code === 'UNSUPPORTED') return null; // a filter we cannot read only prunes nothing
      throw e;
    })));
    blooms.forEach((leaf, i) => {
      const bf = filters[i];
      if (bf) stats.get(leaf)!.mightContain = (lit) => bloomMightContain(doms.get(leaf)!, bf, lit);
    });
    if (!possible(f, (l) => stats.get(l)).canTrue) return null;
  }
  // 3. page index: the row ranges the filter can match
  let ranges: Range[] = [{ start: 0, end: numRows }];
  const indexed = fLeaves.filter((l) => {
    const c = host.locator.locate(rg, l).chunk;
    return c.columnIndexOffset !== undefined && c.offsetIndexOffset !== undefined;
  });
  if (indexed.length > 0) {
    const idx = await cache.manyIndexes(rg, indexed, 'both');
    const pageIndexes: LeafPageIndex[] = [];
    for (const leaf of indexed) {
      const { ci, oi } = idx.get(leaf)!;
      const st = stats.get(leaf)!;
      const hasValues = st.min !== undefined || (st.nullCount !== undefined && st.nullCount < host.locator.locate(rg, leaf).meta.numValues);
      if (ci && oi && usableColumnIndex(ci, oi, leaf, numRows, hasValues)) pageIndexes.push({ leaf, domain: doms.get(leaf)!, ci, oi, order: orders?.[leaf.columnIndex], ordersPresent: orders !== undefined });
    }
    if (pageIndexes.length > 0) ranges = matchingRanges(f, numRows, pageIndexes);
    if (ranges.length === 0) return null;
  }
  return ranges;
}

/** The projected leaves, then the filter's leaves not among them: the order of the data a scan reads. */
function neededLeaves(f: BoundFilter, projected: LeafNode[]): LeafNode[] {
  const needed = [...projected];
  for (const l of filterLeaves(f)) if (!needed.includes(l)) needed.push(l);
  return needed;
}

/** Reads row group `rg` under a filter; null when pruning proves that no row matches. */
export async function scanRowGroup(host: ScanHost, cache: IndexCache, rg: number, f: BoundFilter, projected: LeafNode[]): Promise<FilteredGroup | null> {
  const ranges = await candidateRanges(host, cache, rg, f);
  if (!ranges) return null;
  const numRows = host.locator.metadata.rowGroups[rg]!.numRows;
  const whole = ranges.length === 1 && ranges[0]!.start === 0 && ranges[0]!.end === numRows;
  const needed = neededLeaves(f, projected);
  const data = whole ? await readWhole(host, rg, needed) : await readRanges(host, cache, rg, needed, ranges);
  const rows = rangeRows(ranges);
  // 4. exact filtering
  const byLeaf = new Map<LeafNode, ColumnChunkData>();
  needed.forEach((l, i) => byLeaf.set(l, data[i]!));
  const results = withContext({ rowGroup: rg }, () => evaluateRows(f, byLeaf, rows));
  return { columns: projected.map((_, i) => data[i]!), rows, selected: selectedRows(results) };
}

/** Rows of the first window a scan that stops early evaluates; each next window doubles, up to LAST_WINDOW. */
const FIRST_WINDOW = 256;
const LAST_WINDOW = 1 << 16;

/**
 * Row group `rg` under a filter for a read that wants at most `want` of its
 * matching rows: the filter's columns are read page by page (lazy-column.ts)
 * a window of rows at a time, through the row ranges pruning leaves; the
 * other projected columns only over the rows from a window's first match to
 * its last one wanted, their other pages passed over. Reading stops once
 * `want` rows match. Each part yielded holds the projected columns over its
 * rows and which of them match.
 */
export async function* scanRowGroupUntil(host: ScanHost, cache: IndexCache, rg: number, f: BoundFilter, projected: LeafNode[], want: number): AsyncGenerator<FilteredGroup> {
  const ranges = await candidateRanges(host, cache, rg, f);
  if (!ranges || want <= 0) return;
  const needed = neededLeaves(f, projected);
  const fLeaves = new Set(filterLeaves(f));
  const refs = needed.map((l) => host.locator.locate(rg, l));
  await host.loadDecoders(refs);
  // Offset indexes, where the chunks have them, let the read pass over pages without reading their headers.
  const withOffsets = needed.filter((l, i) => refs[i]!.chunk.offsetIndexOffset !== undefined);
  const idx = withOffsets.length > 0 ? await cache.manyIndexes(rg, withOffsets, 'offset') : new Map<LeafNode, Indexes>();
  const columns = await Promise.all(refs.map((r) => host.lazy(r, idx.get(r.leaf)?.oi?.pageLocations)));
  /** Each column's next row. */
  const at = needed.map(() => 0);
  const read = async (i: number, start: number, end: number): Promise<ColumnChunkData> => {
    await columns[i]!.skip(start - at[i]!);
    at[i] = end;
    return columns[i]!.take(end - start);
  };
  const filterAt = needed.flatMap((l, i) => (fLeaves.has(l) ? [i] : []));
  let found = 0;
  let window = FIRST_WINDOW;
  for (const range of RowSelection.of(ranges).ranges) {
    for (let start = range.start; start < range.end && found < want; ) {
      const end = Math.min(range.end, start + window);
      window = Math.min(2 * window, LAST_WINDOW);
      const data = await Promise.all(filterAt.map((i) => read(i, start, end)));
      const byLeaf = new Map<LeafNode, ColumnChunkData>();
      filterAt.forEach((i, k) => byLeaf.set(needed[i]!, data[k]!));
      const matches = withContext({ rowGroup: rg }, () => selectedRows(evaluateRows(f, byLeaf, end - start)));
      if (matches.length > 0) {
        const keep = matches.subarray(0, want - found);
        const first = keep[0]!;
        const last = keep[keep.length - 1]! + 1;
        const parts = await Promise.all(projected.map((leaf, i) => {
          if (!fLeaves.has(leaf)) return read(i, start + first, start + last);
          const c = byLeaf.get(leaf)!;
          return withContext(refs[i]!.ctx, () => trimToRanges(c, leaf, [{ start: 0, end: end - start }], [{ start: first, end: last }]));
        }));
        const selected = keep.map((r) => r - first);
        found += keep.length;
        yield { columns: parts, rows: last - first, selected };
      }
      start = end;
    }
  }
}

async function readWhole(host: ScanHost, rg: number, leaves: LeafNode[]): Promise<ColumnChunkData[]> {
  const refs = leaves.map((l) => host.locator.locate(rg, l));
  await host.loadDecoders(refs);
  const bufs = await host.fetch(refs);
  await host.decryptor?.plainChunks(refs, bufs);
  return host.decoded(() => refs.map((r, i) => host.decode(r, bufs[i]!.buf, bufs[i]!.base)));
}

/** Reads only the pages of each column that overlap `ranges`, trimmed to exactly those rows. */
export async function readRanges(host: ScanHost, cache: IndexCache, rg: number, leaves: LeafNode[], ranges: Range[]): Promise<ColumnChunkData[]> {
  const numRows = host.locator.metadata.rowGroups[rg]!.numRows;
  const refs = leaves.map((l) => host.locator.locate(rg, l));
  await host.loadDecoders(refs);
  const withOffsets = leaves.filter((l, i) => refs[i]!.chunk.offsetIndexOffset !== undefined);
  const idx = withOffsets.length > 0 ? await cache.manyIndexes(rg, withOffsets, 'offset') : new Map<LeafNode, Indexes>();
  interface Plan { ref: ChunkLocation; pieces: Range[] | null; pageStarts: number[]; covered: Range[] }
  const plans: Plan[] = refs.map((ref) => {
    const oi = idx.get(ref.leaf)?.oi;
    // Encrypted pages are bound to their ordinals in the chunk: read whole, then trimmed.
    if (!oi || host.decryptor?.encrypted(ref.chunk, ref.ctx)) return { ref, pieces: null, pageStarts: [], covered: [{ start: 0, end: numRows }] };
    const { pages, covered } = pagesFor(oi, numRows, ranges);
    const locs = oi.pageLocations;
    const pieces: Range[] = [];
    // The dictionary page (anything before the first data page) comes along.
    const first = locs[0]!.offset;
    if (first > ref.start) pieces.push({ start: ref.start, end: first });
    for (const i of pages) {
      const s = locs[i]!.offset;
      const e = s + locs[i]!.compressedPageSize;
      const last = pieces[pieces.length - 1];
      if (last && last.end === s) last.end = e;
      else pieces.push({ start: s, end: e });
    }
    return { ref, pieces, pageStarts: pages.map((i) => locs[i]!.offset), covered };
  });
  const all: Range[] = [];
  const at: number[] = [];
  for (const p of plans) {
    at.push(all.length);
    // One by one: an offset index's pages can be more than a spread passes on the stack.
    if (p.pieces) for (const piece of p.pieces) all.push(piece);
    else all.push(p.ref);
  }
  const bufs = await host.fetch(all);
  const whole = plans.map((p, k) => ({ ref: p.ref, k })).filter((x) => !plans[x.k]!.pieces);
  await host.decryptor?.plainChunks(whole.map((x) => x.ref), whole.map((x) => bufs[at[x.k]!]!));
  return host.decoded(() => plans.map((p, k) => {
    const { ref } = p;
    if (!p.pieces) {
      const b = bufs[at[k]!]!;
      return withContext(ref.ctx, () => trimToRanges(host.decode(ref, b.buf, b.base), ref.leaf, p.covered, ranges));
    }
    const pieces = p.pieces.map((_, j) => ({ bytes: bufs[at[k]! + j]!.buf, base: bufs[at[k]! + j]!.base }));
    // Level counts of the chosen pages, from their headers.
    let numValues = 0;
    for (const s of p.pageStarts) {
      const piece = pieces.find((x) => x.base <= s && s < x.base + x.bytes.length)!;
      numValues += withContext({ ...ref.ctx, offset: s }, () => {
        const h = decodePageHeader(new ByteCursor(piece.bytes, s - piece.base, piece.bytes.length, piece.base));
        const n = h.dataPageHeader?.numValues ?? h.dataPageHeaderV2?.numValues;
        if (n === undefined || !(n >= 0)) throw new CorruptFileError(`offset index points at a ${h.type} page, not a data page`);
        return n;
      });
    }
    const c = host.decode(ref, pieces[0]!.bytes, pieces[0]!.base, { pieces, numValues });
    return withContext(ref.ctx, () => trimToRanges(c, ref.leaf, p.covered, ranges));
  }));
}
