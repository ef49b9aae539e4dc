/**
 * The decryption options of every reading command (program-level, like
 * --http-header): --footer-key HEX, --column-key PATH:HEX (repeatable),
 * --aad-prefix TEXT, --no-verify-signature, and --key-file FILE or
 * env:NAME, whose lines say the same out of sight of `ps`:
 *   footer HEX
 *   column PATH HEX
 *   aad-prefix TEXT
 */
import { readFileSync } from 'node:fs';
import type { DecryptionOptions } from '../parquet/crypto/options.js';
import { InvalidArgumentError as CommanderArgError } from './commander.js';
import { UsageError } from './usage.js';
import { run } from './run-context.js';

/** A key in hex: 16, 24 or 32 bytes. */
export function hexKey(value: string): Uint8Array {
  const hex = value.trim();
  if (!/^(?:[0-9a-fA-F]{2}){16}$|^(?:[0-9a-fA-F]{2}){24}$|^(?:[0-9a-fA-F]{2}){32}$/.test(hex)) throw new CommanderArgError('must be a 16-, 24- or 32-byte key in hex (32, 48 or 64 hex digits)');
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** `--column-key PATH:HEX` (repeatable) into keys by path; the last colon separates, so paths may hold colons. */
export function columnKey(value: string, previous: Record<string, Uint8Array> = {}): Record<string, Uint8Array> {
  const at = value.lastIndexOf(':');
  if (at <= 0) throw new CommanderArgError("must be 'PATH:HEX'");
  return { ...previous, [value.slice(0, at)]: hexKey(value.slice(at + 1)) };
}

/** A key file's (or variable's) lines. */
export function parseKeyText(text: string, where: string): DecryptionOptions {
  const out: { footerKey?: Uint8Array; columnKeys: Record<string, Uint8Array>; aadPrefix?: string } = { columnKeys: {} };
  text.split(/\r?\n/).forEach((line, i) => {
    const l = line.trim();
    if (l === '' || l.startsWith('#')) return;
    const [word, ...rest] = l.split(/\s+/);
    try {
      if (word === 'footer' && rest.length === 1) out.footerKey = hexKey(rest[0]!);
      else if (word === 'column' && rest.length === 2) out.columnKeys[rest[0]!] = hexKey(rest[1]!);
      else if (word === 'aad-prefix' && rest.length >= 1) out.aadPrefix = l.slice(word.length).trim();
      else throw new CommanderArgError("expected 'footer HEX', 'column PATH HEX' or 'aad-prefix TEXT'");
    } catch (e) {
      throw new UsageError(`${where} line ${i + 1}: ${(e as Error).message}`);
    }
  });
  return out;
}

function keyFileText(spec: string): string {
  if (spec.startsWith('env:')) {
    const v = run().io.env[spec.slice(4)];
    if (v === undefined) throw new UsageError(`--key-file ${spec}: the environment variable ${spec.slice(4)} is not set`);
    return v;
  }
  try {
    return readFileSync(spec, 'utf8');
  } catch (e) {
    throw new UsageError(`--key-file ${spec}: ${(e as Error).message}`);
  }
}

export interface KeyOptions {
  footerKey?: Uint8Array;
  columnKey?: Record<string, Uint8Array>;
  aadPrefix?: string;
  keyFile?: string;
  verifySignature?: boolean;
}

/** Sets the decryption every Parquet input of this run is opened with; the command line wins over the key file. */
export function setDecryption(o: KeyOptions): void {
  const file = o.keyFile === undefined ? {} : parseKeyText(keyFileText(o.keyFile), `--key-file ${o.keyFile}`);
  const columnKeys = { ...file.columnKeys, ...o.columnKey };
  const footerKey = o.footerKey ?? file.footerKey;
  const aadPrefix = o.aadPrefix ?? file.aadPrefix;
  const any = footerKey || Object.keys(columnKeys).length > 0 || aadPrefix !== undefined || o.verifySignature === false;
  run().decryption = any
    ? { ...(footerKey ? { footerKey } : {}), columnKeys, ...(aadPrefix !== undefined ? { aadPrefix } : {}), ...(o.verifySignature === false ? { verifyFooterSignature: false } : {}) }
    : undefined;
}

export function currentDecryption(): DecryptionOptions | undefined {
  return run().decryption;
}

/** `--algorithm`: the two algorithms of the spec. */
export function algorithmOption(value: string): 'AES_GCM_V1' | 'AES_GCM_CTR_V1' {
  if (value !== 'AES_GCM_V1' && value !== 'AES_GCM_CTR_V1') throw new CommanderArgError('must be AES_GCM_V1 or AES_GCM_CTR_V1');
  return value;
}
