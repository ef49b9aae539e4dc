/**
 * Reproducers on disk: a finding's input saved as NAME.EXT (a dataset: a
 * directory NAME/ of its files), its unmutated original beside it as
 * NAME.original.EXT when the surface's invariant compares with it, what the
 * read takes besides (surface, checksums, options) as NAME.json, and one
 * line saying what happened as NAME.txt; and read back for `--replay`.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { Finding } from './campaign.js';
import { SURFACE_NAMES, type CaseInput, type SurfaceName } from './surface.js';
import { SURFACES } from './surfaces/index.js';

function writeTree(dir: string, files: Record<string, Uint8Array>): void {
  for (const [path, bytes] of Object.entries(files)) {
    const p = join(dir, path);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, bytes);
  }
}

function readTree(dir: string, root = dir): Record<string, Uint8Array> {
  const out: Record<string, Uint8Array> = {};
  for (const n of readdirSync(dir).sort()) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) Object.assign(out, readTree(p, root));
    else out[relative(root, p)] = new Uint8Array(readFileSync(p));
  }
  return out;
}

/** A finding's reproducer name in the output folder. */
export function findingName(f: Finding): string {
  return `${f.kind}-${f.spec.format}-s${f.spec.seed}-c${f.spec.id}`;
}

/** Writes a case's input (and original, and how it is read) as `dir/name`: called in the child that builds it (worker.ts). */
export function saveCase(input: CaseInput, dir: string, name: string): void {
  mkdirSync(dir, { recursive: true });
  const ext = SURFACES[input.format].ext;
  const base = join(dir, name);
  if (input.files) writeTree(base, input.files);
  else writeFileSync(`${base}.${ext}`, input.bytes);
  if (input.original) writeFileSync(`${base}.original.${ext}`, input.original);
  writeFileSync(`${base}.case.json`, `${JSON.stringify({ format: input.format, verifyChecksums: input.verifyChecksums, options: input.options ?? {} })}\n`);
}

/** Describes a finding saved by saveCase beside its input; the path of that input, or undefined when its child saved none (its build failed). */
export function describeFinding(f: Finding, dir: string): string | undefined {
  const base = join(dir, findingName(f));
  const file = [base, `${base}.${SURFACES[f.spec.format].ext}`].find((p) => existsSync(p));
  if (file === undefined) return undefined;
  const line = [
    `${f.kind.toUpperCase()}${f.repeated === false ? ' (did not repeat alone)' : ''}`, f.error.replace(/\s+/g, ' ').slice(0, 300), `surface ${f.spec.format}`, `stage ${f.stage ?? '?'}`,
    `verifyChecksums:${f.spec.verifyChecksums}`, `from ${f.spec.source} case ${f.spec.id} seed ${f.spec.seed}`,
    `mutations ${JSON.stringify(f.spec.mutations).slice(0, 2000)}`,
    `replay: npm run fuzz -- --replay ${file}`,
  ].join(' | ');
  writeFileSync(`${base}.txt`, `${line}\n`);
  return file;
}

const BY_EXT: [string, SurfaceName][] = [['.parquet', 'parquet'], ['.trv', 'trevni'], ['.redelm', 'redelm'], ['.csv', 'csv'], ['.jsonl', 'jsonl'], ['.json', 'json']];

/**
 * A saved input as a case: its NAME.json says how to read it; without one
 * (a file from elsewhere), the extension says which surface, with
 * checksums verified unless `verifyChecksums` is false.
 */
export function loadReplay(path: string, verifyChecksums: boolean): CaseInput {
  const base = path.replace(/\/$/, '').replace(/\.[a-z]+$/, '');
  const saved = existsSync(`${base}.case.json`) ? JSON.parse(readFileSync(`${base}.case.json`, 'utf8')) as Partial<CaseInput> : undefined;
  const isDir = statSync(path).isDirectory();
  const format = saved?.format && SURFACE_NAMES.includes(saved.format) ? saved.format : isDir ? 'dataset' : BY_EXT.find(([e]) => path.endsWith(e))?.[1] ?? 'parquet';
  const ext = SURFACES[format].ext;
  const original = `${base}.original.${ext}`;
  return {
    format,
    bytes: isDir ? new Uint8Array() : new Uint8Array(readFileSync(path)),
    verifyChecksums: saved?.verifyChecksums ?? verifyChecksums,
    options: saved?.options,
    ...(existsSync(original) ? { original: new Uint8Array(readFileSync(original)) } : {}),
    ...(isDir ? { files: readTree(path) } : {}),
  };
}
