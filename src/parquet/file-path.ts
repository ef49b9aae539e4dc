/**
 * Column chunks stored in other files (`file_path`, parquet.thrift's "file
 * where column data is stored"), for one file's reader: each file named is
 * checked by the guard datasets share (io/file-path-guard.ts), opened
 * through the caller's `openFile` and laid, with its offsets, into one
 * address space after the file itself, so the reader's fetching,
 * coalescing, page indexes and bloom filters work as on one file. A gap of
 * GAP bytes between files keeps coalesced reads from spanning two; a read
 * that would is refused.
 */
import { CorruptFileError, UnsupportedError } from '../errors.js';
import { resolveFilePath } from '../io/file-path-guard.js';
import type { Source } from '../io/source.js';
import type { ColumnChunk, FileMetaData } from './metadata/index.js';
import { readFooter } from './footer.js';
import { checkNamedOnce } from './named-once.js';
import { checkNamedFile } from './part-check.js';

/**
 * Opens the file a chunk's `file_path` names: `filePath` as written,
 * `resolved` where it leads from the file naming it (relative to its path
 * or URL), already refused when it leaves that file's directory.
 */
export type OpenChunkFile = (filePath: string, resolved: string) => Promise<Source>;

const GAP = 1 << 24;

/** Where an offset of the joined address space lies: the `file_path` of its file (none: the file itself) and the offset in it. */
export type ChunkFileLocator = (offset: number) => { filePath?: string; offset: number };

/** The file's source and metadata with chunks in other files brought into one address space; as they are when no chunk has a `file_path`. */
export async function joinChunkFiles(source: Source, metadata: FileMetaData, options: { openFile?: OpenChunkFile; allowOutsideRoot?: boolean }, encrypted: boolean): Promise<{ source: Source; metadata: FileMetaData; locate?: ChunkFileLocator }> {
  const ctx = { file: source.name };
  // Each file named, where it leads; checked before any is opened.
  const named = new Map<string, string>();
  const seen = new Map<string, number>();
  metadata.rowGroups.forEach((rg, i) => {
    for (const c of rg.columns) {
      const p = c.filePath;
      if (p === undefined || named.has(p)) continue;
      named.set(p, resolveFilePath(source.name ?? '', p, '', options.allowOutsideRoot === true, { ...ctx, rowGroup: i }));
    }
    const p = rg.columns[0]?.filePath;
    checkNamedOnce(seen, source.name, p === undefined ? source.name ?? '' : named.get(p)!, p, rg, i);
  });
  if (named.size === 0) return { source, metadata };
  const openFile = options.openFile;
  const [first] = named.keys();
  if (!openFile) throw new UnsupportedError(`column chunk stored in another file (${first}): give openFile (openParquet does for paths and URLs), or use openDataset`, ctx);
  if (encrypted) throw new UnsupportedError('an encrypted file whose column chunks are in other files', ctx);
  const segments: { base: number; source: Source }[] = [{ base: 0, source }];
  const bases = new Map<string, number>();
  let end = source.byteLength;
  try {
    for (const [p, resolved] of named) {
      const s = await openFile(p, resolved);
      const base = end + GAP;
      segments.push({ base, source: s });
      // Its pages are read through this footer's description of them: the file's own must agree.
      const own = await readFooter(s);
      checkNamedFile(source.name ?? 'the file', p, metadata.schema, metadata.rowGroups.filter((rg) => rg.columns[0]?.filePath === p), own.metadata);
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
