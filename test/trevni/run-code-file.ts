/**
 * A Trevni v2 file whose array column holds `claim` rows in one block of a
 * few bytes: run codes of zero-length arrays, each a 5-byte varint standing
 * for up to 2^30 rows (issue 21, finding 8). Built from the project's own
 * writer's file by rewriting its block's bytes in place (null codec, no
 * checksum, so nothing else moves); `child` gives the array a child column
 * (each row then places no child value).
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

export async function runCodeFile(claim: number, child: boolean): Promise<Uint8Array> {
  const codes = Math.ceil(claim / RUN);
  const sink = new BufferSink();
  const columns = child
    ? [{ name: 'a', type: 'int' as const, array: true }, { name: 'a.x', type: 'int' as const, parent: 'a' }]
    : [{ name: 'a', type: 'int' as const, array: true }];
  const w = await TrevniWriter.open(sink, { columns, codec: 'null', checksum: 'null', version: 2 });
  // Rows of one small value each: two bytes a row in the array's block, room for the run codes.
  for (let r = 0; r < 3 * codes; r++) await w.writeRow(child ? [[1], [1]] : [[1]]);
  await w.close();
  const bytes = sink.bytes().slice();
  const r = await TrevniReader.open(bytes);
  const col = r.column('a');
  const [block, ...more] = await r.blocks(col.index);
  if (!block || more.length) throw new Error('one block expected');
  // Plain zero lengths (one byte, one row each) fill what the run codes leave.
  const plain = block.compressedSize - 5 * codes;
  let left = claim - plain;
  const data: number[] = [];
  for (let i = 0; i < codes; i++) {
    const k = Math.min(RUN, left - (codes - 1 - i));
    left -= k;
    data.push(...varint5(3 - 2 * k)); // k zeros: the code 3 - 2k
  }
  data.push(...new Array<number>(plain).fill(0));
  bytes.set(data, block.offset);
  const view = new DataView(bytes.buffer);
  view.setBigInt64(4, BigInt(claim), true);
  view.setInt32(col.start + 4, claim, true); // the block descriptor's row count
  if (child) {
    const x = r.column('a.x');
    view.setInt32(x.start + 4, claim, true);
  }
  return bytes;
}
