/**
 * Parquet modular encryption on write (Encryption.md), one module at a
 * time: the file AAD and keys from EncryptionOptions, then each page header
 * and page of an encrypted column, its bloom filter and page index, its
 * column metadata, and the footer, sealed as they are written. The writer
 * (its `encryption` option) seals a row group's chunks as it emits them, so
 * encrypting costs no more memory than the row group; `encryptParquet`
 * moves a plaintext file's modules through the same calls. Every module
 * gets a fresh random nonce.
 */
import { ByteCursor } from '../../bytes/cursor.js';
import { ByteWriter } from '../../bytes/writer.js';
import { crc32 } from '../../checksum/crc32.js';
import { InvalidArgumentError } from '../../errors.js';
import { decodeBloomFilterHeader, decodePageHeader, type ColumnMetaData, type EncryptionAlgorithm, type FileMetaData } from '../metadata/index.js';
import { encodeColumnMetaData, encodeFileCryptoMetaData, encodeFileMetaData, encodePageHeader } from '../metadata/encode.js';
import { concatBytes } from '../../bytes/concat.js';
import { moduleAad, ModuleType } from './aad.js';
import { AesKey, ctrEncrypt, gcmEncrypt, NONCE_LENGTH, TAG_LENGTH } from './cipher.js';

/** A column's key, and the metadata a reader's key retriever (or KMS) will be given for it. */
export interface ColumnKey {
  key: Uint8Array;
  keyMetadata?: Uint8Array;
}

/**
 * The writer's `encryption` option: keys, footer mode, algorithm and AAD prefix
 * (docs/encryption.md).
 */
export interface EncryptionOptions {
  /** Encrypts the footer (or signs a plaintext one) and every column without a key of its own. */
  footerKey: Uint8Array;
  footerKeyMetadata?: Uint8Array;
  /**
   * Columns encrypted with their own keys, by dotted path. When given, only
   * these columns are encrypted (the others stay plaintext); when absent,
   * every column is encrypted with the footer key (uniform encryption).
   */
  columnKeys?: Readonly<Record<string, Uint8Array | ColumnKey>>;
  /** Leave the footer readable by any reader, signed with the footer key (default false: encrypted, magic PARE). */
  plaintextFooter?: boolean;
  /** Default AES_GCM_V1; AES_GCM_CTR_V1 encrypts page bodies with AES-CTR (faster, pages unauthenticated). */
  algorithm?: 'AES_GCM_V1' | 'AES_GCM_CTR_V1';
  aadPrefix?: Uint8Array | string;
  /** Store the AAD prefix in the file (default true); false makes readers supply it. */
  storeAadPrefix?: boolean;
}

/** A module as it is written: its length (4 bytes, little-endian), then its bytes. */
export interface Sealable {
  header: Uint8Array;
  body: Uint8Array;
}

interface ColumnPlan {
  key: AesKey;
  /** Its own key (else the footer's). */
  columnKey: boolean;
  keyMetadata?: Uint8Array;
}

const MAGIC = Uint8Array.of(0x50, 0x41, 0x52, 0x31);
const MAGIC_ENCRYPTED = Uint8Array.of(0x50, 0x41, 0x52, 0x45);
/** parquet-java's length of the AAD file-unique part. */
const FILE_UNIQUE_LENGTH = 8;

function lengthPrefixed(body: Uint8Array): Uint8Array {
  const out = new Uint8Array(4 + body.length);
  new DataView(out.buffer).setUint32(0, body.length, true);
  out.set(body, 4);
  return out;
}

function encoded(fn: (w: ByteWriter) => void): Uint8Array {
  const w = new ByteWriter(256);
  fn(w);
  return w.finish();
}

function u32(n: number): Uint8Array {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n, true);
  return b;
}

export class FileEncryptor {
  private readonly columns = new Map<string, ColumnPlan>();

  private constructor(
    private readonly options: EncryptionOptions,
    private readonly footerKey: AesKey,
    private readonly fileAad: Uint8Array,
    private readonly algorithm: EncryptionAlgorithm,
  ) {
    for (const [path, k] of Object.entries(options.columnKeys ?? {})) {
      const ck = k instanceof Uint8Array ? { key: k } : k;
      this.columns.set(path, { key: new AesKey(ck.key, `the key of column ${path}`), columnKey: true, ...(ck.keyMetadata ? { keyMetadata: ck.keyMetadata } : {}) });
    }
  }

