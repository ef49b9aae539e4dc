/**
 * The method the child-process benchmarks share (bench/filter.ts,
 * bench/dataset-prune.ts): the script runs itself as a worker, one child
 * process per measured task, which does one cold run (warming the JIT)
 * and then timed runs, each after a forced full GC, and reports as JSON on
 * stdout.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The repository root. */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

/** The value after `--name` on the command line. */
export function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

export interface Timed<A> {
  times: number[];
  /** What the last run returned. */
  answer: A;
  /** Peak RSS of the process (cold run included), MiB. */
  rssMB: number;
}

/** A cold run, then `runs` timed runs, a forced GC before each (needs --expose-gc, which `spawnWorker` passes). */
export async function timedRuns<A>(run: () => Promise<A>, runs: number): Promise<Timed<A>> {
  const gc = (globalThis as { gc?: () => void }).gc;
  let answer = await run();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    gc?.();
    const t = performance.now();
    answer = await run();
    times.push(performance.now() - t);
  }
  return { times, answer, rssMB: process.resourceUsage().maxRSS / 1024 };
}

/** Runs `script --worker ...args` in a child Node process and parses the JSON it prints. */
export function spawnWorker<R>(script: string, args: string[], nodeFlags: string[] = []): R {
  const r = spawnSync(process.execPath, ['--expose-gc', ...nodeFlags, '--import', 'tsx', script, '--worker', ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed:\n${r.stderr}`);
  return JSON.parse(r.stdout) as R;
}

/** The build is older than the source: the figures would be for old code. */
export function staleBuild(root = ROOT): boolean {
  const newest = (dir: string) =>
    Math.max(...readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => statSync(join(e.parentPath ?? e.path, e.name)).mtimeMs));
  return newest(join(root, 'src')) > newest(join(root, 'dist'));
}

/**
 * The Node entry of the built package (dist/), which is what users run: a
 * TypeScript loader in the timed process costs time of its own (each
 * dynamic import() goes through its resolve hook on another thread).
 */
export async function builtNodeEntry(): Promise<typeof import('../src/node/index.js')> {
  const entry = join(ROOT, 'dist', 'node', 'index.js');
  if (!existsSync(entry)) throw new Error('no dist/: run `npm run build` first');
  if (staleBuild()) throw new Error('dist/ is older than src/: run `npm run build` first');
  return (await import(pathToFileURL(entry).href)) as typeof import('../src/node/index.js');
}
