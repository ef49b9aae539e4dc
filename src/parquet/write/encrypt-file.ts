/**
 * `encryptParquet`: a plaintext Parquet file (bytes in memory) re-laid out
 * encrypted, in any of the spec's modes (file-encryptor.ts). Pages are
 * moved, never re-encoded, so the values are exactly the plaintext file's;
 * offsets, the offset index and the footer are rewritten. Writing
 * encrypted from the start is the writer's `encryption` option, which
 * holds no more than a row group.
 */
import { ByteCursor } from '../../bytes/cursor.js';
import { ByteWriter } from '../../bytes/writer.js';
import { CorruptFileError, InvalidArgumentError } from '../../errors.js';
import { ParquetFile } from '../file.js';
import { chunkBytes, readsNoChunks } from '../chunk-locator.js';
import { decodeBloomFilterHeader, decodeColumnIndex, decodeOffsetIndex, decodePageHeader, type ColumnChunk, type FileMetaData } from '../metadata/index.js';
import { encodeOffsetIndex } from '../metadata/encode.js';
import { concatBytes } from '../../bytes/concat.js';
import { ModuleType } from '../crypto/aad.js';
import type { EncryptionOptions, Sealable } from '../crypto/file-encryptor.js';

/** The encrypted form of a plaintext Parquet file (`input`: its bytes). */
export async function encryptParquet(input: Uint8Array, options: EncryptionOptions): Promise<Uint8Array> {
  const { FileEncryptor } = await import('../crypto/file-encryptor.js');
  const encryptor = FileEncryptor.create(options);
  // Opened as any read opens it, so its chunks are located (and checked) by the file's locator.
  const file = await ParquetFile.open(input);
  if (file.metadata.encryptionAlgorithm) throw new InvalidArgumentError('the input is already encrypted');
  const meta: FileMetaData = structuredClone(file.metadata);
  const leaves = file.schema.leaves.map((l) => l.path.join('.'));
  encryptor.checkColumns(leaves);
  const out: Uint8Array[] = [encryptor.magic];
  let offset = 4;
  const put = (b: Uint8Array): number => {
    const at = offset;
    out.push(b);
    offset += b.length;
    return at;
  };
  const moved: { chunk: ColumnChunk; rg: number; col: number; path: string; pageMoves: Map<number, { offset: number; size: number }> }[] = [];

  for (const [rg, group] of meta.rowGroups.entries()) {
    group.ordinal = rg;
    const groupStart = offset;
    for (const [col, chunk] of group.columns.entries()) {
      const m = chunk.metaData!;
      const path = m.pathInSchema.join('.');
      // Keys go by the chunk's path, named by the schema's: a chunk saying it is another column would be left in plaintext, or sealed with another's key.
      if (path !== leaves[col]) throw new CorruptFileError(`column chunk ${col} says it is column "${path}", but the schema's column ${col} is "${leaves[col] ?? '(none)'}"`, { rowGroup: rg });
      const { start, end: chunkEnd } = readsNoChunks(group) ? { start: 0, end: 0 } : chunkBytes(file.locator.locate(rg, file.schema.leaves[col]!).meta, file.locator.dataEnd, { rowGroup: rg, column: path });
      const bytes = input.subarray(start, chunkEnd);
      const pages: (Sealable & { at: number; dictionary: boolean })[] = [];
      for (let pos = 0; pos < bytes.length; ) {
        const c = new ByteCursor(bytes, pos, bytes.length, start);
        const header = decodePageHeader(c);
        const end = c.pos + header.compressedPageSize;
        // A negative size would step back and walk the same bytes for ever.
        if (!(header.compressedPageSize >= 0 && end <= bytes.length)) {
          throw new CorruptFileError(`page of ${header.compressedPageSize} bytes runs past the end of the column chunk (${bytes.length - c.pos} bytes left)`, { rowGroup: rg, column: path, offset: start + pos });
        }
        pages.push({ header: bytes.subarray(pos, c.pos), body: bytes.subarray(c.pos, end), at: start + pos, dictionary: header.type === 'DICTIONARY_PAGE' });
        pos = end;
      }
      await encryptor.sealPages(path, rg, col, pages);
      const pageMoves = new Map<number, { offset: number; size: number }>();
      const movedTo = offset;
      let first = true;
      for (const p of pages) {
        const at = put(p.header);
        put(p.body);
        if (p.dictionary) m.dictionaryPageOffset = at;
        else {
          if (first) m.dataPageOffset = at;
          first = false;
          pageMoves.set(p.at, { offset: at, size: offset - at });
        }
      }
      m.totalCompressedSize = offset - movedTo;
      moved.push({ chunk, rg, col, path, pageMoves });
    }
    group.fileOffset = groupStart;
    group.totalCompressedSize = offset - groupStart;
  }

  // Bloom filters, then column indexes, then offset indexes, as the writer orders them.
  for (const e of moved) {
    const m = e.chunk.metaData!;
    if (m.bloomFilterOffset === undefined) continue;
    const c = new ByteCursor(input, m.bloomFilterOffset, input.length, 0);
    const numBytes = decodeBloomFilterHeader(c).numBytes;
    const bytes = await encryptor.sealBloomFilter(e.path, e.rg, e.col, input.subarray(m.bloomFilterOffset, c.pos + numBytes));
    m.bloomFilterOffset = put(bytes);
    m.bloomFilterLength = bytes.length;
  }
  for (const e of moved) {
    const ch = e.chunk;
    if (ch.columnIndexOffset === undefined || ch.columnIndexLength === undefined) continue;
    const plainIndex = input.subarray(ch.columnIndexOffset, ch.columnIndexOffset + ch.columnIndexLength);
    decodeColumnIndex(new ByteCursor(plainIndex, 0, plainIndex.length, 0)); // a broken index is refused, not sealed
    const bytes = await encryptor.sealIndex(e.path, e.rg, e.col, ModuleType.COLUMN_INDEX, plainIndex);
    ch.columnIndexOffset = put(bytes);
    ch.columnIndexLength = bytes.length;
  }
  for (const e of moved) {
    const ch = e.chunk;
    if (ch.offsetIndexOffset === undefined || ch.offsetIndexLength === undefined) continue;
    const oi = decodeOffsetIndex(new ByteCursor(input, ch.offsetIndexOffset, ch.offsetIndexOffset + ch.offsetIndexLength, 0));
    for (const p of oi.pageLocations) {
      const to = e.pageMoves.get(p.offset);
      if (!to) throw new InvalidArgumentError(`the input's offset index points at ${p.offset}, which is not a data page`);
      p.offset = to.offset;
      p.compressedPageSize = to.size;
    }
    const w = new ByteWriter(256);
    encodeOffsetIndex(oi, w);
    const bytes = await encryptor.sealIndex(e.path, e.rg, e.col, ModuleType.OFFSET_INDEX, w.finish());
    ch.offsetIndexOffset = put(bytes);
    ch.offsetIndexLength = bytes.length;
  }
  put(await encryptor.footer(meta));
  return concatBytes(out);
}
