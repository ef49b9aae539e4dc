/// <reference lib="esnext.disposable" preserve="true" />
// (the declarations name Symbol.asyncDispose: an app whose lib stops at ES2022 type-checks them through this)
/**
 * An opened Parquet file: its footer, bytes, decryptor and chunk locator,
 * and what inspection asks of it (page indexes, bloom filters,
 * dictionaries, where an offset lies). `ParquetReader` reads rows and
 * columns on top of one.
 */
import { CorruptFileError, InvalidArgumentError, withContext } from '../errors.js';
import { bufferSource, httpSource, inputSource, withCachedTail, type ReadInput, type Source, type UrlOptions } from '../io/source.js';
import { buildSchema, type ColumnPath, type LeafNode, type Schema, type SchemaElementLike } from '../schema/tree.js';
import { selectLeaf, selectLeaves } from '../schema/select.js';
import type { Values } from '../encodings/types.js';
import { ChunkLocator, dictionaryBytes, readsNoChunks } from './chunk-locator.js';
import { ChunkReads, decoding, filtering, type FileChunkOptions } from './chunk-reads.js';
import type { FileDecryptor } from './crypto/decryptor.js';
import type { DecryptionOptions } from './crypto/options.js';
import type { ChunkFileLocator, OpenChunkFile } from './file-path.js';
import { checkNamedOnce } from './named-once.js';
import type { PageIndexEntry } from './filter/indexes.js';
import { readFooter } from './footer.js';
import type { BloomFilterHeader, ColumnIndex, FileMetaData, OffsetIndex, RowGroup } from './metadata/index.js';
import { DEFAULT_MAX_PAGE_BYTES } from './page-bounds.js';

/** What a reader of a URL opens chunk files with: their resolved URLs, with the same headers. */
export function httpChunkFiles(headers?: Record<string, string>): OpenChunkFile {
  return (_, resolved) => httpSource(resolved, { headers });
}

/**
 * A file whose chunks are all its own, its row groups checked as
 * joinChunkFiles checks them (file-path.ts, loaded only for a file whose
 * chunks name others).
 */
function ownChunks(source: Source, metadata: FileMetaData): { source: Source; metadata: FileMetaData; locate?: ChunkFileLocator } {
  const seen = new Map<string, number>();
  metadata.rowGroups.forEach((rg, i) => checkNamedOnce(seen, source.name, source.name ?? '', undefined, rg, i));
  return { source, metadata };
}

/**
 * How `ParquetFile.open`, `ParquetReader.open` and `openParquet` read a file: checksums, page size
 * limits, keys, URL settings.
 */
export interface OpenOptions extends UrlOptions {
  /** Verify page CRC-32 checksums where pages carry them (default true). */
  verifyChecksums?: boolean;
  /**
   * Largest decompressed size a page may declare, in bytes (default 2^30):
   * a page claiming more is refused with a LimitError before it is inflated.
   */
  maxDecompressedBytes?: number;
  /** Keys and settings for files written with Parquet modular encryption (docs/encryption.md). */
  decryption?: DecryptionOptions;
  /**
   * Opens the file a column chunk's `file_path` names, once the path is
   * checked (relative to this file, never leaving its directory unless
   * `allowOutsideRoot`). A URL input opens them over HTTP by default, and
   * `openParquet` opens local paths; without it such chunks are refused.
   */
  openFile?: OpenChunkFile;
  /** Let a column chunk's `file_path` name a file outside this file's directory, or an absolute one (default false). */
  allowOutsideRoot?: boolean;
}

/** A column chunk's bloom filter, as `readBloomFilter` gives it. */
export interface BloomFilterProbe {
  header: BloomFilterHeader;
  /** Whether `value` (as filters take it) may be in the chunk: false means it surely is not. */
  mightContain(value: unknown): boolean;
}

/**
 * A Parquet file opened for inspection: its footer, where its column chunks
 * lie, and their page indexes, bloom filters and dictionaries, each read
 * when asked for. Reading rows is `ParquetReader`'s (`new ParquetReader(file)`
 * reads through the same open file).
 *
 * @example
 * ```ts
 * import { ParquetFile } from 'parquetry/inspect';
 * await using file = await ParquetFile.open(new URL('https://example.com/data.parquet'));
 * console.log(file.metadata.rowGroups.length, await file.pageIndex(0, 'id'));
 * ```
 */
export class ParquetFile {
  /** Where the file's column chunks lie. */
  readonly locator: ChunkLocator;
  /** @internal The chunk I/O its reader and its inspection share. */
  readonly reads: ChunkReads;

