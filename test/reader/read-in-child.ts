/**
 * Reads a Parquet or Trevni file to the end in a child process, so a test
 * survives a hang (a generous timeout ends it) or a blown heap, and learns
 * how the read ended and the child's peak RSS.
 *
 * Run as a script (compiled, or `node --import tsx test/reader/read-in-child.ts FILE [LIMIT]`)
 * prints one JSON line (an Ended).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { scriptArgs } from '../cli/bin.js';

export interface Ended {
  /** 'rows': read to the end; 'typed': a ParquetryError; 'untyped': anything else; 'killed': timed out or crashed. */
  result: 'rows' | 'typed' | 'untyped' | 'killed';
  rows?: number;
  /** The first rows, as canonical JSON lines. */
  first?: string[];
  error?: string;
  message?: string;
  context?: Record<string, unknown>;
  /** Peak resident set of the child, in bytes. */
  maxRss?: number;
}


/** Reads `file` fully (or `limit` rows) in a child process given `timeoutMs` (a hang guard, not a timing). */
export function readInChild(file: string, options: { limit?: number; timeoutMs?: number } = {}): Ended {
  const args = [...scriptArgs('./read-in-child.ts', import.meta.url), file];
  if (options.limit !== undefined) args.push(String(options.limit));
  const r = spawnSync(process.execPath, args, { encoding: 'utf8', timeout: options.timeoutMs ?? 60_000, maxBuffer: 1 << 24 });
  const last = r.stdout.trim().split('\n').pop();
  if (r.status !== 0 || !last) return { result: 'killed', message: `status ${r.status}, signal ${r.signal}: ${r.stderr.slice(0, 500)}` };
  return JSON.parse(last) as Ended;
}

async function main(file: string, limit: number | undefined): Promise<Ended> {
  // Imported here so the parent pays nothing for them.
  const [{ ParquetryError, openParquet }, { TrevniReader }, { canonicalRow }] = await Promise.all([
    import('../../src/node/index.js'), import('../../src/node/entries/trevni.js'), import('../../src/node/entries/inspect.js'),
  ]);
  const first: string[] = [];
  let rows = 0;
  try {
    const options = limit === undefined ? {} : { limit };
    if (file.endsWith('.trv')) {
      const reader = await TrevniReader.open(readFileSync(file));
      for await (const line of reader.canonicalRows(options)) if (rows++ < 3) first.push(line);
    } else {
      const reader = await openParquet(file);
      const plan = reader.plan();
      for await (const row of reader.rows(options)) {
        const line = canonicalRow(plan, row);
        if (rows++ < 3) first.push(line);
      }
    }
    return { result: 'rows', rows, first };
  } catch (e) {
    const typed = e instanceof ParquetryError;
    return { result: typed ? 'typed' : 'untyped', rows, error: (e as Error).name, message: (e as Error).message, context: typed ? { ...e.context } : undefined };
  }
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  const [file, limit] = process.argv.slice(2);
  const ended = await main(file!, limit === undefined ? undefined : Number(limit));
  ended.maxRss = process.resourceUsage().maxRSS * 1024;
  process.stdout.write(`${JSON.stringify(ended)}\n`);
}
