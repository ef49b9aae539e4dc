/**
 * The one check of row groups named twice, shared by a file's reader
 * (file.ts, file-path.ts) and the dataset layer: small, and apart from
 * file-path.ts, which a file whose chunks are all its own never loads.
 */
import { CorruptFileError, IncompatibleFilesError } from '../errors.js';
import { fileIdentity } from '../io/paths.js';
import { readsNoChunks } from './chunk-locator.js';
import type { RowGroup } from './metadata/index.js';

/**
 * Refuses row group `i` when it is a row group named before: the same
 * file (`path`, where its chunks are: the file itself, or where its
 * `file_path` leads) and the same first chunk start (as datasets match a
 * summary's row groups to a part's). Read twice, its rows would come twice.
 * A summary naming one twice disagrees with its parts; a file's own footer
 * doing so is corrupt. Row groups of no rows are not compared (writers
 * leave their offsets at 0). Records it in `seen` otherwise.
 */
export function checkNamedOnce(seen: Map<string, number>, file: string | undefined, path: string, filePath: string | undefined, rg: RowGroup, i: number): void {
  const at = rg.columns[0]?.metaData?.dataPageOffset;
  if (at === undefined || readsNoChunks(rg)) return;
  const key = `${at} ${fileIdentity(path)}`;
  const first = seen.get(key);
  seen.set(key, first ?? i);
  if (first === undefined) return;
  const ctx = { file, rowGroup: i };
  if (filePath === undefined) throw new CorruptFileError(`row groups ${first} and ${i} are one row group (their first column chunks start at ${at}): its rows would come twice`, ctx);
  throw new IncompatibleFilesError(`row groups ${first} and ${i} name the same row group of ${path} (file_path "${filePath}"): its rows would come twice`, ctx);
}

