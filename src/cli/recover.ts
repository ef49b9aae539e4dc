/** `parquetry recover` and `parquetry check`: print what the library's salvage read finds. */
import type { RecoverReport } from '../parquet/recover/recover.js';
import { openSource, tableFileKind } from './files.js';

export async function recoverCommand(input: string, output: string, opts: { json?: boolean; skipDamagedRowGroups?: boolean; like?: string }): Promise<void> {
  const { recoverParquet } = await import('../parquet/recover/recover.js');
  const { fileSink } = await import('../node/file-sink.js');
  const source = await openSource(input);
  try {
    const like = opts.like === undefined ? undefined : await openSource(opts.like);
    const report = await recoverParquet(source, await fileSink(output), { skipDamagedRowGroups: opts.skipDamagedRowGroups, ...(like ? { like } : {}) }).finally(() => like?.close?.());
    print(report, opts.json, `wrote ${report.rowsRecovered} of ${report.rows} rows to ${output}`);
  } finally {
    await source.close?.();
  }
}

/** Exit status 1 when the file is not whole. */
export async function checkCommand(file: string, opts: { json?: boolean }): Promise<void> {
  if ((await tableFileKind(file)) === 'trevni') return checkTrevniCommand(file, opts);
  const { checkParquet } = await import('../parquet/recover/recover.js');
  const source = await openSource(file);
  try {
    const report = await checkParquet(source);
    print(report, opts.json, report.whole ? 'whole: every page, CRC and level checks out' : 'damaged');
    if (!report.whole) process.exitCode = 1;
  } finally {
    await source.close?.();
  }
}

function print(r: RecoverReport, json: boolean | undefined, headline: string): void {
  if (json) {
    process.stdout.write(JSON.stringify(r) + '\n');
    return;
  }
  const lines = [headline];
  if (r.footerError) lines.push(`footer unusable (${r.footerError.message}); row groups found by ${r.foundBy === 'scan' ? 'scanning page headers' : 'the last checkpoint'}`);
  if (r.scanStop) lines.push(`scan stopped at byte ${r.scanStop.offset}: ${r.scanStop.reason}`);
  lines.push(`row groups: ${r.rowGroups}, rows: ${r.rows}, recovered: ${r.rowsRecovered}, with nulls for lost fields: ${r.rowsWithNulls}, lost: ${r.rowsLost}`);
  if (r.fieldsNulled.length) lines.push(`written as null where lost: ${r.fieldsNulled.join(', ')}`);
  for (const l of r.losses) {
    const page = l.page === undefined ? 'whole chunk' : `page ${l.page}`;
    lines.push(`lost: row group ${l.rowGroup}, column ${l.column}, ${page}, bytes ${l.bytes.start}..${l.bytes.end}, rows ${l.rows.start}..${l.rows.end}: ${l.error.name}: ${l.error.message}`);
  }
  process.stdout.write(lines.join('\n') + '\n');
}

async function checkTrevniCommand(file: string, opts: { json?: boolean }): Promise<void> {
  const { checkTrevni } = await import('../trevni/check.js');
  const r = await checkTrevni(await openSource(file));
  if (!r.whole) process.exitCode = 1;
  if (opts.json) {
    process.stdout.write(JSON.stringify(r) + '\n');
    return;
  }
  const lines = [r.whole ? 'whole: every block and row checks out' : 'damaged', `rows: ${r.rows}, blocks: ${r.blocks}`];
  for (const l of r.losses) {
    const where = l.block === undefined ? 'decoding rows' : `block ${l.block}, bytes ${l.bytes!.start}..${l.bytes!.end}`;
    lines.push(`lost: column ${l.column}, ${where}, rows ${l.rows.start}..${l.rows.end}: ${l.error.name}: ${l.error.message}`);
  }
  process.stdout.write(lines.join('\n') + '\n');
}
