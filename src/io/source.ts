import { plainView } from '../bytes/plain-view.js';
import { IOError, InvalidArgumentError, ParquetryError } from '../errors.js';

/**
 * Random-access bytes: what every reader reads from. A file, a buffer, an
 * HTTP URL read with Range requests, or anything a user supplies with the
 * same two members.
 */
export interface Source {
  readonly byteLength: number;
  /** Resolves to exactly `length` bytes at `offset`. */
  read(offset: number, length: number): Promise<Uint8Array>;
  /**
   * Optional: reads `into.length` bytes at `offset` into `into`, a buffer the
   * caller reuses from read to read (see `ReadBuffers`). Only sources that
   * would otherwise allocate the bytes have it; a buffer's answers views.
   */
  readInto?(offset: number, into: Uint8Array): Promise<void>;
  /** A name for error messages (a path or URL). */
  readonly name?: string;
  /** Releases what the source holds (a file handle); optional. */
  close?(): Promise<void>;
}

/** What users may pass: a Source-like object whose read may return an ArrayBuffer or a plain value. */
export interface SourceLike {
  readonly byteLength: number;
  /** `length` bytes from `offset`, as bytes or an ArrayBuffer, at once or as a promise. */
  read(offset: number, length: number): Promise<Uint8Array | ArrayBuffer> | Uint8Array | ArrayBuffer;
  readonly name?: string;
  /** Releases what the source holds; optional. */
  close?(): Promise<void>;
}

/** A Source over bytes in memory; `name` is used in error messages. */
export function bufferSource(data: Uint8Array | ArrayBuffer, name?: string): Source {
  const buf = data instanceof Uint8Array ? plainView(data) : new Uint8Array(data);
  return {
    byteLength: buf.length,
    name,
    read(offset, length) {
      checkRange(offset, length, buf.length, name);
      return Promise.resolve(buf.subarray(offset, offset + length));
    },
  };
}

/**
 * A `Blob` or `File` (a dropped or picked file in a browser, or Node's
 * `Blob`): each read slices it, so only the bytes asked for are loaded and
 * nothing is copied or sent anywhere.
 */
export function blobSource(blob: Blob, name = (blob as Partial<File>).name): Source {
  return {
    byteLength: blob.size,
    name,
    async read(offset, length) {
      checkRange(offset, length, blob.size, name);
      let b: ArrayBuffer;
      try {
        b = await blob.slice(offset, offset + length).arrayBuffer();
      } catch (e) {
        // A File whose underlying file changed or went away since it was picked.
        throw new IOError(`read of ${length} bytes at offset ${offset} failed: ${(e as Error)?.message ?? e}`, { file: name, offset }, { cause: e });
      }
      if (b.byteLength !== length) throw new IOError(`read of ${length} bytes at offset ${offset} returned ${b.byteLength} bytes`, { file: name, offset });
      return new Uint8Array(b);
    },
  };
}

/** What every reader opens (Parquet, Trevni, RedElm): bytes, a `Blob` or `File`, a URL (read with HTTP Range requests), or a source object. */
export type ReadInput = Uint8Array | ArrayBuffer | URL | Blob | SourceLike;

/** How a URL input is reached. */
export interface UrlOptions {
  /** For URL inputs: the file size, to skip the HEAD request. */
  byteLength?: number;
  /** For URL inputs: extra HTTP headers. */
  headers?: Record<string, string>;
}

/** An input as a checked Source. */
export async function inputSource(input: ReadInput, options: UrlOptions = {}): Promise<Source> {
  if (input instanceof Uint8Array || input instanceof ArrayBuffer) return bufferSource(input);
  if (typeof Blob !== 'undefined' && input instanceof Blob) return blobSource(input);
  if (input instanceof URL) return httpSource(input.href, { byteLength: options.byteLength, headers: options.headers });
  if (input && typeof input === 'object' && typeof (input as SourceLike).read === 'function') return checkedSource(input as SourceLike);
  throw new InvalidArgumentError('input must be a Uint8Array, an ArrayBuffer, a URL, a Blob or an object with byteLength and read(offset, length)');
}

function checkRange(offset: number, length: number, size: number, name?: string): void {
  if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0 || offset + length > size) {
    throw new IOError(`read of ${length} bytes at offset ${offset} is outside the ${size}-byte source`, { file: name, offset });
  }
}

/**
 * `source` with the file's bytes from offset `at` held in memory (the
 * footer's tail read): reads inside them are answered from memory, and a
 * read that runs into them fetches only the part before. A small file read
 * whole by the tail read needs no further request.
 */
