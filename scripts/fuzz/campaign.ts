/**
 * A fuzz campaign: cases 0, 1, 2... of a seed, spread evenly over the chosen
 * surfaces, run in child processes for a given time; every outcome counted,
 * per surface; every finding (a hang, a crash, a memory-cap hit, an untyped
 * error, a typed error that only wraps a plain exception, or a surface's
 * invariant broken) made again in this process, cut down to one mutation
 * when one alone does it, and saved (save.ts) with a one-line NAME.txt.
 * Typed errors that name no place in the file are counted by message and
 * throw site, so the worst offenders can be fixed first.
 */
import { readFileSync } from 'node:fs';
import { seedFiles, SeedSet, type CaseSpec } from './cases.js';
import { runCases, runPool, type PoolResult } from './pool.js';
import { acceptable } from './read.js';
import { describeFinding, findingName } from './save.js';
import type { SeedFile, SurfaceName } from './surface.js';

export interface CampaignOptions {
  seed: number;
  seconds: number;
  surfaces: SurfaceName[];
  workers: number;
  timeoutMs: number;
  memoryMb: number;
  /** Where reproducers go; none are written without it. */
  out?: string;
  /** Writer-made seed files per surface. */
  writerFiles: number;
  /** Cases per message to a child. */
  batch: number;
  /** Stop after this many cases even if time is left. */
  maxCases?: number;
  log?: (line: string) => void;
}

export type FindingKind = 'hang' | 'crash' | 'memory' | 'untyped' | 'wrapped' | 'invariant';

export interface Finding {
  kind: FindingKind;
  spec: CaseSpec;
  error: string;
  stage?: string;
  stack?: string;
  peakMb?: number;
  /** The reproducer, when saved. */
  file?: string;
  /** Whether the case, run again alone, gave the same kind of finding. */
  repeated?: boolean;
}

export interface CampaignReport {
  seed: number;
  seedFiles: number;
  cases: number;
  seconds: number;
  casesPerSecond: number;
  /** CPU seconds of the run, this process and its children. */
  cpuSeconds: number;
  /** Outcomes: rows, typed, and each finding kind. */
  counts: Record<string, number>;
  /** Per surface: its outcomes (as counts) and the child's milliseconds spent on its cases. */
  surfaces: Record<string, { cases: number; ms: number; counts: Record<string, number> }>;
  typedByClass: Record<string, number>;
  /** Typed errors with no offset, row group, column or page. */
  unlocated: number;
  /** [message pattern @ throw site, count], most frequent first. */
  unlocatedSites: [string, number][];
  /** InvalidArgumentError raised on corrupt input (it is for caller mistakes), by site. */
  invalidArgumentSites: [string, number][];
  findings: Finding[];
  /** Findings not kept (same kind and error as one kept). */
  duplicateFindings: number;
  peakMb: number;
  /** Child processes started (one per worker, plus one after each hang, crash, memory hit or recycling). */
  processes: number;
  /** The options that make the same cases again: `npm run fuzz -- <replay> --case ID`. */
  replay: string;
}

/**
 * CPU seconds of this process and its ended children (Linux /proc/self/stat: utime, stime, cutime, cstime), or
 * NaN elsewhere. Cases per CPU second is the throughput a busy machine cannot distort.
 */
function cpuSeconds(): number {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').replace(/^.*\) /, '').split(' ');
    // After the command name: state is field 3, so utime..cstime (fields 14-17) are at 11-14 here; clock ticks are 100/s on Linux.
    return fields.slice(11, 15).reduce((a, x) => a + Number(x), 0) / 100;
  } catch {
    return NaN;
  }
}

/** A typed error's message with its numbers and quoted names blanked, so one check's errors count together. */
export function pattern(error: string): string {
  // JSON.parse's own words (quoting the bad text) say nothing about which check of ours ran.
  return error.replace(/(not JSON): .*/, '$1: …').replace(/"[^"]*"|'[^']*'/g, '"…"').replace(/-?\d+(\.\d+)?/g, 'N').replace(/\s+\(file [^)]*\)$/, '').slice(0, 160);
}

function findingOf(r: PoolResult, memoryMb: number): FindingKind | undefined {
  if (r.result === 'hang' || r.result === 'crash' || r.result === 'memory' || r.result === 'untyped' || r.result === 'invariant') return r.result;
  if ('peakMb' in r && r.peakMb !== undefined && r.peakMb > memoryMb) return 'memory';
  return acceptable(r as { result: string; wrapped?: string }) ? undefined : 'wrapped';
}

