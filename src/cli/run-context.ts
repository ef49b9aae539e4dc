/**
 * One run of the CLI: the streams and environment it was given, and the
 * program-level options its command reads (`--http-header`, the S3
 * settings, the keys). `main` runs each invocation in a context of its own,
 * so runs in one process (the tests) share nothing. Runs in one process take
 * turns, and the current one is a module variable: AsyncLocalStorage would
 * let them overlap, but on Node 20 it makes every await about 2.5 times as
 * costly (promise hooks), which every command would pay.
 */
import type { Readable, Writable } from 'node:stream';
import type { DecryptionOptions } from '../parquet/crypto/options.js';
import type { S3Settings } from '../node/s3-credentials.js';

/** An output of the CLI: process.stdout or stderr, or any Writable (a test's). */
export type CliOutput = Writable & { isTTY?: boolean; columns?: number };

/** What the CLI reads and writes besides files: the process's, or a caller's stand-ins. */
export interface CliIo {
  stdout: CliOutput;
  stderr: CliOutput;
  stdin: Readable;
  env: Record<string, string | undefined>;
}

/** `--http-header` and `--byte-length`: how http(s) inputs are requested. */
export interface HttpInputOptions {
  headers?: Record<string, string>;
  /** The file's size: no HEAD request is made (a URL signed for GET only refuses HEAD). */
  byteLength?: number;
}

export interface RunContext {
  readonly io: CliIo;
  http: HttpInputOptions;
  s3: S3Settings;
  decryption: DecryptionOptions | undefined;
  /** The status the run ends with when its command returns (a lie found, data lost). */
  exitCode: number;
  /** Ends the run now with `code` (an interrupt), whatever its command is doing. */
  terminate(code: number): void;
}

let current: RunContext | undefined;
/** The end of the last run to start: the next one waits for it. */
let turn: Promise<unknown> = Promise.resolve();

/** The context of the run under way. */
export function run(): RunContext {
  if (!current) throw new Error('a CLI command ran outside main()');
  return current;
}

/**
 * Runs `fn` as a run of its own with `io`, no program-level options yet,
 * once the runs started before it have ended; `terminate` ends it early.
 */
export function inRun<T>(io: CliIo, terminate: (code: number) => void, fn: (context: RunContext) => Promise<T>): Promise<T> {
  const go = async () => {
    const context: RunContext = { io, http: {}, s3: {}, decryption: undefined, exitCode: 0, terminate };
    current = context;
    try {
      return await fn(context);
    } finally {
      current = undefined;
    }
  };
  const result = turn.then(go);
  turn = result.catch(() => undefined);
  return result;
}
