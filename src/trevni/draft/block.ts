/**
 * A block of the draft dialect, uncompressed: the definition levels' array
 * (when the column's maximum definition level is above 0), the repetition
 * levels' array (when its maximum repetition level is), then the values
 * present (entries at the maximum definition level) in Trevni's value
 * encoding. The draft leaves IntegerArray open; here it is the level count
 * (a Trevni int: zig-zag varint), then the levels as Parquet's data pages
 * (v1) store them: a 4-byte little-endian byte length and the RLE/bit-packed
 * hybrid at the bit width of the maximum level. Without levels each row is
 * one value.
 */
import { ByteCursor } from '../../bytes/cursor.js';
import type { ByteWriter } from '../../bytes/writer.js';
import { bitWidth, decodeRleHybridPrefixed } from '../../encodings/rle.js';
import { encodeRleHybridPrefixed } from '../../encodings/rle-encode.js';
import { CorruptFileError, LimitError } from '../../errors.js';
import type { TrevniType, TrevniValue } from '../types.js';
import { ValueReader } from '../values.js';

/**
 * Level entries a block may claim: 64 a byte of its data and 65,536 more
 * (RLE holds a run of 2^31 in a few bytes; no writer of ordinary data
 * comes near 64 entries a byte, which the Parquet reader also uses as the
 * mark of a claim its bytes do not back).
 */
export function maxLevelEntries(blockBytes: number): number {
  return 64 * blockBytes + 65536;
}

export interface DraftBlockData {
  def: Uint8Array | null;
  rep: Uint8Array | null;
  /** Level entries (rows, without levels). */
  count: number;
  values: TrevniValue[];
}

/** Decodes a block of `rows` records; `base` is the data's file offset (0 when decompressed) for errors. */
export function decodeDraftBlock(data: Uint8Array, base: number, type: TrevniType, maxDef: number, maxRep: number, rows: number): DraftBlockData {
  const cur = new ByteCursor(data, 0, data.length, base);
  const vr = new ValueReader(cur, false);
  let def: Uint8Array | null = null;
  let rep: Uint8Array | null = null;
  let count = rows;
  let valueCount = rows;
  const levels = (what: 'definition' | 'repetition', max: number): { out: Uint8Array; atMax: number } => {
    const at = cur.fileOffset;
    const n = vr.int();
    if (n < 0) throw new CorruptFileError(`negative ${what} level count ${n}`, { offset: at });
    if (n > maxLevelEntries(data.length)) throw new LimitError(`${n} ${what} levels in a block of ${data.length} bytes, more than the ${maxLevelEntries(data.length)} it may claim`, { offset: at });
    const out = new Uint8Array(n);
    return { out, atMax: decodeRleHybridPrefixed(cur, bitWidth(max), n, out, 0, { max, what }) };
  };
  if (maxDef > 0) {
    const d = levels('definition', maxDef);
    def = d.out;
    count = d.out.length;
    valueCount = d.atMax;
  }
  if (maxRep > 0) {
    const at = cur.fileOffset;
    const r = levels('repetition', maxRep);
    if (r.out.length !== count) throw new CorruptFileError(`${r.out.length} repetition levels for ${count} definition levels`, { offset: at });
    rep = r.out;
    let starts = 0;
    for (let i = 0; i < count; i++) if (rep[i] === 0) starts++;
    if (starts !== rows || (count > 0 && rep[0] !== 0)) throw new CorruptFileError(`the levels hold ${starts} records, the block's descriptor ${rows}`, { offset: at });
  } else if (count !== rows) {
    throw new CorruptFileError(`${count} level entries for the block's ${rows} rows (the column does not repeat)`, { offset: base });
  }
  // Every value type of a leaf takes at least a byte.
  if (valueCount > vr.remaining) throw new CorruptFileError(`${valueCount} values, more than the block's ${vr.remaining} bytes left hold`, { offset: cur.fileOffset });
  const values: TrevniValue[] = new Array(valueCount);
  for (let i = 0; i < valueCount; i++) values[i] = vr.value(type);
  if (vr.remaining !== 0) throw new CorruptFileError(`${vr.remaining} bytes after the block's ${valueCount} values`, { offset: cur.fileOffset });
  return { def, rep, count, values };
}

/** Writes a block's level arrays (those the column has) before its values. */
export function encodeDraftLevels(w: ByteWriter, def: ArrayLike<number>, rep: ArrayLike<number>, count: number, maxDef: number, maxRep: number): void {
  if (maxDef > 0) {
    w.zigzag32(count);
    encodeRleHybridPrefixed(w, def, bitWidth(maxDef), 0, count);
  }
  if (maxRep > 0) {
    w.zigzag32(count);
    encodeRleHybridPrefixed(w, rep, bitWidth(maxRep), 0, count);
  }
}
