/** Runs the CLI from source as a user runs it: exit code, stdout, stderr. */
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';

export function run(...args: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** As `run`, without blocking: for a CLI that talks to a server in this process. */
export function runAsync(...args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { encoding: 'utf8', maxBuffer: 1 << 28 }, (e, out, err) => {
      resolve({ code: e ? (typeof e.code === 'number' ? e.code : null) : 0, out, err });
    });
  });
}

/** Runs the CLI and insists on success; its stdout. */
export function ok(...args: string[]): string {
  const r = run(...args);
  assert.equal(r.code, 0, `${args.join(' ')}: ${r.err}`);
  return r.out;
}
