#!/usr/bin/env node
import { Command, CommanderError, InvalidArgumentError as CommanderArgError } from 'commander';
import { InvalidArgumentError, ParquetryError, canonicalRow, formatSchema } from '../node/index.js';
import type { ParquetReader } from '../parquet/reader.js';
import { formatMetadata, metadataSummary } from './meta.js';
import { endQuietlyWhenStdoutCloses, withOutput } from './output.js';
import { renderRecord, renderTable } from './render.js';
import { registerConvert } from './convert.js';
import { pagesCommand } from './pages.js';
import { columnIndexCommand } from './column-index.js';
import { bloomCommand } from './bloom.js';
import { parseWhere } from './where.js';
import { parseColumnList } from './columns.js';
import { trevniCat, trevniMeta, trevniSchema, withTrevni } from './trevni.js';
import { checkParquetOnly, NO_VERIFY_CHECKSUMS_HELP, openParquetFile, tableFileKind, type ReadChecks } from './files.js';
import { commanderMessage, UsageError, usageLine } from './usage.js';

function count(value: string): number {
  if (!/^\d+$/.test(value)) throw new CommanderArgError('must be a non-negative whole number');
  if (!Number.isSafeInteger(Number(value))) throw new CommanderArgError(`must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}`);
  return Number(value);
}

function columnList(value: string): (string | string[])[] {
  try {
    return parseColumnList(value);
  } catch (e) {
    throw new CommanderArgError((e as Error).message);
  }
}

