/**
 * A Trevni v2 file whose array column holds `claim` rows in one block of a
 * few bytes: run codes, each a 5-byte varint standing for up to 2^30 rows
 * (issue 21, finding 8). Built from the project's own writer's file by
 * rewriting its block's bytes in place (null codec, no checksum, so nothing
 * else moves). Shapes: `empty`, int arrays all empty; `child`, the same
 * with a child column (each row then places no child value); `nulls`, an
 * array of nulls one long in every row (a run of 1s, which reads no value).
 */
import { BufferSink } from '../../src/io/sink.js';
import { TrevniReader } from '../../src/trevni/reader.js';
import { TrevniWriter } from '../../src/trevni/writer.js';

const RUN = 2 ** 30;

/** Non-canonical 5-byte varint of zig-zag `n` (32-bit), as the reader accepts. */
function varint5(n: number): number[] {
  let v = ((n << 1) ^ (n >> 31)) >>> 0;
  const out: number[] = [];
  for (let i = 0; i < 4; i++) {
    out.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return out;
}

export type RunShape = 'empty' | 'child' | 'nulls';

export async function runCodeFile(claim: number, shape: RunShape): Promise<Uint8Array> {
  const codes = Math.ceil(claim / RUN);
  const sink = new BufferSink();
  const child = shape === 'child';
  const columns = child
    ? [{ name: 'a', type: 'int' as const, array: true }, { name: 'a.x', type: 'int' as const, parent: 'a' }]
    : [{ name: 'a', type: shape === 'nulls' ? ('null' as const) : ('int' as const), array: true }];
  const w = await TrevniWriter.open(sink, columns, { codec: 'null', checksum: 'null', version: 2 });
  // A byte or two a row in the array's block, room for the run codes (nulls one or two long, lest the writer's own run codes take them).
  for (let r = 0; r < 5 * codes; r++) await w.writeRow(child ? [[1], [1]] : [shape === 'nulls' ? [null, null].slice(r % 2) : [1]]);
  await w.close();
  const bytes = sink.bytes().slice();
  const r = await TrevniReader.open(bytes);
  const col = r.column('a');
  const [block, ...more] = await r.blocks(col.index);
  if (!block || more.length) throw new Error('one block expected');
  // Plain lengths (one byte, one row each) fill what the run codes leave.
  const plain = block.compressedSize - 5 * codes;
  if (plain < 0) throw new Error(`a block of ${block.compressedSize} bytes has no room for ${codes} run codes`);
  let left = claim - plain;
  const data: number[] = [];
  for (let i = 0; i < codes; i++) {
    const k = Math.min(RUN, left - (codes - 1 - i));
    left -= k;
    data.push(...varint5(shape === 'nulls' ? 2 - 2 * k : 3 - 2 * k)); // k 1s: the code 2 - 2k; k 0s: 3 - 2k
  }
  data.push(...new Array<number>(plain).fill(shape === 'nulls' ? 2 : 0)); // zig-zag 1, 0
  bytes.set(data, block.offset);
  const view = new DataView(bytes.buffer);
  view.setBigInt64(4, BigInt(claim), true);
  view.setInt32(col.start + 4, claim, true); // the block descriptor's row count
  if (child) {
    // No row places a child value now: its block holds none (its old bytes stay behind it, past the last column).
    const x = r.column('a.x');
    view.setInt32(x.start + 4, claim, true);
    view.setInt32(x.start + 8, 0, true);
    view.setInt32(x.start + 12, 0, true);
  }
  return bytes;
}
