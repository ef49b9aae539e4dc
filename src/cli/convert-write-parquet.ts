/** Parquet output for `parquetry convert`: the streaming writer (row groups written as they fill). */
import { ParquetWriter, type WriterOptions, type WriterSchema } from '../parquet/write/writer.js';
import { openOutputSink } from './convert-sink.js';
import type { RowOutput } from './convert-write-text.js';

export async function openParquetOutput(path: string, schema: WriterSchema, options: WriterOptions): Promise<RowOutput> {
  const sink = await openOutputSink(path);
  let writer: ParquetWriter;
  try {
    writer = await ParquetWriter.open(sink, schema, options);
  } catch (e) {
    await sink.abort();
    throw e;
  }
  return {
    name: sink.name,
    get rows() {
      return writer.rowsWritten;
    },
    get bytes() {
      return sink.bytes;
    },
    write: (row) => writer.write(row),
    async close() {
      const meta = await writer.close();
      return { rows: Number(meta.numRows), rowGroups: meta.rowGroups.length, bytes: sink.bytes };
    },
    abort: () => writer.abort(),
  };
}
