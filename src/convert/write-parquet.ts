/** Parquet output of a conversion: the streaming writer (row groups written as they fill). */
import { ParquetWriter, type WriterOptions, type WriterSchema } from '../parquet/write/writer.js';
import { DEFAULT_ROW_GROUP_SIZE, writerElements } from '../parquet/write/writer-options.js';
import { addRowGroup, CONVERT_ROW_GROUP_ROWS } from './row-groups.js';
import { EntrySlicer, type BuiltColumn } from './column-builders.js';
import { writerOutput, type CountingSink, type RowOutput } from './output.js';

export function parquetOutput(sink: CountingSink, schema: WriterSchema, options: WriterOptions): Promise<RowOutput> {
  return writerOutput(sink, async (sink) => {
    // The record readers told of keys past the schema (UNKNOWN_FIELD); the writer leaves them out.
    const writer = await ParquetWriter.open(sink, schema, { ...options, unknownFields: 'ignore' });
    // A block's good rows come as runs between its bad rows, in order: one slicer per block, so
    // a nullable column's validity is counted once, not again from row 0 for every run.
    let sliced: { columns: readonly BuiltColumn[]; slicer: EntrySlicer } | undefined;
    // What concerns the file as a whole stays here: the row groups are encoded with the rest.
    const { onWarning, metadata, encryption, checkpointEvery, sortedBy, ...chunkOptions } = options;
    const elements = writerElements(schema);
    return {
      get rows() {
        return writer.numRows;
      },
      write: (row) => writer.write(row),
      writeBuilt: (columns, start, end) => {
        if (sliced?.columns !== columns) sliced = { columns, slicer: new EntrySlicer(columns) };
        const slicer = sliced.slicer;
        return writer.writeEntries(end - start, (k, s, e) => slicer.entries(k, start + s, start + e));
      },
      rowGroups: {
        setup: { elements, options: chunkOptions, rows: options.rowGroupRows ?? CONVERT_ROW_GROUP_ROWS, bytes: options.rowGroupSize ?? DEFAULT_ROW_GROUP_SIZE },
        // Rows to encode stay buffered until the next row group starts, or close() ends the last (letting the columns go as it does).
        write: (group) => ('runs' in group ? addRowGroup(writer, group) : writer.writeRowGroup(group)),
      },
      async close() {
        const meta = await writer.close();
        return { rows: Number(meta.numRows), rowGroups: writer.rowGroupsWritten };
      },
      abort: () => writer.abort(),
    };
  });
}
