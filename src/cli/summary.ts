/** `parquetry summary DIR`: prints what the library's writeSummaryFiles wrote. */
import { writeSummaryFiles } from '../node/dataset-summary.js';
import { s3Settings } from './files.js';
import { counted } from './output.js';
import { run } from './run-context.js';

export async function summaryCommand(dir: string, opts: { ignoreInvalidFiles?: boolean; commonOnly?: boolean; json?: boolean }): Promise<void> {
  const result = await writeSummaryFiles(dir, { ignoreInvalidFiles: opts.ignoreInvalidFiles, commonOnly: opts.commonOnly, s3: s3Settings() });
  const { numRows, rowGroups } = result.metadata;
  if (opts.json) {
    run().io.stdout.write(JSON.stringify({ written: result.written, parts: result.parts.length, rowGroups: rowGroups.length, numRows, skipped: result.skipped }) + '\n');
    return;
  }
  for (const s of result.skipped) run().io.stderr.write(`parquetry: skipped ${s.path}: ${s.reason}\n`);
  run().io.stdout.write(`wrote ${result.written.join(' and ')}: ${counted(result.parts.length, 'part')}, ${counted(rowGroups.length, 'row group')}, ${counted(numRows, 'row')}\n`);
}
