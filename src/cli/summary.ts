/** `parquetry summary DIR`: prints what the library's writeSummaryFiles wrote. */
import { writeSummaryFiles } from '../node/dataset-summary.js';
import { s3Settings } from './files.js';

export async function summaryCommand(dir: string, opts: { ignoreInvalidFiles?: boolean; commonOnly?: boolean; json?: boolean }): Promise<void> {
  const result = await writeSummaryFiles(dir, { ignoreInvalidFiles: opts.ignoreInvalidFiles, commonOnly: opts.commonOnly, s3: s3Settings() });
  const { numRows, rowGroups } = result.metadata;
  if (opts.json) {
    process.stdout.write(JSON.stringify({ written: result.written, parts: result.parts.length, rowGroups: rowGroups.length, numRows, skipped: result.skipped }) + '\n');
    return;
  }
  for (const s of result.skipped) process.stderr.write(`parquetry: skipped ${s.path}: ${s.reason}\n`);
  process.stdout.write(`wrote ${result.written.join(' and ')}: ${result.parts.length} parts, ${rowGroups.length} row groups, ${numRows} rows\n`);
}
