/**
 * Where seeds come from: corpus files on disk (relative to the repo root),
 * and files a writer makes from (seed, index).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { SeedFile, SurfaceName } from './surface.js';

function walk(dir: string, ext: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return [];
  }
  return names.flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? walk(p, ext) : n.endsWith(ext) ? [p] : [];
  });
}

/** Every file under these directories (relative to the repo root) ending in `ext`, up to `maxBytes` (a bigger file costs more per case than it teaches). */
export function corpusFiles(dirs: readonly string[], ext: string, maxBytes = 256 * 1024): { name: string; bytes: Uint8Array }[] {
  return dirs.flatMap((d) => walk(d, ext))
    .filter((p) => statSync(p).size <= maxBytes)
    .map((p) => ({ name: p, bytes: new Uint8Array(readFileSync(p)) }));
}

/** `count` writer-made seeds of a surface: `make(i)` is the i-th file, or undefined when the writer refused its random schema (its own check, not a finding). */
export async function writerSeeds(surface: SurfaceName, seed: number, count: number, make: (i: number) => Promise<Uint8Array | undefined>): Promise<SeedFile[]> {
  const out: SeedFile[] = [];
  for (let i = 0; i < count; i++) {
    const bytes = await make(i);
    if (bytes) out.push({ name: `writer:${surface}:${seed}:${i}`, surface, bytes });
  }
  return out;
}
