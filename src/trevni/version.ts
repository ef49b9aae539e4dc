/**
 * What distinguishes the two Trevni versions on the wire. Version 2 is the
 * Avro project's (`Trv` 2); version 1 is cutting/trevni's (`Trv` 1, 2012),
 * whose code (ValueType, Codec, Checksum, ArrayColumnOutputBuffer,
 * ColumnValues.nextLength) differs only in these points; the header, the
 * metadata, descriptors, value encodings and block layout are shared.
 */
import { CorruptFileError, UnsupportedError } from '../errors.js';
import { TREVNI_TYPES, type TrevniType } from './types.js';

export type TrevniVersion = 1 | 2;

export interface TrevniFormat {
  readonly version: TrevniVersion;
  readonly magic: Uint8Array;
  /** The value types the version has (version 1's ValueType has no BOOLEAN). */
  readonly types: readonly TrevniType[];
  /** Codec names its Java code knows (version 1: no bzip2). */
  readonly codecs: readonly string[];
  /** Checksum names read (version 1's Checksum.get knows only `crc32`). */
  readonly checksums: readonly string[];
  /** Array lengths may be negative run codes for runs of 0s and 1s (version 1 writes every length as itself). */
  readonly lengthRuns: boolean;
}

export const TREVNI_V2: TrevniFormat = {
  version: 2,
  magic: new Uint8Array([0x54, 0x72, 0x76, 0x02]),
  types: TREVNI_TYPES,
  codecs: ['null', 'deflate', 'snappy', 'bzip2'],
  checksums: ['null', 'crc32', 'crc-32'],
  lengthRuns: true,
};

export const TREVNI_V1: TrevniFormat = {
  version: 1,
  magic: new Uint8Array([0x54, 0x72, 0x76, 0x01]),
  types: TREVNI_TYPES.filter((t) => t !== 'boolean'),
  codecs: ['null', 'deflate', 'snappy'],
  checksums: ['null', 'crc32'],
  lengthRuns: false,
};

export function trevniFormat(version: TrevniVersion): TrevniFormat {
  return version === 1 ? TREVNI_V1 : TREVNI_V2;
}

/** The format a file's first four bytes name; CorruptFileError (at offset 0) for anything else. */
export function formatOfMagic(magic: Uint8Array): TrevniFormat {
  if (magic.length === 4 && magic[0] === 0x54 && magic[1] === 0x72 && magic[2] === 0x76) {
    if (magic[3] === 0x02) return TREVNI_V2;
    if (magic[3] === 0x01) return TREVNI_V1;
  }
  const hex = Array.from(magic, (b) => b.toString(16).padStart(2, '0')).join('');
  throw new CorruptFileError(`not a Trevni file: magic ${hex}, expected 54727602 ("Trv" 2) or 54727601 ("Trv" 1)`, { offset: 0 });
}

/** Refuses a codec the version does not have (UnsupportedError, as Java's "Unknown codec"). */
export function checkCodec(format: TrevniFormat, name: string): void {
  if (!format.codecs.includes(name)) {
    throw new UnsupportedError(`unknown Trevni version ${format.version} codec ${JSON.stringify(name)} (known: ${format.codecs.join(', ')})`);
  }
}

/** Refuses a checksum the version does not have. */
export function checkChecksum(format: TrevniFormat, name: string): void {
  if (!format.checksums.includes(name)) {
    throw new UnsupportedError(`unknown Trevni version ${format.version} checksum ${JSON.stringify(name)} (known: ${format.checksums.join(', ')})`);
  }
}
