/** Parquet output of a conversion: the streaming writer (row groups written as they fill). */
import { ParquetWriter, type WriterOptions, type WriterSchema } from '../parquet/write/writer.js';
import { EntrySlicer, type BuiltColumn } from './column-builders.js';
import { writerOutput, type CountingSink, type RowOutput } from './output.js';

export function parquetOutput(sink: CountingSink, schema: WriterSchema, options: WriterOptions): Promise<RowOutput> {
  return writerOutput(sink, async (sink) => {
    // The record readers told of keys past the schema (UNKNOWN_FIELD); the writer leaves them out.
    const writer = await ParquetWriter.open(sink, schema, { ...options, unknownFields: 'ignore' });
    // A block's good rows come as runs between its bad rows, in order: one slicer per block, so
    // a nullable column's validity is counted once, not again from row 0 for every run.
    let sliced: { columns: readonly BuiltColumn[]; slicer: EntrySlicer } | undefined;
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
      async close() {
        const meta = await writer.close();
        return { rows: Number(meta.numRows), rowGroups: writer.rowGroupsWritten };
      },
      abort: () => writer.abort(),
    };
  });
}
