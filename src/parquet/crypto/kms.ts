/**
 * parquet-java's key tools (org.apache.parquet.crypto.keytools), the parts
 * a reader needs, and their writing side: key metadata "PKMT1" JSON naming a
 * master key in a KMS and the data key wrapped by it, directly or through a
 * key-encryption key (double wrapping); the material stored in the file's
 * key metadata or, by reference, in a `_KEY_MATERIAL_FOR_<file>.json` beside it.
 */
import { base64Bytes, toBase64 } from '../../codecs/wasm-loading.js';
import { InvalidArgumentError, MissingKeyError, ParquetryError } from '../../errors.js';
import type { KeyRetriever, KeyTarget } from './options.js';

/** A KMS: wraps data (or key-encryption) keys with its master keys, by master key id. Keys travel base64-encoded, as in parquet-java. */
export interface KmsClient {
  /**
   * Wraps a data (or key-encryption) key with a master key; returns base64 text, as parquet-java
   * stores it.
   */
  wrapKey(key: Uint8Array, masterKeyId: string): string | Promise<string>;
  /** Unwraps what `wrapKey` returned, with the same master key. */
  unwrapKey(wrapped: string, masterKeyId: string): Uint8Array | Promise<Uint8Array>;
}

const utf8 = new TextEncoder();
const text = new TextDecoder();

/** The entry points export this module's KMS helpers; the cipher loads when a key is first wrapped or unwrapped. */
const cipher = () => import('./cipher.js');


/** KeyToolkit.encryptKeyLocally: AES-GCM (nonce + ciphertext + tag, no length), base64. */
export async function wrapKeyLocally(key: Uint8Array, wrappingKey: Uint8Array, aad: Uint8Array): Promise<string> {
  const { AesKey, gcmEncrypt } = await cipher();
  return toBase64(await gcmEncrypt(new AesKey(wrappingKey, 'the wrapping key'), key, aad));
}

export async function unwrapKeyLocally(wrapped: string, wrappingKey: Uint8Array, aad: Uint8Array, what: string): Promise<Uint8Array> {
  const { AesKey, gcmDecrypt } = await cipher();
  return gcmDecrypt(new AesKey(wrappingKey, 'the wrapping key'), base64Bytes(wrapped), aad, what, {});
}

/**
 * parquet-java's InMemoryKMS (its test KMS, compatible with Arrow C++'s
 * TestOnlyInServerWrapKms): master keys held in memory, keys wrapped by
 * AES-GCM with the master key id as AAD. For tests and examples only.
 */
export class InMemoryKms implements KmsClient {
  constructor(private readonly masterKeys: Readonly<Record<string, Uint8Array>>) {}

  private master(id: string): Uint8Array {
    const k = this.masterKeys[id];
    if (!k) throw new MissingKeyError(`the KMS holds no master key "${id}"`);
    return k;
  }

  /** Wraps `key` with the master key named `masterKeyId`, as base64 text. */
  wrapKey(key: Uint8Array, masterKeyId: string): Promise<string> {
    return wrapKeyLocally(key, this.master(masterKeyId), utf8.encode(masterKeyId));
  }

  /** Unwraps a key `wrapKey` wrapped with the master key named `masterKeyId`. */
  unwrapKey(wrapped: string, masterKeyId: string): Promise<Uint8Array> {
    return unwrapKeyLocally(wrapped, this.master(masterKeyId), utf8.encode(masterKeyId), `a key wrapped by master key ${masterKeyId}`);
  }
}

/** One key's material (PKMT1). */
export interface KeyMaterial {
  keyMaterialType: 'PKMT1';
  isFooterKey: boolean;
  masterKeyID: string;
  wrappedDEK: string;
  doubleWrapping: boolean;
  keyEncryptionKeyID?: string;
  wrappedKEK?: string;
  kmsInstanceID?: string;
  kmsInstanceURL?: string;
}

/** External key material: the `_KEY_MATERIAL_FOR_<file>.json` object (key reference → material JSON), or a function finding one reference. */
export type ExternalKeyMaterial = Readonly<Record<string, string>> | ((keyReference: string) => string | undefined | Promise<string | undefined>);

/** `kmsKeyRetriever`'s options: the KMS client, and where external key material is. */
export interface KmsRetrieverOptions {
  kms: KmsClient;
  /** Where material stored outside the file is found (parquet-java's external key material mode). */
  externalMaterial?: ExternalKeyMaterial;
}

function parseJson(s: string, what: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(s);
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw new ParquetryError('CORRUPT', `${what} is not a JSON object`);
}

