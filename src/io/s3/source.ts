/**
 * An object read with ranged GETs: nothing is downloaded but the byte
 * ranges the reader asks for (coalesced by the reader as local reads are).
 * Ranges are always explicit (`bytes=a-b`), never suffix ranges, which some
 * S3-compatible servers mishandle: the size comes from a listing or a HEAD.
 */
import { IOError } from '../../errors.js';
import type { Source } from '../source.js';
import { formatS3Address, type S3Address } from './address.js';
import type { S3Client } from './client.js';

/** Whether an object is at `address`, by HEAD. */
export async function objectExists(client: S3Client, address: S3Address): Promise<boolean> {
  return (await client.request(address, { method: 'HEAD', accept: [404] })).ok;
}

/** An object's size, by HEAD. */
export async function objectSize(client: S3Client, address: S3Address): Promise<number> {
  const res = await client.request(address, { method: 'HEAD' });
  const len = res.headers.get('content-length');
  if (len === null || !/^\d+$/.test(len)) throw new IOError(`HEAD ${formatS3Address(address)} gave no usable Content-Length`, { file: formatS3Address(address) });
  return Number(len);
}

/** `byteLength`, when known (a listing gives it), saves the HEAD request. */
export async function s3Source(client: S3Client, address: S3Address, options: { byteLength?: number } = {}): Promise<Source> {
  const name = formatS3Address(address);
  const byteLength = options.byteLength ?? (await objectSize(client, address));
  return {
    byteLength,
    name,
    async read(offset, length) {
      if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0 || offset + length > byteLength) {
        throw new IOError(`read of ${length} bytes at offset ${offset} is outside the ${byteLength}-byte object`, { file: name, offset });
      }
      if (length === 0) return new Uint8Array(0);
      const res = await client.request(address, { method: 'GET', headers: { Range: `bytes=${offset}-${offset + length - 1}` } });
      // A whole-object answer to a range (a server ignoring Range) is refused unless the range was the whole object.
      if (res.status !== 206 && !(res.status === 200 && offset === 0 && length === byteLength)) {
        void res.body?.cancel().catch(() => {});
        throw new IOError(`GET ${name} with a Range header gave status ${res.status}`, { file: name, offset });
      }
      const total = /\/(\d+)$/.exec(res.headers.get('content-range') ?? '')?.[1];
      if (total !== undefined && Number(total) !== byteLength) {
        void res.body?.cancel().catch(() => {});
        throw new IOError(`${name} is now ${total} bytes, not the ${byteLength} it was when opened (replaced while being read?)`, { file: name, offset });
      }
      const b = new Uint8Array(await res.arrayBuffer());
      if (b.length !== length) throw new IOError(`GET ${name} returned ${b.length} bytes, expected ${length}`, { file: name, offset });
      return b;
    },
  };
}
