/**
 * A file another names as the file of its column chunks (a `_metadata`
 * summary's part, or any footer's `file_path`), checked against its own
 * footer before its pages are read through the naming file's metadata. A
 * summary that disagrees with its part would read the part's pages as
 * another schema's (a renamed, retyped, reordered or re-repeated field) or
 * another row group's, so it is refused, naming both files: the same
 * schema element for element, and each row group named with its rows and
 * every chunk where the part has it.
 */
import { IncompatibleFilesError } from '../errors.js';
import type { ColumnMetaData, FileMetaData, RowGroup, SchemaElement } from './metadata/index.js';

/** What a row group's pages are read by, as the summary and as the part state it. */
function elementKey(e: SchemaElement): string {
  return JSON.stringify([e.name, e.type ?? null, e.typeLength ?? null, e.repetitionType ?? null, e.numChildren ?? 0, e.convertedType ?? null, e.scale ?? null, e.precision ?? null, e.logicalType ?? null]);
}

function chunkKey(m: ColumnMetaData | undefined): string {
  return m ? JSON.stringify([m.pathInSchema, m.type, m.codec, m.numValues, m.dataPageOffset, m.dictionaryPageOffset ?? null, m.totalCompressedSize]) : 'none';
}

/**
 * Throws an IncompatibleFilesError when `namedBy`'s `schema` and
 * `rowGroups` (those it places in `path`, offsets as in that file)
 * disagree with `own`, the footer of `path`.
 */
export function checkNamedFile(namedBy: string, path: string, schema: readonly SchemaElement[], rowGroups: readonly RowGroup[], own: FileMetaData): void {
  const fail = (what: string): never => {
    throw new IncompatibleFilesError(`${namedBy} disagrees with ${path}: ${what}`, { file: path });
  };
  if (schema.length !== own.schema.length) fail(`the schemas differ (${schema.length} elements against ${own.schema.length})`);
  schema.forEach((e, i) => {
    if (elementKey(e) !== elementKey(own.schema[i]!)) fail(`the schemas differ at element ${i} ("${e.name}" against "${own.schema[i]!.name}")`);
  });
  for (const [i, rg] of rowGroups.entries()) {
    const match = own.rowGroups.find((o) => o.columns[0]?.metaData?.dataPageOffset === rg.columns[0]?.metaData?.dataPageOffset);
    if (!match) return fail(`row group ${i} of ${namedBy} is not in ${path}`);
    if (match.numRows !== rg.numRows) fail(`row group ${i} has ${rg.numRows} rows in ${namedBy}, ${match.numRows} in ${path}`);
    if (match.columns.length !== rg.columns.length) fail(`row group ${i} has ${rg.columns.length} column chunks in ${namedBy}, ${match.columns.length} in ${path}`);
    rg.columns.forEach((c, k) => {
      if (chunkKey(c.metaData) !== chunkKey(match.columns[k]!.metaData)) fail(`column chunk ${c.metaData?.pathInSchema.join('.') ?? k} of row group ${i} is not the part's`);
    });
  }
}
