/**
 * Where a column chunk's `file_path` leads, and whether it may be read: the
 * one guard of the dataset reader (dataset/parts.ts) and the single-file
 * reader (parquet/file-path.ts). A `file_path` is a relative path of names
 * separated by `/`, resolved against the file naming it. Containment in the
 * root is checked on what will be opened: a local path once `.` and `..`
 * are folded, a URL as `fetch` will parse it (`%2e%2e` is `..` there).
 * Spellings that a URL parser or a server reads differently from a file
 * system are refused outright, so that a `file_path` climbs nowhere however
 * it is opened: backslashes (a separator to URL parsers and Windows),
 * control characters (URL parsers drop tabs and newlines), and percent
 * escapes that decode, once or after further rounds (`%252e`), to a `.` or
 * `..` segment, a control character, or bytes that are not UTF-8 (overlong
 * dots). Escaped separators alone climb nowhere and stay: Hive escapes a
 * `/` in a partition value as `%2F`.
 */
import { UnsupportedError, type ErrorContext } from '../errors.js';
import { dirName, joinPath, normalizePath, URL_PATH } from './paths.js';

/** A scheme (`http:`, `file:`, a drive letter `C:`) or a leading `/` (`//host` too). */
const ABSOLUTE = /^([a-z][a-z0-9+.-]*:|\/)/i;
const CONTROL = /[\x00-\x1f\x7f]/;
const ESCAPE = /%[0-9a-f]{2}/i;
const ESCAPE_RUNS = /(?:%[0-9a-f]{2})+/gi;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** `text` with each run of percent escapes decoded as UTF-8 (null: a run is not UTF-8), or undefined when it has none. */
function decodeOnce(text: string): string | null | undefined {
  if (!ESCAPE.test(text)) return undefined;
  try {
    return text.replace(ESCAPE_RUNS, (run) => utf8.decode(Uint8Array.from(run.slice(1).split('%'), (h) => parseInt(h, 16))));
  } catch {
    return null;
  }
}

/** Why one `/`-separated name of a `file_path` is refused, or undefined. */
function segmentRefusal(segment: string): string | undefined {
  // A plain `.` or `..` is folded before containment is checked.
  if (segment === '.' || segment === '..') return undefined;
  let text = segment;
  // Each round shortens the text by two characters per escape, so this ends.
  for (let round = 0; ; round++) {
    const decoded = decodeOnce(text);
    if (decoded === undefined) return undefined;
    if (decoded === null) return `holds percent escapes that are not UTF-8 (${segment})`;
    const how = round === 0 ? 'percent-decoded' : `percent-decoded ${round + 1} times`;
    if (CONTROL.test(decoded)) return `holds a control character once ${how} (${segment})`;
    if (decoded.split(/[/\\]/).some((p) => p === '.' || p === '..')) return `holds a "." or ".." name once ${how} (${segment})`;
    text = decoded;
  }
}

/** Why `named` is not a plain relative path, or undefined when it is. */
function refusal(named: string): string | undefined {
  if (named === '') return 'is empty';
  if (CONTROL.test(named)) return 'holds a control character';
  if (named.includes('\\')) return 'holds a backslash';
  if (ABSOLUTE.test(named)) return 'is absolute';
  for (const segment of named.split('/')) {
    const why = segmentRefusal(segment);
    if (why) return why;
  }
  return undefined;
}

/** A URL, or a typed refusal when `text` is none (a naming file's URL with a bad host, say). */
function parseUrl(text: string, ctx: ErrorContext): URL {
  try {
    return new URL(text);
  } catch {
    throw new UnsupportedError(`column chunk file_path leads to ${text}, which is not a URL`, ctx);
  }
}

/** Whether `path` is `root` or lies under it: both local and normalised, or, as URLs, of one origin with `path`'s path under `root`'s as fetch sends them. */
function isInside(root: string, path: string, ctx: ErrorContext): boolean {
  const r = normalizePath(root).replace(/\/+$/, '');
  if (URL_PATH.test(path)) {
    const url = parseUrl(path, ctx);
    const base = parseUrl(`${r}/`, ctx);
    return url.origin === base.origin && url.pathname.startsWith(base.pathname);
  }
  const p = normalizePath(path);
  return r === '' ? !p.startsWith('/') && p !== '..' && !p.startsWith('../') : p === r || p.startsWith(`${r}/`);
}

/**
 * Where a column chunk's `file_path` leads: relative to the directory of
 * the file naming it, and, unless `allowOutsideRoot`, never outside `root`
 * (a dataset's root; '' for the naming file's own directory), never
 * absolute, never a spelling `refusal` refuses. The error names the file
 * and row group the caller's `ctx` gives.
 */
export function resolveFilePath(file: string, named: string, root: string, allowOutsideRoot: boolean, ctx: ErrorContext): string {
  const why = allowOutsideRoot ? undefined : refusal(named);
  if (why) throw new UnsupportedError(`column chunk file_path "${shown(named)}" ${why}: a file_path must be a plain relative path (allowOutsideRoot reads it as written)`, ctx);
  const path = ABSOLUTE.test(named) ? named : normalizePath(joinPath(dirName(file), named));
  const base = root === '' ? dirName(file) : root;
  if (!allowOutsideRoot && !isInside(base, path, ctx)) {
    throw new UnsupportedError(`column chunk file_path "${shown(named)}" leads outside ${base || 'the current directory'} (allowOutsideRoot reads it)`, ctx);
  }
  return path;
}

/** `named` with control characters as escapes, so that a message stays on one line. */
function shown(named: string): string {
  return named.replace(/[\x00-\x1f\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
