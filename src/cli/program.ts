/**
 * The `parquetry` program: its commands, and `main`, which runs one command
 * line against the streams it is given and returns the exit status. The bin
 * (main.ts) calls it with the process's; tests call it in-process.
 */
import { Command, CommanderError } from './commander.js';
import { IncompatibleFilesError, MissingKeyError, ParquetryError } from '../errors.js';
import { registerConvert } from './convert-command.js';
import { columnList, columnPath, columnPaths, count, httpHeader, port } from './arguments.js';
import { checkParquetOnly, NO_VERIFY_CHECKSUMS_HELP, setHttpInputOptions, setS3Settings, withParquetFile } from './files.js';
import { columnKey, hexKey, setDecryption, type KeyOptions } from './keys.js';
import { commanderMessage, UsageError, usageLine } from './usage.js';
import type { CatOptions } from './inspect.js';
import type { ColumnPath } from '../schema/tree.js';
import { inRun, type CliIo, type RunContext } from './run-context.js';

/** FILE of the commands that read it as a table (`openTable`'s inputs, for each command the same). */
const TABLE_FILE = 'a Parquet, Trevni, RedElm, CSV, TSV, JSON Lines or JSON file: a path, an http(s) URL or an s3:// address; or a directory or glob of Parquet files (a dataset)';

// Each command's module (and the library under it) is imported when the
// command runs: the program starts with the argument parsing only.
const inspect = () => import('./inspect.js');

