/**
 * `parquetry convert`'s options and help. The conversion itself (convert.ts,
 * its readers and writers) is imported only when it runs.
 */
import type { Command } from 'commander';
import type { ConvertOptions } from './convert.js';
import {
  bloomFilterOption, checksumOption, collect, encodingOption, floatOrderOption, redElmFooterOption, delimiterOption, formatOption, integer, pageVersionOption, parseByteSize, positiveInt, trevniVersionOption,
} from './convert-options.js';
import { NO_VERIFY_CHECKSUMS_HELP } from './files.js';
import { columnList, nameList } from './arguments.js';
import { algorithmOption, columnKey, hexKey } from './keys.js';

export const CONVERT_HELP = `
parquet-java's rewrite, trans-compression, prune and convert-csv are all
convert: Parquet to Parquet rewrites a file (--codec changes its compression,
--columns keeps only some columns, the writer options re-cut row groups and
pages), and CSV input is convert-csv.

Formats come from the extensions (.csv, .tsv, .jsonl/.ndjson, .json, .parquet,
.trv, .redelm) or --from / --to; Trevni and RedElm inputs are also known by
their magic; - is stdin or stdout. CSV, JSON Lines and JSON arrays go to
Parquet, Trevni or RedElm; Parquet, Trevni and RedElm go to CSV, TSV, JSON
Lines, JSON, Parquet, Trevni or RedElm.

Codecs: Parquet UNCOMPRESSED, SNAPPY (default), GZIP, BROTLI, ZSTD, LZ4_RAW;
Trevni null, deflate, snappy (default), bzip2; RedElm (Hadoop's) gzip
(default), default (zlib), snappy. Parquet pages carry a CRC-32
(--no-checksums leaves it out); --checksum (Trevni): null (default) or crc32.

Types (--type COL=TYPE, and the values of a --schema JSON file):
  boolean int8 int16 int32 int64 uint8 uint16 uint32 uint64 float double float16
  string binary json bson uuid enum date time(MILLIS|MICROS|NANOS,utc|local)
  timestamp(MILLIS|MICROS|NANOS,utc|local) int96 decimal(p,s) fixed(n) interval
  list(T) map(K,V); a trailing ! makes a column required.
  Schema file: {"id":"int64!","price":"decimal(9,2)","tags":["string"],"addr":{"city":"string"}}

Sizes take B, K/KiB, M/MiB, G/GiB (powers of 1024) or KB, MB, GB (powers of 1000).
`;

