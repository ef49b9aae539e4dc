// Preloaded by run-tests.mjs into each test file's process: at exit, the CPU
// seconds of the process and of the children it waited for (forked workers,
// spawned CLIs, the browser) go to fd 3, so the summary can tell a file that
// computes from one that waits.
import { readFileSync, writeSync } from 'node:fs';

// Only in the test file's own process: children started with process.execArgv load this too, and a forked
// child's fd 3 is its IPC channel. The variable is gone before any child copies the environment.
const report = process.env.PARQUETRY_TEST_CPU_FD === '3';
delete process.env.PARQUETRY_TEST_CPU_FD;

if (report) process.on('exit', () => {
  try {
    // /proc/self/stat fields 14-17: utime, stime, cutime, cstime, in clock ticks (100 a second on Linux).
    const fields = readFileSync('/proc/self/stat', 'utf8').replace(/^.*\) /, '').split(' ');
    const ticks = fields.slice(11, 15).reduce((n, x) => n + Number(x), 0);
    writeSync(3, `${ticks / 100}\n`);
  } catch {
    // Not Linux: no figure.
  }
});