/** The program's commands and options; built anew for each run, so that no parse leaves state for the next. */
export function cliProgram(io: CliIo): { program: Command; running: () => Command | undefined } {
  const program = new Command();
  program
    .name('parquetry')
    .description('Inspect, read, write and convert Parquet (and Trevni and RedElm) files.')
    .version('0.1.0')
    .option('--http-header <header>', "for http(s) inputs: a request header, 'Name: value' (repeatable; any command, before or after it)", httpHeader)
    .option('--no-sign-request', 's3:// addresses: send unsigned requests (a public bucket), whatever credentials the environment has')
    .option('--region <region>', 's3:// addresses: the bucket\'s region (default: AWS_REGION, AWS_DEFAULT_REGION, the profile\'s, else us-east-1)')
    .option('--endpoint-url <url>', 's3:// addresses: an S3-compatible store (R2, MinIO, ...) instead of AWS (default: AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL)')
    .option('--byte-length <n>', 'for http(s) inputs: the file size in bytes, so no HEAD request is made (a URL signed for GET only)', count)
    .option('--footer-key <hex>', 'encrypted Parquet: the footer key in hex (any command, before or after it)', hexKey)
    .option('--column-key <path:hex>', 'encrypted Parquet: a column key in hex (repeatable)', columnKey)
    .option('--aad-prefix <text>', 'encrypted Parquet: the AAD prefix the file was written with, when it does not store it')
    .option('--key-file <file>', "encrypted Parquet: keys from a file, or env:NAME from a variable, kept out of ps: lines 'footer HEX', 'column PATH HEX', 'aad-prefix TEXT'")
    .option('--no-verify-signature', "encrypted Parquet: skip the check of a plaintext footer's signature (then no footer key is needed)");

  program
    .command('schema')
    .description('print the schema (parquet message syntax)')
    .argument('<file>', TABLE_FILE)
    .option('--json', 'Parquet: print the schema tree as JSON (names, repetition, physical, logical and converted types, field ids, children)')
    .option('--union-by-name', "a dataset: every file's columns, read as null where a file lacks one (DuckDB's union_by_name)")
    .action(async (file: string, opts: { json?: boolean; unionByName?: boolean }) => (await inspect()).schemaCommand(file, opts));

  program
    .command('meta')
    .description('print file metadata: row groups, column chunks, sizes, codecs, encodings, statistics')
    .argument('<file>', TABLE_FILE)
    .option('--json', 'print as JSON')
    .option('--union-by-name', "a dataset: every file's columns, read as null where a file lacks one (DuckDB's union_by_name)")
    .action(async (file: string, opts: { json?: boolean; unionByName?: boolean }) => (await inspect()).metaCommand(file, opts));

  program
    .command('cat')
    .description('print rows (canonical JSON Lines with --json)')
    .argument('<file>', TABLE_FILE)
    .option('--columns <paths>', 'comma-separated column paths to read (a.b.c for nested)', columnList)
    .option('--offset <n>', 'skip the first n rows', count)
    .option('--limit <n>', 'print at most n rows', count)
    .option('--where <expr>', "only rows matching a SQL WHERE expression, e.g. \"id > 10 AND name IN ('a', 'b')\"")
    .option('--json', 'print canonical JSON Lines')
    .option('--no-verify-checksums', NO_VERIFY_CHECKSUMS_HELP)
    .option('--union-by-name', "a dataset: every file's columns, read as null where a file lacks one (DuckDB's union_by_name)")
    .action(async (file: string, opts: CatOptions) => (await inspect()).catCommand(file, opts, false));

  program
    .command('head')
    .description('print the first rows as a table')
    .argument('<file>', TABLE_FILE)
    .option('-n, --limit <n>', 'number of rows (the name cat and the library give a row limit)', count, 10)
    .option('--columns <paths>', 'comma-separated column paths to read', columnList)
    .option('--where <expr>', 'only rows matching a SQL WHERE expression')
    .option('--json', 'print canonical JSON Lines')
    .option('--no-verify-checksums', NO_VERIFY_CHECKSUMS_HELP)
    .option('--union-by-name', "a dataset: every file's columns, read as null where a file lacks one (DuckDB's union_by_name)")
    .action(async (file: string, opts: { limit: number; columns?: (string | string[])[]; json?: boolean; where?: string; verifyChecksums: boolean; unionByName?: boolean }) =>
      (await inspect()).catCommand(file, { columns: opts.columns, limit: opts.limit, json: opts.json, where: opts.where, verifyChecksums: opts.verifyChecksums, unionByName: opts.unionByName }, true));

  interface ChunkOptions {
    column?: ColumnPath[];
    rowGroup?: number;
    json?: boolean;
  }

  /** A command over column chunks: FILE, `--column` (repeatable), `--row-group`, `--json`. */
  function chunkCommand(name: string, description: string, json: string, run: (file: string, opts: ChunkOptions) => Promise<void>): void {
    program
      .command(name)
      .description(description)
      .argument('<file>', 'Parquet file path or http(s) URL')
      .option('--column <path>', 'only this column (a.b.c for nested, "a.b" for a name with a dot; repeat for more)', columnPaths)
      .option('--row-group <n>', 'only this row group', count)
      .option('--json', json)
      .action(async (file: string, opts: ChunkOptions) => {
        await checkParquetOnly(name, file);
        await run(file, opts);
      });
  }

  chunkCommand('pages', 'list every page: type, offset, sizes, encoding, values, rows, statistics',
    'print one JSON object per page', async (file, opts) => (await import('./pages.js')).pagesCommand(file, opts));
  chunkCommand('column-index', 'show the page index: ColumnIndex and OffsetIndex, a row per page',
    'print one JSON object per column chunk', async (file, opts) => {
      const { columnIndexCommand } = await import('./column-index.js');
      await withParquetFile(file, (r) => columnIndexCommand(r, opts));
    });
  chunkCommand('size-stats', 'show SizeStatistics: unencoded byte-array bytes and level histograms per column chunk, and per page from the page index',
    'print one JSON object per column chunk', async (file, opts) => (await import('./size-stats.js')).sizeStatsCommand(file, opts));

  program
    .command('bloom-filter')
    .description('ask the bloom filters whether a value may be in a column')
    .argument('<file>', 'Parquet file path or http(s) URL')
    .requiredOption('--column <path>', 'the leaf column (a.b.c for nested, "a.b" for a name with a dot)', columnPath)
    .requiredOption('--value <v>', "the value: a number, true/false, 'quoted' or bare text")
    .option('--row-group <n>', 'only this row group', count)
    .option('--json', 'print one JSON object per row group')
    .action(async (file: string, opts: { column: ColumnPath; value: string; rowGroup?: number; json?: boolean }) => {
      await checkParquetOnly('bloom-filter', file);
      const { bloomCommand } = await import('./bloom.js');
      await withParquetFile(file, (r) => bloomCommand(r, opts));
    });

  program
    .command('dictionary')
    .description("print the entries of a column's dictionary pages, per row group")
    .argument('<file>', 'Parquet file path or http(s) URL')
    .requiredOption('--column <path>', 'the leaf column (a.b.c for nested, "a.b" for a name with a dot)', columnPath)
    .option('--row-group <n>', 'only this row group', count)
    .option('--json', 'print one JSON object per row group, entries in canonical JSON')
    .action(async (file: string, opts: { column: ColumnPath; rowGroup?: number; json?: boolean }) => {
      await checkParquetOnly('dictionary', file);
      await (await import('./dictionary.js')).dictionaryCommand(file, opts);
    });

  program
    .command('check-stats')
    .description('check every statistic, page index and bloom filter against the data, and report any that lie (exit status 1)')
    .argument('<file>', 'Parquet file path or http(s) URL')
    .option('--columns <paths>', 'comma-separated column paths to check (default: all)', columnList)
    .option('--json', 'print one JSON object: what was checked, and the lies')
    .action(async (file: string, opts: { columns?: (string | string[])[]; json?: boolean }) => {
      await checkParquetOnly('check-stats', file);
      await (await import('./check-stats.js')).checkStatsCommand(file, opts);
    });

  program
    .command('column-size')
    .description("bytes per column, compressed and uncompressed, and each column's share of all column bytes")
    .argument('<file>', 'Parquet file path or http(s) URL')
    .option('--json', 'print one JSON object per column (bytes exact, shares as fractions)')
    .action(async (file: string, opts: { json?: boolean }) => {
      await checkParquetOnly('column-size', file);
      await (await import('./column-size.js')).columnSizeCommand(file, opts);
    });

  program
    .command('footer')
    .description('print the raw footer (FileMetaData) as JSON: thrift field names, i64 as decimal strings, binary as hex')
    .argument('<file>', 'Parquet file path or http(s) URL')
    .option('--json', 'one line of JSON (default: indented)')
    .action(async (file: string, opts: { json?: boolean }) => {
      await checkParquetOnly('footer', file);
      await (await import('./footer.js')).footerCommand(file, opts);
    });

  program
    .command('scan')
    .description('read and decode every page, and report rows, bytes and throughput')
    .argument('<file>', 'Parquet file path or http(s) URL')
    .option('--columns <paths>', 'comma-separated column paths to read (default: all)', columnList)
    .option('--json', 'print one JSON object')
    .action(async (file: string, opts: { columns?: (string | string[])[]; json?: boolean }) => {
      await checkParquetOnly('scan', file);
      await (await import('./scan.js')).scanCommand(file, opts);
    });

  registerConvert(program);

  program
    .command('summary')
    .description('write _metadata (every part\'s row groups, file_path set) and _common_metadata (schema only) for the Parquet parts under DIR')
    .argument('<dir>', 'dataset directory; names starting with . or _ are not parts')
    .option('--ignore-invalid-files', 'leave out files that are not Parquet instead of failing')
    .option('--common-only', 'write _common_metadata only')
    .option('--json', 'print one JSON object: files written, parts, row groups, rows, skipped files')
    .action(async (dir: string, opts: { ignoreInvalidFiles?: boolean; commonOnly?: boolean; json?: boolean }) => (await import('./summary.js')).summaryCommand(dir, opts));

  program
    .command('recover')
    .description('write everything intact in a damaged or unfinished Parquet file (footer gone: through its last checkpoint), or the rows intact in every field of a damaged Trevni file, to OUT, and report what was lost (exit status 3 when anything was lost, or may have been: the footer gone)')
    .argument('<in>', 'damaged Parquet or Trevni file (told by its magic), or the temp file a checkpointing Parquet writer left')
    .argument('<out>', 'file to write, of the same format')
    .option('--whole-only', 'write only the rows no field lost (Parquet: instead of also the rows that kept a field, the lost ones as null; a Trevni recovery writes only those anyway)')
    .option('--like <file>', "with neither footer nor checkpoint: find row groups by their page headers, with the schema and codecs of this file (a row group is kept only where its pages' columns are proven)")
    .option('--json', 'print the report as one JSON object')
    .action(async (input: string, output: string, opts: { json?: boolean; wholeOnly?: boolean; like?: string }) => {
      await (await import('./recover.js')).recoverCommand(input, output, opts);
    });

  program
    .command('check')
    .description('decode every page (Trevni: block), verifying CRCs and levels, and say whether the file is whole (exit status 1 when not)')
    .argument('<file>', 'Parquet or Trevni file path, or http(s) URL')
    .option('--json', 'print the report as one JSON object')
    .action(async (file: string, opts: { json?: boolean }) => {
      await (await import('./recover.js')).checkCommand(file, opts);
    });

  program
    .command('view')
    .description('serve a page that shows the file: schema, layout to scale, statistics, data (sort, filter, cell detail)')
    .argument('<file>', 'Parquet, Trevni, RedElm, CSV or JSON file path, a directory or glob of Parquet files (a dataset), or a URL the browser may read')
    .option('--port <n>', 'serve on 127.0.0.1 at this port (default: any free one)', port)
    .option('--open', 'also open the page in a browser ($BROWSER, else the system\'s)')
    .action(async (file: string, opts: { port?: number; open?: boolean }) => (await import('./view.js')).viewCommand(file, opts));

  /** The command whose action runs, for the help a usage error points to. */
  let running: Command | undefined;
  program.hook('preAction', (_program, action) => {
    running = action;
    const { httpHeader: headers, byteLength } = program.opts<{ httpHeader?: Record<string, string>; byteLength?: number }>();
    setHttpInputOptions({ headers, byteLength });
    const { signRequest, region, endpointUrl } = program.opts<{ signRequest?: boolean; region?: string; endpointUrl?: string }>();
    setS3Settings({ ...(signRequest === false ? { signRequest: false } : {}), ...(region ? { region } : {}), ...(endpointUrl ? { endpoint: endpointUrl } : {}) });
    setDecryption(program.opts<KeyOptions>());
  });
  // A usage error commander finds (an unknown option or command, a bad or missing value) is one line, not the help.
  for (const cmd of [program, ...program.commands]) {
    cmd.exitOverride();
    cmd.configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      getOutHelpWidth: () => (io.stdout.isTTY && io.stdout.columns) || 80,
      getErrHelpWidth: () => (io.stderr.isTTY && io.stderr.columns) || 80,
      outputError: (text, write) => write(usageLine(commanderMessage(text), commandName(program, cmd))),
    });
  }
  return { program, running: () => running };
}

