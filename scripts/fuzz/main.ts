/**
 * `npm run fuzz -- [options]`: a fuzz campaign over every surface's seeds
 * (campaign.ts), or the replay of one case or of saved inputs. Exits 1 when
 * anything ends other than in rows or a typed error, or breaks a surface's
 * invariant.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { SeedSet, seedFiles } from './cases.js';
import { formatReport, runCampaign } from './campaign.js';
import { runCases } from './pool.js';
import { acceptable } from './read.js';
import { loadReplay } from './save.js';
import { SURFACE_NAMES, type SurfaceName } from './surface.js';
import type { WorkItem } from './worker.js';

const USAGE = `npm run fuzz -- [options]
  --seconds N           how long to run (default 60)
  --seed S              campaign seed (default: from the clock, printed)
  --surface LIST        comma-separated surfaces, or all (default): ${SURFACE_NAMES.join(', ')}
  --workers N           child processes (default 2)
  --memory-mb N         RSS cap per case, native buffers included (default 512)
  --timeout-ms N        per-case time limit (default 10000)
  --out DIR             where reproducers go (default $TMPDIR/parquetry-fuzz)
  --writer-files N      writer-made seed files per surface (default 8)
  --batch N             cases per message to a child (default 64)
  --max-cases N         stop after N cases
  --case ID             run only case ID of the seed (with the same --surface and --writer-files) and print it
  --replay PATH...      read saved inputs as their NAME.case.json says (else by extension; a directory is a dataset) and print how each ended
  --no-verify-checksums with --replay of a file without NAME.case.json: read with checksums off
  --json                print the report as JSON`;

const { values: v, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    seconds: { type: 'string', default: '60' },
    seed: { type: 'string' },
    surface: { type: 'string', default: 'all' },
    workers: { type: 'string', default: '2' },
    'memory-mb': { type: 'string', default: '512' },
    'timeout-ms': { type: 'string', default: '10000' },
    out: { type: 'string', default: join(tmpdir(), 'parquetry-fuzz') },
    'writer-files': { type: 'string', default: '8' },
    batch: { type: 'string', default: '64' },
    'max-cases': { type: 'string' },
    case: { type: 'string' },
    replay: { type: 'boolean', default: false },
    'no-verify-checksums': { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});

function int(name: string, s: string | undefined): number {
  const n = Number(s);
  if (!Number.isSafeInteger(n) || n < 0) {
    console.error(`--${name} needs a non-negative integer, got ${s}\n\n${USAGE}`);
    process.exit(2);
  }
  return n;
}

if (v.help) {
  console.log(USAGE);
  process.exit(0);
}
const surfaces = (v.surface === 'all' ? [...SURFACE_NAMES] : v.surface!.split(',')) as SurfaceName[];
const unknown = surfaces.filter((s) => !SURFACE_NAMES.includes(s));
if (unknown.length || !surfaces.length) {
  console.error(`--surface: unknown ${unknown.join(', ') || '(none given)'}\n\n${USAGE}`);
  process.exit(2);
}
const pool = { workers: Math.max(1, int('workers', v.workers)), timeoutMs: int('timeout-ms', v['timeout-ms']), memoryMb: int('memory-mb', v['memory-mb']) };
const seed = v.seed !== undefined ? int('seed', v.seed) : Date.now() % 2 ** 31;
const writerCount = int('writer-files', v['writer-files']);

let failed = false;
if (v.replay || v.case !== undefined) {
  // Replays run one case at a time, in a child process with the campaign's limits.
  let items: WorkItem[];
  let names: string[];
  let init: object | undefined;
  if (v.case !== undefined) {
    const files = await seedFiles(surfaces, seed, writerCount);
    const spec = new SeedSet(files).caseSpec(seed, int('case', v.case));
    console.log(JSON.stringify(spec));
    // Built in the child too: making a case's input runs library code on its mutated bytes.
    items = [{ id: 0, spec }];
    names = [`case ${spec.id} (${spec.format})`];
    init = { seed, files };
  } else {
    items = positionals.map((p, id) => ({ id, ...loadReplay(p, !v['no-verify-checksums']) }));
    names = positionals;
  }
  for (const r of await runCases(items, { ...pool, workers: 1, batch: 1, init })) {
    const ok = acceptable(r) && !('peakMb' in r && r.peakMb !== undefined && r.peakMb > pool.memoryMb);
    failed ||= !ok;
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${names[r.id]!}: ${JSON.stringify(r)}`);
  }
} else {
  const report = await runCampaign({
    seed, surfaces, ...pool, seconds: int('seconds', v.seconds), out: v.out, writerFiles: writerCount, batch: Math.max(1, int('batch', v.batch)),
    maxCases: v['max-cases'] !== undefined ? int('max-cases', v['max-cases']) : undefined,
    log: v.json ? undefined : (l) => console.error(l),
  });
  console.log(v.json ? JSON.stringify(report, null, 2) : formatReport(report));
  failed = report.findings.length > 0;
}
process.exit(failed ? 1 : 0);
