/**
 * Child process of wide-tables.test.ts: writes a CSV of one header and one
 * row of `columns` columns, converts it to `format` with the Node entry's
 * convert (Trevni blocks spilled to temporary files, as the CLI does), reads
 * the row back (to JSON Lines) and prints whether it is the row written, the
 * peak RSS of the write, and the peak RSS of it all. Given a directory as a
 * third argument, it writes the output there and reads nothing back (the
 * caller reads it with another reader).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { convert } from '../../src/node/entries/convert.js';

const [columns, format, keep] = [Number(process.argv[2]), process.argv[3] as 'parquet' | 'trevni' | 'trevni-draft' | 'redelm', process.argv[4]];
const dir = keep ?? mkdtempSync(join(tmpdir(), 'wide-'));
try {
  const names = Array.from({ length: columns }, (_, i) => `c${i}`);
  // Integers and strings, so both value kinds are written.
  const cells = names.map((_, i) => (i % 3 === 0 ? `s${i}` : String(i)));
  const input = join(dir, 'in.csv');
  writeFileSync(input, `${names.join(',')}\n${cells.join(',')}\n`);
  const out = join(dir, { parquet: 'out.parquet', trevni: 'out.trv', 'trevni-draft': 'out.trv', redelm: 'out.redelm' }[format]);
  await convert(input, out, format === 'trevni-draft' ? { trevniVersion: 'draft' } : {});
  // The peak so far is the write's (reading back may take more).
  const writeRss = process.resourceUsage().maxRSS * 1024;
  if (keep) {
    console.log(JSON.stringify({ writeRss }));
    process.exit(0);
  }
  // Back to JSON Lines through the file's reader: the row, by column name.
  const back = join(dir, 'back.jsonl');
  await convert(out, back, {});
  const row = JSON.parse(readFileSync(back, 'utf8')) as Record<string, unknown>;
  const same = names.every((n, i) => String(row[n]) === cells[i]) && Object.keys(row).length === columns;
  console.log(JSON.stringify({ same, writeRss, maxRss: process.resourceUsage().maxRSS * 1024 }));
} finally {
  if (!keep) rmSync(dir, { recursive: true, force: true });
}
