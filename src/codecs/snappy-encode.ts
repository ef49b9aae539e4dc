/**
 * SNAPPY compression in JavaScript, from the block format (google/snappy's
 * format_description.txt), for writers: a greedy LZ77 that looks each
 * 4-byte sequence up in a hash table of where it was last seen, and emits
 * literals and copies with 1- or 2-byte offsets. On Parquet pages it
 * compresses as well as hysnappy's wasm build of the reference code did, at
 * about two thirds of its speed (BENCHMARKS.md, "SNAPPY in JavaScript").
 */

/** Copies reach at most this far back, so every offset fits the 2-byte form. */
const MAX_OFFSET = 65535;
/** Knuth's multiplicative hash (2^32 / the golden ratio). */
const HASH_MULTIPLIER = 0x9e3779b1;

/** Compresses `input` into one raw Snappy block (preamble and elements). */
export function snappyCompress(input: Uint8Array): Uint8Array {
  const n = input.length;
  // Each copy is a byte or more shorter than what it replaces, and pays for
  // the header of the literal before it when that literal is 60 bytes or
  // less; a longer one's header adds at most a byte per 61 of input.
  const out = new Uint8Array(16 + n + Math.ceil(n / 12));
  let op = 0;
  for (let v = n; ; v = Math.floor(v / 128)) {
    if (v < 0x80) {
      out[op++] = v;
      break;
    }
    out[op++] = (v % 128) | 0x80;
  }
  // A table as small as the input needs (2^8 to 2^14 entries): zeroing it costs per page.
  const bits = Math.min(14, Math.max(8, 32 - Math.clz32(n)));
  const shift = 32 - bits;
  const table = new Int32Array(1 << bits);
  const words = new DataView(input.buffer, input.byteOffset, n);
  const last = n - 4;
  let literalStart = 0;
  let p = 0;
  // Incompressible input is skipped through faster and faster: one byte
  // further each step for every 32 lookups that found nothing.
  let misses = 32;
  while (p <= last) {
    const word = words.getInt32(p, true);
    const h = Math.imul(word, HASH_MULTIPLIER) >>> shift;
    // Positions are stored plus one, so 0 is an empty entry.
    const seen = table[h]! - 1;
    table[h] = p + 1;
    if (seen < 0 || p - seen > MAX_OFFSET || words.getInt32(seen, true) !== word) {
      p += misses++ >> 5;
      continue;
    }
    let len = 4;
    while (p + len <= last && words.getInt32(seen + len, true) === words.getInt32(p + len, true)) len += 4;
    while (p + len < n && input[seen + len] === input[p + len]) len++;
    op = literal(input, literalStart, p, out, op);
    op = copy(p - seen, len, out, op);
    p += len;
    literalStart = p;
    misses = 32;
    // The sequence just before the next lookup, so a run that repeats at once is found.
    if (p - 1 <= last) table[Math.imul(words.getInt32(p - 1, true), HASH_MULTIPLIER) >>> shift] = p;
  }
  op = literal(input, literalStart, n, out, op);
  // A typed array drops writes past its end: a bound too small must fail, not truncate.
  if (op > out.length) throw new Error(`SNAPPY compressor overran its ${out.length}-byte bound`);
  return out.slice(0, op);
}

/** input[from, to) as a literal at `op`; returns the new `op`. */
function literal(input: Uint8Array, from: number, to: number, out: Uint8Array, op: number): number {
  const len = to - from;
  if (len === 0) return op;
  const n = len - 1;
  if (n < 60) {
    out[op++] = n << 2;
  } else {
    const bytes = n < 0x100 ? 1 : n < 0x10000 ? 2 : n < 0x1000000 ? 3 : 4;
    out[op++] = (59 + bytes) << 2;
    for (let i = 0, v = n; i < bytes; i++, v >>>= 8) out[op++] = v & 0xff;
  }
  if (len < 16) {
    for (let i = from; i < to; i++) out[op++] = input[i]!;
  } else {
    out.set(input.subarray(from, to), op);
    op += len;
  }
  return op;
}

/** A copy of `len` bytes from `offset` back, in pieces of at most 64 and at least 4 bytes; returns the new `op`. */
function copy(offset: number, len: number, out: Uint8Array, op: number): number {
  while (len >= 68) {
    op = twoByteOffset(offset, 64, out, op);
    len -= 64;
  }
  if (len > 64) {
    op = twoByteOffset(offset, 60, out, op);
    len -= 60;
  }
  if (len < 12 && offset < 2048) {
    out[op++] = 1 | ((len - 4) << 2) | ((offset >>> 8) << 5);
    out[op++] = offset & 0xff;
    return op;
  }
  return twoByteOffset(offset, len, out, op);
}

function twoByteOffset(offset: number, len: number, out: Uint8Array, op: number): number {
  out[op++] = 2 | ((len - 1) << 2);
  out[op++] = offset & 0xff;
  out[op++] = offset >>> 8;
  return op;
}