const commandName = (program: Command, cmd: Command | undefined) => (cmd && cmd !== program ? cmd.name() : undefined);

/**
 * Runs the command line `argv` (the arguments after the program's name)
 * with `io` for its streams and environment; resolves to the exit status.
 * Errors are printed, not thrown: a usage error or a ParquetryError as one
 * line (status 1), anything else as an internal error (status 70).
 */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  let terminate!: (code: number) => void;
  const terminated = new Promise<number>((resolve) => (terminate = resolve));
  return inRun(io, terminate, (context) => Promise.race([parse(argv, context), terminated]));
}

async function parse(argv: readonly string[], context: RunContext): Promise<number> {
  const { io } = context;
  const { program, running } = cliProgram(io);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return context.exitCode;
  } catch (e) {
    // Help, the version, or a usage error commander has already printed.
    if (e instanceof CommanderError) return e.exitCode;
    if (e instanceof UsageError) {
      io.stderr.write(usageLine(e.message, commandName(program, running())));
      return 1;
    }
    if (e instanceof ParquetryError) {
      // The library names its options; a message that names one this program spells otherwise gets the flag.
      const message = e instanceof MissingKeyError ? keyOptionsMessage(e) ?? e.message
        : e instanceof IncompatibleFilesError ? e.message.replace(/\bunionByName (reads such columns as null|widens)/g, '--union-by-name $1')
          : e.message;
      io.stderr.write(`parquetry: ${message}\n`);
      return 1;
    }
    io.stderr.write(`parquetry: internal error: ${(e as Error)?.stack ?? e}\n`);
    return 70;
  }
}

/**
 * A missing key's message with the way on in this program's options
 * (`--footer-key`, ...) for the library's (`decryption.footerKey`, ...);
 * undefined when the error does not say what was missing.
 */
function keyOptionsMessage(e: MissingKeyError): string | undefined {
  const what = e.detail.replace(/(?:: pass | \()decryption[\s\S]*$/, '');
  const column = e.context.column;
  const way = e.missing === 'footerKey' ? 'give its key with --footer-key HEX or --key-file FILE'
    : e.missing === 'signingKey' ? "give it with --footer-key HEX or --key-file FILE, or read a signed footer's plaintext columns with --no-verify-signature"
      : e.missing === 'aadPrefix' ? 'give it with --aad-prefix TEXT'
        : e.missing === 'columnKey' && column !== undefined ? `give --column-key ${column}:HEX or a --key-file line 'column ${column} HEX'`
          : undefined;
  return way === undefined || what === e.detail ? undefined : new MissingKeyError(`${what}: ${way}`, e.context).message;
}
