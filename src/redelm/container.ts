/**
 * The RedElm container, as `RedelmFileWriter` writes it and
 * `RedelmFileReader.readFooter` reads it (big-endian, Java DataOutput):
 *
 *     "Red Elm\n"  row groups ...  footer  int64 footer index  "Red Elm\n"
 *     footer = int32 version (1), uint8 block count, per block:
 *              writeUTF name, int32 length, bytes
 *
 * Row groups carry no header: only the `RedElm` metadata block locates them.
 */
import { ByteCursor } from '../bytes/cursor.js';
import { ByteWriter } from '../bytes/writer.js';
import { CorruptFileError, InvalidArgumentError, UnsupportedError } from '../errors.js';
import type { Source } from '../io/source.js';
import { decodeModifiedUtf8, encodeModifiedUtf8 } from '../javaser/modified-utf8.js';

/** `Red Elm\n`: the design page's text says "RedElm\n", but its byte list and the code have the space. */
export const REDELM_MAGIC = Uint8Array.of(0x52, 0x65, 0x64, 0x20, 0x45, 0x6c, 0x6d, 0x0a);
export const REDELM_VERSION = 1;
/** The block holding RedElmMetaData. */
export const REDELM_BLOCK = 'RedElm';
/** The count is one unsigned byte; the Java writer refuses more. */
export const MAX_METADATA_BLOCKS = 255;

/** A named footer block: `RedElm`, or an application's (`Pig`), kept as bytes. */
export interface MetaDataBlock {
  name: string;
  data: Uint8Array;
  /** File offset of `data` (reading only). */
  offset?: number;
}

export interface RedElmFooter {
  footerIndex: number;
  version: number;
  blocks: MetaDataBlock[];
}

/** True when `head` starts with the RedElm magic. */
export function isRedElmMagic(head: Uint8Array): boolean {
  return head.length >= 8 && REDELM_MAGIC.every((b, i) => head[i] === b);
}

/** Reads and checks both magics, the footer index and the footer's blocks. */
export async function readRedElmFooter(source: Source): Promise<RedElmFooter> {
  const length = source.byteLength;
  // Magic, footer (version and count: 5 bytes), footer index, magic.
  if (length < 8 + 5 + 8 + 8) throw new CorruptFileError(`a RedElm file has at least 29 bytes, this one ${length}`, { offset: 0 });
  if (!isRedElmMagic(await source.read(0, 8))) throw new CorruptFileError('not a RedElm file: it does not start with "Red Elm\\n"', { offset: 0 });
  const tailAt = length - 16;
  const tail = new ByteCursor(await source.read(tailAt, 16), 0, 16, tailAt);
  const index = tail.i64be();
  if (!isRedElmMagic(tail.bytes(8))) throw new CorruptFileError('not a RedElm file: it does not end with "Red Elm\\n"', { offset: length - 8 });
  if (index < 8n || index > BigInt(tailAt - 5)) {
    throw new CorruptFileError(`footer index ${index} lies outside the file's ${length} bytes (between 8 and ${tailAt - 5})`, { offset: tailAt });
  }
  const footerIndex = Number(index);
  const c = new ByteCursor(await source.read(footerIndex, tailAt - footerIndex), 0, tailAt - footerIndex, footerIndex);
  const version = c.i32be();
  if (version !== REDELM_VERSION) throw new UnsupportedError(`RedElm footer version ${version} (only ${REDELM_VERSION} exists)`, { offset: footerIndex });
  const count = c.u8();
  const blocks: MetaDataBlock[] = [];
  for (let i = 0; i < count; i++) {
    const at = c.fileOffset;
    const name = decodeModifiedUtf8(c.bytes(c.u16be(), 'metadata block name'), at + 2);
    const lengthAt = c.fileOffset;
    const n = c.i32be();
    if (n < 0 || n > c.remaining) throw new CorruptFileError(`metadata block "${name}" claims ${n} bytes, but the footer has ${c.remaining} left`, { offset: lengthAt });
    blocks.push({ name, offset: c.fileOffset, data: c.bytes(n) });
  }
  if (c.remaining !== 0) throw new CorruptFileError(`the footer has ${c.remaining} bytes after its ${count} metadata blocks`, { offset: c.fileOffset });
  return { footerIndex, version, blocks };
}

/** The footer from `footerIndex` on: version, blocks, the index and the magic. */
export function encodeRedElmFooter(footerIndex: number, blocks: readonly MetaDataBlock[]): Uint8Array {
  if (blocks.length > MAX_METADATA_BLOCKS) throw new InvalidArgumentError(`a RedElm footer holds at most ${MAX_METADATA_BLOCKS} metadata blocks, got ${blocks.length}`);
  const w = new ByteWriter(blocks.reduce((n, b) => n + b.data.length + 64, 32));
  w.i32be(REDELM_VERSION);
  w.u8(blocks.length);
  for (const b of blocks) {
    const name = encodeModifiedUtf8(b.name);
    if (name.length > 0xffff) throw new InvalidArgumentError(`metadata block name of ${name.length} bytes (at most 65535)`);
    w.u16be(name.length);
    w.bytes(name);
    w.i32be(b.data.length);
    w.bytes(b.data);
  }
  w.i64be(BigInt(footerIndex));
  w.bytes(REDELM_MAGIC);
  return w.finish();
}
