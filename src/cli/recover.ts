/** `parquetry recover` and `parquetry check`: print what the library's salvage read finds, for Parquet and Trevni (told by the magic). */
import { CorruptFileError, InvalidArgumentError, MissingKeyError } from '../errors.js';
import type { Loss, RecoverReport } from '../loss.js';
import { checkFormats, openSource, s3Settings } from './files.js';
import { run } from './run-context.js';

/** `recover`'s exit status when the output is not all of the input: something was lost, or (the footer gone) may have been. */
export const LOSS_STATUS = 3;

interface RecoverOptions {
  json?: boolean;
  wholeOnly?: boolean;
  like?: string;
}

export async function recoverCommand(input: string, output: string, opts: RecoverOptions): Promise<void> {
  if ((await checkFormats('recover', input, ['parquet', 'trevni'])) === 'trevni') return recoverTrevniCommand(input, output, opts);
  const { recoverParquet } = await import('../parquet/recover/recover.js');
  const { destinationFile } = await import('../node/destination.js');
  const source = await openSource(input);
  try {
    const like = opts.like === undefined ? undefined : await openSource(opts.like);
    let report: Awaited<ReturnType<typeof recoverParquet>>;
    try {
      report = await recoverParquet(source, await destinationFile(output, s3Settings()), { wholeOnly: opts.wholeOnly, ...(like ? { like } : {}) });
    } catch (e) {
      refuseEncrypted('recover', input, e);
      // Neither footer nor checkpoint (the salvage read throws the footer's error): the way on is a sibling's schema.
      if (like === undefined && e instanceof CorruptFileError) {
        throw new CorruptFileError(`${e.detail}; with no checkpoint either, give --like FILE (a file written the same way) to find the row groups by their page headers`, e.context, { cause: e });
      }
      throw e;
    } finally {
      // However the recovery ends, a destination that cannot be created included.
      await like?.close?.();
    }
    printParquet(report, opts.json, `wrote ${report.rowsRecovered} of ${report.numRows} rows${report.lostFrom ? ' found' : ''} to ${output}`);
    if (!report.whole) run().exitCode = LOSS_STATUS;
  } finally {
    await source.close?.();
  }
}

/** The salvage read takes no keys: an encrypted file (it throws for a key) is refused as such, keys given or not. */
function refuseEncrypted(command: string, file: string, e: unknown): void {
  if (e instanceof MissingKeyError) {
    throw new InvalidArgumentError(`${command} does not decrypt: ${file} is an encrypted Parquet file (read it with the other commands and the keys, or convert it to plaintext)`);
  }
}

/** Exit status 1 when the file is not whole. */
export async function checkCommand(file: string, opts: { json?: boolean }): Promise<void> {
  if ((await checkFormats('check', file, ['parquet', 'trevni'])) === 'trevni') return checkTrevniCommand(file, opts);
  const { checkParquet } = await import('../parquet/recover/recover.js');
  const source = await openSource(file);
  try {
    let report: Awaited<ReturnType<typeof checkParquet>>;
    try {
      report = await checkParquet(source);
    } catch (e) {
      refuseEncrypted('check', file, e);
      throw e;
    }
    printParquet(report, opts.json, report.whole ? 'whole: every page, CRC and level checks out' : 'damaged');
    if (!report.whole) run().exitCode = 1;
  } finally {
    await source.close?.();
  }
}

async function recoverTrevniCommand(input: string, output: string, opts: RecoverOptions): Promise<void> {
  // A sibling's schema finds row groups without a footer; a Trevni file has neither. (--whole-only is what a Trevni recovery always writes.)
  if (opts.like !== undefined) throw new InvalidArgumentError(`--like is for Parquet files; ${input} is a Trevni file`);
  const { recoverTrevni } = await import('../trevni/recover.js');
  const { destinationFile } = await import('../node/destination.js');
  const { tempSpill } = await import('../node/temp-spill.js');
  const source = await openSource(input);
  try {
    const report = await recoverTrevni(source, await destinationFile(output, s3Settings()), { spill: tempSpill() });
    printTrevni(report, opts.json, `wrote ${report.rowsRecovered} of ${report.numRows} rows to ${output}`);
    if (!report.whole) run().exitCode = LOSS_STATUS;
  } finally {
    await source.close?.();
  }
}

async function checkTrevniCommand(file: string, opts: { json?: boolean }): Promise<void> {
  const { checkTrevni } = await import('../trevni/recover.js');
  const source = await openSource(file);
  try {
    const r = await checkTrevni(source);
    if (!r.whole) run().exitCode = 1;
    printTrevni(r, opts.json, r.whole ? 'whole: every block and row checks out' : 'damaged');
  } finally {
    await source.close?.();
  }
}

function printParquet(r: RecoverReport, json: boolean | undefined, headline: string): void {
  const lines = [headline];
  if (r.footerError) lines.push(`footer unusable (${r.footerError.message}); row groups found by ${r.foundBy === 'scan' ? 'scanning page headers' : 'the last checkpoint'}`);
  lines.push(`row groups: ${r.rowGroups}, rows: ${r.numRows}, recovered: ${r.rowsRecovered}, with nulls for lost fields: ${r.rowsWithNulls}, lost: ${r.rowsLost}${r.lostFrom ? ' and an unknown number more' : ''}`);
  if (r.lostFrom) lines.push(`lost: everything from byte ${r.lostFrom.offset} on (how many rows is unknown): ${r.lostFrom.reason}`);
  if (r.fieldsNulled.length) lines.push(`written as null where lost: ${r.fieldsNulled.join(', ')}`);
  print(r, json, lines, r.losses, (l) => `row group ${l.rowGroup}, column ${l.column}, ${l.page === undefined ? 'whole chunk' : `page ${l.page}`}`);
}

function printTrevni(r: RecoverReport, json: boolean | undefined, headline: string): void {
  const lines = [headline, `rows: ${r.numRows}, blocks: ${r.blocks}, intact in every field: ${r.rowsRecovered}, lost: ${r.rowsLost}`];
  // Trevni has no null for a column of any type: a row with a lost field is not written.
  if (r.fieldsLost?.length) lines.push(`fields that lost rows (those rows left out): ${r.fieldsLost.map((f) => `${f.field} (${f.rows.map((s) => `${s.start}..${s.end}`).join(', ')})`).join(', ')}`);
  print(r, json, lines, r.losses, (l) => `column ${l.column}, ${l.block === undefined ? 'block descriptors' : `block ${l.block}`}`);
}

/** The report as one JSON object, or its lines and then one line per loss: where (`place`), bytes, rows, error. */
function print(r: RecoverReport, json: boolean | undefined, lines: string[], losses: readonly Loss[], place: (l: Loss) => string): void {
  if (json) {
    run().io.stdout.write(JSON.stringify(r) + '\n');
    return;
  }
  for (const l of losses) lines.push(`lost: ${place(l)}, bytes ${l.bytes.start}..${l.bytes.end}, rows ${l.rows.start}..${l.rows.end}: ${l.error.name}: ${l.error.message}`);
  run().io.stdout.write(lines.join('\n') + '\n');
}
