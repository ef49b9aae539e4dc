/**
 * Reading an encrypted file (Encryption.md): footer decryption or signature
 * check, column metadata, and every module of a column chunk turned back
 * into the plaintext bytes the page walk reads. Keys come from the caller's
 * DecryptionOptions; a column without one stays readable by nobody, and says so.
 */
import { ByteCursor } from '../../bytes/cursor.js';
import { ByteWriter } from '../../bytes/writer.js';
import { crc32 } from '../../checksum/crc32.js';
import { ChecksumError, CorruptFileError, DecryptionError, InvalidArgumentError, MissingKeyError, ParquetryError, type ErrorContext } from '../../errors.js';
import {
  decodeBloomFilterHeader, decodeColumnMetaData, decodeFileCryptoMetaData, decodeFileMetaData, decodePageHeader,
  type ColumnChunk, type ColumnMetaData, type EncryptionAlgorithm, type FileMetaData, type PageHeader,
} from '../metadata/index.js';
import { encodePageHeader } from '../metadata/encode.js';
import { concatBytes } from '../../bytes/concat.js';
import { moduleAad, ModuleType } from './aad.js';
import { sameBytes } from '../../bytes/same.js';
import { AesKey, ctrDecrypt, gcmDecrypt, gcmEncrypt, NONCE_LENGTH, TAG_LENGTH } from './cipher.js';
import type { DecryptionOptions, KeyTarget } from './options.js';

const utf8 = new TextEncoder();

/** Where a column chunk sits and which key opens it (null: the caller gave none). */
interface ChunkCrypto {
  rowGroup: number;
  column: number;
  path: string;
  key: AesKey | null;
}

/** A module's body: the bytes after its 4-byte length, checked to lie inside `buf`. */
export function moduleAt(buf: Uint8Array, pos: number, what: string, ctx: ErrorContext): Uint8Array {
  if (pos + 4 > buf.length) throw new CorruptFileError(`${what} is cut off before its length`, ctx);
  const len = new DataView(buf.buffer, buf.byteOffset + pos, 4).getUint32(0, true);
  if (len > buf.length - pos - 4) throw new CorruptFileError(`${what} claims ${len} bytes but ${buf.length - pos - 4} remain`, ctx);
  return buf.subarray(pos + 4, pos + 4 + len);
}

/** Whether the metadata says the chunk opens with a dictionary page (its first header's AAD then says so too). */
function hasDictionary(meta: ColumnMetaData): boolean {
  return meta.dictionaryPageOffset !== undefined && meta.dictionaryPageOffset > 0;
}

function prefixBytes(p: Uint8Array | string | undefined): Uint8Array | undefined {
  return typeof p === 'string' ? utf8.encode(p) : p;
}

export class FileDecryptor {
  private readonly chunks = new Map<ColumnChunk, ChunkCrypto>();
  /** Check page CRCs, which encrypted files compute over the stored page module (the reader's `verifyChecksums`). */
  verifyChecksums = true;
  /**
   * DuckDB (1.5) writes no aad_file_unique and authenticates every module
   * with an empty AAD, against the spec; such files are read that way when
   * the footer opens only so (see ARCHITECTURE "Encryption").
   */
  private emptyAad = false;

  private aad(type: ModuleType, rowGroup = -1, column = -1, page = -1, ctx: ErrorContext = {}): Uint8Array {
    return this.emptyAad ? new Uint8Array(0) : moduleAad(this.fileAad, type, rowGroup, column, page, ctx);
  }

  /** Opens the footer module, falling back to DuckDB's empty AAD only for files without aad_file_unique. */
  private async footer(body: Uint8Array, ctx: ErrorContext, noFileUnique: boolean): Promise<Uint8Array> {
    try {
      return await gcmDecrypt(this.footerKey!, body, this.aad(ModuleType.FOOTER), 'the footer', ctx);
    } catch (e) {
      if (!(e instanceof DecryptionError) || !noFileUnique || this.fileAad.length > 0) throw e;
      const plain = await gcmDecrypt(this.footerKey!, body, new Uint8Array(0), 'the footer', ctx).catch(() => {
        throw e;
      });
      this.emptyAad = true;
      return plain;
    }
  }

