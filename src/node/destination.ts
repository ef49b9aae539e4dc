/** Where a Node writer's path goes: a file (temp + rename) or, for `s3://`, an upload; a dataset's directory or S3 prefix. */
import type { Sink } from '../io/sink.js';
import type { DatasetOutput } from '../dataset/write.js';
import { fileSink } from './file-sink.js';
import type { NodeS3Settings } from './s3.js';
import { isS3Address } from '../io/s3/address.js';

/** A path's file sink, or an `s3://` address's upload (the s3 code loads only then). */
export async function destinationFile(dest: string, s3?: NodeS3Settings): Promise<Sink> {
  return isS3Address(dest) ? (await import('./s3.js')).s3DestinationSink(dest, s3) : fileSink(dest);
}

/** A dataset's directory, or an `s3://` prefix whose parts are completed at commit. */
export async function datasetOutput(dest: string, options: { append?: boolean; writeSummary?: boolean }, s3?: NodeS3Settings): Promise<DatasetOutput & { readonly summaryFiles: string[] }> {
  if (isS3Address(dest)) return (await import('./s3-dataset-output.js')).s3DatasetDestination(dest, options, s3);
  return (await import('./dataset-directory.js')).datasetDirectory(dest, options);
}
