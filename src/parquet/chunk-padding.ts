/** The most a dictionary page header can take: what old parquet-mr left out of total_compressed_size. */
const DICTIONARY_HEADER_PADDING = 100;

/**
 * The bytes to read past a column chunk's total_compressed_size: parquet-mr
 * before 1.2.9 (and builds that do not say their version) left the
 * dictionary page header out of it (PARQUET-816), so their chunks are read
 * with that much extra; the page walk stops at the chunk's value count, so
 * the extra bytes are never decoded.
 */
export function chunkPadding(createdBy: string | undefined): number {
  if (!createdBy) return 0;
  const m = /^parquet-mr(?: version (\d+)\.(\d+)\.(\d+))?/.exec(createdBy);
  if (!m) return 0;
  if (m[1] === undefined) return DICTIONARY_HEADER_PADDING;
  const [a, b, c] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const old = a < 1 || (a === 1 && (b < 2 || (b === 2 && c < 9)));
  return old ? DICTIONARY_HEADER_PADDING : 0;
}