  private constructor(
    readonly algorithm: 'AES_GCM_V1' | 'AES_GCM_CTR_V1',
    private readonly fileAad: Uint8Array,
    private readonly footerKey: AesKey | null,
    private readonly options: DecryptionOptions,
    private readonly file: string | undefined,
  ) {}

  /** The file AAD from the stored algorithm and the caller's prefix; refuses unknown algorithms and missing or contradicting prefixes. */
  private static async create(alg: EncryptionAlgorithm, keyMetadata: Uint8Array | undefined, options: DecryptionOptions, file: string | undefined, needFooterKey: boolean, signed = false): Promise<FileDecryptor> {
    if (alg.type !== 'AES_GCM_V1' && alg.type !== 'AES_GCM_CTR_V1') throw new ParquetryError('UNSUPPORTED', `encryption algorithm ${alg.type} is not AES_GCM_V1 or AES_GCM_CTR_V1`, { file });
    const supplied = prefixBytes(options.aadPrefix);
    if (alg.supplyAadPrefix && !alg.aadPrefix && !supplied) {
      throw new MissingKeyError('the file was encrypted with an AAD prefix it does not store: pass decryption.aadPrefix', { file }, 'aadPrefix');
    }
    if (alg.aadPrefix && supplied && !sameBytes(alg.aadPrefix, supplied)) {
      throw new InvalidArgumentError('decryption.aadPrefix differs from the AAD prefix stored in the file', { file });
    }
    const fileAad = concatBytes([supplied ?? alg.aadPrefix, alg.aadFileUnique]);
    const raw = options.footerKey ?? (await options.keyRetriever?.(keyMetadata, { footer: true }));
    if (!raw && needFooterKey) {
      throw new MissingKeyError('the footer is encrypted (or signed) and no footer key was given: pass decryption.footerKey or a keyRetriever', { file }, signed ? 'signingKey' : 'footerKey');
    }
    return new FileDecryptor(alg.type, fileAad, raw ? new AesKey(raw, 'the footer key') : null, options, file);
  }

  /**
   * An encrypted footer (magic PARE): `bytes` are FileCryptoMetaData then the
   * footer module, `base` their file offset.
   */
  static async openEncryptedFooter(bytes: Uint8Array, base: number, options: DecryptionOptions | undefined, file: string | undefined): Promise<{ metadata: FileMetaData; decryptor: FileDecryptor }> {
    if (!options) throw new MissingKeyError('the file has an encrypted footer: pass decryption keys (decryption.footerKey or a keyRetriever)', { file }, 'footerKey');
    const cursor = new ByteCursor(bytes, 0, bytes.length, base);
    const cmd = decodeFileCryptoMetaData(cursor);
    const d = await FileDecryptor.create(cmd.encryptionAlgorithm, cmd.keyMetadata, options, file, true);
    const ctx = { file, offset: base + cursor.pos };
    const body = moduleAt(bytes, cursor.pos, 'the encrypted footer', ctx);
    const plain = await d.footer(body, ctx, cmd.encryptionAlgorithm.type !== 'AES_GCM_V1' && cmd.encryptionAlgorithm.type !== 'AES_GCM_CTR_V1' ? false : !cmd.encryptionAlgorithm.aadFileUnique);
    const metadata = decodeFileMetaData(plain, base + cursor.pos);
    await d.prepareColumns(metadata, true);
    return { metadata, decryptor: d };
  }

