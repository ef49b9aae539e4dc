import { lstat, open, readlink, realpath, rename, rm, type FileHandle } from 'node:fs/promises';
import { constants, type Stats } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Writable } from 'node:stream';
import { IOError } from '../errors.js';
import type { Sink } from '../io/sink.js';
import { errnoCode, fsReason } from './fs-errors.js';

/**
 * A file destination. What happens depends on what is at `path`:
 * - nothing, or a regular file: the bytes go to a temporary file beside it,
 *   renamed into place on close, so readers never see a half-written file
 *   and an error or abort leaves the destination as it was;
 * - a symlink: followed (through a chain, a dangling link included) to its
 *   final target, which is then written as above; the link stays a link;
 * - a FIFO or a device: written straight into, since nothing is left
 *   half-written there and renaming would replace it with a regular file
 *   (opening a FIFO waits for a reader, as the shell's `>` does);
 * - a directory or a socket: refused at once with an IOError.
 */
export async function fileSink(path: string): Promise<Sink> {
  let target = path;
  let stats: Stats | undefined;
  try {
    ({ target, stats } = await followLinks(path));
  } catch (e) {
    throw new IOError(`cannot write ${path}: ${fsReason(e)}`, { file: path }, { cause: e });
  }
  const named = target === path ? path : `${path} (a link to ${target})`;
  if (stats?.isDirectory()) throw new IOError(`cannot write ${named}: it is a directory`, { file: path });
  if (stats?.isSocket()) throw new IOError(`cannot write ${named}: it is a socket, which cannot be opened as a file`, { file: path });
  if (stats && !stats.isFile()) return directSink(path, named, target, stats.isFIFO());
  return renamingSink(path, named, target, stats?.mode);
}

/** The final target of `path` through any symlinks, and what is there (nothing: no stats). */
async function followLinks(path: string): Promise<{ target: string; stats?: Stats }> {
  let target = path;
  for (let hops = 0; hops <= 40; hops++) {
    let stats: Stats;
    try {
      stats = await lstat(target);
    } catch (e) {
      // Nothing there (or a parent is missing): creating the file says which.
      if (errnoCode(e) === 'ENOENT' || errnoCode(e) === 'ENOTDIR') return { target };
      throw e;
    }
    if (!stats.isSymbolicLink()) return { target, stats };
    const link = await readlink(target);
    // Relative to the link's real directory, as the kernel reads it: ".." after a linked directory goes up from where the link really is.
    const base = await realpath(dirname(target)).catch(() => dirname(target));
    target = resolve(base, link);
  }
  throw Object.assign(new Error('too many levels of symbolic links'), { code: 'ELOOP' });
}

async function writeAll(fh: FileHandle, bytes: Uint8Array): Promise<void> {
  let off = 0;
  while (off < bytes.length) {
    const { bytesWritten } = await fh.write(bytes, off, bytes.length - off);
    off += bytesWritten;
  }
}

/** Why a file could not be created in `dir`, in the user's terms. */
function createReason(e: unknown, dir: string): string {
  switch (errnoCode(e)) {
    case 'ENOENT':
      return `directory ${dir} does not exist`;
    case 'ENOTDIR':
      return `${dir} is not a directory`;
    case 'EACCES':
    case 'EPERM':
      return `permission denied (cannot create files in ${dir})`;
    default:
      return fsReason(e);
  }
}

/**
 * A regular file (new or not): written to a temporary name beside it,
 * renamed into place on close. A file that was there keeps its permission
 * bits (`mode`), as a rewrite in place would.
 */
async function renamingSink(path: string, named: string, target: string, mode?: number): Promise<Sink> {
  // node:crypto is loaded here, not at import: a program that only reads never needs it.
  const { randomBytes } = await import('node:crypto');
  const temp = join(dirname(target), `.${basename(target)}.parquetry-tmp-${randomBytes(6).toString('hex')}`);
  let fh: FileHandle;
  try {
    fh = await open(temp, 'wx');
    if (mode !== undefined) await fh.chmod(mode & 0o7777);
  } catch (e) {
    throw new IOError(`cannot write ${named}: ${createReason(e, dirname(target))}`, { file: path }, { cause: e });
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
        await writeAll(fh, bytes);
      } catch (e) {
        await discard();
        throw new IOError(`writing ${path} failed: ${fsReason(e)}`, { file: path }, { cause: e });
      }
    },
    async close() {
      if (done) throw new IOError('sink already closed', { file: path });
      try {
        await fh.sync();
        await fh.close();
        done = true;
        await rename(temp, target);
      } catch (e) {
        done = false;
        await discard();
        throw new IOError(`finishing ${path} failed: ${fsReason(e)}`, { file: path }, { cause: e });
      }
    },
    abort: discard,
  };
}

