/**
 * Runs fuzz cases in child processes with a per-case timeout: a case that
 * hangs is reported and its process replaced; a process that dies (a crash,
 * V8 running out of heap) is reported the same way. Processes, not worker
 * threads: V8 can abort the whole process on a heap overflow inside a
 * worker (seen with a huge string in JSON.stringify), which would take the
 * test down without saying which case did it.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Outcome } from './fuzz-worker.js';

export interface PoolCase {
  id: number;
  bytes: Uint8Array;
}

export type PoolResult = Outcome | { id: number; result: 'hang' | 'crash'; error: string };

const WORKER = new URL('./fuzz-worker.ts', import.meta.url);

export async function runCases(cases: PoolCase[], options: { threads: number; timeoutMs: number; memoryMb: number; entry?: string }): Promise<PoolResult[]> {
  const results: PoolResult[] = [];
  let next = 0;
  const entry = fileURLToPath(options.entry ?? WORKER);

  const lane = () =>
    new Promise<void>((resolveLane) => {
      let child: ChildProcess;
      let current: PoolCase | undefined;
      let timer: NodeJS.Timeout | undefined;
      let finished = false;
      let deathsWithoutProgress = 0;

      const finish = () => {
        if (finished) return;
        finished = true;
        clearTimeout(timer);
        child.once('exit', () => resolveLane());
        if (child.exitCode !== null || child.signalCode !== null) resolveLane();
        else child.kill('SIGKILL');
      };

      const feed = () => {
        if (next >= cases.length) return finish();
        current = cases[next++]!;
        timer = setTimeout(() => {
          results.push({ id: current!.id, result: 'hang', error: `no result after ${options.timeoutMs} ms` });
          current = undefined;
          const old = child;
          spawn();
          old.kill('SIGKILL');
        }, options.timeoutMs);
        child.send({ id: current.id, bytes: current.bytes });
      };

      const spawn = () => {
        const c = fork(entry, [], {
          execArgv: ['--import', 'tsx', `--max-old-space-size=${options.memoryMb}`],
          serialization: 'advanced',
          stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
        });
        let stderr = '';
        c.stderr?.on('data', (d: Buffer) => {
          if (stderr.length < 4000) stderr += d.toString();
        });
        child = c;
        c.on('message', (msg: { type: string; outcome?: Outcome }) => {
          if (c !== child) return;
          if (msg.type === 'ready') {
            deathsWithoutProgress = 0;
            feed();
          } else if (msg.type === 'done' && current && msg.outcome!.id === current.id) {
            clearTimeout(timer);
            results.push(msg.outcome!);
            current = undefined;
            feed();
          }
        });
        c.on('exit', (code, signal) => {
          if (c !== child || finished) return;
          clearTimeout(timer);
          const lines = stderr.split('\n').filter((l) => l.trim());
          const fatal = lines.find((l) => /FATAL ERROR|Error:/.test(l));
          const why = `process exited with ${signal ?? `code ${code}`}${fatal ? `: ${fatal.trim()}` : lines.length ? `: ${lines.slice(0, 4).join(' | ')}` : ''}`;
          if (current) results.push({ id: current.id, result: 'crash', error: why });
          else if (++deathsWithoutProgress > 3) {
            // The process cannot even start: give every remaining case this error rather than loop.
            while (next < cases.length) results.push({ id: cases[next++]!.id, result: 'crash', error: `worker cannot start: ${why}` });
            return finish();
          }
          current = undefined;
          spawn();
        });
      };

      spawn();
    });

  await Promise.all(Array.from({ length: options.threads }, lane));
  return results.sort((a, b) => a.id - b.id);
}
