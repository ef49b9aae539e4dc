#!/usr/bin/env node
/**
 * The `parquetry` command: the program (program.ts) run with the process's
 * streams. Its exit status ends the process once stdout and stderr have
 * taken everything written to them.
 */
import { main } from './program.js';

// A closed stdout (`parquetry ... | head -1`) ends the program quietly, with
// status 0, whichever command is writing and however: the reader has all it wants.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});

/**
 * Ends the process once stdout and stderr have taken everything written to
 * them: process.exit would drop what a pipe (or, off Linux, a file) has not
 * yet accepted, such as the rows printed before an error.
 */
async function exitAfterOutput(code: number): Promise<never> {
  const drained = (s: NodeJS.WriteStream) => new Promise<void>((resolve) => {
    if (s.destroyed || !s.writable) resolve();
    else s.write('', () => resolve());
  });
  await Promise.all([drained(process.stdout), drained(process.stderr)]);
  process.exit(code);
}

void main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env }).then((code) => {
  // A command that succeeded may leave work running (view's server); any other status ends the process now.
  if (code === 0) process.exitCode = 0;
  else return exitAfterOutput(code);
});