function material(o: Record<string, unknown>, what: string): KeyMaterial {
  const str = (k: string): string => {
    const v = o[k];
    if (typeof v !== 'string') throw new ParquetryError('CORRUPT', `${what} has no string "${k}"`);
    return v;
  };
  if (o.keyMaterialType !== 'PKMT1') throw new ParquetryError('UNSUPPORTED', `${what} has key material type ${String(o.keyMaterialType)}, not PKMT1`);
  const doubleWrapping = o.doubleWrapping === true;
  return {
    keyMaterialType: 'PKMT1',
    isFooterKey: o.isFooterKey === true,
    masterKeyID: str('masterKeyID'),
    wrappedDEK: str('wrappedDEK'),
    doubleWrapping,
    ...(doubleWrapping ? { keyEncryptionKeyID: str('keyEncryptionKeyID'), wrappedKEK: str('wrappedKEK') } : {}),
  };
}

/** A key's material from the key metadata a file stores: inline (internal storage), or by reference to the external material. */
async function resolveMaterial(keyMetadata: Uint8Array, external: ExternalKeyMaterial | undefined, what: string): Promise<KeyMaterial> {
  const meta = parseJson(text.decode(keyMetadata), `the key metadata of ${what}`);
  if (meta.internalStorage !== false) return material(meta, `the key material of ${what}`);
  const ref = meta.keyReference;
  if (typeof ref !== 'string') throw new ParquetryError('CORRUPT', `the key metadata of ${what} has no keyReference`);
  if (!external) throw new MissingKeyError(`the key material of ${what} is stored outside the file (reference "${ref}"): pass externalMaterial, the _KEY_MATERIAL_FOR_ file's contents`);
  const json = typeof external === 'function' ? await external(ref) : external[ref];
  if (json === undefined) throw new MissingKeyError(`the external key material has no entry "${ref}" (for ${what})`);
  return material(parseJson(json, `the external key material "${ref}"`), `the external key material "${ref}"`);
}

/**
 * A KeyRetriever over a KMS: each key's material is read from its key
 * metadata (or the external material it names) and its data key unwrapped.
 * Key-encryption keys are unwrapped once per id.
 */
export function kmsKeyRetriever(options: KmsRetrieverOptions): KeyRetriever {
  if (!options?.kms || typeof options.kms.unwrapKey !== 'function') throw new InvalidArgumentError('kmsKeyRetriever needs a kms with wrapKey and unwrapKey');
  const keks = new Map<string, Promise<Uint8Array>>();
  return async (keyMetadata: Uint8Array | undefined, target: KeyTarget) => {
    const what = 'footer' in target ? 'the footer key' : `the key of column ${target.column}`;
    if (!keyMetadata) return undefined;
    const m = await resolveMaterial(keyMetadata, options.externalMaterial, what);
    if (!m.doubleWrapping) return options.kms.unwrapKey(m.wrappedDEK, m.masterKeyID);
    const kekId = m.keyEncryptionKeyID!;
    let kek = keks.get(kekId);
    if (!kek) {
      kek = Promise.resolve(options.kms.unwrapKey(m.wrappedKEK!, m.masterKeyID));
      keks.set(kekId, kek);
    }
    return unwrapKeyLocally(m.wrappedDEK, await kek, base64Bytes(kekId), `the data key of ${what}`);
  };
}

/** How `wrapKeyMetadata` wraps a data key: double wrapping, and whether it is the footer key. */
export interface WrapOptions {
  /** Wrap the data key with a fresh key-encryption key, itself wrapped by the KMS (parquet-java's default, true). */
  doubleWrapping?: boolean;
  isFooterKey?: boolean;
}

/**
 * The key metadata (PKMT1, stored in the file) of a data key wrapped through
 * the KMS with master key `masterKeyId`, as parquet-java's key tools write
 * it: what `kmsKeyRetriever` reads back.
 */
export async function wrapKeyMetadata(kms: KmsClient, dataKey: Uint8Array, masterKeyId: string, options: WrapOptions = {}): Promise<Uint8Array> {
  const doubleWrapping = options.doubleWrapping !== false;
  const material: Record<string, unknown> = { keyMaterialType: 'PKMT1', internalStorage: true, isFooterKey: options.isFooterKey === true, masterKeyID: masterKeyId, doubleWrapping };
  if (options.isFooterKey) Object.assign(material, { kmsInstanceID: 'DEFAULT', kmsInstanceURL: 'DEFAULT' });
  if (doubleWrapping) {
    const kek = globalThis.crypto.getRandomValues(new Uint8Array(dataKey.length));
    const kekId = globalThis.crypto.getRandomValues(new Uint8Array(16));
    material.keyEncryptionKeyID = toBase64(kekId);
    material.wrappedKEK = await kms.wrapKey(kek, masterKeyId);
    material.wrappedDEK = await wrapKeyLocally(dataKey, kek, kekId);
  } else material.wrappedDEK = await kms.wrapKey(dataKey, masterKeyId);
  return utf8.encode(JSON.stringify(material));
}
