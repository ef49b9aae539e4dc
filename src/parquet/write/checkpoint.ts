/**
 * Checkpoint frames: the file metadata so far, written between row groups
 * by a writer with `checkpointEvery`, so that a file whose writer died
 * before its footer can be recovered (recover/checkpoints.ts). Readers of
 * the finished file never look at them: every offset in the footer points
 * at pages, and the bytes between one row group's last page and the next
 * row group's first page are nobody's.
 *
 * Frame (little-endian):
 *
 *   MARKER (16 bytes) | payload length u32 | CRC-32 of payload u32 | payload
 *   payload = previous frame's offset u64 (0: none) | FileMetaData (Thrift compact)
 *
 * Chained: a frame's FileMetaData holds the row groups written since the
 * previous frame (num_rows counts every row so far), so the bytes that
 * checkpoints add grow linearly with the row groups, not quadratically.
 */
import { ByteCursor } from '../../bytes/cursor.js';
import { ByteWriter } from '../../bytes/writer.js';
import { crc32 } from '../../checksum/crc32.js';
import { CorruptFileError } from '../../errors.js';
import { decodeFileMetaData, type FileMetaData } from '../metadata/index.js';
import { encodeFileMetaData } from '../metadata/encode.js';

/** "PQRY-CHECKPOINT" and a version byte: readable in a hex dump, checked by the CRC. */
export const CHECKPOINT_MARKER = Uint8Array.of(0x50, 0x51, 0x52, 0x59, 0x2d, 0x43, 0x48, 0x45, 0x43, 0x4b, 0x50, 0x4f, 0x49, 0x4e, 0x54, 0x01);
/** Marker, length and CRC. */
export const CHECKPOINT_HEADER = CHECKPOINT_MARKER.length + 8;

export function encodeCheckpoint(meta: FileMetaData, previous: number): Uint8Array {
  const w = new ByteWriter(4096);
  w.bytes(CHECKPOINT_MARKER);
  w.u32le(0);
  w.u32le(0);
  w.i64le(BigInt(previous));
  encodeFileMetaData(meta, w);
  const frame = w.finish().slice();
  const payload = frame.subarray(CHECKPOINT_HEADER);
  const dv = new DataView(frame.buffer);
  dv.setUint32(CHECKPOINT_MARKER.length, payload.length, true);
  dv.setUint32(CHECKPOINT_MARKER.length + 4, crc32(payload), true);
  return frame;
}

export interface Checkpoint {
  /** File offset of the frame's marker. */
  offset: number;
  /** File offset just past the frame. */
  end: number;
  previous: number;
  meta: FileMetaData;
}

/** The payload length a frame header at `bytes[0..]` declares (the marker is checked by the caller). */
export function checkpointLength(bytes: Uint8Array): number {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(CHECKPOINT_MARKER.length, true);
}

/** Decodes a whole frame (`bytes` from its marker to its end, at file offset `offset`); a bad CRC or payload is a CorruptFileError. */
export function decodeCheckpoint(bytes: Uint8Array, offset: number): Checkpoint {
  const len = checkpointLength(bytes);
  if (bytes.length !== CHECKPOINT_HEADER + len || len < 8) throw new CorruptFileError(`checkpoint frame of ${len} bytes is cut short`, { offset });
  const stored = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(CHECKPOINT_MARKER.length + 4, true);
  const payload = bytes.subarray(CHECKPOINT_HEADER);
  if (crc32(payload) >>> 0 !== stored) throw new CorruptFileError('checkpoint CRC-32 mismatch', { offset });
  const c = new ByteCursor(payload, 0, payload.length, offset + CHECKPOINT_HEADER);
  const previous = Number(c.i64le());
  if (!(previous >= 0 && previous < offset)) throw new CorruptFileError(`checkpoint points back to ${previous}, not before itself`, { offset });
  const meta = decodeFileMetaData(payload.subarray(8), offset + CHECKPOINT_HEADER + 8);
  return { offset, end: offset + bytes.length, previous, meta };
}
