/**
 * An S3 prefix as the output of `writeDataset` and `convert`: apart from
 * node/s3.ts, which `writeSummaryFiles` loads for its store, since this
 * writes the summary files in turn.
 */
import { InvalidArgumentError } from '../errors.js';
import { parseS3Address } from '../io/s3/address.js';
import { objectExists } from '../io/s3/source.js';
import { joinPath } from '../io/paths.js';
import { METADATA_FILE } from '../dataset/summary.js';
import { s3DatasetOutput } from '../dataset/s3-output.js';
import type { DatasetOutput } from '../dataset/write.js';
import { writeSummaryFiles } from './dataset-summary.js';
import { s3Client, summaryStore, type NodeS3Settings } from './s3.js';

/**
 * An S3 prefix as a dataset's output (dataset/s3-output.ts). The summary
 * files, when asked for or when there were some, are written after the parts
 * are published: a part not yet complete cannot be read for its footer.
 */
export async function s3DatasetDestination(prefix: string, options: { append?: boolean; writeSummary?: boolean }, settings: NodeS3Settings = {}): Promise<DatasetOutput & { readonly summaryFiles: string[] }> {
  const client = await s3Client(settings);
  if (!options.append && (await summaryStore(client, prefix).list()).length > 0) {
    throw new InvalidArgumentError(`${prefix} already holds objects: add parts to it with the append option (--append), or write elsewhere`);
  }
  const summarize = options.writeSummary || (await objectExists(client, parseS3Address(joinPath(prefix, METADATA_FILE))));
  const output = s3DatasetOutput(client, prefix, settings.partSize === undefined ? {} : { partSize: settings.partSize });
  const summaryFiles: string[] = [];
  return {
    ...output,
    async commit(paths) {
      await output.commit(paths);
      if (summarize) summaryFiles.push(...(await writeSummaryFiles(prefix, { s3: settings })).written);
    },
    summaryFiles,
  };
}