  private constructor(
    private readonly source: Source,
    readonly metadata: FileMetaData,
    readonly schema: Schema,
    chunkOptions: FileChunkOptions,
    /** An encrypted file's keys and ciphers; page-headers.ts decrypts header modules with it. */
    readonly decryptor: FileDecryptor | undefined,
    /** Where an offset of `bytes` lies when chunks of other files are joined to this one (file-path.ts). */
    private readonly chunkFiles: ChunkFileLocator | undefined,
    tailFrom: number,
  ) {
    this.locator = new ChunkLocator(metadata, source.byteLength, { name: source.name, decryptor, locateFile: chunkFiles });
    this.reads = new ChunkReads(source, metadata, this.locator, decryptor, chunkOptions, tailFrom);
  }

  /**
   * Opens a Parquet file from bytes, a URL, a Blob or a source object, reading only its footer.
   *
   * @example
   * ```ts
   * const file = await ParquetFile.open(bytes);
   * console.log(file.metadata.createdBy, file.keyValueMetadata);
   * ```
   */
  static async open(input: ReadInput, options: OpenOptions = {}): Promise<ParquetFile> {
    const openFile = options.openFile ?? (input instanceof URL ? httpChunkFiles(options.headers) : undefined);
    return ParquetFile.fromSource(await inputSource(input, options), { ...options, openFile });
  }

  /**
   * Opens a Parquet file through a Source already made (`bufferSource`, `httpSource`, `blobSource`
   * or your own), reading only its footer.
   */
  static async fromSource(source: Source, options: OpenOptions = {}): Promise<ParquetFile> {
    const chunkOptions = checkedChunkOptions(options);
    const footer = await readFooter(source, options.decryption);
    const { offset, tail, tailOffset, decryptor } = footer;
    // Schema faults are in the footer: point at it (the schema's own elements carry no offsets once decoded).
    const schema = withContext({ file: source.name, offset }, () => buildSchema(footer.metadata.schema as SchemaElementLike[]));
    validateRowGroups(footer.metadata, schema, source);
    if (decryptor) decryptor.verifyChecksums = chunkOptions.verifyChecksums;
    const joined = footer.metadata.rowGroups.some((rg) => rg.columns.some((c) => c.filePath !== undefined))
      ? await (await import('./file-path.js')).joinChunkFiles(source, footer.metadata, options, decryptor !== undefined)
      : ownChunks(source, footer.metadata);
    return new ParquetFile(withCachedTail(joined.source, tail, tailOffset), joined.metadata, schema, chunkOptions, decryptor, joined.locate, tailOffset);
  }

  /**
   * A plaintext file whose FileMetaData is already known (a footer read
   * before, or a dataset's `_metadata` cut down to this file's row groups):
   * nothing is read until asked for.
   */
  static fromMetadata(source: Source, metadata: FileMetaData, options: Omit<OpenOptions, 'decryption' | 'openFile' | 'allowOutsideRoot'> = {}): ParquetFile {
    const chunkOptions = checkedChunkOptions(options);
    const schema = withContext({ file: source.name }, () => buildSchema(metadata.schema as SchemaElementLike[]));
    validateRowGroups(metadata, schema, source);
    return new ParquetFile(source, metadata, schema, chunkOptions, undefined, undefined, Infinity);
  }

  /**
   * Rows in the file, from the row groups alone: writers that leave the
   * footer's num_rows at 0 still get the right count.
   */
  get numRows(): number {
    let n = 0;
    for (const rg of this.metadata.rowGroups) n += rg.numRows;
    return n;
  }

  /** The file's name as its source gives it (a path or URL), used in error messages. */
  get name(): string | undefined {
    return this.source.name;
  }

  /**
   * The bytes the metadata's offsets point into, for tools that read raw
   * pages: the file, with the files its chunks' `file_path` names joined
   * after it (file-path.ts).
   */
  get bytes(): Source {
    return this.source;
  }

  /** The footer's key-value metadata (a key stated twice keeps its last value; a key without a value maps to ''). */
  get keyValueMetadata(): Map<string, string> {
    return new Map((this.metadata.keyValueMetadata ?? []).map((e) => [e.key, e.value ?? '']));
  }

  /** Where an offset of `bytes` lies: the `file_path` of the file it is in (none: this file) and the offset there. */
  locate(offset: number): { filePath?: string; offset: number } {
    return this.chunkFiles ? this.chunkFiles(offset) : { offset };
  }

  /** Leaf columns selected by dotted paths (all leaves when `paths` is absent). */
  selectLeaves(paths?: readonly ColumnPath[]): LeafNode[] {
    return selectLeaves(this.schema, paths, { file: this.source.name });
  }

  /** The column index (per-page statistics) of a column chunk, or null when the file has none; checked against the offset index. */
  async readColumnIndex(rowGroup: number, column: ColumnPath): Promise<ColumnIndex | null> {
    return (await this.pageIndexes(rowGroup, column)).ci;
  }

  /** The offset index (page locations and first rows) of a column chunk, or null when the file has none. */
  async readOffsetIndex(rowGroup: number, column: ColumnPath): Promise<OffsetIndex | null> {
    return (await this.pageIndexes(rowGroup, column)).oi;
  }

