/**
 * The method the child-process benchmarks share (bench/filter.ts,
 * bench/dataset-prune.ts): the script runs itself as a worker, one child
 * process per measured task, which does one cold run (warming the JIT)
 * and then timed runs, each after a forced full GC, and reports as JSON on
 * stdout.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

/** The value after `--name` on the command line. */
export function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

export { timedRuns, type Timed } from './timed-runs.mjs';

/**
 * Runs `script --worker ...args` in a child Node process and parses the JSON
 * it prints; through the TypeScript loader unless `loader` is false (a
 * plain JavaScript worker).
 */
export function spawnWorker<R>(script: string, args: string[], nodeFlags: string[] = [], loader = true): R {
  const r = spawnSync(process.execPath, ['--expose-gc', ...nodeFlags, ...(loader ? ['--import', 'tsx'] : []), script, '--worker', ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed:\n${r.stderr}`);
  return JSON.parse(r.stdout) as R;
}

/** The build is older than the source: the figures would be for old code. */
export function staleBuild(root = ROOT): boolean {
  const newest = (dir: string) =>
    Math.max(...readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => statSync(join(e.parentPath ?? e.path, e.name)).mtimeMs));
  return newest(join(root, 'src')) > newest(join(root, 'dist'));
}

/** A file opened for reading, counting the bytes asked of it. */
export async function countingFile(path: string) {
  const fh = await open(path, 'r');
  const size = (await fh.stat()).size;
  const counter = { bytes: 0, requests: 0 };
  const read = async (offset: number, length: number): Promise<Uint8Array> => {
    counter.bytes += length;
    counter.requests++;
    const buf = new Uint8Array(length);
    let done = 0;
    while (done < length) {
      const { bytesRead } = await fh.read(buf, done, length - done, offset + done);
      if (bytesRead === 0) throw new Error(`short read at ${offset + done}`);
      done += bytesRead;
    }
    return buf;
  };
  return { size, counter, read, close: () => fh.close() };
}

/** What a task answers (checked across libraries) and how many bytes and requests it asked for. */
export interface CountedAnswer {
  rows: number;
  check: string;
  bytes: number;
  requests: number;
}
