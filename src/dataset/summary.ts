/**
 * Summary files: `_metadata` (every part's row groups in one FileMetaData,
 * each ColumnChunk's `file_path` naming its part) and `_common_metadata` (the
 * schema and key-value metadata, no row groups), laid out as parquet-java's
 * `ParquetFileWriter.writeMetadataFile` and pyarrow's `write_metadata` lay
 * them out: "PAR1", the FileMetaData, its length, "PAR1", no pages.
 *
 * Row groups are copied as the parts' footers hold them, field for field
 * (arrow-cpp's `AppendRowGroups` does the same; parquet-java rebuilds them
 * from its own model and drops what it does not model), so offsets stay
 * offsets within the part. Portable: the caller lists and reads the parts.
 */
import { InvalidArgumentError, UnsupportedError } from '../errors.js';
import type { Sink } from '../io/sink.js';
import type { Source } from '../io/source.js';
import type { ColumnOrder, FileMetaData, KeyValue, RowGroup, SchemaElement } from '../parquet/metadata/index.js';
import { thriftDifference } from '../parquet/metadata/difference.js';
import { footerBytes, PARQUET_MAGIC } from '../parquet/write/footer-bytes.js';

/** The summary file holding every part's row groups: `_metadata`. */
export const METADATA_FILE = '_metadata';
/** The summary file holding the schema and key-value metadata only: `_common_metadata`. */
export const COMMON_METADATA_FILE = '_common_metadata';

/** One part given to `summarize`: its path relative to the summary, and its footer. */
export interface SummaryPart {
  /**
   * The part relative to the directory the summary files go to, with `/`
   * between names: what each of its ColumnChunks' `file_path` will say.
   */
  path: string;
  /** The part's own footer. */
  metadata: FileMetaData;
}

/** A dataset's two summary files, as footers: what `summarize` returns. */
export interface Summary {
  /** `_metadata`: every part's row groups, in the order of the parts. */
  metadata: FileMetaData;
  /** `_common_metadata`: the same without row groups. */
  commonMetadata: FileMetaData;
}

/**
 * Merges the parts' footers. Parts must share one schema (the root's name
 * aside, which writers choose freely): a FileMetaData has one, so parts that
 * disagree are refused, both named, as `AppendRowGroups` refuses them.
 * Key-value metadata is the union of the parts'; a key given two values is
 * refused, as parquet-java's merge refuses it. `created_by` is the parts'
 * one writer, or parquet-java's `[a, b]` list of them; `column_orders` is
 * kept only when every part has the same, since without it readers take the
 * statistics less far, never too far.
 */
export function summarize(parts: readonly SummaryPart[]): Summary {
  const first = parts[0];
  if (!first) throw new InvalidArgumentError('no part files to summarize: a summary needs at least one part for its schema');
  const keyValues = new Map<string, { value: string | undefined; from: string }>();
  const createdBy = new Set<string>();
  const rowGroups: RowGroup[] = [];
  let numRows = 0;
  let version = 0;
  let columnOrders: ColumnOrder[] | undefined = first.metadata.columnOrders;
  for (const part of parts) {
    const meta = part.metadata;
    if (meta.encryptionAlgorithm) throw new UnsupportedError('an encrypted part cannot be summarized: its row groups would be written to _metadata in plaintext', { file: part.path });
    if (part !== first) checkSameSchema(first, part);
    for (const kv of meta.keyValueMetadata ?? []) mergeKeyValue(keyValues, kv, part.path);
    if (meta.createdBy !== undefined) createdBy.add(meta.createdBy);
    if (thriftDifference(columnOrders, meta.columnOrders) !== undefined) columnOrders = undefined;
    version = Math.max(version, meta.version);
    for (const [i, rg] of meta.rowGroups.entries()) {
      rowGroups.push({ ...rg, columns: rg.columns.map((chunk) => {
        // A chunk already elsewhere (the part is itself a summary) would lose where it is.
        if (chunk.filePath !== undefined) throw new UnsupportedError(`a column chunk of this part already lives in another file (${chunk.filePath}); only parts holding their own chunks can be summarized`, { file: part.path, rowGroup: i });
        return { ...chunk, filePath: part.path };
      }) });
      numRows += rg.numRows;
    }
  }
  const common: FileMetaData = { version, schema: first.metadata.schema, numRows: 0, rowGroups: [] };
  if (keyValues.size) common.keyValueMetadata = [...keyValues].map(([key, { value }]) => (value === undefined ? { key } : { key, value }));
  if (createdBy.size) common.createdBy = createdBy.size === 1 ? [...createdBy][0] : `[${[...createdBy].join(', ')}]`;
  if (columnOrders) common.columnOrders = columnOrders;
  return { metadata: { ...common, numRows, rowGroups }, commonMetadata: common };
}

/** A summary file's bytes: the magic, then what ends every Parquet file. */
export function summaryFileBytes(meta: FileMetaData): Uint8Array {
  const tail = footerBytes(meta);
  const out = new Uint8Array(PARQUET_MAGIC.length + tail.length);
  out.set(PARQUET_MAGIC);
  out.set(tail, PARQUET_MAGIC.length);
  return out;
}

function mergeKeyValue(into: Map<string, { value: string | undefined; from: string }>, kv: KeyValue, path: string): void {
  const seen = into.get(kv.key);
  if (!seen) into.set(kv.key, { value: kv.value, from: path });
  else if (seen.value !== kv.value) {
    throw new UnsupportedError(`parts ${seen.from} and ${path} give key-value metadata "${kv.key}" different values; a summary holds one value per key`, { file: path });
  }
}

function checkSameSchema(first: SummaryPart, part: SummaryPart): void {
  const a = first.metadata.schema;
  const b = part.metadata.schema;
  const names = elementPaths(a);
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i];
    const y = b[i];
    const field = x && y ? thriftDifference(i === 0 ? { ...x, name: '' } : x, i === 0 ? { ...y, name: '' } : y) : 'presence';
    if (field === undefined) continue;
    const where = i === 0 ? 'the root' : x ? `column ${names[i]}` : `column ${y?.name} (schema element ${i})`;
    throw new UnsupportedError(`parts ${first.path} and ${part.path} have different schemas (${where} differs in ${field}); a summary needs parts of one schema`, { file: part.path });
  }
}

/** Each schema element's dotted path (the root's is empty), from the depth-first list. */
function elementPaths(schema: readonly SchemaElement[]): string[] {
  const paths: string[] = [''];
  const open: { prefix: string; left: number }[] = [{ prefix: '', left: schema[0]?.numChildren ?? 0 }];
  for (let i = 1; i < schema.length; i++) {
    while (open.length > 1 && open[open.length - 1]!.left === 0) open.pop();
    const parent = open[open.length - 1]!;
    parent.left--;
    const el = schema[i]!;
    const path = parent.prefix ? `${parent.prefix}.${el.name}` : el.name;
    paths.push(path);
    if (el.numChildren) open.push({ prefix: path, left: el.numChildren });
  }
  return paths;
}

/** Where a summary's parts are listed and read and its files written: a directory, or an S3 prefix (node/s3.ts). */
export interface SummaryStore {
  /** The parts, relative, `/`-separated, sorted; `.`/`_` names left out. */
  list(): Promise<string[]>;
  open(part: string): Promise<Source>;
  create(name: string): Promise<Sink>;
  /** A part's or summary file's name in messages and results. */
  name(path: string): string;
}
