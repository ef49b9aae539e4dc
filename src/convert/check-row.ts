/**
 * Whether a row fits a schema, as the Parquet writer would take it: the
 * writer's shredder and value coercion, with nothing kept. The record
 * readers use it so a row that does not fit is a bad row where it is read,
 * not an error where it is written.
 */
import type { DefinedSchema } from '../schema/builder.js';
import { leafCoercer } from '../schema/coerce.js';
import { planRecord } from '../shred/plan.js';
import { RecordShredder, type LeafSink } from '../shred/shred.js';
import { variantWriter } from '../parquet/variant/shred.js';

/** Throws the writer's InvalidArgumentError (with the column) for a row that does not fit `schema`. */
export function rowChecker(schema: DefinedSchema): (row: Record<string, unknown>) => void {
  const plan = planRecord(schema.schema.root);
  const sinks: LeafSink[] = plan.leaves.map((leaf) => {
    const coerce = leafCoercer(leaf);
    // Any JS string fits a string column (lone surrogates are replaced, not refused), as the column writer takes it.
    const anyString = leaf.kind.kind === 'string' && leaf.physicalType === 'BYTE_ARRAY';
    return {
      level: () => undefined,
      value: (_rep, v) => {
        if (!(anyString && typeof v === 'string')) coerce(v);
      },
    };
  });
  const shredder = new RecordShredder(plan, sinks, { unknownFields: 'ignore' }, variantWriter(schema.schema.root, schema.fields));
  return (row) => shredder.shred(row);
}
