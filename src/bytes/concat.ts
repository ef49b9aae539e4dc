/** Byte arrays end to end (an array, not arguments: a file's modules can be more than the stack passes); undefined parts are skipped. */
export function concatBytes(parts: readonly (Uint8Array | undefined)[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p ? p.length : 0;
  const out = new Uint8Array(n);
  n = 0;
  for (const p of parts) {
    if (!p) continue;
    out.set(p, n);
    n += p.length;
  }
  return out;
}

/** Ranges up to this many bytes are copied byte by byte: for them a view for set() costs more than the copy. */
const SHORT_COPY = 32;

/**
 * Copies src[start, end) to dst from `at` (the ranges must not overlap), with
 * no view made for a range of up to `short` bytes (a caller copying many
 * ranges a little longer may find the views' allocation dearer).
 */
export function copyBytes(dst: Uint8Array, at: number, src: Uint8Array, start: number, end: number, short = SHORT_COPY): void {
  if (end - start > short) dst.set(src.subarray(start, end), at);
  else for (let i = start; i < end; i++) dst[at++] = src[i]!;
}
