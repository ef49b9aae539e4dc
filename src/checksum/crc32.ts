/**
 * CRC-32 with the zlib/IEEE 802.3 polynomial (reflected 0xEDB88320), the
 * checksum of Parquet page headers and gzip trailers.
 *
 * The portable version is slice-by-8: eight 256-entry tables let one step
 * fold eight input bytes, which is several times faster in V8 than the
 * byte-at-a-time loop. A runtime with a native CRC (Node's zlib.crc32) can
 * install it with `registerCrc32`; both give identical results.
 */

export type Crc32Function = (data: Uint8Array, initial?: number) => number;

const TABLES = buildTables();

function buildTables(): Int32Array {
  const t = new Int32Array(256 * 8);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  // Table k gives the CRC contribution of a byte followed by k zero bytes.
  for (let k = 1; k < 8; k++) {
    for (let n = 0; n < 256; n++) {
      const prev = t[(k - 1) * 256 + n]!;
      t[k * 256 + n] = (prev >>> 8) ^ t[prev & 0xff]!;
    }
  }
  return t;
}

/**
 * CRC-32 of `data` in plain JavaScript. `initial` is the CRC of the bytes
 * before `data`, so `crc32(b, crc32(a))` equals the CRC of `a` then `b`
 * (the same convention as zlib's crc32 and Node's zlib.crc32).
 */
export function crc32Portable(data: Uint8Array, initial = 0): number {
  const t = TABLES;
  let c = ~initial;
  let i = 0;
  const n = data.length;
  for (const end8 = n - 7; i < end8; i += 8) {
    const lo = c ^ (data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | (data[i + 3]! << 24));
    const hi = data[i + 4]! | (data[i + 5]! << 8) | (data[i + 6]! << 16) | (data[i + 7]! << 24);
    c =
      t[1792 + (lo & 0xff)]! ^
      t[1536 + ((lo >>> 8) & 0xff)]! ^
      t[1280 + ((lo >>> 16) & 0xff)]! ^
      t[1024 + (lo >>> 24)]! ^
      t[768 + (hi & 0xff)]! ^
      t[512 + ((hi >>> 8) & 0xff)]! ^
      t[256 + ((hi >>> 16) & 0xff)]! ^
      t[hi >>> 24]!;
  }
  for (; i < n; i++) c = t[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

let active: Crc32Function = crc32Portable;

/** CRC-32 of `data`, continuing from `initial` (default 0); an unsigned 32-bit result. */
export function crc32(data: Uint8Array, initial = 0): number {
  return active(data, initial);
}

/** Replaces the implementation behind `crc32` (the Node adapter installs zlib's). */
export function registerCrc32(fn: Crc32Function): void {
  active = fn;
}
