/**
 * GZIP (RFC 1952) in portable JavaScript: fflate inflates each member's
 * deflate stream, this module walks the members. A page may hold several
 * members back to back; its content is their concatenation.
 */
import { gzipSync, inflateSync } from 'fflate';
import { crc32 } from '../checksum/crc32.js';
import { CorruptFileError } from '../errors.js';
import { defineCodec } from './codec.js';
import { compressionLevel } from './levels.js';

const FHCRC = 2;
const FEXTRA = 4;
const FNAME = 8;
const FCOMMENT = 16;
const FRESERVED = 0xe0;

function truncated(): CorruptFileError {
  return new CorruptFileError('GZIP data is truncated');
}

/** Validates the member header at `p`; returns where its deflate stream starts. */
function memberDataStart(d: Uint8Array, p: number): number {
  if (d.length - p < 10) throw truncated();
  if (d[p] !== 0x1f || d[p + 1] !== 0x8b) throw new CorruptFileError(`GZIP member at byte ${p} does not start with the gzip magic`);
  if (d[p + 2] !== 8) throw new CorruptFileError(`GZIP member at byte ${p} uses compression method ${d[p + 2]}, not deflate`);
  const flags = d[p + 3]!;
  if (flags & FRESERVED) throw new CorruptFileError(`GZIP member at byte ${p} sets reserved flag bits`);
  let q = p + 10;
  if (flags & FEXTRA) {
    if (d.length - q < 2) throw truncated();
    q += 2 + (d[q]! | (d[q + 1]! << 8));
  }
  for (const flag of [FNAME, FCOMMENT]) {
    if (!(flags & flag)) continue;
    while (q < d.length && d[q] !== 0) q++;
    q++;
  }
  if (flags & FHCRC) q += 2;
  // At least one byte of deflate data and the 8-byte trailer must follow.
  if (d.length - q < 9) throw truncated();
  return q;
}

function u32(d: Uint8Array, p: number): number {
  return (d[p]! | (d[p + 1]! << 8) | (d[p + 2]! << 16) | (d[p + 3]! << 24)) >>> 0;
}

function allZero(d: Uint8Array, from: number): boolean {
  for (let i = from; i < d.length; i++) if (d[i] !== 0) return false;
  return true;
}

/**
 * Finds the member's trailer (CRC-32 and length of what it inflated to) and
 * returns where the next member starts. fflate does not report where a
 * deflate stream ends, so this looks for the first place after `from` holding
 * exactly this member's trailer and followed by the end, another member, or
 * zero padding (which zlib also accepts). A false match needs 8 bytes of
 * compressed data to equal the trailer and the gzip magic to follow.
 */
function nextMember(d: Uint8Array, from: number, crc: number, size: number): number {
  const first = crc & 0xff;
  for (let p = from, last = d.length - 8; p <= last; p++) {
    if (d[p] !== first || u32(d, p) !== crc || u32(d, p + 4) !== size) continue;
    const next = p + 8;
    if (next === d.length || allZero(d, next)) return d.length;
    if (d[next] === 0x1f && d[next + 1] === 0x8b) return next;
  }
  throw new CorruptFileError('GZIP member has no trailer matching its data (CRC-32 or length mismatch, or truncated)');
}

export function decompressGzip(input: Uint8Array, uncompressedSize: number): Uint8Array {
  // One spare byte: inflate never writes past the buffer it is given, so a
  // member that fills the spare byte shows the data is longer than declared.
  const out = new Uint8Array(uncompressedSize + 1);
  let ip = 0;
  let op = 0;
  while (ip < input.length) {
    const start = memberDataStart(input, ip);
    const produced = inflateSync(input.subarray(start), { out: out.subarray(op) }).length;
    if (produced > uncompressedSize - op) {
      throw new CorruptFileError(`GZIP data decompresses to more than ${uncompressedSize} bytes`);
    }
    const crc = crc32(out.subarray(op, op + produced));
    op += produced;
    ip = nextMember(input, start, crc, produced);
  }
  return out.subarray(0, op);
}

export function compressGzip(input: Uint8Array, level?: number): Uint8Array {
  const l = compressionLevel('GZIP', level) as 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;
  // mtime 0 keeps the output reproducible, as zlib's is.
  return gzipSync(input, { level: l, mtime: 0 });
}

export const gzip = defineCodec('GZIP', decompressGzip, compressGzip);
