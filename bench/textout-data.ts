/**
 * bench/textout.ts's JSON Lines input, written by our own code into
 * bench/data/ (gitignored) when absent. Deterministic (a fixed-seed
 * generator). 200,000 records, about 32 MB: an integer, a string of 1,000
 * values, a double, a date and a timestamp as text, a boolean, an integer
 * with 10% nulls, a list of strings and a struct.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { writeLinesFile, xorshift } from './convert-data.js';
import { DATA_DIR } from './data.js';

export const TEXTOUT_JSONL = join(DATA_DIR, 'textout.jsonl');
export const TEXTOUT_ROWS = 200_000;

const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima', 'mike', 'november', 'oscar', 'papa'];

/** The records, one JSON text each, by record number; the same text for the same arguments. */
export function* textoutLines(rows: number, seed = 2525): Generator<string> {
  const next = xorshift(seed);
  const day0 = Date.UTC(2020, 0, 1);
  for (let i = 0; i < rows; i++) {
    const k = next() % 1000;
    const name = `${WORDS[k % 16]} ${WORDS[(k >>> 4) % 16]} ${k}`;
    const score = (next() % 10_000_000) / 1000 - 5000;
    const day = new Date(day0 + (next() % 3650) * 86_400_000).toISOString().slice(0, 10);
    const t = new Date(day0 + (next() % 315_360_000) * 1000).toISOString();
    const ts = `${t.slice(0, 10)} ${t.slice(11, 19)}`;
    const r = next();
    const qty = r % 10 === 0 ? null : r % 5000;
    const tags = Array.from({ length: next() % 4 }, (_, k) => WORDS[(r >>> (k * 4)) % 16]);
    const place = { city: WORDS[(r >>> 8) % 16], zip: 10_000 + (r % 90_000) };
    yield JSON.stringify({ id: i + 1, name, score, day, ts, ok: r % 3 === 0, qty, tags, place });
  }
}

export async function ensureTextoutData(force = false): Promise<void> {
  if (!force && existsSync(TEXTOUT_JSONL)) return;
  await writeLinesFile(TEXTOUT_JSONL, (function* () {
    for (const line of textoutLines(TEXTOUT_ROWS)) yield line + '\n';
  })());
}

if (process.argv[1]?.endsWith('textout-data.ts')) await ensureTextoutData(process.argv.includes('--force'));