/** Adds `convert` to the program. */
export function registerConvert(program: Command): void {
  program
    .command('convert')
    .description('convert CSV / JSON Lines / JSON to Parquet, Trevni or RedElm, and those to CSV / JSON Lines / JSON / Parquet / Trevni / RedElm, streaming')
    .argument('<in>', 'input file (- for stdin), or a directory or glob of Parquet files (a dataset; partition columns become columns)')
    .argument('<out>', 'output file (- for stdout), or a directory with --partition-by, --max-rows-per-file, --max-bytes-per-file, --file-name or --max-open-files')
    .option('--from <format>', 'input format: csv, tsv, jsonl, json, parquet, trevni, redelm (default: Trevni and RedElm by their magic, else from the extension)', formatOption)
    .option('--to <format>', 'output format: parquet, trevni, redelm, csv, tsv, jsonl, json (default: from the extension)', formatOption)
    .option('--columns <paths>', 'Parquet, dataset, Trevni and RedElm input: only these columns (comma-separated paths, as cat takes them); the others are left out of the output', columnList)
    .option('--union-by-name', "a dataset input: every file's columns, read as null where a file lacks one (DuckDB's union_by_name)")
    .option('--schema <file>', 'JSON file declaring the columns and their types, instead of inferring them')
    .option('--type <col=type>', 'the type of one column (repeatable; dotted paths reach into structs)', collect)
    .option('--sample <n>', 'rows read to infer the schema', positiveInt, 1000)
    .option('--threads <n>', 'threads that do the work: the main thread and N-1 workers (1: the main thread alone); CSV / TSV input to Parquet: the main thread reads the records and one worker encodes the row groups, or more workers do both; Parquet to CSV / TSV / JSON Lines: the main thread decodes and all write the text; default 2 for a CSV / TSV file of 40 MB or more to Parquet while a second core is idle, else 1; the output is the same whatever N', positiveInt)
    .option('--widen', 'CSV and JSON input: infer the types from every row (the input is read twice: a file, not stdin), so no value past the sample fails its column')
    .option('--codec <name>', 'Parquet: UNCOMPRESSED, SNAPPY (default), GZIP, BROTLI, ZSTD or LZ4_RAW; Trevni: null, deflate, snappy (default) or bzip2; RedElm: gzip (default), default or snappy')
    .option('--checksum <name>', 'Trevni output: null (default) or crc32, for every block', checksumOption)
    .option('--redelm-footer <form>', "RedElm output: the RedElm block as java (default: serialization, what the prototype reads) or json (the design page's form, which the prototype cannot read)", redElmFooterOption)
    .option('--trevni-version <1|2|draft>', "Trevni output: 2 (default, the Avro project's), 1 (cutting/trevni's: no booleans, no bzip2) or draft (the wiki draft's Dremel levels on version 1: the Parquet schema as it is)", trevniVersionOption)
    .option('--compression-level <n>', 'Parquet codec level: GZIP 0-9, BROTLI 0-11, ZSTD -131072 to 22', integer)
    .option('--row-group-size <bytes>', 'row group budget in memory, e.g. 64MB, 128MiB (default 128MiB)', parseByteSize)
    .option('--row-group-rows <n>', 'most rows in a row group (default 1048576; 122880 for CSV and TSV input)', positiveInt)
    .option('--page-size <bytes>', 'data page size before compression (default 1MiB)', parseByteSize)
    .option('--page-version <1|2>', 'data page version (default 1)', pageVersionOption)
    .option('--bloom-filter <col[:ndv[:fpp]]>', 'Parquet: a bloom filter on a column (repeatable; ndv default: the distinct values of each row group; fpp default 0.01)', bloomFilterOption)
    .option('--encoding <col=name>', 'Parquet: the value encoding of a column (repeatable): PLAIN, RLE, DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT, ALP (no dictionary then), or RLE_DICTIONARY', encodingOption)
    .option('--float-order <type|total>', 'Parquet: the column order of FLOAT, DOUBLE and FLOAT16 statistics: type (default, TYPE_ORDER) or total (IEEE_754_TOTAL_ORDER)', floatOrderOption)
    .option('--no-page-index', 'Parquet: no ColumnIndex/OffsetIndex (written by default)')
    .option('--checkpoint-every <n>', 'Parquet output: after every N row groups, a checkpoint from which `parquetry recover` restores them if the write is killed (needs checksums)', positiveInt)
    .option('--no-checksums', 'Parquet output: no CRC-32 in the page headers (written by default)')
    .option('--partition-by <cols>', 'write OUT as a dataset directory partitioned by these top-level columns (comma-separated): OUT/year=2024/month=01/part-0.parquet, the columns left out of the files', nameList)
    .option('--max-rows-per-file <n>', 'dataset output: start a new part after this many rows', positiveInt)
    .option('--max-bytes-per-file <bytes>', 'dataset output: start a new part once a part reaches this size, e.g. 256MiB', parseByteSize)
    .option('--file-name <template>', "dataset output: the parts' file name, {i} numbering them in their directory (default part-{i}.parquet)")
    .option('--max-open-files <n>', 'dataset output: parts open at once (default 32); past it the least recently used part is closed', positiveInt)
    .option('--append', 'dataset output: add parts to a directory that already holds some')
    .option('--write-summary', 'dataset output: then write _metadata and _common_metadata')
    .option('--no-verify-checksums', `Parquet and Trevni input: ${NO_VERIFY_CHECKSUMS_HELP}`)
    .option('--encrypt-footer-key <hex>', 'Parquet output: encrypt with this footer key (hex; every column with it unless --encrypt-column); the program-level --aad-prefix then applies to the output', hexKey)
    .option('--encrypt-column <path:hex>', 'Parquet output: encrypt this column with its own key (repeatable; the other columns stay plaintext)', columnKey)
    .option('--plaintext-footer', 'Parquet output: leave the footer readable, signed with the footer key')
    .option('--algorithm <name>', 'Parquet output: AES_GCM_V1 (default) or AES_GCM_CTR_V1', algorithmOption)
    .option('--no-store-aad-prefix', 'Parquet output: do not store the --aad-prefix in the file (readers must supply it)')
    .option('--delimiter <char>', 'CSV field delimiter (default , and a tab for .tsv; \\t for a tab)', delimiterOption)
    .option('--no-header', 'CSV without a header row (columns c1..cN, or the --schema names); on output, no header row')
    .option('--skip-bad-rows', 'skip input rows that cannot be read or do not fit the schema, and count them')
    .option('--progress', 'show the progress line even when stderr is not a terminal')
    .option('--no-progress', 'never show the progress line')
    .option('-q, --quiet', 'no progress line and no final report')
    .addHelpText('after', CONVERT_HELP)
    .action(async (inPath: string, outPath: string, opts: ConvertOptions, cmd: Command) => (await import('./convert.js')).convert(inPath, outPath, opts, cmd));
}
