/**
 * Writing encrypted Parquet: a plaintext Parquet file (as parquetry's writer
 * produces it) re-laid out with every module of its encrypted columns
 * encrypted, in any of the spec's modes: uniform (the footer key for
 * everything), per-column keys, encrypted or signed plaintext footer,
 * AES_GCM_V1 or AES_GCM_CTR_V1, an AAD prefix stored or not. Pages are
 * moved, never re-encoded, so the values are exactly the plaintext file's.
 * Every module gets a fresh random nonce.
 */
import { ByteCursor } from '../../bytes/cursor.js';
import { ByteWriter } from '../../bytes/writer.js';
import { crc32 } from '../../checksum/crc32.js';
import { InvalidArgumentError } from '../../errors.js';
import { bufferSource } from '../../io/source.js';
import { readFooter } from '../footer.js';
import {
  decodeBloomFilterHeader, decodeColumnIndex, decodeOffsetIndex, decodePageHeader, encodeColumnIndex, encodeColumnMetaData,
  encodeFileCryptoMetaData, encodeFileMetaData, encodeOffsetIndex, encodePageHeader,
  type ColumnChunk, type ColumnMetaData, type EncryptionAlgorithm, type FileMetaData, type OffsetIndex, type PageHeader,
} from '../metadata/index.js';
import { concatBytes, moduleAad, ModuleType } from './aad.js';
import { AesKey, ctrEncrypt, gcmEncrypt, NONCE_LENGTH, TAG_LENGTH } from './cipher.js';

/** A column's key, and the metadata a reader's key retriever (or KMS) will be given for it. */
export interface ColumnKey {
  key: Uint8Array;
  keyMetadata?: Uint8Array;
}

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

const MAGIC = Uint8Array.of(0x50, 0x41, 0x52, 0x31);
const MAGIC_ENCRYPTED = Uint8Array.of(0x50, 0x41, 0x52, 0x45);
/** parquet-java's length of the AAD file-unique part. */
const FILE_UNIQUE_LENGTH = 8;

interface ChunkPlan {
  key: AesKey | null;
  columnKey: boolean;
  keyMetadata?: Uint8Array;
}

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

