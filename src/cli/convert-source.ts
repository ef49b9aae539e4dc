/** The input of `parquetry convert` as bytes: a file or stdin, counted as it is read (for the progress line). */
import { open } from 'node:fs/promises';
import { fstatSync } from 'node:fs';
import { InvalidArgumentError, IOError } from '../errors.js';
import { cannotRead } from './files.js';

/** One input record, or a bad one: `line` is where it starts (1-based), `last` where it ends when the reader says. */
export type Item<R> = { line: number; record: R; error?: undefined; last?: number } | { line: number; error: string; column?: string | undefined };

/** A bad input row that ends the conversion: where it is, and what is wrong. */
export class RowFailure extends InvalidArgumentError {
  constructor(readonly line: number, readonly why: string, readonly column?: string) {
    super(why);
  }
}

export interface InputBytes {
  /** For messages: the path, or `stdin`. */
  readonly name: string;
  /** Total bytes when known (a file, or stdin redirected from a file). */
  readonly size: number | undefined;
  /** Bytes handed on so far. */
  bytesRead: number;
  /** The bytes, in chunks; iterate once. */
  chunks(): AsyncGenerator<Buffer>;
  close(): Promise<void>;
}

const CHUNK = 256 * 1024;

export async function openInput(path: string): Promise<InputBytes> {
  if (path === '-') {
    let size: number | undefined;
    try {
      const st = fstatSync(0);
      if (st.isFile()) size = st.size;
    } catch {
      size = undefined;
    }
    const input: InputBytes = {
      name: 'stdin',
      size,
      bytesRead: 0,
      async *chunks() {
        for await (const chunk of process.stdin) {
          input.bytesRead += (chunk as Buffer).length;
          yield chunk as Buffer;
        }
      },
      async close() {
        process.stdin.pause();
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
  const st = await fh.stat();
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