  /**
   * A plaintext footer of an encrypted file: `bytes` are the FileMetaData
   * (ending at `structEnd`) then its 28-byte signature (nonce + GCM tag of the
   * FileMetaData encrypted with the footer key), checked unless turned off.
   */
  static async openPlaintextFooter(metadata: FileMetaData, bytes: Uint8Array, structEnd: number, base: number, options: DecryptionOptions | undefined, file: string | undefined): Promise<FileDecryptor> {
    const opts = options ?? {};
    const verify = opts.verifyFooterSignature !== false;
    const d = await FileDecryptor.create(metadata.encryptionAlgorithm!, metadata.footerSigningKeyMetadata, opts, file, verify, true);
    if (verify) {
      const ctx = { file, offset: base + structEnd };
      if (bytes.length - structEnd !== NONCE_LENGTH + TAG_LENGTH) {
        throw new CorruptFileError(`the plaintext footer's signature is ${bytes.length - structEnd} bytes, not ${NONCE_LENGTH + TAG_LENGTH}`, ctx);
      }
      const signature = bytes.subarray(structEnd);
      const sealed = await gcmEncrypt(d.footerKey!, bytes.subarray(0, structEnd), d.aad(ModuleType.FOOTER), signature.subarray(0, NONCE_LENGTH));
      if (!sameBytes(sealed.subarray(sealed.length - TAG_LENGTH), signature.subarray(NONCE_LENGTH))) {
        throw new DecryptionError('the plaintext footer does not match its signature: wrong footer key or AAD prefix, or the footer was altered', ctx);
      }
    }
    await d.prepareColumns(metadata, false);
    return d;
  }

  /** The key of every encrypted chunk, and its ColumnMetaData decrypted where the key is known. */
  private async prepareColumns(metadata: FileMetaData, footerEncrypted: boolean): Promise<void> {
    const keys = new Map<string, Promise<AesKey | null>>();
    const keyFor = (target: KeyTarget & { column: string }, keyMetadata: Uint8Array | undefined): Promise<AesKey | null> => {
      let k = keys.get(target.column);
      if (!k) {
        const given = this.options.columnKeys?.[target.column];
        k = Promise.resolve(given ?? this.options.keyRetriever?.(keyMetadata, target)).then((raw) => (raw ? new AesKey(raw, `the key of column ${target.column}`) : null));
        keys.set(target.column, k);
      }
      return k;
    };
    const work: Promise<void>[] = [];
    metadata.rowGroups.forEach((rg, rgIndex) => {
      const rowGroup = rg.ordinal ?? rgIndex;
      rg.columns.forEach((chunk, column) => {
        const cm = chunk.cryptoMetadata;
        // DuckDB encrypts every column with the footer key but marks none.
        if (!cm && !this.emptyAad) return;
        const ctx = { file: this.file, rowGroup: rgIndex };
        if (!cm || cm.type === 'ENCRYPTION_WITH_FOOTER_KEY') {
          const path = chunk.metaData?.pathInSchema.join('.') ?? `#${column}`;
          this.chunks.set(chunk, { rowGroup, column, path, key: this.footerKey });
          // A plaintext footer shows such a column's metadata without statistics; the full one is sealed beside it.
          const enc = chunk.encryptedColumnMetadata;
          if (enc && this.footerKey) work.push(this.columnMetaData(enc, this.footerKey, rowGroup, column, { ...ctx, column: path }).then((m) => void (chunk.metaData = m)));
          return;
        }
        if (cm.type !== 'ENCRYPTION_WITH_COLUMN_KEY') throw new CorruptFileError(`column chunk ${column} has unknown crypto metadata ${cm.type}`, ctx);
        const path = cm.pathInSchema.join('.');
        work.push(keyFor({ column: path }, cm.keyMetadata).then(async (key) => {
          this.chunks.set(chunk, { rowGroup, column, path, key });
          if (!key) return;
          const enc = chunk.encryptedColumnMetadata;
          if (!enc) {
            if (footerEncrypted) throw new CorruptFileError('column chunk is encrypted with a column key but has no encrypted_column_metadata', { ...ctx, column: path });
            return;
          }
          chunk.metaData = await this.columnMetaData(enc, key, rowGroup, column, { ...ctx, column: path });
        }));
      });
    });
    await Promise.all(work);
  }

  private async columnMetaData(enc: Uint8Array, key: AesKey, rowGroup: number, column: number, ctx: ErrorContext): Promise<ColumnMetaData> {
    const plain = await gcmDecrypt(key, moduleAt(enc, 0, 'the column metadata', ctx), this.aad(ModuleType.COLUMN_META_DATA, rowGroup, column, -1, ctx), 'the column metadata', ctx);
    return decodeColumnMetaData(new ByteCursor(plain, 0, plain.length, 0));
  }

