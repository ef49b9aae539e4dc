/**
 * Encrypted Parquet. A case encrypts a seed with encryptParquet in one of
 * the spec's modes (uniform or per-column keys, encrypted or signed
 * plaintext footer, GCM or GCM-CTR, an AAD prefix stored or not), after
 * mutating the plaintext (footer fields, page headers, pages, page bodies:
 * the reader gets past the crypto and meets the mutation) or before
 * mutating the ciphertext (lengths, nonces, tags, bodies, the footer,
 * truncation); then reads it fully with the right keys, or with a wrong
 * footer key, a wrong column key, none, or a wrong AAD prefix. Invariant:
 * a wrong key never gives rows, only a typed error.
 */
import { decodeFileMetaData } from '../../../src/parquet/metadata/index.js';
import { buildSchema, type SchemaElementLike } from '../../../src/schema/tree.js';
import { encryptParquet, type DecryptionOptions, type EncryptionOptions } from '../../../src/node/index.js';
import { writerSeeds } from '../seeds.js';
import { parquetMap } from '../file-map.js';
import { generatedFile } from '../generate.js';
import type { FileMap, Mutation, Rng } from '../mutate.js';
import { InvariantError, judge, readParquet } from '../read.js';
import { randomRange, randomStructuredMutation } from '../structured.js';
import type { SeedFile, Surface } from '../surface.js';
import { applyAll } from './parquet.js';

/** A ciphertext edit, placed from the start or the end of the encrypted file (its layout is known only once encrypted). */
interface CipherMutation {
  kind: 'cipher';
  from: 'start' | 'end';
  offset: number;
  op: 'flip' | 'zero' | 'truncate' | 'cut';
  xor: number;
  length: number;
}

/** A plaintext mutation, made before encrypting. */
interface PlainMutation {
  kind: 'plain';
  mutation: Mutation;
}

type EncryptedMutation = CipherMutation | PlainMutation;

type KeyChoice = 'right' | 'wrong-footer' | 'wrong-column' | 'none' | 'wrong-aad';

interface EncryptedOptions extends Record<string, unknown> {
  uniform: boolean;
  /** With per-column keys: the columns encrypted, by dotted path. */
  columns: string[];
  plaintextFooter: boolean;
  algorithm: 'AES_GCM_V1' | 'AES_GCM_CTR_V1';
  aadPrefix?: string;
  storeAadPrefix: boolean;
  keys: KeyChoice;
}

const key = (n: number, salt: number) => new Uint8Array(n).map((_, i) => (i * 31 + salt * 7 + 1) & 0xff);
const FOOTER_KEY = key(16, 1);
const WRONG_KEY = key(16, 2);
const columnKey = (i: number) => key(32, 10 + i);

function encryption(o: EncryptedOptions): EncryptionOptions {
  return {
    footerKey: FOOTER_KEY,
    ...(o.uniform ? {} : { columnKeys: Object.fromEntries(o.columns.map((c, i) => [c, columnKey(i)])) }),
    plaintextFooter: o.plaintextFooter,
    algorithm: o.algorithm,
    ...(o.aadPrefix !== undefined ? { aadPrefix: o.aadPrefix, storeAadPrefix: o.storeAadPrefix } : {}),
  };
}

function decryption(o: EncryptedOptions): DecryptionOptions {
  const columnKeys = o.uniform ? undefined : Object.fromEntries(o.columns.map((c, i) => [c, o.keys === 'wrong-column' && i === 0 ? WRONG_KEY : columnKey(i)]));
  if (o.keys === 'none') return {};
  return {
    footerKey: o.keys === 'wrong-footer' ? WRONG_KEY : FOOTER_KEY,
    ...(columnKeys ? { columnKeys } : {}),
    ...(o.aadPrefix !== undefined ? { aadPrefix: o.keys === 'wrong-aad' ? `${o.aadPrefix}!` : o.aadPrefix } : {}),
  };
}

/** Whether the keys given cannot read everything: every read of all columns must then fail. */
function wrongKeys(o: EncryptedOptions): boolean {
  const someColumnEncrypted = o.uniform || o.columns.length > 0;
  switch (o.keys) {
    case 'right': return false;
    // Without keys, a plaintext footer and plaintext columns are readable, as the spec means them to be.
    case 'none': return !o.plaintextFooter || someColumnEncrypted;
    // A wrong footer key fails the footer's decryption or its signature.
    case 'wrong-footer': return true;
    case 'wrong-column': return !o.uniform && o.columns.length > 0;
    case 'wrong-aad': return o.aadPrefix !== undefined;
  }
}

function applyCipher(b: Uint8Array, m: CipherMutation): Uint8Array {
  const at = Math.max(0, Math.min(b.length, m.from === 'start' ? m.offset : b.length - 1 - m.offset));
  if (m.op === 'truncate') return b.slice(0, at);
  if (m.op === 'cut') return Uint8Array.from([...b.subarray(0, at), ...b.subarray(Math.min(b.length, at + m.length))]);
  const out = b.slice();
  if (m.op === 'zero') out.fill(0, at, Math.min(b.length, at + m.length));
  else if (at < out.length) out[at]! ^= m.xor;
  return out;
}

