import { abortingOnFailure } from '../../io/owned-sink.js';
import type { Sink } from '../../io/sink.js';
import type { AnyField } from '../../schema/builder.js';
import { inferSchemaFromRecords } from '../../schema/infer.js';
import type { FileMetaData } from '../metadata/index.js';
import { ParquetWriter, type WriterOptions, type WriterSchema } from './writer.js';
import { sampleRecords } from './sample.js';
import type { DefinedSchema } from '../../schema/builder.js';
import type { RecordBatch, Table } from '../../arrow/peer.js';

/** `writeRecords`' and `writeParquet`'s options: the writer's, plus a schema or how to infer one. */
export interface WriteRecordsOptions extends WriterOptions {
  /** The schema; inferred from the first `sampleSize` records when absent (which also pick the shapes of `shred: 'auto'` variants). */
  schema?: WriterSchema;
  /** Records sampled for inference (default 1000). */
  sampleSize?: number;
  /** Without `schema`: declarations that replace what inference would give, by dotted field path (`{ id: field.int64().required() }`). */
  overrides?: Record<string, AnyField>;
}

/**
 * Writes all `records` to `sink` as one Parquet file. Without a schema, the
 * first records are sampled to infer one (integers INT64, other numbers
 * DOUBLE, strings STRING, objects structs, arrays lists, all optional).
 * On failure (the records' own included) the sink is aborted.
 */
export function writeRecords(sink: Sink, records: Iterable<unknown> | AsyncIterable<unknown> | Table | RecordBatch, options: WriteRecordsOptions = {}): Promise<FileMetaData> {
  return abortingOnFailure(sink, (owned) => (isArrow(records) ? writeArrowData(owned, records, options) : writeRows(owned, records, options)));
}

async function writeRows(sink: Sink, records: Iterable<unknown> | AsyncIterable<unknown>, options: WriteRecordsOptions): Promise<FileMetaData> {
  const given = options.schema;
  // Only a defineSchema schema can hold a `shred: 'auto'` variant: its module loads for one.
  const variants = given !== undefined && 'fields' in given ? await import('../variant/auto.js') : undefined;
  const auto = variants?.hasAutoVariants(given as DefinedSchema) ?? false;
  // Sampling reads ahead; the sampled records are written first, so order is kept.
  const { sample, next } = await sampleRecords(records, given && !auto ? 0 : options.sampleSize ?? 1000);
  const schema = given ?? inferSchemaFromRecords(sample as Record<string, unknown>[], { overrides: options.overrides });
  const writer = await ParquetWriter.open<unknown>(sink, auto ? variants!.resolveAutoVariants(given as DefinedSchema, sample) : schema, options);
  try {
    await writer.writeMany(sample);
    for (let r = await next(); !r.done; r = await next()) await writer.write(r.value);
  } catch (e) {
    await writer.abort();
    throw e;
  }
  return writer.close();
}

/** An Arrow JS Table or RecordBatch, known by shape (apache-arrow need not be loaded to ask). */
function isArrow(v: unknown): v is Table | RecordBatch {
  const x = v as { schema?: { fields?: unknown }; batches?: unknown; data?: { children?: unknown } } | null;
  return typeof x === 'object' && x !== null && Array.isArray(x.schema?.fields) && (Array.isArray(x.batches) || Array.isArray(x.data?.children));
}

/** An Arrow table or batch: the schema from its Arrow types (unless given), the rows from its buffers. */
async function writeArrowData(sink: Sink, data: Table | RecordBatch, options: WriteRecordsOptions): Promise<FileMetaData> {
  const { metadataFromArrow, schemaFromArrow } = await import('../../arrow/to-schema.js');
  // A schema derived from the Arrow one is stored with it, so readers give back the Arrow types Parquet has no place for.
  const writer = options.schema ? await ParquetWriter.open(sink, options.schema, options)
    : await ParquetWriter.open(sink, (await schemaFromArrow(data.schema)).elements, { ...options, metadata: { ...(await metadataFromArrow(data.schema)), ...options.metadata } });
  try {
    await writer.writeArrow(data);
  } catch (e) {
    await writer.abort();
    throw e;
  }
  return writer.close();
}