  /** Whether a chunk's modules are encrypted; throws MissingKeyError when they are and no key was given. */
  encrypted(chunk: ColumnChunk, ctx: ErrorContext): boolean {
    const c = this.chunks.get(chunk);
    if (!c) return false;
    if (!c.key) throw new MissingKeyError(`column ${c.path} is encrypted and no key was given for it (decryption.columnKeys["${c.path}"] or a keyRetriever)`, ctx, 'columnKey');
    return true;
  }

  private info(chunk: ColumnChunk, ctx: ErrorContext): ChunkCrypto & { key: AesKey } {
    this.encrypted(chunk, ctx);
    return this.chunks.get(chunk)! as ChunkCrypto & { key: AesKey };
  }

  /**
   * Fetched chunks made plain, the one decryption step after a fetch: each
   * encrypted chunk's bytes in `fetched` replaced by its plaintext form
   * (`decryptChunk`), all in one batch; plaintext chunks left as fetched.
   */
  async plainChunks(chunks: readonly { chunk: ColumnChunk; meta: ColumnMetaData; ctx: ErrorContext }[], fetched: { buf: Uint8Array }[]): Promise<void> {
    await Promise.all(chunks.map(async (c, i) => {
      if (this.encrypted(c.chunk, c.ctx)) fetched[i]!.buf = await this.decryptChunk(c.chunk, fetched[i]!.buf, c.meta, c.ctx);
    }));
  }

  /**
   * The plaintext form of a chunk's bytes (`buf`: its pages as stored, each
   * page header and page a module): every page header decrypted and
   * re-encoded with the plaintext page size, followed by its decrypted page,
   * so the ordinary page walk reads it. All modules but the first header
   * are decrypted in one batch.
   */
  async decryptChunk(chunk: ColumnChunk, buf: Uint8Array, meta: ColumnMetaData, ctx: ErrorContext): Promise<Uint8Array> {
    const { key, rowGroup, column } = this.info(chunk, ctx);
    const bytes = buf.subarray(0, Math.min(buf.length, meta.totalCompressedSize));
    const headers: Uint8Array[] = [];
    const pages: Uint8Array[] = [];
    for (let pos = 0; pos < bytes.length; ) {
      const at = { ...ctx, page: headers.length };
      const h = moduleAt(bytes, pos, `page header ${headers.length}`, at);
      pos += 4 + h.length;
      const p = moduleAt(bytes, pos, `page ${pages.length}`, at);
      pos += 4 + p.length;
      headers.push(h);
      pages.push(p);
    }
    if (headers.length === 0) return bytes;
    // Only the first page can be a dictionary page; its header's AAD says which it is.
    const first = await this.firstHeader(key, headers[0]!, hasDictionary(meta), rowGroup, column, { ...ctx, page: 0 });
    const dictionary = first.type === 'DICTIONARY_PAGE';
    const ordinal = (i: number): number => (dictionary ? i - 1 : i);
    const ctr = this.algorithm === 'AES_GCM_CTR_V1';
    const plainHeaders = Promise.all(headers.map((h, i) => (i === 0 ? first.plain : gcmDecrypt(key, h, this.aad(ModuleType.DATA_PAGE_HEADER, rowGroup, column, ordinal(i), { ...ctx, page: i }), `page header ${i}`, { ...ctx, page: i }))));
    const plainPages = Promise.all(pages.map((p, i) => {
      const at = { ...ctx, page: i };
      if (ctr) return ctrDecrypt(key, p, `page ${i}`, at);
      const aad = i === 0 && dictionary ? this.aad(ModuleType.DICTIONARY_PAGE, rowGroup, column) : this.aad(ModuleType.DATA_PAGE, rowGroup, column, ordinal(i), at);
      return gcmDecrypt(key, p, aad, `page ${i}`, at);
    }));
    const [hs, ps] = await Promise.all([plainHeaders, plainPages]);
    const w = new ByteWriter(bytes.length);
    let at = 0;
    hs.forEach((plain, i) => {
      const header = i === 0 ? first.header : decodePageHeader(new ByteCursor(plain, 0, plain.length, 0));
      at += 4 + headers[i]!.length;
      const stored = bytes.subarray(at, at + 4 + pages[i]!.length);
      at += stored.length;
      if (header.crc !== undefined) {
        if (this.verifyChecksums && (crc32(stored) | 0) !== (header.crc | 0)) {
          throw new ChecksumError(`page CRC-32 mismatch: stored ${(header.crc >>> 0).toString(16)}, computed ${crc32(stored).toString(16)} over the encrypted page`, { ...ctx, page: i });
        }
        // Checked here: the page walk would check it against the plaintext.
        delete header.crc;
      }
      header.compressedPageSize = ps[i]!.length;
      encodePageHeader(header, w);
      w.bytes(ps[i]!);
    });
    return w.finish();
  }

