import { LimitError } from '../errors.js';
import { isByteArrays, type ByteArrays, type Values } from '../encodings/types.js';

/** Joins the values of several pages into one container of the same kind. */
export function concatValues(parts: Values[]): Values {
  if (parts.length === 1) return parts[0]!;
  if (isByteArrays(parts[0]!)) return concatByteArrays(parts as ByteArrays[]);
  const arrays = parts as (Uint8Array | Int32Array | BigInt64Array | Float32Array | Float64Array)[];
  let n = 0;
  for (const a of arrays) n += a.length;
  const Ctor = arrays[0]!.constructor as new (n: number) => typeof arrays[0];
  const out = new Ctor(n);
  let o = 0;
  for (const a of arrays) {
    (out as Int32Array).set(a as Int32Array, o);
    o += a.length;
  }
  return out;
}

function concatByteArrays(parts: ByteArrays[]): ByteArrays {
  let bytes = 0;
  let count = 0;
  for (const p of parts) {
    const n = p.offsets.length - 1;
    bytes += p.offsets[n]! - p.offsets[0]!;
    count += n;
  }
  // Offsets are int32, the Arrow layout: a column chunk's byte data must stay under 2 GiB.
  if (bytes > 0x7fffffff) throw new LimitError(`column chunk holds ${bytes} bytes of byte-array data, more than the 2 GiB one vector can hold`);
  const data = new Uint8Array(bytes);
  const offsets = new Int32Array(count + 1);
  let d = 0;
  let c = 0;
  for (const p of parts) {
    const n = p.offsets.length - 1;
    const start = p.offsets[0]!;
    const end = p.offsets[n]!;
    data.set(p.data.subarray(start, end), d);
    const shift = d - start;
    for (let i = 1; i <= n; i++) offsets[c + i] = p.offsets[i]! + shift;
    d += end - start;
    c += n;
  }
  return { data, offsets };
}

/** Values [from, to) of a container, as a view (byte arrays keep their data; offsets need not start at 0). */
export function sliceValues(values: Values, from: number, to: number): Values {
  if (isByteArrays(values)) return { data: values.data, offsets: values.offsets.subarray(from, to + 1) };
  return values.subarray(from, to);
}
