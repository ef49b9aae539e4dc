/** A conversion's input as bytes: a file or stdin, counted as it is read (for the progress line). */
import { open } from 'node:fs/promises';
import { fstatSync, type Stats } from 'node:fs';
import type { Readable } from 'node:stream';
import { IOError } from '../errors.js';
import { cannotRead } from './fs-errors.js';
import type { InputBytes } from '../convert/source.js';

const CHUNK = 256 * 1024;

/** `path`, or for `-` the stream `stdin` (the process's unless a caller, such as an in-process CLI run, gives another). */
export async function openInput(path: string, stdin: Readable = process.stdin): Promise<InputBytes> {
  if (path === '-') {
    let size: number | undefined;
    const { fd } = stdin as { fd?: unknown };
    try {
      const st = typeof fd === 'number' ? fstatSync(fd) : undefined;
      if (st?.isFile()) size = st.size;
    } catch {
      size = undefined;
    }
    const input: InputBytes = {
      name: 'stdin',
      size,
      bytesRead: 0,
      async *chunks() {
        for await (const chunk of stdin) {
          input.bytesRead += (chunk as Buffer).length;
          yield chunk as Buffer;
        }
      },
      async close() {
        stdin.pause();
      },
    };
    return input;
  }
  let fh: Awaited<ReturnType<typeof open>>;
  try {
    fh = await open(path, 'r');
  } catch (e) {
    throw cannotRead(path, e);
  }
  let st: Stats;
  try {
    st = await fh.stat();
  } catch (e) {
    await fh.close().catch(() => undefined);
    throw cannotRead(path, e);
  }
  if (st.isDirectory()) {
    await fh.close();
    throw new IOError(`cannot read ${path}: it is a directory`);
  }
  let closed = false;
  const input: InputBytes = {
    name: path,
    size: st.isFile() ? st.size : undefined,
    bytesRead: 0,
    async *chunks() {
      // A fresh buffer per read: parsers may keep slices of a chunk.
      for (;;) {
        const buf = Buffer.allocUnsafe(CHUNK);
        let n: number;
        try {
          ({ bytesRead: n } = await fh.read(buf, 0, CHUNK, null));
        } catch (e) {
          throw new IOError(`reading ${path} failed: ${(e as Error).message}`, {}, { cause: e });
        }
        if (n === 0) return;
        input.bytesRead += n;
        yield n === CHUNK ? buf : buf.subarray(0, n);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await fh.close().catch(() => undefined);
    },
  };
  return input;
}