  /**
   * Page header `page` of a chunk alone (`body`: its module after the
   * length), for tools that walk headers without reading pages; `ordinal` is
   * its data page ordinal (page 0 may be the dictionary page: its AAD says).
   */
  async decryptPageHeader(chunk: ColumnChunk, meta: ColumnMetaData, body: Uint8Array, page: number, ordinal: number, ctx: ErrorContext): Promise<PageHeader> {
    const { key, rowGroup, column } = this.info(chunk, ctx);
    if (page === 0) return (await this.firstHeader(key, body, hasDictionary(meta), rowGroup, column, ctx)).header;
    const plain = await gcmDecrypt(key, body, this.aad(ModuleType.DATA_PAGE_HEADER, rowGroup, column, ordinal, ctx), `page header ${page}`, ctx);
    return decodePageHeader(new ByteCursor(plain, 0, plain.length, 0));
  }

  private async firstHeader(key: AesKey, body: Uint8Array, dictionaryFirst: boolean, rowGroup: number, column: number, ctx: ErrorContext): Promise<{ plain: Uint8Array; header: PageHeader; type: PageHeader['type'] }> {
    const aads = [this.aad(ModuleType.DICTIONARY_PAGE_HEADER, rowGroup, column), this.aad(ModuleType.DATA_PAGE_HEADER, rowGroup, column, 0, ctx)];
    if (!dictionaryFirst) aads.reverse();
    let plain: Uint8Array;
    try {
      plain = await gcmDecrypt(key, body, aads[0]!, 'page header 0', ctx);
    } catch (e) {
      if (!(e instanceof DecryptionError)) throw e;
      plain = await gcmDecrypt(key, body, aads[1]!, 'page header 0', ctx);
    }
    const header = decodePageHeader(new ByteCursor(plain, 0, plain.length, 0));
    return { plain, header, type: header.type };
  }

  /** A column index or offset index module (`buf` as stored: length, then the module), decrypted. */
  async decryptIndex(chunk: ColumnChunk, buf: Uint8Array, type: typeof ModuleType.COLUMN_INDEX | typeof ModuleType.OFFSET_INDEX, ctx: ErrorContext): Promise<Uint8Array> {
    const { key, rowGroup, column } = this.info(chunk, ctx);
    const what = type === ModuleType.COLUMN_INDEX ? 'the column index' : 'the offset index';
    return gcmDecrypt(key, moduleAt(buf, 0, what, ctx), this.aad(type, rowGroup, column, -1, ctx), what, ctx);
  }

  /**
   * A bloom filter as stored (header module, then bitset module) decrypted
   * into the plaintext layout: header, then bitset.
   */
  async decryptBloom(chunk: ColumnChunk, buf: Uint8Array, ctx: ErrorContext): Promise<Uint8Array> {
    const { key, rowGroup, column } = this.info(chunk, ctx);
    const h = moduleAt(buf, 0, 'the bloom filter header', ctx);
    const b = moduleAt(buf, 4 + h.length, 'the bloom filter bitset', ctx);
    const [header, bitset] = await Promise.all([
      gcmDecrypt(key, h, this.aad(ModuleType.BLOOM_FILTER_HEADER, rowGroup, column, -1, ctx), 'the bloom filter header', ctx),
      gcmDecrypt(key, b, this.aad(ModuleType.BLOOM_FILTER_BITSET, rowGroup, column, -1, ctx), 'the bloom filter bitset', ctx),
    ]);
    // parquet-java's header module holds more than the struct (100 bytes for a 15-byte header): keep the struct alone.
    const cursor = new ByteCursor(header, 0, header.length, 0);
    decodeBloomFilterHeader(cursor);
    return concatBytes([header.subarray(0, cursor.pos), bitset]);
  }
}
