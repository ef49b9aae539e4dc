/** Text inputs in any runtime as the readers take them: chunks of bytes, counted. */
import type { SourceLike } from '../io/source.js';
import type { InputBytes } from './source.js';

/** Text, bytes, a Blob (a File), a Web ReadableStream, or any async iterable of chunks (a Node Readable is one). */
export type TextInput = string | Uint8Array | ArrayBuffer | Blob | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array | string>;

const encoder = new TextEncoder();

export function isReadableStream(v: unknown): v is ReadableStream<Uint8Array> {
  return typeof (v as ReadableStream | undefined)?.getReader === 'function';
}

export function isBlob(v: unknown): v is Blob {
  return typeof Blob !== 'undefined' && v instanceof Blob;
}

/**
 * A Web stream's chunks (not every runtime makes ReadableStream
 * async-iterable). Left early (a break, a bad row, an abort), the stream is
 * cancelled, as `for await` over it cancels it: a fetch stops downloading.
 */
async function* readerChunks(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  let ended = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        ended = true;
        return;
      }
      yield value;
    }
  } finally {
    if (!ended) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

/** `size`: the total, when the caller knows it and the input does not tell. */
export function inputBytes(input: TextInput, name: string, size?: number): InputBytes {
  const bytes = typeof input === 'string' ? encoder.encode(input)
    : input instanceof Uint8Array ? input : input instanceof ArrayBuffer ? new Uint8Array(input) : undefined;
  const source: InputBytes = {
    name,
    size: bytes?.length ?? (isBlob(input) ? input.size : size),
    bytesRead: 0,
    async *chunks() {
      const chunks: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array> = bytes ? [bytes]
        : isBlob(input) ? readerChunks(input.stream())
        : isReadableStream(input) ? readerChunks(input) : (input as AsyncIterable<Uint8Array | string>);
      for await (const c of chunks) {
        const chunk = typeof c === 'string' ? encoder.encode(c) : c;
        source.bytesRead += chunk.length;
        yield chunk;
      }
    },
    close: async () => undefined,
  };
  return source;
}

const READ_CHUNK = 1 << 20;

/** A random-access source's bytes in order, a megabyte at a time. */
export async function* sourceChunks(source: SourceLike): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < source.byteLength; at += READ_CHUNK) {
    const b = await source.read(at, Math.min(READ_CHUNK, source.byteLength - at));
    yield b instanceof Uint8Array ? b : new Uint8Array(b);
  }
}
