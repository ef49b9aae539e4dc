/**
 * The value encodings beyond PLAIN, RLE booleans and dictionary indices:
 * DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY,
 * BYTE_STREAM_SPLIT and ALP. page-values.ts dispatches to them once loaded
 * (`loadPageEncodings`), which a read does only for a chunk that lists one,
 * or a page that uses one: a file of plain and dictionary pages, and a
 * browser app reading it, never loads their code.
 */
import type { ByteCursor } from '../bytes/cursor.js';
import { CorruptFileError } from '../errors.js';
import { AlpStream } from '../encodings/alp.js';
import { ByteStreamSplitStream, decodeByteStreamSplit } from '../encodings/byte-stream-split.js';
import { DeltaBinaryPackedStream } from '../encodings/delta-binary-packed.js';
import { decodeDeltaByteArray, DeltaByteArrayStream } from '../encodings/delta-byte-array.js';
import { decodeDeltaLengthByteArray, DeltaLengthStream } from '../encodings/delta-length-byte-array.js';
import type { Values, ValueStream } from '../encodings/types.js';
import type { LeafNode } from '../schema/tree.js';

/** `count` values of `leaf`'s type at `c` in `encoding`, one of this module's. */
export function decodeOther(encoding: string, leaf: LeafNode, c: ByteCursor, count: number): Values {
  const type = leaf.physicalType;
  switch (encoding) {
    case 'DELTA_BINARY_PACKED':
      return deltaStream(c, type, count).read(count);
    case 'DELTA_LENGTH_BYTE_ARRAY':
      if (type !== 'BYTE_ARRAY') throw new CorruptFileError(`DELTA_LENGTH_BYTE_ARRAY cannot encode ${type}`);
      return decodeDeltaLengthByteArray(c, count);
    case 'DELTA_BYTE_ARRAY':
      return decodeDeltaByteArray(c, count, byteArrayLength(leaf));
    case 'BYTE_STREAM_SPLIT':
      return decodeByteStreamSplit(c, type, count, leaf.typeLength);
    default:
      return alpStream(c, type, count).read(count);
  }
}

/** The values of a page in `encoding`, one of this module's, as a stream. */
export function otherStream(encoding: string, leaf: LeafNode, c: ByteCursor, count: number): ValueStream {
  const type = leaf.physicalType;
  switch (encoding) {
    case 'DELTA_BINARY_PACKED':
      return deltaStream(c, type, count);
    case 'DELTA_LENGTH_BYTE_ARRAY':
      if (type !== 'BYTE_ARRAY') throw new CorruptFileError(`DELTA_LENGTH_BYTE_ARRAY cannot encode ${type}`);
      return new DeltaLengthStream(c, count);
    case 'DELTA_BYTE_ARRAY':
      return new DeltaByteArrayStream(c, count, byteArrayLength(leaf));
    case 'BYTE_STREAM_SPLIT':
      return new ByteStreamSplitStream(c, type, count, leaf.typeLength);
    default:
      return alpStream(c, type, count);
  }
}

/** DELTA_BYTE_ARRAY's value width: none for BYTE_ARRAY, the type's for FIXED_LEN_BYTE_ARRAY. */
function byteArrayLength(leaf: LeafNode): number | undefined {
  const type = leaf.physicalType;
  if (type !== 'BYTE_ARRAY' && type !== 'FIXED_LEN_BYTE_ARRAY') throw new CorruptFileError(`DELTA_BYTE_ARRAY cannot encode ${type}`);
  return type === 'FIXED_LEN_BYTE_ARRAY' ? leaf.typeLength : undefined;
}

function deltaStream(c: ByteCursor, type: string, count: number): DeltaBinaryPackedStream {
  if (type !== 'INT32' && type !== 'INT64') throw new CorruptFileError(`DELTA_BINARY_PACKED cannot encode ${type}`);
  return new DeltaBinaryPackedStream(c, count, type === 'INT64');
}

function alpStream(c: ByteCursor, type: string, count: number): AlpStream {
  if (type !== 'FLOAT' && type !== 'DOUBLE') throw new CorruptFileError(`ALP cannot encode ${type}`);
  return new AlpStream(c, type, count);
}