  /** Checks the options (keys, algorithm) and draws the file's unique AAD part. */
  static create(options: EncryptionOptions): FileEncryptor {
    if (typeof options !== 'object' || options === null) throw new InvalidArgumentError('encryption must be an object with a footerKey');
    const footerKey = new AesKey(options.footerKey, 'encryption.footerKey');
    const name = options.algorithm ?? 'AES_GCM_V1';
    if (name !== 'AES_GCM_V1' && name !== 'AES_GCM_CTR_V1') throw new InvalidArgumentError(`encryption algorithm must be AES_GCM_V1 or AES_GCM_CTR_V1, got ${String(name)}`);
    const prefix = typeof options.aadPrefix === 'string' ? new TextEncoder().encode(options.aadPrefix) : options.aadPrefix;
    const fileUnique = globalThis.crypto.getRandomValues(new Uint8Array(FILE_UNIQUE_LENGTH));
    const store = options.storeAadPrefix !== false;
    const algorithm = {
      type: name,
      aadFileUnique: fileUnique,
      ...(prefix && store ? { aadPrefix: prefix } : {}),
      ...(prefix && !store ? { supplyAadPrefix: true } : {}),
    } as EncryptionAlgorithm;
    return new FileEncryptor(options, footerKey, concatBytes([prefix, fileUnique]), algorithm);
  }

  /** What the file opens with: PARE, or PAR1 when the footer stays plaintext. */
  get magic(): Uint8Array {
    return this.options.plaintextFooter ? MAGIC : MAGIC_ENCRYPTED;
  }

  /** Refuses column keys that name no leaf of the schema (`leaves`: dotted paths). */
  checkColumns(leaves: readonly string[]): void {
    const known = new Set(leaves);
    for (const path of this.columns.keys()) if (!known.has(path)) throw new InvalidArgumentError(`encryption.columnKeys names "${path}", which is not a leaf column of the file`);
  }

  /** A leaf's key: its own, else the footer's under uniform encryption; null leaves it plaintext. */
  private plan(path: string): ColumnPlan | null {
    return this.columns.get(path) ?? (this.options.columnKeys === undefined ? { key: this.footerKey, columnKey: false } : null);
  }

  private aad(type: ModuleType, rowGroup: number, column: number, page = -1): Uint8Array {
    return moduleAad(this.fileAad, type, rowGroup, column, page);
  }

  /**
   * A column chunk's pages sealed in place, when the column is encrypted:
   * each header and page becomes a module (length, nonce, ciphertext, tag),
   * the header's compressed size that of the page module and its CRC over
   * it, as parquet-java writes them. `pages[0]` may be the dictionary page;
   * data pages are numbered from 0 after it. Returns whether it sealed.
   */
  async sealPages(path: string, rowGroup: number, column: number, pages: Sealable[]): Promise<boolean> {
    const plan = this.plan(path);
    if (!plan) return false;
    const ctr = this.algorithm.type === 'AES_GCM_CTR_V1';
    let ordinal = 0;
    await Promise.all(pages.map(async (p) => {
      const header = decodePageHeader(new ByteCursor(p.header, 0, p.header.length, 0));
      const dictionary = header.type === 'DICTIONARY_PAGE';
      const page = dictionary ? -1 : ordinal++;
      const sealed = ctr
        ? await ctrEncrypt(plan.key, p.body)
        : await gcmEncrypt(plan.key, p.body, dictionary ? this.aad(ModuleType.DICTIONARY_PAGE, rowGroup, column) : this.aad(ModuleType.DATA_PAGE, rowGroup, column, page));
      const body = lengthPrefixed(sealed);
      header.compressedPageSize = body.length;
      if (header.crc !== undefined) header.crc = crc32(body) | 0;
      const headerAad = dictionary ? this.aad(ModuleType.DICTIONARY_PAGE_HEADER, rowGroup, column) : this.aad(ModuleType.DATA_PAGE_HEADER, rowGroup, column, page);
      p.header = lengthPrefixed(await gcmEncrypt(plan.key, encoded((w) => encodePageHeader(header, w)), headerAad));
      p.body = body;
    }));
    return true;
  }

