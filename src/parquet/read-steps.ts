/**
 * The steps every read of a Parquet reader's rows shares, whole, filtered
 * or for Arrow: counts checked, value options per leaf, VARIANT assembly,
 * whole chunks decoded. Apart from reader.ts so that its filtered and
 * Arrow parts (filtered-read.ts, chunk-groups.ts), loaded on first use,
 * take them without importing the reader.
 */
import { InvalidArgumentError, withContext, type ErrorContext } from '../errors.js';
import type { ValueOptions } from '../schema/convert.js';
import type { ColumnChunkData } from '../shred/column-data.js';
import type { RecordAssembler } from '../shred/assemble.js';
import type { LeafNode } from '../schema/tree.js';
import { leavesInVariants, type Plan, type RecordPlan } from '../shred/plan.js';
import { loadOnce } from '../load-once.js';
import { decoding, type Decoding, type FetchedChunk } from './chunk-reads.js';
import type { LevelBuffers } from './column-chunk.js';
import type { ParquetFile } from './file.js';

const variantModule = loadOnce(() => import('./variant/index.js'));

/** Decodes fetched chunks of `file` whole, with `levels` to take level buffers from when given. */
export function decodeChunks(file: ParquetFile, { decodeColumnChunk, withPageEncodings }: Decoding, fetched: FetchedChunk[], levels?: LevelBuffers): Promise<ColumnChunkData[]> {
  return withPageEncodings(() => fetched.map(({ ref, buf, base }) => decodeColumnChunk(buf, base, ref.meta, ref.leaf, levels ? { ...file.reads.chunkOptions, levels } : file.reads.chunkOptions, ref.ctx)));
}

/** `n`, checked to be a count: a safe non-negative integer. */
export function checkCount(n: number, what: string): number {
  if (!Number.isSafeInteger(n) || n < 0) throw new InvalidArgumentError(`${what} must be a non-negative integer, got ${n}`);
  return n;
}

/**
 * The value options of each leaf of a plan: none inside a VARIANT. A
 * variant's values have fixed JS forms (variant/decode.ts) whatever the
 * options, and its assembler builds those of shredded parts from their
 * stored values, as it decodes the same types from the binary value.
 */
export function valueOptionsPerLeaf(plan: RecordPlan, options: ValueOptions): ValueOptions[] {
  return leavesInVariants(plan).map((inside) => (inside ? {} : options));
}

/** What the assembler calls on each finished VARIANT group. */
export type VariantAssembly = ((parts: Record<string, unknown>, plan: Plan) => unknown) | undefined;

/** VARIANT assembly for a plan that holds a VARIANT (its module loads then), else none. */
export async function variantAssembly(plan: RecordPlan, typed: boolean): Promise<VariantAssembly> {
  if (!leavesInVariants(plan).includes(true)) return undefined;
  const { assembleVariant } = await variantModule();
  return (parts, p) => (p.t === 'variant' ? assembleVariant(parts, p.node, typed) : parts);
}

/**
 * A chunk that claims more levels than this, more densely than ordinary data
 * packs them (LEVELS_PER_BYTE a byte of the chunk: runs of nulls or of one
 * value), is decoded a window of rows at a time (chunk-stream.ts), never
 * whole; so are reads of part of a row group. Other chunks are decoded
 * whole, the fastest way, into memory in proportion to their bytes.
 */
const STREAM_LEVELS = 1 << 20;
const LEVELS_PER_BYTE = 64;

/** Whether a chunk of `leaves` in row group `rg` claims more levels than are decoded whole (see STREAM_LEVELS). */
export function largeChunks(file: ParquetFile, rg: number, leaves: LeafNode[]): boolean {
  const columns = file.metadata.rowGroups[rg]!.columns;
  return leaves.some((l) => {
    const m = columns[l.columnIndex]!.metaData;
    return m !== undefined && m.numValues > STREAM_LEVELS && !(m.numValues <= LEVELS_PER_BYTE * m.totalCompressedSize);
  });
}

/** Fetches (coalesced) and decodes the chunks of `leaves` in row group `rg`. */
export async function readChunks(file: ParquetFile, rg: number, leaves: LeafNode[]): Promise<ColumnChunkData[]> {
  const [fetched, dec] = await Promise.all([file.reads.fetchChunks(rg, leaves), decoding()]);
  return decodeChunks(file, dec, fetched);
}

/** The next `count` rows of an assembler, in arrays of at most `batchSize`. */
export function* assembledBatches(asm: RecordAssembler, ctx: ErrorContext, count: number, batchSize: number): Generator<Record<string, unknown>[]> {
  for (let done = 0; done < count; ) {
    const size = Math.min(batchSize, count - done);
    yield withContext(ctx, () => {
      const rows = new Array<Record<string, unknown>>(size);
      for (let i = 0; i < size; i++) rows[i] = asm.readRow();
      return rows;
    });
    done += size;
  }
}
