/** Shared access to ../shared/corpus for the conformance tests. */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { openParquet, type OpenOptions } from '../../src/node/index.js';
import { canonicalRow } from '../../src/node/entries/inspect.js';

export const CORPUS = join('..', 'shared', 'corpus');

export interface ManifestEntry {
  path: string;
  rows: number;
  /** `codec:SNAPPY`, `encoding:PLAIN`, `type:INT32`, ... */
  tags: string[];
  expected: string | null;
  must?: string;
  notes: string[];
}

export function manifest(): ManifestEntry[] {
  return JSON.parse(readFileSync(join(CORPUS, 'manifest.json'), 'utf8')).files;
}

export function listDir(rel: string): string[] {
  return readdirSync(join(CORPUS, rel)).sort();
}

/** The whole file as canonical JSON Lines, as `parquetry cat --json` prints it. */
export async function canonical(rel: string, options: OpenOptions = {}): Promise<string> {
  const reader = await openParquet(join(CORPUS, rel), options);
  try {
    const plan = reader.plan();
    let out = '';
    for await (const row of reader.rows()) out += canonicalRow(plan, row) + '\n';
    return out;
  } finally {
    await reader.close();
  }
}

export function expectedText(entry: ManifestEntry): string {
  return readFileSync(join(CORPUS, entry.expected!), 'utf8');
}

/** A readable account of where two canonical texts first differ. */
export function firstDifference(actual: string, expected: string): string {
  const a = actual.split('\n');
  const e = expected.split('\n');
  for (let i = 0; i < Math.max(a.length, e.length); i++) {
    if (a[i] !== e[i]) return `line ${i + 1}:\n  actual:   ${a[i]?.slice(0, 400)}\n  expected: ${e[i]?.slice(0, 400)}`;
  }
  return 'identical';
}
