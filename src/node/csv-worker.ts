/**
 * A worker thread of a parallel CSV conversion (csv-workers.ts): given the
 * setup, then blocks to read (answered with their rows in columns) and row
 * groups to encode (answered with their column chunks), each in order.
 */
import { parentPort } from 'node:worker_threads';
import { builtBuffers } from '../convert/column-builders.js';
import { CsvBlockReader, type CsvBlockJob, type CsvBlockSetup } from '../convert/csv-block-read.js';
import { registerNodeCodecs } from './codecs.js';
import { addRowGroup, ownBuffers, rowGroupEncoder, type RowGroupJob, type RowGroupSetup } from '../convert/row-groups.js';
import type { ParquetWriter } from '../parquet/write/writer.js';

// The main thread's codecs (the native ones where they load): a row group compresses the same here as there.
registerNodeCodecs();

let rowGroups: RowGroupSetup | undefined;
let reader: CsvBlockReader | undefined;
/** The thread's encoder, opened at the first row group. */
let encoder: Promise<ParquetWriter> | undefined;
/** Row groups are encoded one at a time, in the order they came. */
let encoding: Promise<unknown> = Promise.resolve();

type Message = { setup: CsvBlockSetup; rowGroups: RowGroupSetup | undefined } | { id: number; job: CsvBlockJob } | { id: number; encode: RowGroupJob };

parentPort!.on('message', (m: Message) => {
  if ('setup' in m) {
    rowGroups = m.rowGroups;
    reader = new CsvBlockReader(m.setup);
    return;
  }
  if ('encode' in m) {
    encoding = encoding.then(async () => {
      try {
        const writer = await (encoder ??= rowGroupEncoder(rowGroups!));
        await addRowGroup(writer, m.encode);
        const group = writer.encodeRowGroup()!;
        parentPort!.postMessage({ id: m.id, result: group }, ownBuffers(group));
      } catch (e) {
        parentPort!.postMessage({ id: m.id, error: e });
      }
    });
    return;
  }
  try {
    const result = reader!.read(m.job);
    result.bytes = m.job.bytes;
    parentPort!.postMessage({ id: m.id, result }, [m.job.bytes.buffer as ArrayBuffer, ...builtBuffers(result.columns)]);
  } catch (e) {
    parentPort!.postMessage({ id: m.id, error: e });
  }
});
