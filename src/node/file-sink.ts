import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Writable } from 'node:stream';
import { IOError } from '../errors.js';
import type { Sink } from '../io/sink.js';

/**
 * A file written to a temporary name beside its destination and renamed into
 * place on close: readers never see a half-written file, and an error or
 * abort leaves nothing at the destination.
 */
export async function fileSink(path: string): Promise<Sink> {
  const temp = join(dirname(path), `.${basename(path)}.parquetry-tmp-${randomBytes(6).toString('hex')}`);
  let fh: FileHandle;
  try {
    fh = await open(temp, 'wx');
  } catch (e) {
    throw new IOError(`cannot create ${temp}: ${(e as Error).message}`, { file: path }, { cause: e });
  }
  let done = false;
  const discard = async () => {
    if (done) return;
    done = true;
    await fh.close().catch(() => undefined);
    await rm(temp, { force: true });
  };
  return {
    async write(bytes) {
      try {
        let off = 0;
        while (off < bytes.length) {
          const { bytesWritten } = await fh.write(bytes, off, bytes.length - off);
          off += bytesWritten;
        }
      } catch (e) {
        await discard();
        throw new IOError(`writing ${temp} failed: ${(e as Error).message}`, { file: path }, { cause: e });
      }
    },
    async close() {
      if (done) throw new IOError('sink already closed', { file: path });
      try {
        await fh.sync();
        await fh.close();
        done = true;
        await rename(temp, path);
      } catch (e) {
        done = false;
        await discard();
        throw new IOError(`finishing ${path} failed: ${(e as Error).message}`, { file: path }, { cause: e });
      }
    },
    abort: discard,
  };
}

/** A Node Writable (a socket, an HTTP response, process.stdout). Waits for 'drain' when the stream is full. */
export function writableSink(stream: Writable): Sink {
  let failure: Error | undefined;
  stream.on('error', (e) => (failure = e));
  const check = () => {
    if (failure) throw new IOError(`output stream failed: ${failure.message}`, {}, { cause: failure });
  };
  return {
    async write(bytes) {
      check();
      if (!stream.write(bytes.slice())) {
        await new Promise<void>((resolve, reject) => {
          const onErr = (e: Error) => reject(new IOError(`output stream failed: ${e.message}`, {}, { cause: e }));
          stream.once('error', onErr);
          stream.once('drain', () => {
            stream.off('error', onErr);
            resolve();
          });
        });
      }
    },
    async close() {
      check();
      await new Promise<void>((resolve, reject) => stream.end((e?: Error | null) => (e ? reject(new IOError(`closing the output stream failed: ${e.message}`)) : resolve())));
    },
    async abort() {
      stream.destroy();
    },
  };
}
