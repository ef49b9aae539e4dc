/**
 * CI's fuzz run: the first CASES cases of a fixed seed of the campaign `npm
 * run fuzz` runs (scripts/fuzz/), over every surface (plain, encrypted and
 * damaged Parquet under recovery, Trevni of each version and dialect and
 * under recovery, RedElm, `_metadata` datasets, CSV, JSON Lines and JSON to
 * convert): the corpora and writer-made inputs, mutated every way each
 * surface knows. A count, not a time: every run, on any machine, makes the
 * same cases (a time budget made as many as the machine's load allowed). Any
 * hang, crash, memory-cap hit, untyped error, wrapped plain exception or
 * broken invariant (a wrong row, a read outside the root, a wrong key giving
 * rows) fails, printing how to make the case again; so does a surface that
 * ran fewer than MIN_CASES cases. PARQUETRY_FUZZ_SEED, PARQUETRY_FUZZ_CASES
 * and PARQUETRY_FUZZ_SECONDS (a time budget instead of a count) explore further.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatReport, runCampaign } from '../../scripts/fuzz/campaign.js';
import { SURFACE_NAMES } from '../../scripts/fuzz/surface.js';

const SEED = Number(process.env.PARQUETRY_FUZZ_SEED ?? 20261125);
/** With a time budget (seconds), as many cases as fit in it instead of a count. */
const SECONDS = process.env.PARQUETRY_FUZZ_SECONDS === undefined ? undefined : Number(process.env.PARQUETRY_FUZZ_SECONDS);
/** About 500 a surface, 40 CPU s on the 2-core machine: the suite's budget (10 minutes in all) allows no more. */
const CASES = SECONDS === undefined ? Number(process.env.PARQUETRY_FUZZ_CASES ?? 6000) : undefined;
/**
 * Each case's surface is a seeded draw, so each surface gets about an even share: fewer than half of it means a surface
 * stopped making cases. Under a time budget, the slowest (datasets on disk and over HTTP, text conversion) runs 40 in
 * 90 s on a loaded 2-core machine.
 */
const MIN_CASES = CASES === undefined ? 40 : Math.floor(CASES / SURFACE_NAMES.length / 2);
/**
 * A hang guard, not a timing: `npm run fuzz` allows a case 10 s, but CI's machine runs other test files beside the
 * campaign's two workers, and a case that ends in 1-2 s alone (a RedElm footer of 140,000 references, refused with a
 * typed error) was seen to pass 10 s there.
 */
const HANG_GUARD_MS = 30_000;

let campaign: Promise<{ report: Awaited<ReturnType<typeof runCampaign>>; text: string; out: string }> | undefined;
function run(log: (l: string) => void) {
  campaign ??= (async () => {
    const out = mkdtempSync(join(tmpdir(), 'parquetry-fuzz-ci-'));
    const report = await runCampaign({
      seed: SEED, seconds: SECONDS ?? Infinity, maxCases: CASES, surfaces: [...SURFACE_NAMES], workers: 2, timeoutMs: HANG_GUARD_MS, memoryMb: 512, out, writerFiles: 8, batch: 16, log,
    });
    const text = formatReport(report, 10);
    for (const line of text.split('\n')) log(line);
    return { report, text, out };
  })();
  return campaign;
}

function listed(findings: Awaited<ReturnType<typeof runCampaign>>['findings']): string[] {
  return findings.map((f) => `${f.kind} ${f.spec.format}: ${f.error.slice(0, 200)} (${f.spec.source}, case ${f.spec.id}${f.file ? `, saved as ${f.file}` : ''})`);
}

test(`fuzz campaign: ${CASES === undefined ? `${SECONDS} s` : `${CASES} cases`} of seed ${SEED} over every surface, every case ends in rows or a checked ParquetryError, in time and memory, and keeps its surface's invariant`, { timeout: (SECONDS ?? 300) * 1000 + 300_000 }, async (t) => {
  const { report, text, out } = await run((l) => t.diagnostic(l));
  const few = SURFACE_NAMES.filter((s) => (report.surfaces[s]?.cases ?? 0) < MIN_CASES).map((s) => `${s}: ${report.surfaces[s]?.cases ?? 0}`);
  assert.deepEqual(few, [], `surfaces that ran fewer than ${MIN_CASES} cases`);
  // A hang or memory hit that the campaign's re-run of the case alone, in a fresh process, does not repeat came from
  // what the child held of earlier cases in its batch or from the machine's load: printed, not failed.
  const flaky = (f: (typeof report.findings)[number]) => (f.kind === 'hang' || f.kind === 'memory') && f.repeated === false;
  for (const f of report.findings.filter(flaky)) t.diagnostic(`not repeated alone: ${listed([f])[0]}`);
  const hard = report.findings.filter((f) => !flaky(f));
  assert.deepEqual(listed(hard), [],
    `the fuzz found ${hard.length} distinct failures; reproducers and one-line descriptions in ${out}; `
    + `make a case again with npm run fuzz -- ${report.replay} --case ID, or read a saved input with npm run fuzz -- --replay PATH\n${text}`);
});