export function withCachedTail(source: Source, bytes: Uint8Array, at: number): Source {
  const end = at + bytes.length;
  let closed = false;
  const cached: Source = {
    byteLength: source.byteLength,
    name: source.name,
    async close() {
      closed = true;
      await source.close?.();
    },
    async read(offset, length) {
      // After close the cache answers nothing: the source says it is closed, as it would without the cache.
      if (closed) return source.read(offset, length);
      if (offset >= at && offset + length <= end) return bytes.subarray(offset - at, offset - at + length);
      if (offset < at && offset + length > at && offset + length <= end) {
        const out = new Uint8Array(length);
        out.set(await source.read(offset, at - offset));
        out.set(bytes.subarray(0, offset + length - at), at - offset);
        return out;
      }
      return source.read(offset, length);
    },
  };
  const readInto = source.readInto?.bind(source);
  if (readInto) {
    cached.readInto = async (offset, into) => {
      const length = into.length;
      // The bytes before the tail come from the source, the rest from memory (a range past the end is the source's to refuse).
      const split = closed || offset + length > end ? offset + length : Math.min(Math.max(at, offset), offset + length);
      if (split > offset) await readInto(offset, into.subarray(0, split - offset));
      if (split < offset + length) into.set(bytes.subarray(split - at, offset + length - at), split - offset);
    };
  }
  return cached;
}

/** Wraps a user-supplied source so that short or malformed reads become IOErrors. */
export function checkedSource(s: SourceLike): Source {
  if (!Number.isSafeInteger(s.byteLength) || s.byteLength < 0) {
    throw new InvalidArgumentError(`source byteLength must be a non-negative integer, got ${s.byteLength}`);
  }
  return {
    byteLength: s.byteLength,
    name: s.name,
    close: s.close?.bind(s),
    async read(offset, length) {
      checkRange(offset, length, s.byteLength, s.name);
      let got: Uint8Array | ArrayBuffer;
      try {
        got = await s.read(offset, length);
      } catch (e) {
        // A source of ours (a file, HTTP) already says what failed.
        if (e instanceof ParquetryError) throw e.within({ file: s.name, offset });
        throw new IOError(`read of ${length} bytes at offset ${offset} failed: ${(e as Error)?.message ?? e}`, { file: s.name, offset }, { cause: e });
      }
      const b = got instanceof Uint8Array ? got : got instanceof ArrayBuffer ? new Uint8Array(got) : undefined;
      if (!b || b.length !== length) {
        throw new IOError(`read of ${length} bytes at offset ${offset} returned ${b ? b.length : typeof got} bytes`, { file: s.name, offset });
      }
      return b;
    },
  };
}

/** How `httpSource` reads a URL: its size, request headers, the fetch to use. */
export interface HttpSourceOptions {
  /** The file's size, if known: saves the HEAD request. */
  byteLength?: number;
  /** Extra request headers (authorization, say). */
  headers?: Record<string, string>;
  /** A fetch implementation; the global one by default. */
  fetch?: typeof fetch;
}

/**
 * A URL read with HTTP Range requests: nothing is downloaded but the byte
 * ranges the reader asks for.
 */
export async function httpSource(url: string, options: HttpSourceOptions = {}): Promise<Source> {
  const doFetch = options.fetch ?? globalThis.fetch;
  if (!doFetch) throw new InvalidArgumentError('no fetch implementation available for an HTTP source');
  const headers = options.headers ?? {};
  let size = options.byteLength;
  if (size === undefined) {
    let res: Response;
    try {
      res = await doFetch(url, { method: 'HEAD', headers });
    } catch (e) {
      throw new IOError(`HEAD ${url} failed: ${(e as Error).message}`, { file: url }, { cause: e });
    }
    const len = res.headers.get('content-length');
    if (!res.ok) throw new IOError(`cannot read ${url}: the server answered ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`, { file: url });
    if (len === null || !/^\d+$/.test(len)) {
      throw new IOError(`HEAD ${url} gave no usable Content-Length; pass byteLength`, { file: url });
    }
    size = Number(len);
  }
  const byteLength = size;
  return {
    byteLength,
    name: url,
    async read(offset, length) {
      checkRange(offset, length, byteLength, url);
      if (length === 0) return new Uint8Array(0);
      let res: Response;
      try {
        res = await doFetch(url, { headers: { ...headers, Range: `bytes=${offset}-${offset + length - 1}` } });
      } catch (e) {
        throw new IOError(`GET ${url} failed: ${(e as Error).message}`, { file: url, offset }, { cause: e });
      }
      // A length given by the caller (a URL signed for GET has no HEAD) may be wrong: the server's total says so plainly.
      const total = /\/(\d+)$/.exec(res.headers.get('content-range') ?? '')?.[1];
      const refuse = (message: string): never => {
        void res.body?.cancel().catch(() => {}); // not the whole file of a server that ignored the range
        throw new IOError(message, { file: url, offset });
      };
      if (total !== undefined && Number(total) !== byteLength) refuse(`${url} is ${total} bytes (the server's Content-Range), not the ${byteLength} given as its length`);
      if (res.status !== 206 && !(res.status === 200 && offset === 0 && length === byteLength)) {
        refuse(`GET ${url} with a Range header gave status ${res.status} (the server must support range requests)`);
      }
      const b = new Uint8Array(await res.arrayBuffer());
      if (b.length !== length) throw new IOError(`GET ${url} returned ${b.length} bytes, expected ${length}`, { file: url, offset });
      return b;
    },
  };
}
