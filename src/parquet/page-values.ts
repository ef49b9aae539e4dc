/**
 * The encodings a data page can use, dispatched by name: one place that maps
 * a page header's encoding to the decoder in src/encodings.
 */
import { ByteCursor } from '../bytes/cursor.js';
import { CorruptFileError, UnsupportedError } from '../errors.js';
import { AlpStream } from '../encodings/alp.js';
import { BitPackedStream } from '../encodings/bit-packed.js';
import { ByteStreamSplitStream, decodeByteStreamSplit } from '../encodings/byte-stream-split.js';
import { DeltaBinaryPackedStream } from '../encodings/delta-binary-packed.js';
import { decodeDeltaByteArray, DeltaByteArrayStream } from '../encodings/delta-byte-array.js';
import { decodeDeltaLengthByteArray, DeltaLengthStream } from '../encodings/delta-length-byte-array.js';
import { decodePlain, PlainStream } from '../encodings/plain.js';
import { bitWidth, HybridValues, decodeRleBooleans, decodeRleHybrid, decodeRleHybridPrefixed, type LevelCheck } from '../encodings/rle.js';
import { valueCount, type Values } from '../encodings/types.js';
import type { LeafNode } from '../schema/tree.js';

/** Decodes `count` values of `leaf`'s type from data[pos..end) in the given encoding (`owned`: see decodePlain). */
export function decodeValues(encoding: string, leaf: LeafNode, data: Uint8Array, pos: number, end: number, count: number, owned = false): Values {
  const c = new ByteCursor(data, pos, end);
  const type = leaf.physicalType;
  let out: Values;
  switch (encoding) {
    case 'PLAIN':
      out = decodePlain(c, type, count, leaf.typeLength, owned);
      break;
    case 'RLE':
      if (type !== 'BOOLEAN') throw new UnsupportedError(`RLE encoding for ${type} values`);
      out = decodeRleBooleans(c, count);
      break;
    case 'DELTA_BINARY_PACKED':
      out = deltaStream(c, type, count).read(count);
      break;
    case 'DELTA_LENGTH_BYTE_ARRAY':
      if (type !== 'BYTE_ARRAY') throw new CorruptFileError(`DELTA_LENGTH_BYTE_ARRAY cannot encode ${type}`);
      out = decodeDeltaLengthByteArray(c, count);
      break;
    case 'DELTA_BYTE_ARRAY':
      if (type !== 'BYTE_ARRAY' && type !== 'FIXED_LEN_BYTE_ARRAY') throw new CorruptFileError(`DELTA_BYTE_ARRAY cannot encode ${type}`);
      out = decodeDeltaByteArray(c, count, type === 'FIXED_LEN_BYTE_ARRAY' ? leaf.typeLength : undefined);
      break;
    case 'BYTE_STREAM_SPLIT':
      out = decodeByteStreamSplit(c, type, count, leaf.typeLength);
      break;
    case 'ALP':
      out = alpStream(c, type, count).read(count);
      break;
    default:
      throw new UnsupportedError(`value encoding ${encoding}`);
  }
  if (valueCount(out) !== count) throw new CorruptFileError(`page decoded ${valueCount(out)} values where its levels define ${count}`);
  return out;
}

function deltaStream(c: ByteCursor, type: string, count: number): DeltaBinaryPackedStream {
  if (type !== 'INT32' && type !== 'INT64') throw new CorruptFileError(`DELTA_BINARY_PACKED cannot encode ${type}`);
  return new DeltaBinaryPackedStream(c, count, type === 'INT64');
}

/** A page's values, read or passed over `n` at a time (a page's selected rows start or end inside it). */
export interface ValueStream {
  /** The next `n` values; the caller asks for no more than the page holds. */
  read(n: number): Values;
  /** Passes over the next `n` values without making them. */
  skip(n: number): void;
}

/**
 * The values of a page of `count` values in data[pos..end), as a stream.
 * Dictionary-encoded pages give their indices.
 */
export function valueStream(encoding: string, leaf: LeafNode, data: Uint8Array, pos: number, end: number, count: number): ValueStream {
  const c = new ByteCursor(data, pos, end);
  const type = leaf.physicalType;
  switch (encoding) {
    case 'PLAIN':
      return new PlainStream(c, type, leaf.typeLength);
    case 'PLAIN_DICTIONARY':
    case 'RLE_DICTIONARY':
      return new HybridValues(c, 'indices');
    case 'RLE':
      if (type !== 'BOOLEAN') throw new UnsupportedError(`RLE encoding for ${type} values`);
      return new HybridValues(c, 'booleans');
    case 'DELTA_BINARY_PACKED':
      return deltaStream(c, type, count);
    case 'DELTA_LENGTH_BYTE_ARRAY':
      if (type !== 'BYTE_ARRAY') throw new CorruptFileError(`DELTA_LENGTH_BYTE_ARRAY cannot encode ${type}`);
      return new DeltaLengthStream(c, count);
    case 'DELTA_BYTE_ARRAY':
      if (type !== 'BYTE_ARRAY' && type !== 'FIXED_LEN_BYTE_ARRAY') throw new CorruptFileError(`DELTA_BYTE_ARRAY cannot encode ${type}`);
      return new DeltaByteArrayStream(c, count, type === 'FIXED_LEN_BYTE_ARRAY' ? leaf.typeLength : undefined);
    case 'BYTE_STREAM_SPLIT':
      return new ByteStreamSplitStream(c, type, count, leaf.typeLength);
    case 'ALP':
      return alpStream(c, type, count);
    default:
      throw new UnsupportedError(`value encoding ${encoding}`);
  }
}

function alpStream(c: ByteCursor, type: string, count: number): AlpStream {
  if (type !== 'FLOAT' && type !== 'DOUBLE') throw new CorruptFileError(`ALP cannot encode ${type}`);
  return new AlpStream(c, type, count);
}

/**
 * Data page v1 levels at `c.pos`: RLE with a 4-byte length prefix, or the
 * deprecated BIT_PACKED; leaves `c.pos` after them. Every level is checked
 * against `check.max`; returns how many equal it.
 */
export function decodeLevels(encoding: string, c: ByteCursor, check: LevelCheck, count: number, out: Uint8Array | Uint16Array): number {
  const width = bitWidth(check.max);
  if (encoding === 'RLE') return decodeRleHybridPrefixed(c, width, count, out, 0, check);
  if (encoding !== 'BIT_PACKED') throw new UnsupportedError(`level encoding ${encoding}`);
  return new BitPackedStream(c, width, count).read(count, out, 0, check);
}

/** Data page v2 levels: RLE without a length prefix, in data[start..end). Checked and counted as decodeLevels does. */
export function decodeLevelsV2(data: Uint8Array, start: number, end: number, check: LevelCheck, count: number, out: Uint8Array | Uint16Array): number {
  return decodeRleHybrid(new ByteCursor(data, start, end), bitWidth(check.max), count, out, 0, check);
}
