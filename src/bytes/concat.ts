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
