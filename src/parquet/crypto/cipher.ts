/**
 * The two ciphers of Parquet modular encryption over WebCrypto
 * (`crypto.subtle`, in Node 20 and browsers): AES-GCM for every module of
 * AES_GCM_V1 and for all but page bodies in AES_GCM_CTR_V1, whose pages use
 * AES-CTR. A module's bytes (after its 4-byte length) are nonce (12) +
 * ciphertext (+ tag (16) for GCM).
 */
import { DecryptionError, InvalidArgumentError, type ErrorContext } from '../../errors.js';

export const NONCE_LENGTH = 12;
export const TAG_LENGTH = 16;

/** WebCrypto's types want ArrayBuffer-backed views; ours are (buffers of a file are never shared). */
const bs = (u: Uint8Array): BufferSource => u as Uint8Array<ArrayBuffer>;

function subtle(): SubtleCrypto {
  const s = globalThis.crypto?.subtle;
  if (!s) throw new InvalidArgumentError('Parquet encryption needs WebCrypto (crypto.subtle), which this runtime does not provide');
  return s;
}

/** A 128-, 192- or 256-bit AES key, imported for each mode on first use. */
export class AesKey {
  private gcmKey: Promise<CryptoKey> | undefined;
  private ctrKey: Promise<CryptoKey> | undefined;

  constructor(readonly raw: Uint8Array, readonly name: string) {
    if (!(raw instanceof Uint8Array) || ![16, 24, 32].includes(raw.length)) {
      throw new InvalidArgumentError(`${name} must be 16, 24 or 32 bytes (AES-128/192/256), got ${raw instanceof Uint8Array ? raw.length : typeof raw}`);
    }
  }

  gcm(): Promise<CryptoKey> {
    return (this.gcmKey ??= subtle().importKey('raw', bs(this.raw), 'AES-GCM', false, ['encrypt', 'decrypt']));
  }

  ctr(): Promise<CryptoKey> {
    return (this.ctrKey ??= subtle().importKey('raw', bs(this.raw), 'AES-CTR', false, ['encrypt', 'decrypt']));
  }
}

/** CTR's initial counter block: the nonce, then a 4-byte big-endian counter starting at 1 (Encryption.md 4.2.2). */
function ctrBlock(nonce: Uint8Array): Uint8Array {
  const iv = new Uint8Array(16);
  iv.set(nonce);
  iv[15] = 1;
  return iv;
}

/** Decrypts and authenticates a GCM module body (nonce + ciphertext + tag); any failure is a DecryptionError naming `what`. */
export async function gcmDecrypt(key: AesKey, body: Uint8Array, aad: Uint8Array, what: string, ctx: ErrorContext): Promise<Uint8Array> {
  if (body.length < NONCE_LENGTH + TAG_LENGTH) throw new DecryptionError(`${what} is ${body.length} bytes, too short for an AES-GCM module`, ctx);
  try {
    const out = await subtle().decrypt({ name: 'AES-GCM', iv: bs(body.subarray(0, NONCE_LENGTH)), additionalData: bs(aad), tagLength: 128 }, await key.gcm(), bs(body.subarray(NONCE_LENGTH)));
    return new Uint8Array(out);
  } catch {
    throw new DecryptionError(`${what} failed to decrypt with ${key.name}: wrong key or AAD prefix, or the bytes were altered`, ctx);
  }
}

/** Decrypts a CTR page body (nonce + ciphertext): CTR has no tag, so a wrong key shows only when the page is decoded. */
export async function ctrDecrypt(key: AesKey, body: Uint8Array, what: string, ctx: ErrorContext): Promise<Uint8Array> {
  if (body.length < NONCE_LENGTH) throw new DecryptionError(`${what} is ${body.length} bytes, too short for an AES-CTR module`, ctx);
  const out = await subtle().decrypt({ name: 'AES-CTR', counter: bs(ctrBlock(body.subarray(0, NONCE_LENGTH))), length: 32 }, await key.ctr(), bs(body.subarray(NONCE_LENGTH)));
  return new Uint8Array(out);
}

/** nonce + ciphertext + tag of `plain` under a fresh random nonce. */
export async function gcmEncrypt(key: AesKey, plain: Uint8Array, aad: Uint8Array, nonce: Uint8Array = randomNonce()): Promise<Uint8Array> {
  const ct = new Uint8Array(await subtle().encrypt({ name: 'AES-GCM', iv: bs(nonce), additionalData: bs(aad), tagLength: 128 }, await key.gcm(), bs(plain)));
  const out = new Uint8Array(NONCE_LENGTH + ct.length);
  out.set(nonce);
  out.set(ct, NONCE_LENGTH);
  return out;
}

/** nonce + ciphertext of `plain` under AES-CTR with a fresh random nonce. */
export async function ctrEncrypt(key: AesKey, plain: Uint8Array): Promise<Uint8Array> {
  const nonce = randomNonce();
  const ct = new Uint8Array(await subtle().encrypt({ name: 'AES-CTR', counter: bs(ctrBlock(nonce)), length: 32 }, await key.ctr(), bs(plain)));
  const out = new Uint8Array(NONCE_LENGTH + ct.length);
  out.set(nonce);
  out.set(ct, NONCE_LENGTH);
  return out;
}

export function randomNonce(): Uint8Array {
  return globalThis.crypto.getRandomValues(new Uint8Array(NONCE_LENGTH));
}

