/**
 * A RedElm data section: the non-null values of one column chunk,
 * concatenated, as the prototype's column writers put them through
 * DataOutputStream: int32, int64, float and double big-endian (floats via
 * floatToIntBits, so NaN payloads are already gone), boolean one byte (any
 * non-zero is true), string an unsigned LEB128 byte length and UTF-8, binary
 * a 4-byte signed length and the bytes.
 */
import { ByteCursor } from '../bytes/cursor.js';
import { ByteWriter } from '../bytes/writer.js';
import { CorruptFileError } from '../errors.js';
import type { PhysicalValue } from '../schema/coerce.js';
import type { RedElmType } from './metadata.js';

const WIDTH: Partial<Record<RedElmType, number>> = { INT32: 4, INT64: 8, FLOAT: 4, DOUBLE: 8, BOOLEAN: 1 };

const utf8 = new TextDecoder();

/**
 * The `count` values of a decompressed data section. `offset` is the
 * section's file offset; errors give the offset of the section (its bytes
 * are compressed, so no byte within it is a file offset).
 */
export function decodeValues(type: RedElmType, data: Uint8Array, count: number, offset: number): ArrayLike<unknown> {
  const width = WIDTH[type];
  if (width !== undefined) {
    if (data.length !== count * width) {
      throw new CorruptFileError(`${type} data holds ${data.length} bytes, ${count} values need ${count * width}`, { offset });
    }
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    switch (type) {
      case 'INT32': { const a = new Int32Array(count); for (let i = 0; i < count; i++) a[i] = view.getInt32(i * 4); return a; }
      case 'INT64': { const a = new BigInt64Array(count); for (let i = 0; i < count; i++) a[i] = view.getBigInt64(i * 8); return a; }
      case 'FLOAT': { const a = new Float32Array(count); for (let i = 0; i < count; i++) a[i] = view.getFloat32(i * 4); return a; }
      case 'DOUBLE': { const a = new Float64Array(count); for (let i = 0; i < count; i++) a[i] = view.getFloat64(i * 8); return a; }
      default: { const a = new Array<boolean>(count); for (let i = 0; i < count; i++) a[i] = data[i] !== 0; return a; }
    }
  }
  // Each value takes at least one byte (string) or four (binary): a count the bytes cannot back fails before anything is built.
  if (count > data.length / (type === 'BINARY' ? 4 : 1)) throw new CorruptFileError(`${type} data of ${data.length} bytes cannot hold ${count} values`, { offset });
  const c = new ByteCursor(data);
  const out = new Array<unknown>(count);
  try {
    for (let i = 0; i < count; i++) {
      if (type === 'STRING') {
        const n = c.varUint();
        out[i] = utf8.decode(c.bytes(n, 'string'));
      } else {
        out[i] = c.bytes(c.i32be(), 'binary');
      }
    }
  } catch (e) {
    if (e instanceof CorruptFileError) throw new CorruptFileError(`${type} value: ${e.detail} (byte ${c.pos} of the decompressed data section)`, { offset });
    throw e;
  }
  if (c.remaining !== 0) throw new CorruptFileError(`${type} data has ${c.remaining} bytes after its ${count} values`, { offset });
  return out;
}

/**
 * Appends one value in the section's encoding, in its physical form as
 * schema/coerce.ts makes it: a number, a bigint for INT64, a boolean, the
 * UTF-8 bytes of a string, the bytes of a binary.
 */
export function encodeValue(type: RedElmType, w: ByteWriter, v: PhysicalValue): void {
  switch (type) {
    case 'INT32': return w.i32be(v as number);
    case 'INT64': return w.i64be(v as bigint);
    case 'BOOLEAN': return w.u8(v ? 1 : 0);
    case 'FLOAT': return bigEndian(w, 4, (d) => d.setFloat32(0, v as number));
    case 'DOUBLE': return bigEndian(w, 8, (d) => d.setFloat64(0, v as number));
    case 'STRING': {
      const b = v as Uint8Array;
      w.varUint(b.length);
      return w.bytes(b);
    }
    case 'BINARY': {
      const b = v as Uint8Array;
      w.i32be(b.length);
      return w.bytes(b);
    }
  }
}

const scratch = new DataView(new ArrayBuffer(8));

function bigEndian(w: ByteWriter, n: number, set: (d: DataView) => void): void {
  set(scratch);
  w.bytes(new Uint8Array(scratch.buffer, 0, n));
}