export async function runCampaign(o: CampaignOptions): Promise<CampaignReport> {
  const log = o.log ?? (() => {});
  const t0 = performance.now();
  const files = await seedFiles(o.surfaces, o.seed, o.writerFiles);
  const seeds = new SeedSet(files);
  log(`seed ${o.seed}: ${files.length} seed files (${seeds.surfaces.map((s) => `${s} ${files.filter((f) => f.surface === s).length}`).join(', ')}) ready in ${((performance.now() - t0) / 1000).toFixed(1)} s; ${o.workers} worker(s), ${o.maxCases === undefined ? `${o.seconds} s` : `${o.maxCases} cases`}`);
  const started = performance.now();
  const cpuStart = cpuSeconds();
  const deadline = started + o.seconds * 1000;
  let nextId = 0;
  const counts: Record<string, number> = {};
  const surfaces: CampaignReport['surfaces'] = {};
  const typedByClass: Record<string, number> = {};
  const unlocated = new Map<string, number>();
  const invalidArgument = new Map<string, number>();
  const raw: { r: PoolResult; kind: FindingKind }[] = [];
  let done = 0;
  let unlocatedCount = 0;
  let peakMb = 0;
  let lastLog = started;
  const bump = (m: Map<string, number> | Record<string, number>, k: string) =>
    m instanceof Map ? m.set(k, (m.get(k) ?? 0) + 1) : (m[k] = (m[k] ?? 0) + 1);

  const { processes } = await runPool(
    () => {
      if (performance.now() >= deadline || (o.maxCases !== undefined && nextId >= o.maxCases)) return undefined;
      const n = o.maxCases === undefined ? o.batch : Math.min(o.batch, o.maxCases - nextId);
      return Array.from({ length: n }, () => ({ id: nextId++ }));
    },
    (r) => {
      done++;
      const kind = findingOf(r, o.memoryMb);
      bump(counts, kind ?? r.result);
      if ('surface' in r && r.surface) {
        const s = (surfaces[r.surface] ??= { cases: 0, ms: 0, counts: {} });
        s.cases++;
        s.ms += r.ms;
        bump(s.counts, kind ?? r.result);
      }
      if ('peakMb' in r && r.peakMb) peakMb = Math.max(peakMb, r.peakMb);
      if (kind) raw.push({ r, kind });
      if (r.result === 'typed' && 'errorClass' in r) {
        bump(typedByClass, r.errorClass!);
        const key = `${pattern(r.error!)} @ ${r.site}`;
        if (r.unlocated) {
          unlocatedCount++;
          bump(unlocated, key);
        }
        if (r.errorClass === 'InvalidArgumentError') bump(invalidArgument, key);
      }
      const now = performance.now();
      if (now - lastLog > 10_000) {
        lastLog = now;
        log(`  ${done} cases, ${(done / ((now - started) / 1000)).toFixed(0)}/s: ${JSON.stringify(counts)}`);
      }
    },
    { workers: o.workers, timeoutMs: o.timeoutMs, memoryMb: o.memoryMb, init: { seed: o.seed, files } },
  );
  const seconds = (performance.now() - started) / 1000;
  const cpu = cpuSeconds() - cpuStart;

  // One finding per kind and error (hangs, crashes and memory hits say little: per seed file too): the rest are the same bug again.
  const seen = new Set<string>();
  const findings: Finding[] = [];
  for (const { r, kind } of raw.sort((a, b) => a.r.id - b.r.id)) {
    const spec = seeds.caseSpec(o.seed, r.id);
    // A hang, crash or memory hit has no report from its child: its surface is the case's (its time is not counted in the surface's rate).
    if (!('surface' in r && r.surface)) {
      const s = (surfaces[spec.format] ??= { cases: 0, ms: 0, counts: {} });
      s.cases++;
      bump(s.counts, kind);
    }
    const key = `${kind} ${spec.format} ${pattern(r.error ?? '')} ${r.result === 'typed' || r.result === 'untyped' || r.result === 'invariant' ? '' : spec.source}`;
    if (seen.has(key)) continue;
    seen.add(key);
    findings.push({ kind, spec, error: r.error ?? '', stage: 'stage' in r ? r.stage : undefined, stack: 'stack' in r ? (r.stack ?? r.wrapped) : undefined, peakMb: r.peakMb });
  }
  // Each recheck starts a process: enough for the first findings, which are the ones anyone reads.
  for (const f of findings.slice(0, 30)) await recheck(f, o, files);
  if (o.out && findings.length) {
    // Built and saved by a child, as every case is run: a finding's input may take a process down while it is made.
    const out = o.out;
    await runCases(findings.map((f, id) => ({ id, spec: f.spec, save: { dir: out, name: findingName(f) } })), { workers: 1, timeoutMs: o.timeoutMs, memoryMb: o.memoryMb, init: { seed: o.seed, files }, batch: findings.length });
    for (const f of findings) f.file = describeFinding(f, out);
  }
  const top = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]);
  return {
    seed: o.seed, seedFiles: files.length, cases: done, seconds, casesPerSecond: done / seconds, cpuSeconds: cpu, counts, surfaces, typedByClass,
    unlocated: unlocatedCount, unlocatedSites: top(unlocated), invalidArgumentSites: top(invalidArgument),
    findings, duplicateFindings: raw.length - findings.length, peakMb, processes, replay: replayArgs(o),
  };
}

