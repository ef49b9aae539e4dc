/**
 * A Sink that encrypts the Parquet file written into it: the plaintext is
 * gathered in memory and handed to `inner` encrypted at close (encryptParquet
 * re-lays out a whole file).
 */
import { BufferSink, type Sink } from '../../io/sink.js';
import { encryptParquet, type EncryptionOptions } from './encryptor.js';

export function encryptingSink(inner: Sink, options: EncryptionOptions): Sink {
  const plain = new BufferSink();
  return {
    write: (bytes) => plain.write(bytes),
    async close() {
      await plain.close();
      await inner.write(await encryptParquet(plain.bytes(), options));
      await inner.close();
    },
    async abort() {
      await plain.abort();
      await inner.abort();
    },
  };
}
