/**
 * Column chunks stored in other files (`file_path`, parquet.thrift's "file
 * where column data is stored"), for one file's reader: each file named is
 * opened through the caller's `openFile` and laid, with its offsets, into
 * one address space after the file itself, so the reader's fetching,
 * coalescing, page indexes and bloom filters work as on one file. A gap of
 * GAP bytes between files keeps coalesced reads from spanning two; a read
 * that would is refused.
 */
import { CorruptFileError, UnsupportedError } from '../errors.js';
import type { Source } from '../io/source.js';
import type { ColumnChunk, FileMetaData } from './metadata/index.js';

/** Opens the file a chunk's `file_path` names (relative to the file naming it). */
export type OpenChunkFile = (filePath: string) => Promise<Source>;

const GAP = 1 << 24;

/** The file's source and metadata with chunks in other files brought into one address space; as they are when no chunk has a `file_path`. */
/** Where an offset of the joined address space lies: the `file_path` of its file (none: the file itself) and the offset in it. */
export type ChunkFileLocator = (offset: number) => { filePath?: string; offset: number };

export async function joinChunkFiles(source: Source, metadata: FileMetaData, openFile: OpenChunkFile | undefined, encrypted: boolean): Promise<{ source: Source; metadata: FileMetaData; locate?: ChunkFileLocator }> {
  const named = [...new Set(metadata.rowGroups.flatMap((rg) => rg.columns.map((c) => c.filePath)).filter((p): p is string => p !== undefined))];
  if (named.length === 0) return { source, metadata };
  const ctx = { file: source.name };
  if (!openFile) throw new UnsupportedError(`column chunk stored in another file (${named[0]}): give openFile (openParquet does for paths), or use openDataset`, ctx);
  if (encrypted) throw new UnsupportedError('an encrypted file whose column chunks are in other files', ctx);
  const segments: { base: number; source: Source }[] = [{ base: 0, source }];
  const bases = new Map<string, number>();
  let end = source.byteLength;
  try {
    for (const p of named) {
      const s = await openFile(p);
      const base = end + GAP;
      segments.push({ base, source: s });
      bases.set(p, base);
      end = base + s.byteLength;
    }
  } catch (e) {
    await Promise.all(segments.slice(1).map((s) => s.source.close?.()));
    throw e;
  }
  const joined: Source = {
    byteLength: end,
    name: source.name,
    read(offset, length) {
      let seg = segments[0]!;
      for (const s of segments) if (s.base <= offset) seg = s;
      if ( offset + length > seg.base + seg.source.byteLength) {
        return Promise.reject(new CorruptFileError(`a read of ${length} bytes at ${offset} spans files a column chunk's file_path names`, { ...ctx, offset }));
      }
      return seg.source.read(offset - seg.base, length);
    },
    async close() {
      await Promise.all(segments.map((s) => s.source.close?.()));
    },
  };
  const shift = (c: ColumnChunk): ColumnChunk => {
    if (c.filePath === undefined) return c;
    const base = bases.get(c.filePath)!;
    const { filePath: _f, ...rest } = c;
    const add = (x: number | undefined) => (x === undefined ? undefined : x + base);
    const m = c.metaData;
    return {
      ...rest,
      fileOffset: c.fileOffset + base,
      ...(c.offsetIndexOffset !== undefined ? { offsetIndexOffset: add(c.offsetIndexOffset) } : {}),
      ...(c.columnIndexOffset !== undefined ? { columnIndexOffset: add(c.columnIndexOffset) } : {}),
      ...(m ? {
        metaData: {
          ...m,
          dataPageOffset: m.dataPageOffset + base,
          ...(m.dictionaryPageOffset !== undefined ? { dictionaryPageOffset: add(m.dictionaryPageOffset) } : {}),
          ...(m.indexPageOffset !== undefined ? { indexPageOffset: add(m.indexPageOffset) } : {}),
          ...(m.bloomFilterOffset !== undefined ? { bloomFilterOffset: add(m.bloomFilterOffset) } : {}),
        },
      } : {}),
    };
  };
  const locate: ChunkFileLocator = (offset) => {
    let at: [string | undefined, number] = [undefined, 0];
    for (const [p, base] of bases) if (base <= offset) at = [p, base];
    return at[0] === undefined ? { offset } : { filePath: at[0], offset: offset - at[1] };
  };
  return { source: joined, metadata: { ...metadata, rowGroups: metadata.rowGroups.map((rg) => ({ ...rg, columns: rg.columns.map(shift) })) }, locate };
}