  /**
   * A column chunk's pages from its page index: location, rows, null
   * counts and bounds as JS values. Null when the chunk has no offset index
   * (without a column index, only locations and rows are given).
   */
  async pageIndex(rowGroup: number, column: ColumnPath): Promise<PageIndexEntry[] | null> {
    const leaf = this.leafOf(rowGroup, column);
    const [{ ci, oi }, { pageEntries }] = await Promise.all([(await this.reads.indexes()).pageIndexes(rowGroup, leaf), filtering()]);
    return oi ? pageEntries(leaf, oi, ci, this.metadata.rowGroups[rowGroup]!.numRows) : null;
  }

  /**
   * A column chunk's bloom filter, or null when it has none. `mightContain`
   * takes a value as filters do (docs/filtering.md); false means the value
   * is surely not in the chunk.
   */
  async readBloomFilter(rowGroup: number, column: ColumnPath): Promise<BloomFilterProbe | null> {
    const leaf = this.leafOf(rowGroup, column);
    const { loadBloomHasher, domainOf, bloomMightContain } = await filtering();
    const [bf] = await Promise.all([(await this.reads.indexes()).bloom(rowGroup, leaf), loadBloomHasher()]);
    if (!bf) return null;
    const domain = domainOf(leaf);
    return { header: bf.header, mightContain: (value) => bloomMightContain(domain, bf, domain.literal(value)) };
  }

  /**
   * The entries of a column chunk's dictionary page as stored (physical
   * values, in dictionary order), or null when the chunk has none. Only the
   * dictionary page is read.
   */
  async readDictionary(rowGroup: number, column: ColumnPath): Promise<Values | null> {
    const leaf = this.leafOf(rowGroup, column);
    if (readsNoChunks(this.metadata.rowGroups[rowGroup]!)) return null;
    const loc = this.locator.locate(rowGroup, leaf);
    const { readDictionaryPage } = await decoding();
    const options = this.reads.chunkOptions;
    if (this.decryptor?.encrypted(loc.chunk, loc.ctx)) {
      // Only decrypted pages can be walked: the chunk is read whole.
      const plain = (await this.reads.plainChunks([loc]))[0]!.buf;
      return readDictionaryPage(bufferSource(plain), { start: 0, end: plain.length }, loc, options);
    }
    return readDictionaryPage(this.source, dictionaryBytes(loc), loc, options);
  }

  /** Closes the file's source; neither it nor a reader on it can read after. */
  async close(): Promise<void> {
    await this.source.close?.();
  }

  /** `await using file = await ParquetFile.open(...)`: closed when the scope ends. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  private async pageIndexes(rowGroup: number, column: ColumnPath): Promise<{ ci: ColumnIndex | null; oi: OffsetIndex | null }> {
    const leaf = this.leafOf(rowGroup, column);
    return (await this.reads.indexes()).pageIndexes(rowGroup, leaf);
  }

  /** The leaf `column` names, once `rowGroup` is known to exist. */
  private leafOf(rowGroup: number, column: ColumnPath): LeafNode {
    rowGroupIndexes(this.metadata, [rowGroup]);
    return selectLeaf(this.schema, column, { file: this.source.name });
  }
}

/** The row groups a read selects, by index (all when none are named); an index the file does not have is an InvalidArgumentError. */
export function rowGroupIndexes(metadata: FileMetaData, selected?: readonly number[]): number[] {
  const count = metadata.rowGroups.length;
  if (!selected) return Array.from({ length: count }, (_, i) => i);
  for (const i of selected) {
    if (!Number.isInteger(i) || i < 0 || i >= count) throw new InvalidArgumentError(`row group ${i} does not exist (the file has ${count})`);
  }
  return [...selected];
}

function checkedChunkOptions(options: OpenOptions): FileChunkOptions & { verifyChecksums: boolean } {
  const { verifyChecksums = true, maxDecompressedBytes = DEFAULT_MAX_PAGE_BYTES } = options;
  if (!Number.isSafeInteger(maxDecompressedBytes) || maxDecompressedBytes < 1) throw new InvalidArgumentError(`maxDecompressedBytes must be a positive integer, got ${maxDecompressedBytes}`);
  return { verifyChecksums, maxDecompressedBytes };
}

function validateRowGroups(m: FileMetaData, schema: Schema, source: Source): void {
  m.rowGroups.forEach((rg: RowGroup, i: number) => {
    if (rg.columns.length !== schema.leaves.length) {
      throw new CorruptFileError(`row group has ${rg.columns.length} column chunks but the schema has ${schema.leaves.length} leaf columns`, { file: source.name, rowGroup: i });
    }
    if (!(rg.numRows >= 0)) throw new CorruptFileError(`row group has ${rg.numRows} rows`, { file: source.name, rowGroup: i });
  });
}
