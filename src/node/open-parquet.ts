/**
 * `openParquet` on its own, with the native codecs registered: what a
 * footer read needs, without the writer, Trevni, Arrow and conversion that
 * the Node entry point (index.ts) also exports. The CLI's reading commands
 * import this, so `parquetry meta` compiles a third less code.
 */
import { registerNodeCodecs } from './codecs.js';
import { ParquetReader, type OpenOptions, type ParquetInput } from '../parquet/reader.js';
import { fileSource, openFileWith } from './file-source.js';
import { resolveFilePath } from '../io/paths.js';
import type { OpenChunkFile } from '../parquet/file-path.js';

registerNodeCodecs();

/**
 * Opens a Parquet file: a path, an http(s) URL string, a URL, bytes, or a source object.
 *
 * ```ts
 * const reader = await openParquet('data.parquet');
 * console.log(reader.numRows, reader.schema.leaves.map((l) => l.path.join('.')));
 * ```
 */
export async function openParquet(input: string | ParquetInput, options: OpenParquetOptions = {}): Promise<ParquetReader> {
  if (typeof input === 'string') {
    if (/^https?:\/\//i.test(input)) return ParquetReader.open(new URL(input), options);
    const openFile = options.openFile ?? chunkFileOpener(input, options.allowOutsideRoot === true);
    return openFileWith(input, (source) => ParquetReader.fromSource(source, { ...options, openFile }));
  }
  return ParquetReader.open(input, options);
}

/** Opens the files a local Parquet file's column chunks name (`file_path`): beside it, never outside its directory unless allowed. */
export function chunkFileOpener(path: string, allowOutsideRoot: boolean): OpenChunkFile {
  return (named) => fileSource(resolveFilePath(path, named, '', allowOutsideRoot, { file: path }));
}

export interface OpenParquetOptions extends OpenOptions {
  /** Let a column chunk's `file_path` name a file outside this file's directory (default false). */
  allowOutsideRoot?: boolean;
}
