/** Parquet output of a conversion: the streaming writer (row groups written as they fill). */
import { ParquetWriter, type WriterOptions, type WriterSchema } from '../parquet/write/writer.js';
import { EntrySlicer } from './column-builders.js';
import { writerOutput, type CountingSink, type RowOutput } from './output.js';

export function parquetOutput(sink: CountingSink, schema: WriterSchema, options: WriterOptions): Promise<RowOutput> {
  return writerOutput(sink, async (sink) => {
    // The record readers told of keys past the schema (UNKNOWN_FIELD); the writer leaves them out.
    const writer = await ParquetWriter.open(sink, schema, { ...options, unknownFields: 'ignore' });
    return {
      get rows() {
        return writer.numRows;
      },
      write: (row) => writer.write(row),
      writeBuilt: (columns, start, end) => {
        const slices = new EntrySlicer(columns);
        return writer.writeEntries(end - start, (k, s, e) => slices.entries(k, start + s, start + e));
      },
      async close() {
        const meta = await writer.close();
        return { rows: Number(meta.numRows), rowGroups: writer.rowGroupsWritten };
      },
      abort: () => writer.abort(),
    };
  });
}