/** A FIFO or a device: written straight into; abort just stops writing. */
async function directSink(path: string, named: string, target: string, fifo: boolean): Promise<Sink> {
  let fh: FileHandle;
  try {
    fh = fifo ? await openFifo(target) : await open(target, 'w');
  } catch (e) {
    throw new IOError(`cannot write ${named}: ${fsReason(e)}`, { file: path }, { cause: e });
  }
  let done = false;
  return {
    async write(bytes) {
      try {
        await writeAll(fh, bytes);
      } catch (e) {
        throw new IOError(`writing ${path} failed: ${fsReason(e)}`, { file: path }, { cause: e });
      }
    },
    async close() {
      if (done) throw new IOError('sink already closed', { file: path });
      done = true;
      try {
        await fh.close();
      } catch (e) {
        throw new IOError(`finishing ${path} failed: ${fsReason(e)}`, { file: path }, { cause: e });
      }
    },
    async abort() {
      if (done) return;
      done = true;
      await fh.close().catch(() => undefined);
    },
  };
}

/** How often a FIFO with no reader is tried again. */
const FIFO_POLL_MS = 50;

/**
 * Opens a FIFO for writing once it has a reader. A blocking open would wait
 * in a thread of libuv's pool, which nothing can cancel: an interrupted
 * program could not exit. A non-blocking open fails at once (ENXIO) while
 * there is no reader, so it is tried again until one comes; that descriptor
 * stays open while the blocking one is opened (at once, the reader being
 * there), so the reader never sees the writers drop to none, which it would
 * take for the end of the data.
 */
async function openFifo(fifo: string): Promise<FileHandle> {
  for (;;) {
    let probe: FileHandle;
    try {
      probe = await open(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
    } catch (e) {
      if (errnoCode(e) !== 'ENXIO') throw e;
      await new Promise((resolve) => setTimeout(resolve, FIFO_POLL_MS));
      continue;
    }
    try {
      return await open(fifo, 'w');
    } finally {
      await probe.close();
    }
  }
}

function isStdio(stream: Writable): boolean {
  return stream === process.stdout || stream === process.stderr;
}

/**
 * A Node Writable (a socket, an HTTP response, process.stdout). A write
 * resolves once the stream has room again ('drain'), so the writer never
 * runs ahead of the stream by more than its buffer and one page; a stream
 * that errs, or closes before it drains, fails the write rather than leaving
 * it waiting for a 'drain' that never comes. The stream is ended at
 * `close()` and destroyed at `abort()`, except process.stdout and
 * process.stderr, and any stream given with `keepOpen` (a program's
 * stdout that is not the process's), which are only flushed.
 */
export function writableSink(stream: Writable, options: { keepOpen?: boolean } = {}): Sink {
  const keepOpen = options.keepOpen ?? isStdio(stream);
  let failure: Error | undefined;
  stream.on('error', (e) => (failure = e));
  const failed = (e: Error) => new IOError(`output stream failed: ${e.message}`, {}, { cause: e });
  const check = () => {
    if (failure) throw failed(failure);
    if (stream.destroyed) throw new IOError('output stream was closed');
  };
  const drained = () =>
    new Promise<void>((resolve, reject) => {
      const settle = (e?: Error) => {
        stream.off('drain', onDrain);
        stream.off('error', onError);
        stream.off('close', onClose);
        if (e) reject(e);
        else resolve();
      };
      const onDrain = () => settle();
      const onError = (e: Error) => settle(failed(e));
      const onClose = () => settle(failure ? failed(failure) : new IOError('output stream closed before it took all the bytes'));
      stream.on('drain', onDrain);
      stream.on('error', onError);
      stream.on('close', onClose);
    });
  return {
    async write(bytes) {
      check();
      if (!stream.write(bytes.slice())) await drained();
    },
    async close() {
      check();
      const done = (resolve: () => void, reject: (e: Error) => void) => (e?: Error | null) => (e ? reject(new IOError(`closing the output stream failed: ${e.message}`)) : resolve());
      // stdout and stderr outlive the conversion (as `pipe` leaves them open): ending them shuts
      // a pipe for every later write, and a second end never calls back. Their bytes are flushed.
      if (keepOpen) await new Promise<void>((resolve, reject) => stream.write(new Uint8Array(0), done(resolve, reject)));
      else await new Promise<void>((resolve, reject) => stream.end(done(resolve, reject)));
    },
    async abort() {
      if (!keepOpen) stream.destroy();
    },
  };
}
