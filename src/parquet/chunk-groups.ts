/**
 * Each selected row group's decoded chunks for a plan's leaves, with the
 * rows that offset, limit and a filter keep: for consumers that build their
 * own output from column vectors (the reader's Arrow output), and the Arrow
 * plan and metadata of a file. Loaded with the Arrow modules (reader.ts),
 * so a read of rows does not load it.
 */
import type { ChunkGroup } from '../arrow/batches.js';
import { ReadBuffers } from '../io/read-buffers.js';
import type { LeafNode } from '../schema/tree.js';
import type { ColumnChunkData } from '../shred/column-data.js';
import type { RecordPlan } from '../shred/plan.js';
import { decoding, type FetchedChunk } from './chunk-reads.js';
import { rowGroupIndexes, type ParquetFile } from './file.js';
import { bindFileFilter, filteredParts } from './filtered-read.js';
import type { ArrowOptions, ReadOptions } from './read-options.js';
import { checkCount, decodeChunks } from './read-steps.js';

/** A row group's chunks as fetched, and the reused buffer they were read into (see ReadBuffers), to give back once decoded. */
interface FetchedGroup {
  chunks: FetchedChunk[];
  scratch: Uint8Array | undefined;
}

/** Which leaves of a plan become Arrow dictionaries, and the Arrow schema stored in the file, for the Arrow builders. */
export function arrowPlan(file: ParquetFile, plan: RecordPlan, options: ArrowOptions, dictionaryCapable: (leaf: LeafNode) => boolean) {
  const groups = rowGroupIndexes(file.metadata, options.rowGroups);
  const dictionary = plan.leaves.map((leaf) => options.dictionary !== false && dictionaryCapable(leaf) && groups.every((rg) => {
    const meta = file.metadata.rowGroups[rg]!.columns[leaf.columnIndex]?.metaData;
    return meta !== undefined && (meta.dictionaryPageOffset !== undefined || meta.encodings.some((e) => e === 'PLAIN_DICTIONARY' || e === 'RLE_DICTIONARY'));
  }));
  return { plan, dictionary, stored: options.arrowSchema === false ? undefined : { dictionary: options.dictionary !== false } };
}

/** The file's key-value metadata, as Arrow schema metadata. */
export function arrowMetadata(file: ParquetFile): Map<string, string> | undefined {
  const kv = file.keyValueMetadata;
  return kv.size ? kv : undefined;
}

export async function* chunkGroups(file: ParquetFile, plan: RecordPlan, options: ReadOptions): AsyncGenerator<ChunkGroup> {
  let skip = checkCount(options.offset ?? 0, 'offset');
  let left = options.limit === undefined ? Infinity : checkCount(options.limit, 'limit');
  const filter = options.filter === undefined ? undefined : await bindFileFilter(file, options.filter);
  const groups = rowGroupIndexes(file.metadata, options.rowGroups);
  // The next row group's chunks are fetched while the consumer builds from this one's.
  let next: { rg: number; chunks: Promise<FetchedGroup> } | undefined;
  const buffers = file.bytes.readInto ? new ReadBuffers() : undefined;
  const dec = await decoding();
  const levels = new dec.LevelBuffers();
  for (const [at, rg] of groups.entries()) {
    if (left <= 0) return;
    // A filtered row group comes in the parts its scan reads; an unfiltered one whole.
    const parts = filter ? filteredParts(file, rg, filter, plan.leaves, skip + left) : [null];
    for await (const got of parts) {
      if (left <= 0) return;
      const ctx = { file: file.name, rowGroup: rg };
      let numRows = file.metadata.rowGroups[rg]!.numRows;
      let matching: Int32Array | null = null;
      let chunks: ColumnChunkData[] | undefined;
      if (got) ({ rows: numRows, selected: matching, columns: chunks } = got);
      const count = matching ? matching.length : numRows;
      if (skip >= count) {
        skip -= count;
        continue;
      }
      const take = Math.min(count - skip, left);
      let rows = matching;
      if (skip > 0 || take < count) {
        rows = new Int32Array(take);
        for (let i = 0; i < take; i++) rows[i] = matching ? matching[skip + i]! : skip + i;
      }
      skip = 0;
      left -= take;
      if (!chunks) {
        const fetched = next?.rg === rg ? await next.chunks : await fetchGroup(file, rg, plan.leaves, buffers);
        next = undefined;
        const following = groups[at + 1];
        if (!filter && left > 0 && following !== undefined) {
          next = { rg: following, chunks: fetchGroup(file, following, plan.leaves, buffers) };
          // Awaited when its turn comes; a read that stops first drops it without an unhandled rejection.
          next.chunks.catch(() => undefined);
        }
        chunks = await decodeChunks(file, dec, fetched.chunks, levels);
        if (fetched.scratch) buffers!.give(fetched.scratch);
      }
      const decoded = chunks;
      const release = () => {
        for (const c of decoded) {
          levels.give(c.def);
          levels.give(c.rep);
        }
      };
      yield { rowGroup: rg, numRows, chunks, rows, ctx, release };
    }
  }
}

/** Fetches the chunks of `leaves` in row group `rg`, into a buffer from `buffers` when given. */
async function fetchGroup(file: ParquetFile, rg: number, leaves: LeafNode[], buffers?: ReadBuffers): Promise<FetchedGroup> {
  let scratch: Uint8Array | undefined;
  const chunks = await file.reads.fetchChunks(rg, leaves, buffers && ((n) => (scratch = buffers.take(n))));
  return { chunks, scratch };
}