/** A repeatable option: each occurrence adds to the list. */
function repeated(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

async function withReader(file: string, fn: (r: ParquetReader) => Promise<void>, checks: ReadChecks = {}): Promise<void> {
  const reader = await openParquetFile(file, checks);
  try {
    await fn(reader);
  } finally {
    await reader.close();
  }
}

interface CatOptions {
  columns?: (string | string[])[];
  offset?: number;
  limit?: number;
  json?: boolean;
  where?: string;
  /** false with --no-verify-checksums. */
  verifyChecksums: boolean;
}

async function cat(file: string, opts: CatOptions, table: boolean): Promise<void> {
  // A bad expression fails before the file is opened.
  const filter = opts.where === undefined ? undefined : parseWhere(opts.where);
  const checks = { verifyChecksums: opts.verifyChecksums };
  if ((await tableFileKind(file)) === 'trevni') {
    if (filter) throw new InvalidArgumentError('--where is for Parquet files; Trevni files are read whole');
    // Trevni columns are named by one flat string each.
    const columns = opts.columns?.map((c) => (typeof c === 'string' ? c : c.join('.')));
    return withTrevni(file, (r) => trevniCat(r, { ...opts, columns }, table), checks);
  }
  await withReader(file, (reader) => withOutput(async (out) => {
    const read = { columns: opts.columns, offset: opts.offset, limit: opts.limit, filter };
    if (opts.json) {
      // Canonical JSON lines (CANONICAL.md): the default lossless values, printed exactly.
      const plan = reader.plan(opts.columns);
      for await (const row of reader.rows(read)) await out.line(canonicalRow(plan, row));
    } else if (table) {
      const rows: Record<string, unknown>[] = [];
      for await (const row of reader.rows({ ...read, temporal: 'iso' })) rows.push(row);
      const names = reader.plan(opts.columns).fields.map((f) => f.name);
      await out.line(renderTable(names, rows));
    } else {
      let first = true;
      for await (const row of reader.rows({ ...read, temporal: 'iso' })) {
        if (!first) await out.line('');
        first = false;
        await out.line(renderRecord(row));
      }
    }
  }), checks);
}

endQuietlyWhenStdoutCloses();
const program = new Command();
program
  .name('parquetry')
  .description('Inspect, read, write and convert Parquet (and Trevni) files.')
  .version('0.1.0');

program
  .command('schema')
  .description('print the schema (parquet message syntax)')
  .argument('<file>', 'Parquet or Trevni file path, or a Parquet http(s) URL')
  .action(async (file: string) => {
    if ((await tableFileKind(file)) === 'trevni') return withTrevni(file, async (r) => void process.stdout.write(trevniSchema(r) + '\n'));
    await withReader(file, async (r) => {
      process.stdout.write(formatSchema(r.schema) + '\n');
    });
  });

program
  .command('meta')
  .description('print file metadata: row groups, column chunks, sizes, codecs, encodings, statistics')
  .argument('<file>', 'Parquet or Trevni file path, or a Parquet http(s) URL')
  .option('--json', 'print as JSON')
  .action(async (file: string, opts: { json?: boolean }) => {
    if ((await tableFileKind(file)) === 'trevni') return withTrevni(file, async (r) => void process.stdout.write((await trevniMeta(r, Boolean(opts.json))) + '\n'));
    await withReader(file, async (r) => {
      const s = metadataSummary(r);
      process.stdout.write((opts.json ? JSON.stringify(s, null, 2) : formatMetadata(s)) + '\n');
    });
  });

program
  .command('cat')
  .description('print rows (canonical JSON Lines with --json)')
  .argument('<file>', 'Parquet or Trevni file path, or a Parquet http(s) URL')
  .option('--columns <paths>', 'comma-separated column paths to read (a.b.c for nested)', columnList)
  .option('--offset <n>', 'skip the first n rows', count)
  .option('--limit <n>', 'print at most n rows', count)
  .option('--where <expr>', "only rows matching a SQL WHERE expression, e.g. \"id > 10 AND name IN ('a', 'b')\"")
  .option('--json', 'print canonical JSON Lines')
  .option('--no-verify-checksums', NO_VERIFY_CHECKSUMS_HELP)
  .action((file: string, opts: CatOptions) => cat(file, opts, false));

program
  .command('head')
  .description('print the first rows as a table')
  .argument('<file>', 'Parquet or Trevni file path, or a Parquet http(s) URL')
  .option('-n, --rows <n>', 'number of rows', count, 10)
  .option('--columns <paths>', 'comma-separated column paths to read', columnList)
  .option('--where <expr>', 'only rows matching a SQL WHERE expression')
  .option('--json', 'print canonical JSON Lines')
  .option('--no-verify-checksums', NO_VERIFY_CHECKSUMS_HELP)
  .action((file: string, opts: { rows: number; columns?: (string | string[])[]; json?: boolean; where?: string; verifyChecksums: boolean }) =>
    cat(file, { columns: opts.columns, limit: opts.rows, json: opts.json, where: opts.where, verifyChecksums: opts.verifyChecksums }, true));

interface ChunkOptions {
  column?: string[];
  rowGroup?: number;
  json?: boolean;
}

/** A command over column chunks: FILE, `--column` (repeatable), `--row-group`, `--json`. */
function chunkCommand(name: string, description: string, json: string, run: (file: string, opts: ChunkOptions) => Promise<void>): void {
  program
    .command(name)
    .description(description)
    .argument('<file>', 'Parquet file path or http(s) URL')
    .option('--column <path>', 'only this column (a.b.c for nested; repeat for more)', repeated)
    .option('--row-group <n>', 'only this row group', count)
    .option('--json', json)
    .action(async (file: string, opts: ChunkOptions) => {
      await checkParquetOnly(name, file);
      await run(file, opts);
    });
}

chunkCommand('pages', 'list every page: type, offset, sizes, encoding, values, rows, statistics',
  'print one JSON object per page', pagesCommand);
chunkCommand('column-index', 'show the page index: ColumnIndex and OffsetIndex, a row per page',
  'print one JSON object per column chunk', (file, opts) => withReader(file, (r) => columnIndexCommand(r, opts)));

program
  .command('bloom-filter')
  .description('ask the bloom filters whether a value may be in a column')
  .argument('<file>', 'Parquet file path or http(s) URL')
  .requiredOption('--column <path>', 'the leaf column (a.b.c for nested)')
  .requiredOption('--value <v>', "the value: a number, true/false, 'quoted' or bare text")
  .option('--row-group <n>', 'only this row group', count)
  .option('--json', 'print one JSON object per row group')
  .action(async (file: string, opts: { column: string; value: string; rowGroup?: number; json?: boolean }) => {
    await checkParquetOnly('bloom-filter', file);
    await withReader(file, (r) => bloomCommand(r, opts));
  });

registerConvert(program);

/** The command whose action runs, for the help a usage error points to. */
let running: Command | undefined;
program.hook('preAction', (_program, action) => {
  running = action;
});
const commandName = (cmd: Command | undefined) => (cmd && cmd !== program ? cmd.name() : undefined);
// A usage error commander finds (an unknown option or command, a bad or missing value) is one line, not the help.
for (const cmd of [program, ...program.commands]) {
  cmd.exitOverride();
  cmd.configureOutput({ outputError: (text, write) => write(usageLine(commanderMessage(text), commandName(cmd))) });
}

/**
 * Ends the program once stdout and stderr have taken everything written to
 * them: process.exit would drop what a pipe (or, off Linux, a file) has not
 * yet accepted, such as the rows printed before an error.
 */
async function exitAfterOutput(code: number): Promise<never> {
  const drained = (s: NodeJS.WriteStream) => new Promise<void>((resolve) => {
    if (s.destroyed || !s.writable) resolve();
    else s.write('', () => resolve());
  });
  await Promise.all([drained(process.stdout), drained(process.stderr)]);
  process.exit(code);
}

program.parseAsync(process.argv).catch((e: unknown) => {
  // Help, the version, or a usage error commander has already printed.
  if (e instanceof CommanderError) return exitAfterOutput(e.exitCode);
  if (e instanceof UsageError) {
    process.stderr.write(usageLine(e.message, commandName(running)));
    return exitAfterOutput(1);
  }
  if (e instanceof ParquetryError) {
    process.stderr.write(`parquetry: ${e.message}\n`);
    return exitAfterOutput(1);
  }
  process.stderr.write(`parquetry: internal error: ${(e as Error)?.stack ?? e}\n`);
  return exitAfterOutput(70);
});
