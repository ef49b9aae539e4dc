/** Deterministic blocks the codec benchmarks compress (bench/codecs.ts, bench/snappy.ts): text and a numeric column. */

/** Deterministic pseudo-random numbers (mulberry32), so runs compare. */
export function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** CSV-like text: ids, names, amounts, dates, free text. */
export function csvBlock(size: number): Uint8Array {
  const r = rng(1);
  const names = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi', 'ivan', 'judy'];
  const words = ['order', 'shipped', 'returned', 'pending', 'paid', 'refund', 'express', 'standard'];
  const lines: string[] = [];
  let length = 0;
  for (let id = 100000; length < size; id++) {
    const line =
      `${id},${names[Math.floor(r() * names.length)]}${Math.floor(r() * 1000)},` +
      `${(r() * 10000).toFixed(2)},2024-${String(1 + Math.floor(r() * 12)).padStart(2, '0')}-${String(1 + Math.floor(r() * 28)).padStart(2, '0')},` +
      `"${words[Math.floor(r() * words.length)]} ${words[Math.floor(r() * words.length)]}"\n`;
    lines.push(line);
    length += line.length;
  }
  return new TextEncoder().encode(lines.join('')).subarray(0, size);
}

/** A PLAIN-encoded INT64 column: slowly rising values with noise, as timestamps or ids. */
export function int64Block(size: number): Uint8Array {
  const r = rng(2);
  const v = new BigInt64Array(size / 8);
  let x = 1_700_000_000_000n;
  for (let i = 0; i < v.length; i++) v[i] = x += BigInt(Math.floor(r() * 5000));
  return new Uint8Array(v.buffer);
}
