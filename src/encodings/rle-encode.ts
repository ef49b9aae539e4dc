/** The RLE / bit-packing hybrid's encoder (rle.ts decodes and describes the runs). */
import type { ByteWriter } from '../bytes/writer.js';
import { InvalidArgumentError } from '../errors.js';
import { bitWidth } from './bits.js';
import { packLsb } from './bit-pack.js';
import { MAX_RUN } from './rle.js';

/**
 * Appends `values[start .. end)` as hybrid runs of `width` (0..32) bits:
 * repeats of 8 or more become RLE runs, everything between is bit-packed in
 * groups of 8, the last group padded with zeros. Values must fit the width.
 */
export function encodeRleHybrid(w: ByteWriter, values: ArrayLike<number>, width: number, start = 0, end = values.length): void {
  if (!(Number.isInteger(width) && width >= 0 && width <= 32)) throw new InvalidArgumentError(`RLE bit width ${width} is not in 0..32`);
  let lit = start; // first value not yet written, the start of the pending bit-packed stretch
  let i = start;
  while (i < end) {
    const v = values[i]!;
    let j = i + 1;
    while (j < end && values[j] === v) j++;
    if (j - i >= 8) {
      // A bit-packed stretch must hold whole groups of 8, so the run lends it
      // values up to the next group boundary; only if 8 repeats are left does
      // the run pay for its own header.
      const lend = (8 - ((i - lit) & 7)) & 7;
      if (j - i - lend >= 8) {
        writeBitPacked(w, values, lit, i + lend - lit, width);
        writeRepeated(w, v, j - i - lend, width);
        lit = j;
      }
    }
    i = j;
  }
  writeBitPacked(w, values, lit, end - lit, width);
}

/** Scratch for short bit-packed runs (see writeBitPacked). */
const SMALL_RUN = new Uint8Array(64);

function writeBitPacked(w: ByteWriter, values: ArrayLike<number>, from: number, n: number, width: number): void {
  if (n === 0) return;
  const groups = Math.ceil(n / 8);
  w.varUint(groups * 2 + 1);
  const size = groups * width;
  if (size === 0) return;
  if (size <= SMALL_RUN.length) {
    // Short runs (level streams alternate many of them with repeats) go through a reused buffer, byte by byte: no views to allocate.
    const bytes = SMALL_RUN;
    packLsb(values, from, n, width, bytes, 0);
    bytes.fill(0, Math.ceil((n * width) / 8), size);
    for (let k = 0; k < size; k++) w.u8(bytes[k]!);
    return;
  }
  // Packed straight into the writer's buffer; the last group's padding bytes (which the packer leaves alone) zeroed.
  w.reserve(size);
  const at = w.length;
  w.length += size;
  const bytes = w.finish().subarray(at);
  packLsb(values, from, n, width, bytes, 0);
  bytes.fill(0, Math.ceil((n * width) / 8));
}

function writeRepeated(w: ByteWriter, v: number, len: number, width: number): void {
  if (width < 32 && v >>> width !== 0) throw new InvalidArgumentError(`value ${v} does not fit in ${width} bits`);
  const valueBytes = (width + 7) >>> 3;
  for (; len > 0; len -= MAX_RUN) {
    w.varUint(Math.min(len, MAX_RUN) * 2);
    for (let i = 0, u = v >>> 0; i < valueBytes; i++, u >>>= 8) w.u8(u & 0xff);
  }
}

/** The length-prefixed form: 4-byte LE length, then the runs. */
export function encodeRleHybridPrefixed(w: ByteWriter, values: ArrayLike<number>, width: number, start = 0, end = values.length): void {
  // The runs go straight after a placeholder length, which is filled in once their size is known.
  const at = w.length;
  w.u32le(0);
  encodeRleHybrid(w, values, width, start, end);
  const all = w.finish();
  const length = all.length - at - 4;
  all[at] = length & 0xff;
  all[at + 1] = (length >>> 8) & 0xff;
  all[at + 2] = (length >>> 16) & 0xff;
  all[at + 3] = length >>> 24;
}

/** RLE-encoded BOOLEAN values (0/1 bytes), length-prefixed as data pages store them. */
export function encodeRleBooleans(w: ByteWriter, values: Uint8Array): void {
  encodeRleHybridPrefixed(w, values, 1);
}

/** Dictionary indices as data pages store them: the bit width for `dictSize` entries in one byte, then runs. */
export function encodeDictionaryIndices(w: ByteWriter, indices: ArrayLike<number>, dictSize: number): void {
  const width = bitWidth(Math.max(dictSize - 1, 0));
  w.u8(width);
  encodeRleHybrid(w, indices, width);
}
