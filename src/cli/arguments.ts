/** Option value parsers shared by the commands: commander calls them, and their errors become usage errors. */
import { InvalidArgumentError as CommanderArgError } from './commander.js';
import type { ColumnPath } from '../schema/tree.js';
import { parseColumnList, parseColumnPath } from './columns.js';

export function count(value: string): number {
  if (!/^\d+$/.test(value)) throw new CommanderArgError('must be a non-negative whole number');
  if (!Number.isSafeInteger(Number(value))) throw new CommanderArgError(`must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}`);
  return Number(value);
}

/** A TCP port: 0 (any free one) to 65535. */
export function port(value: string): number {
  const n = /^\d{1,5}$/.test(value) ? Number(value) : NaN;
  if (!(n <= 65535)) throw new CommanderArgError('must be a port number from 0 to 65535');
  return n;
}

export function columnList(value: string): (string | string[])[] {
  try {
    return parseColumnList(value);
  } catch (e) {
    throw new CommanderArgError((e as Error).message);
  }
}

/** `a,b,c`: names separated by commas, none empty. */
export function nameList(value: string): string[] {
  const names = value.split(',').map((n) => n.trim());
  if (names.some((n) => n === '')) throw new CommanderArgError('must be names separated by commas');
  return names;
}

/** `--column`: one column path (see parseColumnPath). */
export function columnPath(value: string): ColumnPath {
  try {
    return parseColumnPath(value);
  } catch (e) {
    throw new CommanderArgError((e as Error).message);
  }
}

/** A repeatable `--column`: each occurrence adds a path to the list. */
export function columnPaths(value: string, previous: ColumnPath[] = []): ColumnPath[] {
  return [...previous, columnPath(value)];
}

/** `--http-header 'Name: value'` (repeatable) into a header record. */
export function httpHeader(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const m = /^([^:\s]+)\s*:\s?(.*)$/.exec(value);
  if (!m) throw new CommanderArgError("must be 'Name: value'");
  return { ...previous, [m[1]!]: m[2]! };
}
