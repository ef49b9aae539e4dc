/**
 * Where a salvage read finds its row groups: the footer, else the last
 * complete checkpoint a checkpointing writer left (checkpoints.ts).
 */
import { ParquetryError, withContext } from '../../errors.js';
import { buildSchema, type SchemaElementLike } from '../../schema/tree.js';
import { readFooter } from '../footer.js';
import type { FileMetaData } from '../metadata/index.js';
import { toSource, type ParquetInput } from '../reader.js';
import { described } from './chunk-salvage.js';
import { lastCheckpoint } from './checkpoints.js';
import type { SalvageInput } from './salvage.js';

/** How the row groups were found. */
export type FoundBy = 'footer' | 'checkpoint';

export interface OpenedForSalvage extends SalvageInput {
  foundBy: FoundBy;
  /** Why the footer could not be used, when it could not. */
  footerError?: { name: string; message: string };
  /** With a checkpoint: the file offset its frame ends at (what follows it was written after it). */
  checkpointEnd?: number;
}

/** Opens by the footer, else by the last checkpoint; when neither is there, the footer's error is thrown. */
export async function openForSalvage(input: ParquetInput): Promise<OpenedForSalvage> {
  const source = await toSource(input, {});
  let metadata: FileMetaData;
  let offset: number;
  try {
    ({ metadata, offset } = await readFooter(source));
  } catch (e) {
    if (!(e instanceof ParquetryError)) throw e;
    const chain = await lastCheckpoint(source);
    if (!chain) throw e;
    const schema = withContext({ file: source.name, offset: chain.last.offset }, () => buildSchema(chain.metadata.schema as SchemaElementLike[]));
    return { source, metadata: chain.metadata, schema, foundBy: 'checkpoint', footerError: described(e), checkpointEnd: chain.last.end };
  }
  const schema = withContext({ file: source.name, offset }, () => buildSchema(metadata.schema as SchemaElementLike[]));
  return { source, metadata, schema, foundBy: 'footer' };
}
