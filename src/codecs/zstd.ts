/**
 * ZSTD (RFC 8878) in portable JavaScript: fzstd decodes, frame by frame,
 * after zstd-frame.ts has checked every size against the page header. There
 * is no portable compressor; the Node build registers zstd-napi for both
 * directions, and a browser app can registerCodec one of its own.
 */
import { Decompress, decompress } from 'fzstd';
import { CorruptFileError, LimitError, UnsupportedError } from '../errors.js';
import { defineCodec } from './codec.js';
import { type ZstdFrame, windowSizeOf, zstdFrames } from './zstd-frame.js';

/**
 * fzstd slides its whole window along after every block of a frame without
 * a content size, so its work is blocks x window. Frames beyond this many
 * bytes of copying (about a second) are refused rather than left to stall.
 */
const MAX_WINDOW_WORK = 2 ** 32;

/** The smallest window descriptor whose window holds `size` bytes. */
function descriptorFor(size: number): number {
  let d = 0;
  while (windowSizeOf(d) < size) d++;
  return d;
}

/**
 * A frame without a content size goes through fzstd's streaming decoder,
 * whose chunk callback is the only way to learn how much it produced (and to
 * stop a bomb early). No match can reach further back than the bytes this
 * page still has room for, so a larger window is shrunk to that first:
 * fzstd allocates and slides the window the header asks for.
 */
function decodeUnsized(input: Uint8Array, f: ZstdFrame, room: number): Uint8Array[] {
  let frame = input.subarray(f.start, f.end);
  let window = f.windowSize;
  if (window > room) {
    frame = frame.slice();
    const descriptor = descriptorFor(room);
    frame[f.windowDescriptorAt - f.start] = descriptor;
    window = windowSizeOf(descriptor);
  }
  if (f.blocks * window > MAX_WINDOW_WORK) {
    throw new LimitError(`ZSTD frame of ${f.blocks} blocks with a ${window}-byte window and no content size is too costly for the portable decoder`);
  }
  const chunks: Uint8Array[] = [];
  let produced = 0;
  const stream = new Decompress((chunk) => {
    produced += chunk.length;
    if (produced > room) throw new CorruptFileError('ZSTD data decompresses to more bytes than the page header says');
    chunks.push(chunk);
  });
  stream.push(frame, true);
  return chunks;
}

export function decompressZstd(input: Uint8Array, uncompressedSize: number): Uint8Array {
  const parts: Uint8Array[] = [];
  let produced = 0;
  for (const f of zstdFrames(input)) {
    const room = uncompressedSize - produced;
    if (f.contentSize === undefined) {
      for (const chunk of decodeUnsized(input, f, room)) {
        parts.push(chunk);
        produced += chunk.length;
      }
      continue;
    }
    if (f.contentSize > room) {
      throw new CorruptFileError(`ZSTD frame at byte ${f.start} declares ${f.contentSize} bytes, more than the ${room} left of the page`);
    }
    // fzstd would size a window for an empty frame instead; there is nothing to decode.
    if (f.contentSize === 0) {
      if (f.nonEmptyBlocks > 0) throw new CorruptFileError(`ZSTD frame at byte ${f.start} declares 0 bytes but holds data`);
      continue;
    }
    // With a content size fzstd allocates exactly that and decodes in place.
    const part = decompress(input.subarray(f.start, f.end));
    parts.push(part);
    produced += part.length;
  }
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(produced);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

export const zstd = defineCodec('ZSTD', decompressZstd, () => {
  throw new UnsupportedError('ZSTD compression needs the Node build (zstd-napi) or a compressor passed to registerCodec');
});
