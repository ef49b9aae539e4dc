/**
 * Runs fuzz cases in child processes, many cases per message: each child
 * reports every case as it ends, so a case that hangs (no report within the
 * timeout), crashes its process, or takes the process's RSS over the cap
 * (native buffers count: the parent watches /proc, the child measures each
 * case's peak) is named, and the rest of its batch goes to a fresh process.
 * Processes, not worker threads: V8 can abort the whole process on a heap
 * overflow inside a worker, which would take the campaign down with it.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ReadOutcome } from './read.js';
import type { SurfaceName } from './surface.js';

/** What a child reports for a case: how it ended, and the surface that read it. */
export type CaseOutcome = ReadOutcome & { id: number; surface?: SurfaceName; ms: number; peakMb: number };

export type PoolResult = CaseOutcome | { id: number; result: 'hang' | 'crash' | 'memory'; rows: number; error: string; peakMb?: number };

export interface PoolOptions {
  workers: number;
  timeoutMs: number;
  /** RSS cap per child, and its V8 heap limit. */
  memoryMb: number;
  /** The child's module (default worker.ts). */
  entry?: string | URL;
  /** Sent to each child once, before any case (worker.ts: the seed and seed files), with `memoryMb`. */
  init?: object;
}

/** Run from source, children load TypeScript through tsx; from the test suite's compiled copy, its JavaScript (no tsx start or hooks). */
const WORKER = new URL(`./worker.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url);

/** The resident set of a process in MiB, or 0 when /proc cannot say (not Linux, or it has exited). */
export function rssMb(pid: number | undefined): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** In a child: its resident high-water mark in MiB since the last resetPeak (0 when /proc cannot say). */
export function peakMb(): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** In a child, before a case: the high-water mark restarts from the current resident set, so peakMb is the case's. */
export function resetPeak(): void {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
  } catch {
    // Not Linux: the parent's RSS watch still applies.
  }
}

/**
 * Runs batches from `next()` (undefined: no more) until it runs dry, calling
 * `onResult` for every case. Items are sent to the child as they are; each needs an id.
 */
export async function runPool<T extends { id: number }>(next: () => T[] | undefined, onResult: (r: PoolResult) => void, options: PoolOptions): Promise<{ processes: number }> {
  const entry = fileURLToPath(options.entry ?? WORKER);
  let processes = 0;

  const lane = () =>
    new Promise<void>((resolveLane) => {
      let child: ChildProcess;
      let pending: T[] = [];
      let timer: NodeJS.Timeout | undefined;
      let watch: NodeJS.Timeout | undefined;
      let overCap = 0;
      let finished = false;
      let deathsWithoutProgress = 0;

      const stopTimers = () => {
        clearTimeout(timer);
        clearInterval(watch);
      };
      const finish = () => {
        if (finished) return;
        finished = true;
        stopTimers();
        child.once('exit', () => resolveLane());
        if (child.exitCode !== null || child.signalCode !== null) resolveLane();
        else child.kill('SIGKILL');
      };
      const arm = () => {
        clearTimeout(timer);
        timer = setTimeout(() => replace('hang', `no result after ${options.timeoutMs} ms`), options.timeoutMs);
      };
      const feed = () => {
        if (!pending.length) pending = next() ?? [];
        if (!pending.length) return finish();
        arm();
        // A child that recycled itself (exit 0 after a case left its RSS high) may be gone by now: the send fails (EPIPE),
        // and its exit spawns another, which is sent `pending` when ready.
        child.send({ type: 'run', items: pending }, () => {});
      };
      /** The case running now takes the blame; the rest of its batch goes to a new process. */
      const replace = (result: 'hang' | 'crash' | 'memory', error: string) => {
        stopTimers();
        const [culprit, ...rest] = pending;
        if (culprit) onResult({ id: culprit.id, result, rows: 0, error });
        pending = rest;
        const old = child;
        spawn();
        old.kill('SIGKILL');
      };

      const spawn = () => {
        const c = fork(entry, [], {
          execArgv: [...(entry.endsWith('.ts') ? ['--import', 'tsx'] : ['--enable-source-maps']), `--max-old-space-size=${options.memoryMb}`],
          serialization: 'advanced',
          stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
        });
        let stderr = '';
        c.stderr?.on('data', (d: Buffer) => {
          if (stderr.length < 4000) stderr += d.toString();
        });
        child = c;
        processes++;
        overCap = 0;
        c.send({ type: 'init', ...options.init, memoryMb: options.memoryMb });
        c.on('message', (msg: { type: string; outcome?: CaseOutcome }) => {
          if (c !== child || finished) return;
          if (msg.type === 'ready') {
            deathsWithoutProgress = 0;
            watch = setInterval(() => {
              const mb = rssMb(c.pid);
              if (mb > options.memoryMb) {
                overCap = mb;
                replace('memory', `RSS ${mb.toFixed(0)} MiB over the ${options.memoryMb} MiB cap`);
              }
            }, 50);
            feed();
          } else if (msg.type === 'done') {
            const o = msg.outcome!;
            const i = pending.findIndex((p) => p.id === o.id);
            if (i < 0) return;
            pending.splice(i, 1);
            onResult(o);
            if (pending.length) arm();
            else feed();
          }
        });
        c.on('exit', (code, signal) => {
          if (c !== child || finished) return;
          stopTimers();
          const lines = stderr.split('\n').filter((l) => l.trim());
          const fatal = lines.find((l) => /FATAL ERROR|Error:/.test(l));
          const why = `process exited with ${signal ?? `code ${code}`}${fatal ? `: ${fatal.trim()}` : lines.length ? `: ${lines.slice(0, 4).join(' | ')}` : ''}`;
          // Exit code 0 with cases left: the child recycled itself after a case left its RSS high.
          if (code === 0 && !overCap) return spawn();
          if (pending.length) {
            const [culprit, ...rest] = pending;
            onResult({ id: culprit!.id, result: /heap out of memory|allocation failed/i.test(why) ? 'memory' : 'crash', rows: 0, error: why });
            pending = rest;
          } else if (++deathsWithoutProgress > 3) {
            // The process cannot even start: say so for every remaining case rather than loop.
            for (let b = next(); b; b = next()) for (const p of b) onResult({ id: p.id, result: 'crash', rows: 0, error: `worker cannot start: ${why}` });
            return finish();
          }
          spawn();
        });
      };

      spawn();
    });

  await Promise.all(Array.from({ length: options.workers }, lane));
  return { processes };
}

/** Runs these cases (each sent whole to a child) and gives every outcome, in id order. */
export async function runCases<T extends { id: number }>(cases: T[], options: PoolOptions & { batch?: number }): Promise<PoolResult[]> {
  const results: PoolResult[] = [];
  let at = 0;
  const batch = options.batch ?? 16;
  await runPool(() => (at < cases.length ? cases.slice(at, (at += batch)) : undefined), (r) => results.push(r), options);
  return results.sort((a, b) => a.id - b.id);
}
