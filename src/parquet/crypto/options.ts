/** What a reader needs to open an encrypted Parquet file (docs/encryption.md). */

/**
 * Finds a key from the `key_metadata` a writer stored beside the footer or a
 * column: a KMS client, or a map of key ids. `undefined` means "no key here",
 * which for a column leaves it unreadable (a MissingKeyError when asked for).
 */
export type KeyRetriever = (keyMetadata: Uint8Array | undefined, target: KeyTarget) => Uint8Array | undefined | Promise<Uint8Array | undefined>;

/** Whose key is wanted: the footer's (also signing a plaintext footer) or a column's, by dotted path. */
export type KeyTarget = { footer: true } | { column: string };

/** Keys and settings for a file written with Parquet modular encryption (docs/encryption.md). */
export interface DecryptionOptions {
  /** The footer key (16, 24 or 32 bytes): decrypts an encrypted footer, verifies a plaintext one, and decrypts columns encrypted with it. */
  footerKey?: Uint8Array;
  /** Column keys by dotted column path (`a.b.c`). */
  columnKeys?: Readonly<Record<string, Uint8Array>>;
  /** Asked for every key not given above, with the key metadata the file stores. */
  keyRetriever?: KeyRetriever;
  /** The AAD prefix, for files written with one they did not store (and checked against one they did). */
  aadPrefix?: Uint8Array | string;
  /** Verify a plaintext footer's signature (default true; needs the footer key). */
  verifyFooterSignature?: boolean;
}
