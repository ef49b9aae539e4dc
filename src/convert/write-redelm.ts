/**
 * RedElm output of a conversion: rows of a Parquet schema (what the Parquet
 * writer takes) written by RedElmWriter, which maps the types RedElm lacks
 * as src/redelm/types.ts documents and keeps LIST and MAP as their groups.
 */
import { RedElmWriter, type RedElmWriterOptions } from '../redelm/writer.js';
import type { Schema } from '../schema/tree.js';
import { writerOutput, type CountingSink, type RowOutput } from './output.js';

export async function redElmOutput(open: () => Promise<CountingSink>, schema: Schema, options: RedElmWriterOptions): Promise<RowOutput> {
  return writerOutput(await open(), async (sink) => {
    // The record readers told of keys past the schema (UNKNOWN_FIELD); the writer leaves them out.
    const writer = await RedElmWriter.open(sink, schema, { ...options, unknownFields: 'ignore' });
    return {
      get rows() {
        return writer.numRows;
      },
      write: (row) => writer.write(row),
      async close() {
        await writer.close();
        return { rows: writer.numRows, rowGroups: writer.rowGroups };
      },
      abort: () => writer.abort(),
    };
  });
}
