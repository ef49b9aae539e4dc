/**
 * Which container a file is, from its first bytes: every format parquetry
 * reads opens with its magic (Trevni `Trv` and its version byte, RedElm
 * `Red Elm\n`, Parquet `PAR1`, or `PARE` with an encrypted footer). The CLI
 * asks this through `inputFormat` (formats.ts), so a new format is one entry here.
 */

export type FileFormat = 'parquet' | 'trevni' | 'redelm';

/** How many leading bytes `detectFormat` looks at. */
export const FORMAT_MAGIC_BYTES = 8;

const MAGICS: [FileFormat, number[]][] = [
  ['trevni', [0x54, 0x72, 0x76, 0x02]],
  // Version 1: cutting/trevni's, and the wiki draft's dialect of it (trevni/version.ts).
  ['trevni', [0x54, 0x72, 0x76, 0x01]],
  ['redelm', [0x52, 0x65, 0x64, 0x20, 0x45, 0x6c, 0x6d, 0x0a]],
  ['parquet', [0x50, 0x41, 0x52, 0x31]],
  // An encrypted footer's magic (Encryption.md 5.4).
  ['parquet', [0x50, 0x41, 0x52, 0x45]],
];

/** The format whose magic `head` starts with, or undefined. */
export function detectFormat(head: Uint8Array): FileFormat | undefined {
  for (const [format, magic] of MAGICS) if (magic.every((b, i) => head[i] === b)) return format;
  return undefined;
}
