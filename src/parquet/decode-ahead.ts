/**
 * Decoding ahead on another thread: while the calling thread assembles the
 * rows of one row group, a decode thread decompresses and decodes the
 * chunks of the next ones. Only where a runtime registers a thread (Node's
 * entry points: a worker thread, src/node/decode-thread.ts); elsewhere, and
 * for small, sliced, filtered or encrypted reads, the one-thread path
 * decodes every chunk where it is used. Decoded chunks come back as
 * transferred buffers, so the values are the same bytes either way
 * (docs/decisions/decode-ahead.md).
 */
import type { SchemaElementLike } from '../schema/tree.js';
import type { ColumnChunkData } from '../shred/column-data.js';
import type { FetchedChunk, FileChunkOptions } from './chunk-reads.js';
import type { ParquetFile } from './file.js';
import type { ColumnMetaData } from './metadata/index.js';
import type { ErrorContext } from '../errors.js';
import type { LeafNode } from '../schema/tree.js';

/** One chunk of a decode job: where its bytes lie in the job's buffer, and what the decode thread needs to decode it. */
export interface DecodeChunk {
  columnIndex: number;
  meta: ColumnMetaData;
  byteOffset: number;
  length: number;
  base: number;
  ctx: ErrorContext;
}

/** A started decode thread. `decode` answers undefined when the thread did not decode the job (it failed, or exited): the caller decodes it itself, and meets any error as one thread would. */
export interface DecodeThread {
  decode(buffer: ArrayBuffer, chunks: DecodeChunk[]): Promise<ColumnChunkData[] | undefined>;
  close(): void;
}

/** Starts a decode thread for one file's chunks (its module loaded on the first). */
export type StartDecodeThread = (schema: readonly SchemaElementLike[], options: FileChunkOptions) => Promise<DecodeThread>;

let starter: StartDecodeThread | undefined;

/** Installs the runtime's decode thread (Node's entry points do, at import). */
export function registerDecodeThread(start: StartDecodeThread): void {
  starter = start;
}

/**
 * Compressed bytes a read must hold at least to be decoded ahead: below it, a
 * thread's start (about 40 ms of wall and 60 ms of CPU to load the decoders
 * in it) costs more than decoding on the calling thread.
 */
export const DECODE_AHEAD_BYTES = 16 << 20;

/** Row groups queued in the decode thread beyond the one being assembled. */
const DEPTH = 2;

/** The decoded chunks of a read's row groups, decoded ahead in a thread; the first row group on the calling thread while the thread starts. */
export class DecodeAhead {
  private readonly jobs = new Map<number, Promise<ColumnChunkData[] | undefined>>();
  private thread: Promise<DecodeThread> | undefined;
  /** The position in `groups` of the row group asked for next, and of the next to queue. */
  private at = 0;
  private next = 1;

  private constructor(
    private readonly file: ParquetFile,
    private readonly groups: readonly number[],
    private readonly leaves: LeafNode[],
    private readonly start: StartDecodeThread,
  ) {}

  /**
   * A decoder ahead for the read of every row of `groups` (whole chunks), or
   * undefined when the read is decoded on the calling thread: no thread
   * registered, `thread: false`, fewer than two row groups or
   * DECODE_AHEAD_BYTES, or an encrypted file.
   */
  static for(file: ParquetFile, groups: readonly number[], leaves: LeafNode[], enabled: boolean): DecodeAhead | undefined {
    if (!starter || !enabled || groups.length < 2 || leaves.length === 0 || file.decryptor) return undefined;
    let bytes = 0;
    for (const rg of groups) for (const leaf of leaves) bytes += file.metadata.rowGroups[rg]!.columns[leaf.columnIndex]!.metaData?.totalCompressedSize ?? 0;
    return bytes < DECODE_AHEAD_BYTES ? undefined : new DecodeAhead(file, groups, leaves, starter);
  }

  /**
   * The decoded chunks of row group `rg`, the next of the read's, or
   * undefined: the caller decodes it (the first, one the thread did not, or
   * one out of turn).
   */
  async chunks(rg: number): Promise<ColumnChunkData[] | undefined> {
    const k = this.at;
    if (this.groups[k] !== rg) return undefined;
    this.at++;
    while (this.next < this.groups.length && this.next <= k + DEPTH) this.queue(this.next++);
    const job = this.jobs.get(k);
    this.jobs.delete(k);
    return job;
  }

  close(): void {
    void this.thread?.then((t) => t.close(), () => {});
    this.jobs.clear();
  }

  private queue(k: number): void {
    this.thread ??= this.start(this.file.metadata.schema as SchemaElementLike[], this.file.reads.chunkOptions);
    // A job that fails for any reason is decoded again by the caller when the read reaches it, which meets the error as one thread would.
    this.jobs.set(k, this.decoded(this.groups[k]!, this.thread).catch(() => undefined));
  }

  private async decoded(rg: number, started: Promise<DecodeThread>): Promise<ColumnChunkData[] | undefined> {
    let into: Uint8Array | undefined;
    const fetched = await this.file.reads.fetchChunks(rg, this.leaves, (n) => (into = new Uint8Array(n)));
    // Only bytes this read owns move to the thread: a source without readInto hands back its own (maybe the caller's) buffers.
    if (!into || !fetched.every((f) => f.buf.buffer === into!.buffer)) return undefined;
    return (await started).decode(into.buffer as ArrayBuffer, fetched.map(chunkJob));
  }
}

function chunkJob({ ref, buf, base }: FetchedChunk): DecodeChunk {
  return { columnIndex: ref.leaf.columnIndex, meta: ref.meta, byteOffset: buf.byteOffset, length: buf.length, base, ctx: ref.ctx };
}
