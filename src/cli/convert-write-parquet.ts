/** Parquet output for `parquetry convert`: the streaming writer (row groups written as they fill). */
import { ParquetWriter, type WriterOptions, type WriterSchema } from '../parquet/write/writer.js';
import { writerOutput } from './convert-sink.js';
import type { RowOutput } from './convert-write-text.js';

export function openParquetOutput(path: string, schema: WriterSchema, options: WriterOptions): Promise<RowOutput> {
  return writerOutput(path, async (sink) => {
    const writer = await ParquetWriter.open(sink, schema, options);
    return {
      get rows() {
        return writer.rowsWritten;
      },
      write: (row) => writer.write(row),
      async close() {
        const meta = await writer.close();
        return { rows: Number(meta.numRows), rowGroups: meta.rowGroups.length };
      },
      abort: () => writer.abort(),
    };
  });
}
