import { CorruptFileError, ParquetryError } from '../errors.js';
import type { Source } from '../io/source.js';
import { ByteCursor } from '../bytes/cursor.js';
import type { FileDecryptor } from './crypto/decryptor.js';
import type { DecryptionOptions } from './crypto/options.js';
import { decodeFileMetaDataAt, type FileMetaData } from './metadata/index.js';

const MAGIC = 0x31524150; // "PAR1" little-endian
const MAGIC_ENCRYPTED = 0x45524150; // "PARE"
/** Bytes read from the end in the first request: most footers fit, saving a second round trip on HTTP. */
const TAIL_GUESS = 64 * 1024;

export interface Footer {
  metadata: FileMetaData;
  /** File offset where the footer's thrift bytes start. */
  offset: number;
  length: number;
  /** The bytes of the tail read, from file offset `tailOffset`: later reads inside them need no I/O. */
  tail: Uint8Array;
  tailOffset: number;
  /** For an encrypted file: what decrypts its column chunks and indexes. */
  decryptor?: FileDecryptor;
}

/** Loaded for encrypted files only: a plaintext footer read compiles no cipher code. */
async function decryptorClass(): Promise<typeof FileDecryptor> {
  return (await import('./crypto/decryptor.js')).FileDecryptor;
}

export async function readFooter(source: Source, decryption?: DecryptionOptions): Promise<Footer> {
  const size = source.byteLength;
  const file = source.name;
  if (size < 12) throw new CorruptFileError(`file is ${size} bytes, too short to be Parquet (at least 12)`, { file, offset: 0 });
  const tailLen = Math.min(size, TAIL_GUESS);
  let tail = await source.read(size - tailLen, tailLen);
  const dv = new DataView(tail.buffer, tail.byteOffset, tail.byteLength);
  const magic = dv.getUint32(tailLen - 4, true);
  if (magic !== MAGIC && magic !== MAGIC_ENCRYPTED) throw new CorruptFileError('file does not end with the Parquet magic "PAR1" (or "PARE")', { file, offset: size - 4 });
  const len = dv.getUint32(tailLen - 8, true);
  if (len > size - 12) {
    throw new CorruptFileError(`footer length ${len} is larger than the file allows (${size - 12} bytes)`, { file, offset: size - 8 });
  }
  // A file no larger than the tail read is already held whole.
  const head = tailLen === size ? tail : await source.read(0, 4);
  if (new DataView(head.buffer, head.byteOffset, 4).getUint32(0, true) !== magic) {
    throw new CorruptFileError(`file does not start with the magic it ends with (${magic === MAGIC ? 'PAR1' : 'PARE'})`, { file, offset: 0 });
  }
  const offset = size - 8 - len;
  let tailOffset = size - tailLen;
  if (len + 8 > tailLen) {
    tail = await source.read(offset, len + 8);
    tailOffset = offset;
  }
  const bytes = tail.subarray(tail.length - 8 - len, tail.length - 8);
  try {
    if (magic === MAGIC_ENCRYPTED) {
      const { metadata, decryptor } = await (await decryptorClass()).openEncryptedFooter(bytes, offset, decryption, file);
      return { metadata, offset, length: len, tail, tailOffset, decryptor };
    }
    const cursor = new ByteCursor(bytes, 0, bytes.length, offset);
    const metadata = decodeFileMetaDataAt(cursor);
    // A plaintext footer of an encrypted file names its algorithm and is followed by its signature.
    const decryptor = metadata.encryptionAlgorithm ? await (await decryptorClass()).openPlaintextFooter(metadata, bytes, cursor.pos, offset, decryption, file) : undefined;
    return { metadata, offset, length: len, tail, tailOffset, ...(decryptor ? { decryptor } : {}) };
  } catch (e) {
    if (e instanceof ParquetryError) throw e.within({ file });
    throw e;
  }
}
