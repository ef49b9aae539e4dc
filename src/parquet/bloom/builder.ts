/**
 * Builds one column chunk's bloom filter while a writer encodes it: the
 * hashes of its values are gathered page by page, and the filter is made
 * when the chunk ends. With an `ndv` the filter is sized up front and values
 * go straight in; without one the hashes are kept (8 bytes each, in a typed
 * array) and the filter is sized at the end from the number of distinct
 * hashes, which is the chunk's distinct count.
 */
import { LITTLE_ENDIAN } from '../../encodings/bits.js';
import type { PhysicalType, Values } from '../../encodings/types.js';
import { SplitBlockBloomFilter } from './filter.js';
import { xxhash64 } from './hash.js';
import { hashBoolean, hashDouble, hashFloat, hashInt32, hashInt64 } from './value.js';

export interface BloomBuilderOptions {
  /** Expected distinct values; when absent, the distinct values actually seen. */
  ndv?: number;
  /** False-positive probability (default 0.01). */
  fpp?: number;
}

export class BloomBuilder {
  readonly fpp: number;
  readonly ndv: number | undefined;
  private filter: SplitBlockBloomFilter | undefined;
  private hashes = new BigUint64Array(0);
  private count = 0;

  constructor(readonly type: PhysicalType, options: BloomBuilderOptions = {}) {
    this.fpp = options.fpp ?? 0.01;
    this.ndv = options.ndv;
    // Sizes are checked now, so a bad option fails when the writer opens.
    if (this.ndv !== undefined) this.filter = SplitBlockBloomFilter.forDistinct(this.ndv, this.fpp);
    else SplitBlockBloomFilter.forDistinct(0, this.fpp);
  }

  /** Adds one hash. */
  addHash(h: bigint): void {
    if (this.filter !== undefined) {
      this.filter.insert(h);
      return;
    }
    if (this.count === this.hashes.length) {
      const next = new BigUint64Array(Math.max(1024, this.count * 2));
      next.set(this.hashes);
      this.hashes = next;
    }
    this.hashes[this.count++] = h;
  }

  /** Adds values[start..end) of the column's physical type (a page's values or new dictionary entries). */
  addValues(values: Values, start: number, end: number): void {
    if ('offsets' in values) {
      const { data, offsets } = values;
      for (let i = start; i < end; i++) this.addHash(xxhash64(data.subarray(offsets[i]!, offsets[i + 1]!)));
      return;
    }
    const t = this.type;
    if (t === 'BOOLEAN') {
      const v = values as Uint8Array;
      for (let i = start; i < end; i++) this.addHash(hashBoolean(v[i] !== 0));
      return;
    }
    if (LITTLE_ENDIAN) {
      // The typed array's bytes are the PLAIN encoding.
      const w = values.BYTES_PER_ELEMENT;
      const bytes = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
      for (let i = start; i < end; i++) this.addHash(xxhash64(bytes.subarray(i * w, i * w + w)));
      return;
    }
    for (let i = start; i < end; i++) {
      const v = values[i]!;
      if (t === 'INT32') this.addHash(hashInt32(v as number));
      else if (t === 'INT64') this.addHash(hashInt64(v as bigint));
      else if (t === 'FLOAT') this.addHash(hashFloat(v as number));
      else this.addHash(hashDouble(v as number));
    }
  }

  /** The chunk's filter; the builder is empty afterwards, ready for the next chunk. */
  finish(): SplitBlockBloomFilter {
    let filter = this.filter;
    if (filter !== undefined) {
      this.filter = SplitBlockBloomFilter.forDistinct(this.ndv!, this.fpp);
      return filter;
    }
    const hashes = this.hashes.subarray(0, this.count).sort();
    let distinct = 0;
    for (let i = 0; i < hashes.length; i++) if (i === 0 || hashes[i] !== hashes[i - 1]) distinct++;
    filter = SplitBlockBloomFilter.forDistinct(distinct, this.fpp);
    for (let i = 0; i < hashes.length; i++) filter.insert(hashes[i]!);
    this.hashes = new BigUint64Array(0);
    this.count = 0;
    return filter;
  }
}
