/**
 * Path arithmetic on `/`-separated paths and URLs, the same in every
 * runtime: a dataset's files are named by the strings its file system
 * adapter gives, and `file_path` values are resolved against them
 * (file-path-guard.ts).
 */

/** `a/b` + `c` → `a/b/c` (no doubled separator). */
export function joinPath(dir: string, name: string): string {
  return dir === '' ? name : `${dir.replace(/\/+$/, '')}/${name}`;
}

/** The directory part of a path (`''` for a bare name). */
export function dirName(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/**
 * `.` and `..` segments folded away. A `..` that climbs above the start of
 * a relative path is kept (`../x`), so a caller can see that it escapes.
 */
export function normalizePath(path: string): string {
  const m = /^([a-z][a-z0-9+.-]*:\/\/[^/]*)?(\/?)(.*)$/i.exec(path)!;
  const prefix = (m[1] ?? '') + m[2]!;
  const out: string[] = [];
  for (const seg of m[3]!.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..' && out.length > 0 && out[out.length - 1] !== '..') out.pop();
    else if (seg === '..' && prefix !== '') continue; // nothing above the root
    else out.push(seg);
  }
  return prefix + out.join('/');
}

/** `path` relative to `root` when it lies under it, else `path` itself. */
export function relativeTo(root: string, path: string): string {
  const r = root.replace(/\/+$/, '');
  return r !== '' && path.startsWith(`${r}/`) ? path.slice(r.length + 1) : path;
}

/** A URL with an authority (`https://`, `s3://`), as opposed to a local path. */
export const URL_PATH = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * What tells two resolved paths of one file apart only in spelling: a
 * local path normalised; a URL's origin and percent-decoded path, the query
 * and fragment a static server ignores left out.
 */
export function fileIdentity(path: string): string {
  if (!URL_PATH.test(path)) return normalizePath(path);
  let url: URL;
  try {
    url = new URL(path);
  } catch {
    return path;
  }
  return `${url.origin}${url.pathname.replace(/%([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)))}`;
}
