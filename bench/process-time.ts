/** One whole process timed by /usr/bin/time, for the benchmarks that race whole processes (bench/convert.ts, bench/textout.ts). */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './harness.js';

export interface ProcessRun {
  wall: number;
  /** User + system seconds. */
  cpu: number;
  rssMB: number;
  /** The output file's size. */
  bytes: number;
}

export const OUT_DIR = join(ROOT, 'bench', 'out');

/** Runs `command` (the output file removed first) and reads its wall, CPU and peak RSS from /usr/bin/time. */
export function timedProcess(command: string[], output: string): ProcessRun {
  mkdirSync(OUT_DIR, { recursive: true });
  const stats = join(OUT_DIR, 'time.txt');
  rmSync(output, { force: true });
  const r = spawnSync('/usr/bin/time', ['-f', '%e %U %S %M', '-o', stats, ...command], { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`${command.join(' ')} failed (${r.status}):\n${r.stderr}`);
  const [wall, user, sys, rssKB] = readFileSync(stats, 'utf8').trim().split('\n').pop()!.split(' ').map(Number) as [number, number, number, number];
  return { wall, cpu: user + sys, rssMB: rssKB / 1024, bytes: statSync(output).size };
}
