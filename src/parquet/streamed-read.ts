/**
 * A reader's reads a window of rows at a time: rows of part of a row group,
 * or of chunks too large to decode whole (streamedBatches), and the column
 * batches of `columns()`, whose large chunks come in windows. Loaded by the
 * first such read, so a read of small row groups whole does not load it.
 */
import { withContext } from '../errors.js';
import type { ValueOptions } from '../schema/convert.js';
import type { LeafNode } from '../schema/tree.js';
import type { RecordPlan } from '../shred/plan.js';
import { readsNoChunks } from './chunk-locator.js';
import { decoding } from './chunk-reads.js';
import { ChunkStream } from './chunk-stream.js';
import { rowGroupIndexes, type ParquetFile } from './file.js';
import type { LazyColumn } from './lazy-column.js';
import type { ColumnBatch, ReadOptions } from './read-options.js';
import { assembledBatches, largeChunks, readChunks, type VariantAssembly } from './read-steps.js';
import { RowSelection } from './row-selection.js';

/** Rows per window of a streamed row group. */
const WINDOW_ROWS = 1 << 16;

/**
 * Rows [skip, skip + take) of row group `rg`, decoded a window of rows at
 * a time: each window's levels and values are assembled and let go before
 * the next is decoded. Part of a row group is read lazily, page by page
 * (lazy-column.ts); the whole of one is fetched first, in one coalesced read.
 */
export async function* streamedBatches(file: ParquetFile, rg: number, plan: RecordPlan, leafOptions: ValueOptions[], finishVariant: VariantAssembly, batchSize: number, skip: number, take: number): AsyncGenerator<Record<string, unknown>[]> {
  const ctx = { file: file.name, rowGroup: rg };
  const whole = take === file.metadata.rowGroups[rg]!.numRows;
  const [columns, { leafColumn, RecordAssembler }] = await Promise.all([lazyColumns(file, rg, plan.leaves, whole), decoding()]);
  const selection = RowSelection.all(file.metadata.rowGroups[rg]!.numRows).slice(skip, take);
  let at = 0;
  for (const range of selection.ranges) {
    await Promise.all(columns.map((c) => c.skip(range.start - at)));
    for (let left = range.end - range.start; left > 0; ) {
      // The first window only as large as the read: a limit of 3 decodes 3 rows.
      const k = Math.min(left, WINDOW_ROWS);
      const data = await Promise.all(columns.map((c) => c.take(k)));
      const cols = plan.leaves.map((leaf, i) => withContext({ ...ctx, column: leaf.path.join('.') }, () => leafColumn(leaf, data[i]!, leafOptions[i]!)));
      const asm = new RecordAssembler(plan, cols, finishVariant);
      yield* assembledBatches(asm, ctx, k, batchSize);
      // A window holds exactly its rows in every leaf: all its levels and values are used.
      withContext(ctx, () => asm.finish());
      left -= k;
    }
    at = range.end;
  }
  if (whole) await Promise.all(columns.map((c) => c.finish()));
}

/**
 * The chunks of `leaves` in row group `rg`, to read page by page:
 * `whole`, fetched first (coalesced); else fetched as their rows are asked for.
 */
async function lazyColumns(file: ParquetFile, rg: number, leaves: LeafNode[], whole: boolean): Promise<LazyColumn[]> {
  const reads = file.reads;
  if (whole) return reads.inMemory(await reads.fetchChunks(rg, leaves));
  const refs = leaves.map((leaf) => file.locator.locate(rg, leaf));
  await reads.host.loadDecoders(refs);
  return Promise.all(refs.map((ref) => reads.lazyChunk(ref)));
}

export async function* columnBatches(file: ParquetFile, options: Pick<ReadOptions, 'columns' | 'rowGroups'>): AsyncGenerator<ColumnBatch> {
  const leaves = file.selectLeaves(options.columns);
  for (const rg of rowGroupIndexes(file.metadata, options.rowGroups)) {
    const numRows = file.metadata.rowGroups[rg]!.numRows;
    if (readsNoChunks(file.metadata.rowGroups[rg]!)) continue;
    if (largeChunks(file, rg, leaves)) {
      for (const leaf of leaves) {
        const [stream] = await chunkStreams(file, rg, [leaf]);
        for (let first = 0; first < numRows; first += WINDOW_ROWS) {
          const rows = Math.min(WINDOW_ROWS, numRows - first);
          yield { rowGroup: rg, path: leaf.path, leaf, numRows, firstRow: first, rows, data: stream!.take(rows) };
        }
        stream!.finish();
      }
      continue;
    }
    const chunks = await readChunks(file, rg, leaves);
    for (let i = 0; i < leaves.length; i++) {
      yield { rowGroup: rg, path: leaves[i]!.path, leaf: leaves[i]!, numRows, firstRow: 0, rows: numRows, data: chunks[i]! };
    }
  }
}

/** Fetches (coalesced) the chunks of `leaves` in row group `rg`, to be decoded a window of rows at a time. */
async function chunkStreams(file: ParquetFile, rg: number, leaves: LeafNode[]): Promise<ChunkStream[]> {
  // Decoded over many calls, so a page in an encoding its chunk does not list cannot be decoded again: the encodings are loaded whatever it lists.
  const [fetched] = await Promise.all([file.reads.fetchChunks(rg, leaves), decoding().then((d) => d.loadPageEncodings())]);
  return fetched.map(({ ref, buf, base }) => withContext(ref.ctx, () => new ChunkStream(buf, base, ref.meta, ref.leaf, file.reads.chunkOptions, ref.ctx)));
}
