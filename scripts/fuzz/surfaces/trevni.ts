/**
 * Trevni files of each version and dialect, a surface each: version 2 (the
 * Avro project's), version 1 (cutting/trevni's) and the wiki draft's Dremel
 * dialect of version 1. Seeds: the shared corpora, sorted by what their
 * headers say, and files each writer makes; mutations edit the parsed
 * header, metadata, descriptors and blocks (trevni.ts) or bytes; every case
 * is opened with openTrevni, as a user would, and read fully (read.ts).
 */
import { join } from 'node:path';
import { ByteCursor } from '../../../src/bytes/cursor.js';
import { parseHeader } from '../../../src/trevni/metadata.js';
import { corpusFiles, writerSeeds } from '../seeds.js';
import { trevniMap } from '../file-map.js';
import { generatedFile } from '../generate.js';
import { randomMutation, type FileMap, type Mutation, type Rng } from '../mutate.js';
import { readFully } from '../read.js';
import type { SeedFile, Surface, SurfaceName } from '../surface.js';
import { randomTrevniMutation } from '../trevni.js';
import { applyAll } from './parquet.js';

export const TREVNI_CORPORA = [join('..', 'shared', 'trevni-corpus'), join('..', 'shared', 'ancestors', 'trevni-v1')];

type TrevniSurface = 'trevni' | 'trevni-v1' | 'trevni-draft';

/** Which surface a Trevni file belongs to, by its header; undefined when it does not parse (the version 2 surface takes those). */
function surfaceOf(bytes: Uint8Array): TrevniSurface | undefined {
  try {
    const h = parseHeader(new ByteCursor(bytes, 0, bytes.length, 0), bytes.length);
    return h.dialect === 'dremel' ? 'trevni-draft' : h.format.version === 1 ? 'trevni-v1' : 'trevni';
  } catch {
    return undefined;
  }
}

/** One mutation of a Trevni file: a structured edit, or bytes. */
export function trevniMutation(rng: Rng, bytes: Uint8Array, map: FileMap): Mutation {
  return (rng.next() < 0.55 ? randomTrevniMutation(rng, bytes) : undefined) ?? randomMutation(rng, map);
}

function trevniSurface(name: TrevniSurface): Surface<Mutation> {
  return {
    name,
    ext: 'trv',
    async seeds(seed, count) {
      const corpus = corpusFiles(TREVNI_CORPORA, '.trv')
        .filter((f) => (surfaceOf(f.bytes) ?? 'trevni') === name)
        .map((f): SeedFile => ({ ...f, surface: name as SurfaceName }));
      return [...corpus, ...(await writerSeeds(name, seed, count, (i) => generatedFile(seed, i, name)))];
    },
    prepare: (f) => trevniMap(f.bytes),
    mutate: (rng, f, map) => trevniMutation(rng, f.bytes, map as FileMap),
    options: (rng) => ({ verifyChecksums: rng.next() < 0.5 }),
    build: async (f, mutations, o) => ({ format: name, bytes: applyAll(f.bytes, mutations), verifyChecksums: o.verifyChecksums }),
    run: (input, limits) => readFully(input.bytes, 'trevni', input.verifyChecksums, limits),
  };
}

export const trevniSurfaces = {
  trevni: trevniSurface('trevni'),
  'trevni-v1': trevniSurface('trevni-v1'),
  'trevni-draft': trevniSurface('trevni-draft'),
};
