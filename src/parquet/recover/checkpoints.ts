/**
 * The last complete checkpoint of a file whose footer is gone (a writer
 * killed mid-file), found by scanning back from the end for the frame
 * marker, and the chain of earlier frames it points to: together, the
 * metadata of every row group written before that checkpoint.
 */
import { ParquetryError } from '../../errors.js';
import type { Source } from '../../io/source.js';
import type { FileMetaData, RowGroup } from '../metadata/index.js';
import { CHECKPOINT_HEADER, CHECKPOINT_MARKER, checkpointLength, decodeCheckpoint, type Checkpoint } from '../write/checkpoint.js';

/** Bytes scanned per read, going back from the end. */
const BLOCK = 1 << 20;
/**
 * Marker hits that fail their CRC before the search gives up: a killed
 * writer leaves at most one torn frame, and data that happens to hold the
 * marker (an uncompressed string of it) cannot make the search read the
 * file over and over.
 */
const MAX_FALSE_HITS = 64;
/** Largest frame believed: far above the metadata of any real checkpoint. */
const MAX_FRAME = 256 << 20;

export interface CheckpointChain {
  metadata: FileMetaData;
  /** The last complete checkpoint: everything before its end is described. */
  last: Checkpoint;
  frames: number;
}

/** The newest checkpoint whose frame is whole and whose chain back to the first is intact; null when there is none. */
export async function lastCheckpoint(source: Source): Promise<CheckpointChain | null> {
  let falseHits = 0;
  const m = CHECKPOINT_MARKER;
  for (let end = source.byteLength; end > 4; ) {
    const start = Math.max(4, end - BLOCK);
    // Blocks overlap by a marker's length less one, so a marker across a block edge is seen.
    const block = await source.read(start, Math.min(source.byteLength, end + m.length - 1) - start);
    for (let i = block.length - m.length; i >= 0; i--) {
      if (block[i] !== m[0] || !startsWith(block, i, m)) continue;
      const chain = await chainAt(source, start + i);
      if (chain) return chain;
      if (++falseHits > MAX_FALSE_HITS) return null;
    }
    end = start;
  }
  return null;
}

async function chainAt(source: Source, offset: number): Promise<CheckpointChain | null> {
  const last = await frameAt(source, offset);
  if (!last) return null;
  const groups: RowGroup[][] = [last.meta.rowGroups];
  let frames = 1;
  for (let prev = last.previous; prev > 0; ) {
    const f = await frameAt(source, prev);
    if (!f) return null;
    groups.push(f.meta.rowGroups);
    frames++;
    prev = f.previous;
  }
  const rowGroups = groups.reverse().flat();
  const rows = rowGroups.reduce((n, g) => n + g.numRows, 0);
  if (rows !== last.meta.numRows) return null;
  return { metadata: { ...last.meta, rowGroups, numRows: rows }, last, frames };
}

/** The frame at `offset` when whole and sound, else null. */
async function frameAt(source: Source, offset: number): Promise<Checkpoint | null> {
  if (offset + CHECKPOINT_HEADER > source.byteLength) return null;
  const head = await source.read(offset, CHECKPOINT_HEADER);
  if (!startsWith(head, 0, CHECKPOINT_MARKER)) return null;
  const len = checkpointLength(head);
  if (len > MAX_FRAME || offset + CHECKPOINT_HEADER + len > source.byteLength) return null;
  try {
    return decodeCheckpoint(await source.read(offset, CHECKPOINT_HEADER + len), offset);
  } catch (e) {
    if (e instanceof ParquetryError) return null;
    throw e;
  }
}

function startsWith(b: Uint8Array, at: number, m: Uint8Array): boolean {
  if (at + m.length > b.length) return false;
  for (let k = 0; k < m.length; k++) if (b[at + k] !== m[k]) return false;
  return true;
}
