/**
 * Rows written into a Parquet file in memory and opened again: how a table
 * whose format has no column vectors gives Arrow (the Parquet reader's
 * Arrow types, one mapping for every format), and how a text input becomes
 * a table with a schema, a row count and every read option.
 */
import { BufferSink } from '../io/sink.js';
import { bufferSource } from '../io/source.js';
import { ParquetReader } from '../parquet/reader.js';
import { ParquetWriter, type WriterSchema } from '../parquet/write/writer.js';

/** The rows, in the forms the Parquet writer takes, as an open Parquet reader over the bytes written. */
export async function spoolToParquet(schema: WriterSchema, batches: AsyncIterable<Record<string, unknown>[]>, name?: string): Promise<ParquetReader> {
  const sink = new BufferSink();
  const writer = await ParquetWriter.open(sink, schema);
  try {
    for await (const batch of batches) await writer.writeMany(batch);
    await writer.close();
  } catch (e) {
    await writer.abort();
    throw e;
  }
  return ParquetReader.fromSource(bufferSource(sink.bytes(), name));
}
