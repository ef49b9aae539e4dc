/**
 * CI's fuzz run: 60 seconds of the campaign `npm run fuzz` runs (scripts/fuzz/),
 * with a fixed seed, over both formats: the shared corpora and writer-made
 * files, mutated every way the engine knows. Any hang, crash, memory-cap hit,
 * untyped error or wrapped plain exception fails, printing how to make the
 * case again. PARQUETRY_FUZZ_SEED and PARQUETRY_FUZZ_SECONDS explore further.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatReport, runCampaign } from '../../scripts/fuzz/campaign.js';

const SEED = Number(process.env.PARQUETRY_FUZZ_SEED ?? 20261125);
const SECONDS = Number(process.env.PARQUETRY_FUZZ_SECONDS ?? 60);

test(`fuzz campaign: ${SECONDS} s of seed ${SEED}, every case ends in rows or a checked ParquetryError`, { timeout: SECONDS * 1000 + 300_000 }, async (t) => {
  const out = mkdtempSync(join(tmpdir(), 'parquetry-fuzz-ci-'));
  const report = await runCampaign({
    seed: SEED, seconds: SECONDS, formats: ['parquet', 'trevni'], workers: 2, timeoutMs: 10_000, memoryMb: 512, out, writerFiles: 8, batch: 64,
    log: (l) => t.diagnostic(l),
  });
  const text = formatReport(report, 10);
  for (const line of text.split('\n')) t.diagnostic(line);
  // The run did real work of both kinds.
  assert.ok(report.cases > 100, `only ${report.cases} cases ran`);
  assert.deepEqual(report.findings.map((f) => `${f.kind}: ${f.error.slice(0, 200)} (${f.spec.source}, case ${f.spec.id}${f.file ? `, saved as ${f.file}` : ''})`), [],
    `the fuzz found ${report.findings.length} distinct failures; reproducers and one-line descriptions in ${out}; `
    + `make a case again with npm run fuzz -- ${report.replay} --case ID, or read a saved file with npm run fuzz -- --replay FILE\n${text}`);
});
