/**
 * Every FileHandle `fs/promises.open` gives from now on, with the stack
 * that opened it, so a test can name the code that left one open (to the
 * garbage collector, which closes it with a warning, at a time no test
 * controls). The ES module bindings of `node:fs/promises` are updated too
 * (`syncBuiltinESMExports`), so the code under test imports the tracked `open`.
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';
import type { FileHandle } from 'node:fs/promises';

const fsp = createRequire(import.meta.url)('node:fs/promises') as typeof import('node:fs/promises');
const opened: { handle: FileHandle; stack: string }[] = [];
const open = fsp.open;
fsp.open = async function tracked(...args: Parameters<typeof open>): Promise<FileHandle> {
  const handle = await open(...args);
  opened.push({ handle, stack: new Error(`opened ${String(args[0])}`).stack ?? '' });
  return handle;
} as typeof open;
syncBuiltinESMExports();

/** Handles opened so far. */
export function handlesOpened(): number {
  return opened.length;
}

/** The handles still open (a closed FileHandle's fd is -1), each by the stack that opened it. */
export function openHandles(): { handle: FileHandle; stack: string }[] {
  return opened.filter((h) => h.handle.fd !== -1);
}
