/**
 * Runs the CLI in this process, through the `main` its bin calls, with
 * captured streams: exit code, stdout, stderr, as a user sees them. A
 * handful of tests still spawn the real bin (exit codes, EPIPE, signals,
 * startup); everything else runs here, a hundred times cheaper than a process.
 */
import assert from 'node:assert/strict';
import { Readable, Writable } from 'node:stream';
import { main } from '../../src/cli/program.js';
import { inRun } from '../../src/cli/run-context.js';

export interface CliResult {
  code: number;
  out: string;
  err: string;
  /** stdout's bytes, for a binary output (`convert IN - --to parquet`). */
  outBytes: Buffer;
}

export interface CliRunOptions {
  /** What stdin holds (default: nothing, as a spawned process with no input sees). */
  input?: string | Uint8Array;
  /** Variables added to the process's environment. */
  env?: Record<string, string | undefined>;
}

function capture(): { stream: Writable; bytes: () => Buffer } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(Buffer.from(chunk));
      done();
    },
  });
  return { stream, bytes: () => Buffer.concat(chunks) };
}

/** Runs `parquetry ...args` with `options`' stdin and environment. */
function testIo(options: CliRunOptions) {
  const stdout = capture();
  const stderr = capture();
  const stdin = Readable.from(options.input === undefined ? [] : [Buffer.from(options.input)]);
  return { stdout, stderr, io: { stdout: stdout.stream, stderr: stderr.stream, stdin, env: { ...process.env, ...options.env } } };
}

export async function runWith(args: string[], options: CliRunOptions = {}): Promise<CliResult> {
  const { stdout, stderr, io } = testIo(options);
  const code = await main(args, io);
  const outBytes = stdout.bytes();
  return { code, out: outBytes.toString('utf8'), err: stderr.bytes().toString('utf8'), outBytes };
}

export function run(...args: string[]): Promise<CliResult> {
  return runWith(args);
}

/** Runs the CLI and insists on success; its stdout. */
export async function ok(...args: string[]): Promise<string> {
  const r = await run(...args);
  assert.equal(r.code, 0, `${args.join(' ')}: ${r.err}`);
  return r.out;
}

/**
 * Runs `fn`, a command's code called directly (to see the typed error it
 * throws, which `main` prints), as a CLI run of its own with no input and
 * its output dropped.
 */
export function inCliRun<T>(fn: () => Promise<T>): Promise<T> {
  return inRun(testIo({}).io, () => undefined, fn);
}