export function replayArgs(o: Pick<CampaignOptions, 'seed' | 'surfaces' | 'writerFiles'>): string {
  return `--seed ${o.seed} --surface ${o.surfaces.join(',')} --writer-files ${o.writerFiles}`;
}

/**
 * Runs the case again alone, in a fresh process (a hang or memory hit under a
 * busy batch may not repeat), and, when it stacks mutations and one alone
 * gives the same kind of finding, keeps only that one: cheap minimization.
 */
async function recheck(f: Finding, o: CampaignOptions, files: SeedFile[]): Promise<void> {
  const variants = [f.spec.mutations, ...(f.spec.mutations.length > 1 ? f.spec.mutations.map((m) => [m]) : [])];
  const items = variants.map((mutations, id) => ({ id, spec: { ...f.spec, mutations } }));
  const results = await runCases(items, { workers: 1, timeoutMs: o.timeoutMs, memoryMb: o.memoryMb, init: { seed: o.seed, files }, batch: 1 });
  f.repeated = findingOf(results[0]!, o.memoryMb) === f.kind;
  const single = results.slice(1).find((r) => findingOf(r, o.memoryMb) === f.kind);
  if (single) f.spec = { ...f.spec, mutations: variants[single.id]! };
}

export function formatReport(r: CampaignReport, topN = 25): string {
  const lines = [
    `seed ${r.seed}: ${r.cases} cases in ${r.seconds.toFixed(1)} s (${r.casesPerSecond.toFixed(0)} cases/s; ${r.cpuSeconds.toFixed(0)} CPU s, ${(r.cases / r.cpuSeconds).toFixed(0)} cases per CPU s) over ${r.seedFiles} seed files, ${r.processes} processes; peak RSS of a case ${r.peakMb.toFixed(0)} MiB`,
    `outcomes: ${JSON.stringify(r.counts)}`,
    'per surface (cases, cases per second of a child busy with them, outcomes):',
    ...Object.entries(r.surfaces).map(([name, s]) => `  ${name.padEnd(18)} ${String(s.cases).padStart(8)}  ${(s.cases / (s.ms / 1000)).toFixed(0).padStart(6)}/s  ${JSON.stringify(s.counts)}`),
    `typed errors by class: ${JSON.stringify(r.typedByClass)}`,
    `typed errors naming no place (offset, row group, column, page): ${r.unlocated}; top sites:`,
    ...r.unlocatedSites.slice(0, topN).map(([k, n]) => `  ${String(n).padStart(7)}  ${k}`),
  ];
  if (r.invalidArgumentSites.length) lines.push('InvalidArgumentError on corrupt input (reserved for caller mistakes):', ...r.invalidArgumentSites.slice(0, topN).map(([k, n]) => `  ${String(n).padStart(7)}  ${k}`));
  lines.push(`findings: ${r.findings.length} distinct (${r.duplicateFindings} more of the same)`);
  for (const f of r.findings) {
    lines.push(`  ${f.kind.toUpperCase()}${f.repeated === false ? ' (did not repeat alone)' : ''} ${f.spec.format}: ${f.error.replace(/\s+/g, ' ').slice(0, 200)} [${f.stage ?? ''}]`);
    lines.push(`    from ${f.spec.source}, case ${f.spec.id}: npm run fuzz -- ${r.replay} --case ${f.spec.id}${f.file ? `  (saved: ${f.file})` : ''}`);
  }
  return lines.join('\n');
}