/** The encrypted form of a plaintext Parquet file (`input`: its bytes). */
export async function encryptParquet(input: Uint8Array, options: EncryptionOptions): Promise<Uint8Array> {
  const footerKey = new AesKey(options.footerKey, 'encryption.footerKey');
  const algorithmName = options.algorithm ?? 'AES_GCM_V1';
  if (algorithmName !== 'AES_GCM_V1' && algorithmName !== 'AES_GCM_CTR_V1') throw new InvalidArgumentError(`encryption algorithm must be AES_GCM_V1 or AES_GCM_CTR_V1, got ${String(algorithmName)}`);
  const { metadata: plain } = await readFooter(bufferSource(input));
  if (plain.encryptionAlgorithm) throw new InvalidArgumentError('the input is already encrypted');
  const prefix = typeof options.aadPrefix === 'string' ? new TextEncoder().encode(options.aadPrefix) : options.aadPrefix;
  const fileUnique = globalThis.crypto.getRandomValues(new Uint8Array(FILE_UNIQUE_LENGTH));
  const fileAad = concatBytes(prefix, fileUnique);
  const store = options.storeAadPrefix !== false;
  const algorithm = {
    type: algorithmName,
    aadFileUnique: fileUnique,
    ...(prefix && store ? { aadPrefix: prefix } : {}),
    ...(prefix && !store ? { supplyAadPrefix: true } : {}),
  } as EncryptionAlgorithm;

  const columnKeys = new Map<string, ChunkPlan>();
  for (const [path, k] of Object.entries(options.columnKeys ?? {})) {
    const ck = k instanceof Uint8Array ? { key: k } : k;
    columnKeys.set(path, { key: new AesKey(ck.key, `the key of column ${path}`), columnKey: true, ...(ck.keyMetadata ? { keyMetadata: ck.keyMetadata } : {}) });
  }
  const uniform = options.columnKeys === undefined;
  const planFor = (path: string): ChunkPlan => columnKeys.get(path) ?? (uniform ? { key: footerKey, columnKey: false } : { key: null, columnKey: false });
  const known = new Set<string>();

  const meta: FileMetaData = structuredClone(plain);
  const out: Uint8Array[] = [options.plaintextFooter ? MAGIC : MAGIC_ENCRYPTED];
  let offset = 4;
  const put = (b: Uint8Array): number => {
    const at = offset;
    out.push(b);
    offset += b.length;
    return at;
  };
  const aad = (type: ModuleType, rg: number, col: number, page = -1): Uint8Array => moduleAad(fileAad, type, rg, col, page);
  const oldIndexes: { chunk: ColumnChunk; rg: number; col: number; plan: ChunkPlan; oi?: OffsetIndex; ci?: Uint8Array; bloom?: Uint8Array; pageMoves: Map<number, { offset: number; size: number }> }[] = [];

  for (const [rg, group] of meta.rowGroups.entries()) {
    group.ordinal = rg;
    const groupStart = offset;
    let groupSize = 0;
    for (const [col, chunk] of group.columns.entries()) {
      const m = chunk.metaData!;
      const path = m.pathInSchema.join('.');
      known.add(path);
      const plan = planFor(path);
      const start = m.dictionaryPageOffset !== undefined && m.dictionaryPageOffset > 0 && m.dictionaryPageOffset < m.dataPageOffset ? m.dictionaryPageOffset : m.dataPageOffset;
      const bytes = input.subarray(start, start + m.totalCompressedSize);
      const pageMoves = new Map<number, { offset: number; size: number }>();
      const chunkStart = offset;
      let dataOrdinal = 0;
      for (let pos = 0; pos < bytes.length; ) {
        const c = new ByteCursor(bytes, pos, bytes.length, start);
        const header: PageHeader = decodePageHeader(c);
        const body = bytes.subarray(c.pos, c.pos + header.compressedPageSize);
        const oldAt = start + pos;
        pos = c.pos + header.compressedPageSize;
        const pageAt = offset;
        if (header.type === 'DICTIONARY_PAGE') m.dictionaryPageOffset = pageAt;
        else if (dataOrdinal === 0) m.dataPageOffset = pageAt;
        if (!plan.key) {
          put(bytes.subarray(oldAt - start, pos));
        } else {
          const dict = header.type === 'DICTIONARY_PAGE';
          const page = algorithmName === 'AES_GCM_CTR_V1'
            ? await ctrEncrypt(plan.key, body)
            : await gcmEncrypt(plan.key, body, dict ? aad(ModuleType.DICTIONARY_PAGE, rg, col) : aad(ModuleType.DATA_PAGE, rg, col, dataOrdinal));
          const pageModule = lengthPrefixed(page);
          header.compressedPageSize = pageModule.length;
          // Encrypted files checksum the page as stored (parquet-java: over the page module).
          if (header.crc !== undefined) header.crc = crc32(pageModule) | 0;
          const h = encoded((w) => encodePageHeader(header, w));
          put(lengthPrefixed(await gcmEncrypt(plan.key, h, dict ? aad(ModuleType.DICTIONARY_PAGE_HEADER, rg, col) : aad(ModuleType.DATA_PAGE_HEADER, rg, col, dataOrdinal))));
          put(pageModule);
        }
        if (header.type !== 'DICTIONARY_PAGE') {
          pageMoves.set(oldAt, { offset: pageAt, size: offset - pageAt });
          dataOrdinal++;
        }
      }
      m.totalCompressedSize = offset - chunkStart;
      groupSize += m.totalCompressedSize;
      oldIndexes.push({ chunk, rg, col, plan, pageMoves });
    }
    group.fileOffset = groupStart;
    group.totalCompressedSize = groupSize;
  }
  for (const path of columnKeys.keys()) if (!known.has(path)) throw new InvalidArgumentError(`encryption.columnKeys names "${path}", which is not a leaf column of the file`);

  // Bloom filters, then column indexes, then offset indexes, as the writer orders them.
  for (const e of oldIndexes) {
    const m = e.chunk.metaData!;
    if (m.bloomFilterOffset === undefined) continue;
    const c = new ByteCursor(input, m.bloomFilterOffset, input.length, 0);
    decodeBloomFilterHeader(c);
    const headerBytes = input.subarray(m.bloomFilterOffset, c.pos);
    const numBytes = decodeBloomFilterHeader(new ByteCursor(input, m.bloomFilterOffset, input.length, 0)).numBytes;
    const bitset = input.subarray(c.pos, c.pos + numBytes);
    const at = offset;
    if (e.plan.key) {
      put(lengthPrefixed(await gcmEncrypt(e.plan.key, headerBytes, aad(ModuleType.BLOOM_FILTER_HEADER, e.rg, e.col))));
      put(lengthPrefixed(await gcmEncrypt(e.plan.key, bitset, aad(ModuleType.BLOOM_FILTER_BITSET, e.rg, e.col))));
    } else put(concatBytes(headerBytes, bitset));
    m.bloomFilterOffset = at;
    m.bloomFilterLength = offset - at;
  }
  for (const e of oldIndexes) {
    const ch = e.chunk;
    if (ch.columnIndexOffset === undefined || ch.columnIndexLength === undefined) continue;
    let bytes = input.subarray(ch.columnIndexOffset, ch.columnIndexOffset + ch.columnIndexLength);
    if (e.plan.key) {
      decodeColumnIndex(new ByteCursor(bytes, 0, bytes.length, 0)); // a broken index is refused, not sealed
      bytes = lengthPrefixed(await gcmEncrypt(e.plan.key, bytes, aad(ModuleType.COLUMN_INDEX, e.rg, e.col)));
    }
    ch.columnIndexOffset = put(bytes);
    ch.columnIndexLength = bytes.length;
  }
  for (const e of oldIndexes) {
    const ch = e.chunk;
    if (ch.offsetIndexOffset === undefined || ch.offsetIndexLength === undefined) continue;
    const oi = decodeOffsetIndex(new ByteCursor(input, ch.offsetIndexOffset, ch.offsetIndexOffset + ch.offsetIndexLength, 0));
    for (const p of oi.pageLocations) {
      const moved = e.pageMoves.get(p.offset);
      if (!moved) throw new InvalidArgumentError(`the input's offset index points at ${p.offset}, which is not a data page`);
      p.offset = moved.offset;
      p.compressedPageSize = moved.size;
    }
    let bytes = encoded((w) => encodeOffsetIndex(oi, w));
    if (e.plan.key) bytes = lengthPrefixed(await gcmEncrypt(e.plan.key, bytes, aad(ModuleType.OFFSET_INDEX, e.rg, e.col)));
    ch.offsetIndexOffset = put(bytes);
    ch.offsetIndexLength = bytes.length;
  }

  // Column metadata: kept in a footer the same key protects, else sealed with the column's key.
  for (const e of oldIndexes) {
    if (!e.plan.key) continue;
    const ch = e.chunk;
    ch.cryptoMetadata = e.plan.columnKey
      ? { type: 'ENCRYPTION_WITH_COLUMN_KEY', pathInSchema: ch.metaData!.pathInSchema, ...(e.plan.keyMetadata ? { keyMetadata: e.plan.keyMetadata } : {}) }
      : { type: 'ENCRYPTION_WITH_FOOTER_KEY' };
    if (!e.plan.columnKey && !options.plaintextFooter) continue;
    const m = ch.metaData!;
    ch.encryptedColumnMetadata = lengthPrefixed(await gcmEncrypt(e.plan.key, encoded((w) => encodeColumnMetaData(m, w)), aad(ModuleType.COLUMN_META_DATA, e.rg, e.col)));
    if (options.plaintextFooter) {
      // Legacy readers still find the chunk; its statistics are the column key's secret.
      const redacted: ColumnMetaData = { ...m };
      delete redacted.statistics;
      delete redacted.sizeStatistics;
      delete redacted.geospatialStatistics;
      ch.metaData = redacted;
    } else delete ch.metaData;
  }

  const footerAad = moduleAad(fileAad, ModuleType.FOOTER);
  if (options.plaintextFooter) {
    meta.encryptionAlgorithm = algorithm;
    if (options.footerKeyMetadata) meta.footerSigningKeyMetadata = options.footerKeyMetadata;
    const fm = encoded((w) => encodeFileMetaData(meta, w));
    const sealed = await gcmEncrypt(footerKey, fm, footerAad);
    const signature = concatBytes(sealed.subarray(0, NONCE_LENGTH), sealed.subarray(sealed.length - TAG_LENGTH));
    put(fm);
    put(signature);
    put(u32(fm.length + signature.length));
    put(MAGIC);
  } else {
    const cmd = encoded((w) => encodeFileCryptoMetaData({ encryptionAlgorithm: algorithm, ...(options.footerKeyMetadata ? { keyMetadata: options.footerKeyMetadata } : {}) }, w));
    const footer = lengthPrefixed(await gcmEncrypt(footerKey, encoded((w) => encodeFileMetaData(meta, w)), footerAad));
    put(cmd);
    put(footer);
    put(u32(cmd.length + footer.length));
    put(MAGIC_ENCRYPTED);
  }
  return concatBytes(...out);
}

function u32(n: number): Uint8Array {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n, true);
  return b;
}
