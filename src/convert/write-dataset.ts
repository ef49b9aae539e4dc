/** Parquet output of a conversion as a dataset: rows routed to partitioned parts (`dataset/write.ts`), published at close. */
import { DatasetWriter, type DatasetOutput, type DatasetWriteOptions } from '../dataset/write.js';
import type { WriterSchema } from '../parquet/write/writer.js';
import { countingSink, type CountingSink, type RowOutput } from './output.js';

export function datasetOutput(output: DatasetOutput, name: string, schema: WriterSchema, options: DatasetWriteOptions): RowOutput {
  const sinks: CountingSink[] = [];
  const counted: DatasetOutput = {
    ...output,
    create: async (path) => {
      const sink = countingSink(await output.create(path), path);
      sinks.push(sink);
      return sink;
    },
  };
  const writer = new DatasetWriter(counted, schema, options);
  const bytes = () => sinks.reduce((n, s) => n + s.bytes, 0);
  return {
    name,
    get rows() {
      return writer.numRows;
    },
    get bytes() {
      return bytes();
    },
    write: (row) => writer.write(row),
    async close() {
      const { rows, parts } = await writer.close();
      return { rows, rowGroups: parts.reduce((n, p) => n + p.rowGroups, 0), bytes: bytes(), files: parts.length };
    },
    abort: () => writer.abort(),
  };
}
