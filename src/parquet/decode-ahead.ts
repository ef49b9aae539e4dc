/**
 * Decoding ahead on another thread: while the calling thread assembles the
 * rows of one row group, a decode thread decompresses and decodes the
 * chunks of the next ones. Loaded only where a runtime installs it
 * (chunk-reads.ts, `decodeAhead`; Node's entry points: a worker thread,
 * src/node/decode-thread.ts); elsewhere, and for small, sliced, filtered
 * or encrypted reads, the one-thread path decodes every chunk where it is
 * used. Decoded chunks come back as
 * transferred buffers, so the values are the same bytes either way
 * (docs/decisions/decode-ahead.md).
 */
import type { ErrorContext } from '../errors.js';
import type { LeafNode, SchemaElementLike } from '../schema/tree.js';
import type { ColumnChunkData } from '../shred/column-data.js';
import type { AheadChunks, AheadReads, ChunkReads, FetchedChunk, FileChunkOptions } from './chunk-reads.js';
import type { ColumnMetaData } from './metadata/index.js';

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

/** Starts a decode thread for one file's chunks; resolved once it can decode. */
export type StartDecodeThread = (schema: readonly SchemaElementLike[], options: FileChunkOptions) => Promise<DecodeThread>;

/**
 * Compressed bytes a read must hold at least to be decoded ahead: below it, a
 * thread's start (about 40 ms of wall and 60 ms of CPU to load the decoders
 * in it) costs more than decoding on the calling thread.
 */
export const DECODE_AHEAD_BYTES = 16 << 20;

/** Row groups fetched and queued ahead of the one being assembled. */
const DEPTH = 2;

/** What the read gets for a row group: its chunks decoded by the thread, or fetched for the caller to decode (the thread was not ready for them). */

/** A row group's job: fetched, then sent to the thread once it is ready, unless the read wants the row group first. */
interface Job {
  sent: boolean;
  wanted: boolean;
  /** Settles when the read wants the row group: a job waiting for the thread to start stops waiting. */
  want: () => void;
  whenWanted: Promise<void>;
  result: Promise<AheadChunks | undefined>;
}

/**
 * The chunks of a read's row groups, decoded ahead in a thread. A row group
 * the read reaches before the thread took it (the first ones, while the
 * thread starts; any, when the thread falls behind) is decoded by the read
 * itself from the bytes already fetched.
 */
export class DecodeAhead implements AheadReads {
  private readonly jobs = new Map<number, Job>();
  private thread: Promise<DecodeThread> | undefined;
  /** The position in `groups` of the row group asked for next, and of the next to fetch. */
  private at = 0;
  private next = 0;

  private constructor(
    private readonly reads: ChunkReads,
    private readonly groups: readonly number[],
    private readonly leaves: LeafNode[],
    private readonly start: StartDecodeThread,
  ) {}

  /**
   * A decoder ahead for the read of every row of `groups` (whole chunks), or
   * undefined when the read is decoded on the calling thread: fewer than
   * two row groups of rows or
   * DECODE_AHEAD_BYTES, or an encrypted file.
   */
  static for(reads: ChunkReads, all: readonly number[], leaves: LeafNode[], starter: StartDecodeThread): DecodeAhead | undefined {
    // A row group of no rows is passed over by the read, not asked for.
    const groups = all.filter((rg) => reads.metadata.rowGroups[rg]!.numRows > 0);
    if (groups.length < 2 || leaves.length === 0 || reads.decryptor) return undefined;
    let bytes = 0;
    for (const rg of groups) for (const leaf of leaves) bytes += reads.metadata.rowGroups[rg]!.columns[leaf.columnIndex]!.metaData?.totalCompressedSize ?? 0;
    return bytes < DECODE_AHEAD_BYTES ? undefined : new DecodeAhead(reads, groups, leaves, starter);
  }

  /**
   * Row group `rg`, the next of the read's: decoded, or fetched for the
   * caller to decode; undefined when the caller fetches and decodes it (one
   * out of turn, or one whose job failed: the caller meets the error as one
   * thread would).
   */
  async chunks(rg: number): Promise<AheadChunks | undefined> {
    const k = this.at;
    if (this.groups[k] !== rg) return undefined;
    this.at++;
    this.thread ??= this.start(this.reads.metadata.schema as SchemaElementLike[], this.reads.chunkOptions);
    while (this.next < this.groups.length && this.next <= k + DEPTH) this.queue(this.next++);
    const job = this.jobs.get(k)!;
    this.jobs.delete(k);
    // The job's fetch and the thread's start are met between the read's row groups only (making rows never yields to the event loop): one turn of it first, so a job ready to go is sent, not taken back.
    if (!job.sent) await new Promise((turn) => setTimeout(turn, 0));
    if (!job.sent) {
      job.wanted = true;
      job.want();
    }
    return job.result;
  }

  close(): void {
    void this.thread?.then((t) => t.close(), () => {});
    this.jobs.clear();
  }

  private queue(k: number): void {
    let want = () => {};
    const whenWanted = new Promise<void>((w) => (want = w));
    const job: Job = { sent: false, wanted: false, want, whenWanted, result: Promise.resolve(undefined) };
    // A job that fails for any reason is decoded again by the caller when the read reaches it.
    job.result = this.decoded(this.groups[k]!, job, this.thread!).catch(() => undefined);
    this.jobs.set(k, job);
  }

  private async decoded(rg: number, job: Job, started: Promise<DecodeThread>): Promise<AheadChunks | undefined> {
    let into: Uint8Array | undefined;
    const fetched = await this.reads.fetchChunks(rg, this.leaves, (n) => (into = new Uint8Array(n)));
    // Only bytes this read owns move to the thread: a source without readInto hands back its own (maybe the caller's) buffers.
    if (job.wanted || !into || !fetched.every((f) => f.buf.buffer === into!.buffer)) return { fetched };
    const thread = await Promise.race([started, job.whenWanted]);
    if (!thread || job.wanted) return { fetched };
    job.sent = true;
    const data = await thread.decode(into.buffer as ArrayBuffer, fetched.map(chunkJob));
    // Bytes the thread never took (it did not start, or refused the job before it was posted) still hold the chunks: decoded by the read, not fetched again.
    return data ? { data } : into.buffer.byteLength > 0 ? { fetched } : undefined;
  }
}

function chunkJob({ ref, buf, base }: FetchedChunk): DecodeChunk {
  return { columnIndex: ref.leaf.columnIndex, meta: ref.meta, byteOffset: buf.byteOffset, length: buf.length, base, ctx: ref.ctx };
}
