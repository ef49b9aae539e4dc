/**
 * The shared reproducers and hostile inputs (../shared/fuzz/repro and
 * ../shared/fuzz/hostile, see its README) are permanent regression tests:
 * every file, Parquet by .parquet and Trevni by .trv, is read fully in a
 * child process (Parquet: rows() printed canonically, readRows(), columns();
 * Trevni: rows(), canonicalRows(), readColumn() of each column, readAvro()
 * when it has an avro.schema; readRows() and readColumn(), which hold the
 * whole file, only when rows() gave at most 100,000 rows: see read.ts) and must end in rows or a checked
 * ParquetryError, under 512 MiB peak RSS (native buffers included), with
 * checksums verified unless the file's NAME.txt says it was found with them
 * off. The time limit is a generous hang guard, not a timing. Files with the
 * same bytes (a reproducer also kept among the hostile inputs) are read once,
 * the reads being deterministic, and each name gets that outcome: one of them
 * is a 2^28-row file whose read is most of this test's time.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCases } from '../../scripts/fuzz/pool.js';
import { acceptable, type Format } from '../../scripts/fuzz/read.js';

const MEMORY_MB = 512;
// Generous: the valid files of 2^28 rows must be read to the end (rows() printed canonically, then columns()),
// which took over 120 s on a machine shared with other work; a hang still ends the case.
const HANG_GUARD_MS = 600_000;
const DIRS = [join('..', 'shared', 'fuzz', 'repro'), join('..', 'shared', 'fuzz', 'hostile')];

const files = DIRS.flatMap((d) => readdirSync(d).sort().filter((n) => n.endsWith('.parquet') || n.endsWith('.trv')).map((n) => join(d, n)));

test(`every shared reproducer and hostile input (${files.length} files) ends in rows or a typed error under ${MEMORY_MB} MiB`, { timeout: files.length * HANG_GUARD_MS }, async (t) => {
  assert.ok(files.length >= 80, `only ${files.length} files found in ${DIRS.join(', ')}`);
  const read = files.map((file) => ({
    bytes: new Uint8Array(readFileSync(file)), format: (file.endsWith('.trv') ? 'trevni' : 'parquet') as Format,
    // As the description says it was found: with checksums off, the reader gets past a page whose CRC the mutation broke.
    verifyChecksums: !/verifyChecksums:\s*false|--no-verify/.test(readFileSync(file.replace(/\.(parquet|trv)$/, '.txt'), 'utf8')),
  }));
  /** For each file, the case that reads it: the first file with the same read (bytes, format, checksums) makes it. */
  const caseOf: number[] = [];
  const cases: ((typeof read)[number] & { id: number; file: string })[] = [];
  const byRead = new Map<string, number>();
  read.forEach((r, i) => {
    const k = `${r.format} ${r.verifyChecksums} ${createHash('sha256').update(r.bytes).digest('hex')}`;
    if (!byRead.has(k)) byRead.set(k, cases.push({ ...r, id: cases.length, file: files[i]! }) - 1);
    caseOf.push(byRead.get(k)!);
  });
  const outcomes = await runCases(cases, { workers: 2, timeoutMs: HANG_GUARD_MS, memoryMb: MEMORY_MB, batch: 4 });
  assert.equal(outcomes.length, cases.length, 'every case has an outcome');
  const results = caseOf.map((c, i) => ({ ...outcomes[c]!, id: i, sameAs: cases[c]!.file === files[i] ? undefined : cases[c]!.file }));
  const bad: string[] = [];
  for (const r of results) {
    const peak = 'peakMb' in r ? r.peakMb : undefined;
    const overCap = peak !== undefined && peak > MEMORY_MB;
    const ok = acceptable(r) && !overCap;
    const how = overCap ? `peak RSS ${peak!.toFixed(0)} MiB after ${r.result}` : `${r.result}${r.error ? `: ${r.error.replace(/\s+/g, ' ').slice(0, 240)}` : ''}`;
    const where = 'stage' in r && r.stage ? ` [${r.stage}]` : '';
    t.diagnostic(`${ok ? 'ok  ' : 'FAIL'} ${files[r.id]}: ${how}${where}${peak ? ` (${peak.toFixed(0)} MiB)` : ''}${r.sameAs ? ` (same bytes as ${r.sameAs})` : ''}`);
    if (!ok) bad.push(`${files[r.id]}: ${how}${where}${'wrapped' in r && r.wrapped ? `\n      wraps ${r.wrapped.split('\n').slice(0, 3).join(' | ')}` : ''}`);
  }
  assert.equal(results.length, files.length, 'every file has an outcome');
  assert.deepEqual(bad, [], `${bad.length} of ${files.length} files end in something other than rows or a typed error under ${MEMORY_MB} MiB:\n  ${bad.join('\n  ')}`);
});
