/**
 * parquet-testing's encrypted files and their keys (data/README.md writes
 * them as byte lists, but they are these ASCII strings), for the tests that
 * read them.
 */
import type { DecryptionOptions } from '../../src/parquet/crypto/options.js';

export const DATA = '../shared/corpus/parquet-testing/data';
export const ascii = (s: string): Uint8Array => new TextEncoder().encode(s);
export const FOOTER = ascii('0123456789012345');
export const DOUBLE = ascii('1234567890123450');
export const FLOAT = ascii('1234567890123451');

/** The files of data/ read with `keys(file)` (parquet-java and Arrow C++ wrote them). */
export const FILES = [
  'uniform_encryption.parquet.encrypted',
  'encrypt_columns_and_footer.parquet.encrypted',
  'encrypt_columns_and_footer_aad.parquet.encrypted',
  'encrypt_columns_and_footer_ctr.parquet.encrypted',
  'encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted',
  'encrypt_columns_plaintext_footer.parquet.encrypted',
];

/** The footer and column keys, and the AAD prefix of the files named `…aad…`. */
export const keys = (file: string): DecryptionOptions => ({
  footerKey: FOOTER,
  columnKeys: { double_field: DOUBLE, float_field: FLOAT },
  ...(file.includes('aad') ? { aadPrefix: 'tester' } : {}),
});
