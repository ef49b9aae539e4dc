/**
 * Reads one input all the way, as a user could: for Parquet every row of
 * rowBatches() printed canonically, readRows(), and every batch of columns(); for
 * Trevni every row of rows() and canonicalRows(), each column with
 * readColumn(), and readAvro() when the file has an avro.schema (the draft's
 * dialect: rows() and canonicalRows()). Says how it ended (judge): rows, a
 * ParquetryError (with where it was thrown and whether it names a place in
 * the file), a surface's invariant broken, or anything else.
 */
import { ParquetryError, bufferSource, openParquet, type DecryptionOptions } from '../../src/node/index.js';
import { canonicalRow } from '../../src/node/entries/inspect.js';
import { openTrevni, readAvro } from '../../src/node/entries/trevni.js';
import { metaGet } from '../../src/trevni/types.js';

export type Format = 'parquet' | 'trevni';

export interface ReadOutcome {
  /** 'rows': read to the end; 'typed': a ParquetryError; 'invariant': the surface's promise broken (a wrong row, a read outside the root); 'untyped': anything else. */
  result: 'rows' | 'typed' | 'untyped' | 'invariant';
  rows: number;
  /** `Name: message` of the error. */
  error?: string;
  /** The error class, for typed errors. */
  errorClass?: string;
  /** The API call that was running. */
  stage?: string;
  /** First frames of the stack (untyped errors, and wrapped plain exceptions). */
  stack?: string;
  /** For a ParquetryError of the errors.ts safety net ("unexpected failure while decoding"): the plain exception it wraps. */
  wrapped?: string;
  /** A typed error with no file offset, row group, column or page. */
  unlocated?: boolean;
  /** For typed errors: the first library frame that is not errors.ts, "file:line". */
  site?: string;
}

/** The first frame inside src/ (other than errors.ts, which only builds errors): where the error was raised. */
export function throwSite(stack: string | undefined): string {
  for (const line of (stack ?? '').split('\n').slice(1)) {
    const m = /\/src\/(.+?\.[jt]s):(\d+)/.exec(line);
    if (m && m[1] !== 'errors.ts') return `src/${m[1]}:${m[2]}`;
  }
  return '?';
}

function frames(e: unknown, n: number): string {
  return String((e as Error)?.stack ?? e).split('\n').slice(0, n).join('\n');
}

export async function drain(it: AsyncIterable<unknown>): Promise<number> {
  let n = 0;
  for await (const _ of it) n++;
  return n;
}

/**
 * The caller's limits on one decompressed page or block. The library bounds
 * memory by these, not by what a header claims, so a case may use a small
 * multiple of them: the harness sets them to a quarter of its RSS cap, as a
 * program with that much memory would (the default of 1 GiB would let a valid
 * page legitimately exceed any cap under 2 GiB).
 */
export interface ReadLimits {
  maxDecompressedBytes?: number;
}

/** The limits a case runs under when its process may use `memoryMb` MiB. */
export function limitsFor(memoryMb: number): ReadLimits {
  const bytes = Math.floor((memoryMb * 1024 * 1024) / 4);
  return { maxDecompressedBytes: bytes };
}

export async function readParquet(bytes: Uint8Array, verifyChecksums: boolean, limits: ReadLimits, stage: { name: string }, decryption?: DecryptionOptions): Promise<number> {
  stage.name = 'openParquet';
  const reader = await openParquet(bytes, { verifyChecksums, maxDecompressedBytes: limits.maxDecompressedBytes, decryption });
  // rowBatches, not rows(): rows() only serves rowBatches' rows one at a time (rowsOfBatches, the same for every
  // file), and an async step per row was most of a 2^28-row file's read (45 of 60 CPU s).
  stage.name = 'rowBatches() + canonicalRow';
  const plan = reader.plan();
  let rows = 0;
  for await (const batch of reader.rowBatches()) {
    for (const row of batch) canonicalRow(plan, row);
    rows += batch.length;
  }
  stage.name = 'readRows';
  // readRows holds every row at once: only where rows() showed there are few.
  if (rows <= 100_000) await reader.readRows();
  stage.name = 'columns()';
  await drain(reader.columns());
  await reader.close();
  return rows;
}

/** Any Trevni file, through openTrevni as a user would: versions 1 and 2 with TrevniReader, the draft's dialect with TrevniDraftReader. */
async function readTrevni(bytes: Uint8Array, verifyChecksums: boolean, limits: ReadLimits, stage: { name: string }): Promise<number> {
  stage.name = 'openTrevni';
  const opened = await openTrevni(bufferSource(bytes), { verifyChecksums, maxDecompressedBytes: limits.maxDecompressedBytes });
  if (!('readColumn' in opened)) {
    stage.name = 'draft rows()';
    const rows = await drain(opened.rows());
    stage.name = 'draft canonicalRows()';
    await drain(opened.canonicalRows());
    await opened.close();
    return rows;
  }
  const reader = opened;
  stage.name = 'rows()';
  const rows = await drain(reader.rows());
  stage.name = 'canonicalRows()';
  await drain(reader.canonicalRows());
  stage.name = 'readColumn';
  if (rows <= 100_000) for (const c of reader.columns) await reader.readColumn(c.index);
  if (metaGet(reader.metadata, 'avro.schema') !== undefined) {
    stage.name = 'readAvro';
    await drain(readAvro(reader));
  }
  await reader.close();
  return rows;
}

export async function readFully(bytes: Uint8Array, format: Format, verifyChecksums = true, limits: ReadLimits = {}): Promise<ReadOutcome> {
  const stage = { name: '' };
  return judge(stage, () => (format === 'parquet' ? readParquet : readTrevni)(bytes, verifyChecksums, limits, stage));
}

/** A broken promise of a surface (a row the original did not have, a file read outside the root), as opposed to an error of the library. */
export class InvariantError extends Error {
  override name = 'InvariantError';
}

/** Runs a read and says how it ended; `stage.name` is the call running when it threw. */
export async function judge(stage: { name: string }, read: () => Promise<number>): Promise<ReadOutcome> {
  try {
    return { result: 'rows', rows: await read() };
  } catch (e) {
    return errorOutcome(e, stage.name);
  }
}

function errorOutcome(e: unknown, stage: string): ReadOutcome {
  if (e instanceof InvariantError) return { result: 'invariant', rows: 0, stage, error: `${e.name}: ${e.message}` };
  if (e instanceof ParquetryError) {
    const { offset, rowGroup, column, page } = e.context;
    const netted = e.detail.startsWith('unexpected failure while decoding');
    const unlocated = offset === undefined && rowGroup === undefined && column === undefined && page === undefined;
    return {
      result: 'typed',
      rows: 0,
      stage,
      error: `${e.name}: ${e.message}`,
      errorClass: e.name,
      unlocated,
      // Only where the report lists sites: formatting a stack (source-mapped under tsx) costs more than many a case.
      ...(unlocated || e.name === 'InvalidArgumentError' ? { site: throwSite(e.stack) } : {}),
      ...(netted ? { wrapped: frames(e.cause, 6) } : {}),
    };
  }
  return { result: 'untyped', rows: 0, stage, error: `${(e as Error)?.name}: ${(e as Error)?.message}`, stack: frames(e, 10) };
}

/** Whether an outcome is acceptable: rows, or a typed error that is not a plain exception caught by the safety net. */
export function acceptable(o: { result: string; wrapped?: string }): boolean {
  return o.result === 'rows' || (o.result === 'typed' && o.wrapped === undefined);
}
