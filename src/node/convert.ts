/**
 * `convert` with file paths and Node streams: a path is read as the CLI reads
 * it (CSV and JSON in chunks, Parquet and Trevni at any offset; a directory
 * or glob as a dataset of Parquet files) and written
 * to a temporary file renamed into place when the conversion succeeds, so a
 * failed or aborted one leaves nothing at the destination; Trevni's column
 * blocks wait in temporary files.
 */
import type { Writable } from 'node:stream';
import { countingSink } from '../convert/output.js';
import { extensionFormat, inputFormat } from '../formats.js';
import { FORMAT_MAGIC_BYTES } from '../io/format.js';
import {
  destinationSink, runConvert, sinkOutput, sourceInput, type ConvertDestination, type ConvertFormat, type ConvertOptions, type ConvertReport, type ConvertSource,
} from '../convert/convert.js';
import type { ConvertInput } from '../convert/run.js';
import { openInput } from './convert-input.js';
import { fileSource } from './file-source.js';
import { openTableSource } from '../table/open.js';
import { localChunkFiles } from './open-parquet.js';
import { openTable } from './table.js';
import { writableSink } from './file-sink.js';
import { tempSpill } from './temp-spill.js';
import { csvWorkers } from './csv-workers.js';
import { textWriters } from './text-workers.js';
import type { NodeS3Settings } from './s3.js';
import { datasetOutput, destinationFile } from './destination.js';
import { datasetLayout } from '../dataset/layout.js';
import { InvalidArgumentError } from '../errors.js';
import { isDatasetPath } from './dataset-path.js';
import { isS3Address } from '../io/s3/address.js';

/** A file path as a conversion's input. */
export function pathInput(path: string): ConvertInput {
  return {
    name: path,
    bytes: () => openInput(path),
    rereadable: true,
    table: async (o) => openTableSource(await fileSource(path), { name: path, ...o }, localChunkFiles),
  };
}

/** A dataset path (a directory or glob) as a conversion's input: its rows read through `openTable` as a dataset. */
export function datasetPathInput(path: string, options: Pick<ConvertOptions, 'unionByName'> & { s3?: NodeS3Settings } = {}): ConvertInput {
  return {
    ...pathInput(path),
    dataset: true,
    table: (o) => openTable(path, { ...o, unionByName: options.unionByName === true, ...(options.s3 ? { s3: options.s3 } : {}) }),
  };
}

/** A file's format by its first bytes, else its name (a file too short or not regular has no magic). */
async function pathFormat(path: string): Promise<ConvertFormat | undefined> {
  const source = await fileSource(path).catch(() => undefined);
  if (!source) return inputFormat(undefined, path);
  try {
    return inputFormat(await source.read(0, Math.min(FORMAT_MAGIC_BYTES, source.byteLength)), path);
  } finally {
    await source.close?.();
  }
}

/**
 * Converts `source` to `dest` (see the portable `convert`); here `source`
 * may also be a file path or a Node Readable, and `dest` a file path or a
 * Node Writable.
 *
 * @example
 * ```ts
 * const report = await convert('trips.csv', 'trips.parquet', { types: ['fare=decimal(9,2)'], codec: 'ZSTD' });
 * console.log(report.numRows, report.badRows);
 * ```
 */
export async function convert(
  source: ConvertSource, dest: string | Writable | ConvertDestination, options: ConvertOptions & { s3?: NodeS3Settings } = {},
): Promise<ConvertReport> {
  const { s3, ...convertOptions } = options;
  options = convertOptions;
  const isPath = typeof source === 'string' && !/^https?:\/\//i.test(source);
  const isS3 = typeof source === 'string' && isS3Address(source);
  // A dataset is Parquet files; --from cannot make it another format (the input refuses one).
  const ends = !isPath
    ? sourceInput(source, options)
    : (await isDatasetPath(source, s3))
      ? { input: datasetPathInput(source, { ...options, s3 }), from: async (): Promise<ConvertFormat> => 'parquet' }
      : isS3
        ? { input: (await import('./s3.js')).s3ConvertInput(source, s3), from: async () => inputFormat(undefined, source) }
        : { input: pathInput(source), from: () => pathFormat(source) };
  if (isPath && options.name !== undefined) ends.input = { ...ends.input, name: options.name };
  // node:stream is loaded here, not at import, as the Node entry's writers load it.
  const { Writable } = await import('node:stream');
  const output = typeof dest === 'string'
    ? datasetLayout(options)
      ? { sink: () => Promise.reject(new InvalidArgumentError('a dataset is written as Parquet parts')), spill: tempSpill, name: dest, dataset: () => datasetOutput(dest, options, s3) }
      : { sink: async () => countingSink(await destinationFile(dest, s3), dest), spill: tempSpill }
    : sinkOutput(() => (dest instanceof Writable ? writableSink(dest) : destinationSink(dest)), 'output', tempSpill);
  return runConvert({ ...ends, output, to: typeof dest === 'string' && !datasetLayout(options) ? extensionFormat(dest) : undefined, csvReaders: csvWorkers, textWriters }, options);
}
