import { open } from 'node:fs/promises';
import { IOError } from '../errors.js';
import type { Source } from '../io/source.js';

/** A local file read with positioned reads; only the requested ranges are read. */
export async function fileSource(path: string): Promise<Source> {
  let fh;
  try {
    fh = await open(path, 'r');
  } catch (e) {
    throw new IOError(`cannot open ${path}: ${(e as Error).message}`, { file: path }, { cause: e });
  }
  const handle = fh;
  const { size } = await handle.stat();
  return {
    byteLength: size,
    name: path,
    async read(offset, length) {
      if (offset < 0 || length < 0 || offset + length > size) {
        throw new IOError(`read of ${length} bytes at offset ${offset} is outside the ${size}-byte file`, { file: path, offset });
      }
      const buf = new Uint8Array(length);
      let done = 0;
      while (done < length) {
        const { bytesRead } = await handle.read(buf, done, length - done, offset + done);
        if (bytesRead === 0) throw new IOError(`file ended early at offset ${offset + done}`, { file: path, offset: offset + done });
        done += bytesRead;
      }
      return buf;
    },
    close: () => handle.close(),
  };
}
