import { open, type FileHandle } from 'node:fs/promises';
import { IOError } from '../errors.js';
import type { ReadInput, Source } from '../io/source.js';
import { isS3Address } from '../io/s3/address.js';
import type { S3Settings } from './s3-credentials.js';
import { fsReason } from './fs-errors.js';

/**
 * A local file read with positioned reads; only the requested ranges are read.
 * A directory is refused at open; reads after `close()` are IOErrors saying
 * the reader is closed.
 */
export async function fileSource(path: string): Promise<Source> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (e) {
    throw new IOError(`cannot read ${path}: ${fsReason(e)}`, { file: path }, { cause: e });
  }
  let size: number;
  try {
    // Opening a directory for reading succeeds on Linux; only reads fail (EISDIR).
    const st = await handle.stat();
    if (st.isDirectory()) throw new IOError(`cannot read ${path}: it is a directory`, { file: path });
    size = st.size;
  } catch (e) {
    await handle.close().catch(() => undefined);
    if (e instanceof IOError) throw e;
    throw new IOError(`cannot read ${path}: ${fsReason(e)}`, { file: path }, { cause: e });
  }
  let closed = false;
  const readInto = async (offset: number, buf: Uint8Array): Promise<void> => {
    const length = buf.length;
    if (closed) throw new IOError('cannot read: the reader is closed', { file: path, offset });
    if (offset < 0 || offset + length > size) {
      throw new IOError(`read of ${length} bytes at offset ${offset} is outside the ${size}-byte file`, { file: path, offset });
    }
    let done = 0;
    while (done < length) {
      let bytesRead: number;
      try {
        ({ bytesRead } = await handle.read(buf, done, length - done, offset + done));
      } catch (e) {
        // close() while this read waited: the handle is gone (EBADF).
        if (closed) throw new IOError('cannot read: the reader is closed', { file: path, offset }, { cause: e });
        throw new IOError(`reading ${path} failed: ${fsReason(e)}`, { file: path, offset: offset + done }, { cause: e });
      }
      if (bytesRead === 0) throw new IOError(`file ended early at offset ${offset + done}`, { file: path, offset: offset + done });
      done += bytesRead;
    }
  };
  return {
    byteLength: size,
    name: path,
    async read(offset, length) {
      if (length < 0 && !closed) throw new IOError(`read of ${length} bytes at offset ${offset} is outside the ${size}-byte file`, { file: path, offset });
      const buf = new Uint8Array(Math.max(0, length));
      await readInto(offset, buf);
      return buf;
    },
    readInto,
    async close() {
      closed = true;
      await handle.close();
    },
  };
}

/**
 * Opens the file at `path` and hands it to `open` (a reader's constructor);
 * if that fails, the file is closed before the error goes on, since no
 * reader exists to close it.
 */
export async function openFileWith<R>(path: string, open: (source: Source) => Promise<R>): Promise<R> {
  return openedWith(await fileSource(path), open);
}

/**
 * What `openParquet` takes, for the other readers: a path, an http(s) URL
 * string or an `s3://` address (each made a source, closed if `open` fails),
 * or anything the portable readers take, passed as it is.
 */
export async function openInputWith<R>(input: string | ReadInput, s3: S3Settings | undefined, open: (input: ReadInput) => Promise<R>): Promise<R> {
  if (typeof input !== 'string') return open(input);
  if (/^https?:\/\//i.test(input)) return open(new URL(input));
  if (isS3Address(input)) return openedWith(await (await import('./s3.js')).openS3Source(input, s3), open);
  return openFileWith(input, open);
}

async function openedWith<R>(source: Source, open: (source: Source) => Promise<R>): Promise<R> {
  try {
    return await open(source);
  } catch (e) {
    await source.close?.();
    throw e;
  }
}
