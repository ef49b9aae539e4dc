/**
 * Fuzz inputs: the seed files of the chosen surfaces, and the case numbered
 * `id` of a seed: which surface, which seed file, which mutations, which
 * options. A case is a pure function of (seed, id, seed files), so a child
 * process makes its own cases from their numbers and any case can be made
 * again from the numbers alone.
 */
import { Rng } from './mutate.js';
import type { AnyMutation, CaseInput, SeedFile, SurfaceName } from './surface.js';
import { SURFACES } from './surfaces/index.js';

export interface CaseSpec {
  id: number;
  seed: number;
  source: string;
  format: SurfaceName;
  verifyChecksums: boolean;
  options?: Record<string, unknown>;
  mutations: AnyMutation[];
}

/** The seed files of these surfaces: corpora and `writerCount` writer-made files each. */
export async function seedFiles(surfaces: readonly SurfaceName[], seed: number, writerCount: number): Promise<SeedFile[]> {
  const out: SeedFile[] = [];
  for (const s of surfaces) out.push(...(await SURFACES[s].seeds(seed, writerCount)));
  return out;
}

/** A well-mixed 32-bit seed for case `id` of campaign `seed`. */
function caseSeed(seed: number, id: number): number {
  let h = (Math.imul(seed ^ 0x5bd1e995, 0x27d4eb2d) ^ Math.imul(id + 1, 0x165667b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 15), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** The seed files and what each surface worked out about them, made once per process. */
export class SeedSet {
  private readonly prepared = new Map<SeedFile, unknown>();
  readonly surfaces: SurfaceName[];
  private readonly bySurface = new Map<SurfaceName, SeedFile[]>();

  constructor(readonly files: readonly SeedFile[]) {
    for (const f of files) {
      const list = this.bySurface.get(f.surface) ?? [];
      list.push(f);
      this.bySurface.set(f.surface, list);
    }
    // Each surface with seeds gets an equal share of the cases, however many seed files it has.
    this.surfaces = [...this.bySurface.keys()];
  }

  byName(name: string): SeedFile | undefined {
    return this.files.find((f) => f.name === name);
  }

  prepare(f: SeedFile): unknown {
    if (!this.prepared.has(f)) this.prepared.set(f, SURFACES[f.surface].prepare?.(f));
    return this.prepared.get(f);
  }

  /** Case `id` of `seed`: its spec (what makes it again) and its input. */
  async makeCase(seed: number, id: number): Promise<{ spec: CaseSpec; input: CaseInput }> {
    const spec = this.caseSpec(seed, id);
    return { spec, input: await buildCase(spec, this.byName(spec.source)!) };
  }

  /**
   * Case `id` of `seed`'s spec alone: building its input runs library code on
   * the mutated bytes (encrypting them, say), which only a child process may do.
   */
  caseSpec(seed: number, id: number): CaseSpec {
    const rng = new Rng(caseSeed(seed, id));
    const name = this.surfaces[rng.int(this.surfaces.length)]!;
    const ofSurface = this.bySurface.get(name)!;
    const f = ofSurface[rng.int(ofSurface.length)]!;
    const surface = SURFACES[name];
    const prepared = this.prepare(f);
    // Most cases change one thing; some stack a few, as real damage does.
    const count = rng.next() < 0.8 ? 1 : 2 + rng.int(2);
    const mutations = Array.from({ length: count }, () => surface.mutate(rng, f, prepared));
    const o = surface.options(rng, f, prepared);
    return { id, seed, source: f.name, format: name, ...o, mutations };
  }
}

/** The input a spec makes from its seed file (with fewer mutations, when minimizing). */
export function buildCase(spec: Pick<CaseSpec, 'format' | 'verifyChecksums' | 'options' | 'mutations'>, f: SeedFile): Promise<CaseInput> {
  return SURFACES[spec.format].build(f, spec.mutations, spec);
}