  /** A bloom filter as written (header, then bitset) sealed as two modules, when its column is encrypted. */
  async sealBloomFilter(path: string, rowGroup: number, column: number, bytes: Uint8Array): Promise<Uint8Array> {
    const plan = this.plan(path);
    if (!plan) return bytes;
    const c = new ByteCursor(bytes, 0, bytes.length, 0);
    decodeBloomFilterHeader(c);
    const [header, bitset] = await Promise.all([
      gcmEncrypt(plan.key, bytes.subarray(0, c.pos), this.aad(ModuleType.BLOOM_FILTER_HEADER, rowGroup, column)),
      gcmEncrypt(plan.key, bytes.subarray(c.pos), this.aad(ModuleType.BLOOM_FILTER_BITSET, rowGroup, column)),
    ]);
    return concatBytes([lengthPrefixed(header), lengthPrefixed(bitset)]);
  }

  /** A ColumnIndex or OffsetIndex sealed as a module, when its column is encrypted. */
  async sealIndex(path: string, rowGroup: number, column: number, type: typeof ModuleType.COLUMN_INDEX | typeof ModuleType.OFFSET_INDEX, bytes: Uint8Array): Promise<Uint8Array> {
    const plan = this.plan(path);
    return plan ? lengthPrefixed(await gcmEncrypt(plan.key, bytes, this.aad(type, rowGroup, column))) : bytes;
  }

  /**
   * The end of the file for `plain` (left as it is): the chunks' crypto
   * metadata, column metadata sealed where the footer's key does not cover
   * it, then the footer encrypted (or signed), its length and the magic.
   */
  async footer(plain: FileMetaData): Promise<Uint8Array> {
    const meta: FileMetaData = structuredClone(plain);
    const plaintextFooter = Boolean(this.options.plaintextFooter);
    const work: Promise<void>[] = [];
    meta.rowGroups.forEach((group, rg) => {
      const rowGroup = group.ordinal ?? rg;
      group.columns.forEach((chunk, column) => {
        const m = chunk.metaData!;
        const plan = this.plan(m.pathInSchema.join('.'));
        if (!plan) return;
        chunk.cryptoMetadata = plan.columnKey
          ? { type: 'ENCRYPTION_WITH_COLUMN_KEY', pathInSchema: m.pathInSchema, ...(plan.keyMetadata ? { keyMetadata: plan.keyMetadata } : {}) }
          : { type: 'ENCRYPTION_WITH_FOOTER_KEY' };
        // Kept in a footer the same key protects; else sealed with the column's key.
        if (!plan.columnKey && !plaintextFooter) return;
        work.push(gcmEncrypt(plan.key, encoded((w) => encodeColumnMetaData(m, w)), this.aad(ModuleType.COLUMN_META_DATA, rowGroup, column)).then((sealed) => {
          chunk.encryptedColumnMetadata = lengthPrefixed(sealed);
        }));
        if (plaintextFooter) {
          // Legacy readers still find the chunk; its statistics are the column key's secret.
          const redacted: ColumnMetaData = { ...m };
          delete redacted.statistics;
          delete redacted.sizeStatistics;
          delete redacted.geospatialStatistics;
          chunk.metaData = redacted;
        } else delete chunk.metaData;
      });
    });
    await Promise.all(work);
    const footerAad = moduleAad(this.fileAad, ModuleType.FOOTER);
    const keyMetadata = this.options.footerKeyMetadata;
    if (plaintextFooter) {
      meta.encryptionAlgorithm = this.algorithm;
      if (keyMetadata) meta.footerSigningKeyMetadata = keyMetadata;
      const fm = encoded((w) => encodeFileMetaData(meta, w));
      const sealed = await gcmEncrypt(this.footerKey, fm, footerAad);
      const signature = concatBytes([sealed.subarray(0, NONCE_LENGTH), sealed.subarray(sealed.length - TAG_LENGTH)]);
      return concatBytes([fm, signature, u32(fm.length + signature.length), MAGIC]);
    }
    const cmd = encoded((w) => encodeFileCryptoMetaData({ encryptionAlgorithm: this.algorithm, ...(keyMetadata ? { keyMetadata } : {}) }, w));
    const footer = lengthPrefixed(await gcmEncrypt(this.footerKey, encoded((w) => encodeFileMetaData(meta, w)), footerAad));
    return concatBytes([cmd, footer, u32(cmd.length + footer.length), MAGIC_ENCRYPTED]);
  }
}
