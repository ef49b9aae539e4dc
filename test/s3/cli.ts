/** The CLI from source in a child process, with the environment given (the S3 server runs in the test's process, so the child must not block it). */
import { execFile } from 'node:child_process';
import { CLI } from '../cli/bin.js';

export function runCli(env: Record<string, string>, ...args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [...CLI, ...args], { encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, ...env } }, (e, out, err) => {
      resolve({ code: e ? (typeof e.code === 'number' ? e.code : null) : 0, out, err });
    });
  });
}
