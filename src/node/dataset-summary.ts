import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { CorruptFileError, InvalidArgumentError } from '../errors.js';
import { COMMON_METADATA_FILE, METADATA_FILE, summarize, summaryFileBytes, type SummaryPart } from '../dataset/summary.js';
import type { FileMetaData } from '../parquet/metadata/index.js';
import { readFooter } from '../parquet/footer.js';
import { listDatasetFiles } from './dataset-files.js';
import { fileSink } from './file-sink.js';
import { fileSource } from './file-source.js';
import type { S3Settings } from './s3-credentials.js';
import { compareUtf8 } from '../bytes/utf8-checks.js';
import type { SummaryStore } from '../dataset/summary.js';
import { resolveFilePath } from '../io/file-path-guard.js';
import { isS3Address } from '../io/s3/address.js';

/** `writeSummaryFiles`' options: the parts, invalid files, `_common_metadata` alone. */
export interface SummaryOptions {
  /**
   * The parts, relative to the directory or absolute inside it. Default:
   * every file under it but those whose names start with `.` or `_`.
   */
  parts?: readonly string[];
  /** Leave out files that are not Parquet (their footer cannot be read) instead of failing. */
  ignoreInvalidFiles?: boolean;
  /** Write `_common_metadata` only (parquet-java's summary level COMMON_ONLY). */
  commonOnly?: boolean;
  /** For an `s3://` prefix: region, endpoint, credentials (docs/s3.md). */
  s3?: S3Settings;
}


function directoryStore(dir: string): SummaryStore {
  return {
    list: () => listDatasetFiles(dir),
    open: (part) => fileSource(join(dir, ...part.split('/'))),
    create: (name) => fileSink(join(dir, name)),
    name: (path) => join(dir, ...path.split('/')),
  };
}

async function storeOf(dir: string, s3?: S3Settings): Promise<SummaryStore> {
  if (!isS3Address(dir)) return directoryStore(dir);
  const { s3SummaryStore } = await import('./s3.js');
  return s3SummaryStore(dir, s3);
}

/** What `writeSummaryFiles` summarized and wrote. */
export interface SummaryResult {
  /** The parts summarized, relative to the directory, in the order of `_metadata`'s row groups. */
  parts: string[];
  /** Files left out by `ignoreInvalidFiles`, and why. */
  skipped: { path: string; reason: string }[];
  /** What `_metadata` holds (written unless `commonOnly`). */
  metadata: FileMetaData;
  /** The files written, as paths. */
  written: string[];
}

/**
 * Writes `_metadata` and `_common_metadata` into `dir` for the Parquet parts
 * under it (docs/datasets.md, "Datasets: writing"). Every footer is read before
 * anything is written, and each summary file goes through a temp file and a
 * rename, so a failure leaves the summaries that were there as they were.
 */
export async function writeSummaryFiles(dir: string, options: SummaryOptions = {}): Promise<SummaryResult> {
  return (await prepareSummaryFiles(dir, options)).write();
}

/**
 * Reads and merges the parts' footers, refusing parts that cannot be
 * summarized, and writes nothing until `write()`. `pending` maps parts not
 * yet at their path (a dataset write's staged parts) to the file holding
 * them, so a write can learn that its parts would break the summary before
 * it publishes them.
 */
export async function prepareSummaryFiles(
  dir: string,
  options: SummaryOptions & { pending?: ReadonlyMap<string, string> } = {},
): Promise<{ write(): Promise<SummaryResult> }> {
  const pending = options.pending ?? new Map<string, string>();
  const store = await storeOf(dir, options.s3);
  const listed = options.parts ? options.parts.map((p) => partPath(dir, p)) : await store.list();
  const paths = [...new Set([...listed, ...pending.keys()])].sort(compareUtf8);
  const parts: SummaryPart[] = [];
  const skipped: SummaryResult['skipped'] = [];
  // One part open at a time: the footers are what is kept.
  for (const path of paths) {
    // A name the reader's guard would refuse as a file_path (a backslash, an escaped `..`) would make a summary no one reads.
    resolveFilePath(join(dir, METADATA_FILE), path, '', false, { file: store.name(path) });
    const staged = pending.get(path);
    const source = staged === undefined ? await store.open(path) : await fileSource(staged);
    try {
      parts.push({ path, metadata: (await readFooter(source)).metadata });
    } catch (e) {
      if (!(options.ignoreInvalidFiles && e instanceof CorruptFileError)) throw e;
      skipped.push({ path, reason: e.message });
    } finally {
      await source.close?.();
    }
  }
  const { metadata, commonMetadata } = summarize(parts);
  return {
    async write() {
      const written: string[] = [];
      for (const [name, meta] of options.commonOnly ? [[COMMON_METADATA_FILE, commonMetadata] as const] : [[COMMON_METADATA_FILE, commonMetadata] as const, [METADATA_FILE, metadata] as const]) {
        const path = store.name(name);
        const sink = await store.create(name);
        try {
          await sink.write(summaryFileBytes(meta));
          await sink.close();
        } catch (e) {
          await sink.abort();
          throw e;
        }
        written.push(path);
      }
      return { parts: parts.map((p) => p.path), skipped, metadata, written };
    },
  };
}

/** A part named by the caller, as a `/`-separated path inside `dir`. */
function partPath(dir: string, part: string): string {
  const rel = relative(resolve(dir), resolve(dir, part));
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
    throw new InvalidArgumentError(`part ${part} is not inside ${dir}: a summary's file_path is relative to its directory`);
  }
  return rel.split(sep).join('/');
}