interface Prepared {
  map: FileMap;
  leaves: string[];
}

function prepare(f: SeedFile): Prepared {
  const map = parquetMap(f.bytes);
  try {
    const meta = decodeFileMetaData(f.bytes.subarray(map.footerStart, map.footerEnd));
    return { map, leaves: buildSchema(meta.schema as SchemaElementLike[]).leaves.map((l) => l.path.join('.')) };
  } catch {
    return { map, leaves: [] };
  }
}

/** A plaintext mutation that leaves the footer decodable (the encryptor re-lays out pages from it): fields, pages moved, page bodies. */
function plainMutation(rng: Rng, f: SeedFile, p: Prepared): Mutation | undefined {
  const r = rng.next();
  if (r < 0.35) return randomStructuredMutation(rng, f.bytes, p.map.chunkStarts);
  if (r < 0.55) {
    const m = randomRange(rng, p.map.pages ?? [], p.map.chunks ?? [], p.map.chunkPages);
    return m && { ...m, fixOffsets: true };
  }
  const pages = p.map.pages ?? [];
  if (!pages.length) return undefined;
  const page = rng.pick(pages);
  // Near the page's end: its body (its header comes first).
  const at = page.end - 1 - rng.int(Math.max(1, Math.min(64, page.end - page.start)));
  return rng.next() < 0.7 ? { kind: 'flip', at: [[at, 1 << rng.int(8)]] } : { kind: 'zero', start: at, length: 1 + rng.int(8) };
}

export const encryptedSurface: Surface<EncryptedMutation> = {
  name: 'parquet-encrypted',
  ext: 'parquet',
  async seeds(seed, count) {
    // Writer-made files only: the corpus's own encrypted files cannot be encrypted again, and its plain ones are the parquet surface's.
    return (await writerSeeds('parquet-encrypted', seed, count, (i) => generatedFile(seed, i, 'parquet-small')));
  },
  prepare,
  mutate(rng, f, prepared) {
    const p = prepared as Prepared;
    if (rng.next() < 0.5) {
      const m = plainMutation(rng, f, p);
      if (m) return { kind: 'plain', mutation: m };
    }
    const from = rng.next() < 0.5 ? 'start' : 'end';
    const offset = from === 'end' && rng.next() < 0.6 ? rng.int(64) : rng.int(Math.max(1, f.bytes.length));
    return { kind: 'cipher', from, offset, op: rng.pick(['flip', 'flip', 'zero', 'truncate', 'cut'] as const), xor: 1 << rng.int(8), length: 1 + rng.int(32) };
  },
  options(rng, f, prepared) {
    const leaves = (prepared as Prepared).leaves;
    const o: EncryptedOptions = {
      uniform: rng.next() < 0.5,
      columns: leaves.filter(() => rng.next() < 0.6),
      plaintextFooter: rng.next() < 0.3,
      algorithm: rng.next() < 0.7 ? 'AES_GCM_V1' : 'AES_GCM_CTR_V1',
      ...(rng.next() < 0.3 ? { aadPrefix: 'fuzz-aad' } : {}),
      storeAadPrefix: rng.next() < 0.6,
      keys: rng.pick(['right', 'right', 'right', 'wrong-footer', 'wrong-column', 'none', 'wrong-aad'] as const),
    };
    return { verifyChecksums: rng.next() < 0.5, options: o };
  },
  async build(f, mutations, o) {
    const options = o.options as EncryptedOptions;
    const plain = applyAll(f.bytes, mutations.flatMap((m) => (m.kind === 'plain' ? [m.mutation] : [])));
    let encrypted: Uint8Array;
    let refused: string | undefined;
    try {
      encrypted = await encryptParquet(plain, encryption(options));
    } catch (e) {
      // The encryptor reads the plaintext's footer and page headers: a mutation it refuses leaves the original to encrypt.
      refused = String((e as Error)?.message).slice(0, 200);
      encrypted = await encryptParquet(f.bytes, encryption(options));
    }
    const bytes = mutations.reduce((b, m) => (m.kind === 'cipher' ? applyCipher(b, m) : b), encrypted);
    return { format: 'parquet-encrypted', bytes, verifyChecksums: o.verifyChecksums, options: { ...options, ...(refused ? { plainRefused: refused } : {}) } };
  },
  run(input, limits) {
    const o = input.options as EncryptedOptions;
    const stage = { name: '' };
    return judge(stage, async () => {
      const rows = await readParquet(input.bytes, input.verifyChecksums, limits, stage, decryption(o));
      if (rows > 0 && wrongKeys(o)) throw new InvariantError(`read ${rows} rows with keys "${o.keys}" (${o.uniform ? 'uniform' : `column keys for ${o.columns.join(', ')}`}): a wrong key must give a typed error`);
      return rows;
    });
  },
};
