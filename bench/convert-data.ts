/**
 * The convert benchmark's CSV input, written by our own code (not by either
 * contender) into bench/data/ (gitignored) when absent. Deterministic: every
 * value is a function of the row number through a fixed-seed generator, so
 * runs on other machines compare. About 100 MB for 1,000,000 rows, 9 columns:
 * integers (one with nulls), doubles, decimals as text, short strings from a
 * pool, long strings (some quoted, with embedded delimiters, quotes and line
 * breaks), dates, timestamps and booleans.
 *
 * Run alone to (re)generate: node --import tsx bench/convert-data.ts [--force]
 */
import { createWriteStream, existsSync, mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { DATA_DIR } from './data.js';

export const CONVERT_CSV = join(DATA_DIR, 'convert.csv');
export const CONVERT_ROWS = 1_000_000;

const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima', 'mike', 'november', 'oscar', 'papa'];
const NAMES = Array.from({ length: 500 }, (_, i) => `${WORDS[i % 16]}_${WORDS[(i >> 4) % 16]}${i}`);

/** A 32-bit xorshift generator: the same rows on every machine (the CSV tests draw from it too). */
export function xorshift(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>>= 0);
  };
}

const pad = (n: number, w: number) => String(n).padStart(w, '0');

/** `rows` lines of the benchmark's CSV (header first), by row number; the same text for the same arguments. */
export function* convertCsvLines(rows: number, seed = 25): Generator<string> {
  const next = xorshift(seed);
  yield 'id,qty,amount,price,name,comment,day,ts,flag\n';
  const day0 = Date.UTC(2020, 0, 1);
  for (let i = 0; i < rows; i++) {
    const r = next();
    const qty = r % 20 === 0 ? '' : String(r % 1000);
    const amount = ((next() % 100_000_000) / 1000 - 50_000).toFixed(3);
    const price = `${next() % 100_000}.${pad(next() % 100, 2)}`;
    const name = NAMES[next() % NAMES.length]!;
    const w = next();
    let comment = `${WORDS[w % 16]} ${WORDS[(w >>> 4) % 16]} ${WORDS[(w >>> 8) % 16]} ${w % 10_000}`;
    if (w % 7 === 0) comment = `"${comment}, with a comma"`;
    else if (w % 11 === 0) comment = `"she said ""${WORDS[(w >>> 16) % 16]}"" twice"`;
    else if (w % 101 === 0) comment = `"two\nlines ${w % 97}"`;
    else if (w % 13 === 0) comment = '';
    const day = new Date(day0 + (next() % 3650) * 86_400_000).toISOString().slice(0, 10);
    const t = new Date(day0 + (next() % 315_360_000) * 1000).toISOString();
    const ts = `${t.slice(0, 10)} ${t.slice(11, 19)}`;
    const flag = next() % 3 === 0 ? 'true' : 'false';
    yield `${i + 1},${qty},${amount},${price},${name},${comment},${day},${ts},${flag}\n`;
  }
}

/** Writes `lines` to `path` through a temporary file, so a killed run leaves none half-written. */
export async function writeLinesFile(path: string, lines: Iterable<string>): Promise<void> {
  mkdirSync(join(path, '..'), { recursive: true });
  const tmp = `${path}.tmp`;
  const out = createWriteStream(tmp);
  let buf = '';
  for (const line of lines) {
    buf += line;
    if (buf.length > 1 << 20) {
      if (!out.write(buf)) await new Promise<void>((r) => out.once('drain', () => r()));
      buf = '';
    }
  }
  out.write(buf);
  await new Promise<void>((res, rej) => out.end((e?: Error | null) => (e ? rej(e) : res())));
  renameSync(tmp, path);
}

export async function ensureConvertData(force = false): Promise<void> {
  if (!force && existsSync(CONVERT_CSV)) return;
  mkdirSync(DATA_DIR, { recursive: true });
  await writeLinesFile(CONVERT_CSV, convertCsvLines(CONVERT_ROWS));
}

if (process.argv[1]?.endsWith('convert-data.ts')) await ensureConvertData(process.argv.includes('--force'));
