/**
 * The schema tree as JSON, a form of our own (docs/cli.md):
 *
 * ```
 * { "name": "schema", "children": [
 *   { "name": "id", "repetition": "REQUIRED", "physicalType": "INT64" },
 *   { "name": "ts", "repetition": "OPTIONAL", "physicalType": "INT64",
 *     "logicalType": { "type": "TIMESTAMP", "isAdjustedToUTC": true, "unit": "MICROS" },
 *     "convertedType": "TIMESTAMP_MICROS" },
 *   { "name": "tags", "repetition": "OPTIONAL", "logicalType": { "type": "LIST" },
 *     "children": [ … ] } ] }
 * ```
 *
 * Every node has `name`; every node but the root has `repetition`; a leaf
 * has `physicalType` (and `typeLength` for FIXED_LEN_BYTE_ARRAY), a group
 * `children`. `logicalType` (its name in `type`, its parameters beside it,
 * a time unit as its name), `convertedType`, `scale`, `precision` and
 * `fieldId` appear when the file sets them.
 */
import type { SchemaNode } from './tree.js';

/** A schema node as `schemaJson` (and `parquetry schema --json`) gives it. */
export interface SchemaJson {
  name: string;
  repetition?: string;
  physicalType?: string;
  typeLength?: number;
  logicalType?: Record<string, unknown>;
  convertedType?: string;
  scale?: number;
  precision?: number;
  fieldId?: number;
  children?: SchemaJson[];
}

/** A schema node and everything under it as JSON (pass `schema.root` for the whole tree). */
export function schemaJson(node: SchemaNode, root = node.path.length === 0): SchemaJson {
  const e = node.element;
  const out: SchemaJson = { name: node.name };
  if (!root) out.repetition = node.repetition;
  if (node.isLeaf) {
    out.physicalType = node.physicalType;
    if (node.typeLength !== undefined && node.physicalType === 'FIXED_LEN_BYTE_ARRAY') out.typeLength = node.typeLength;
  }
  if (e.logicalType) out.logicalType = { ...e.logicalType };
  if (e.convertedType !== undefined) out.convertedType = e.convertedType;
  if (e.scale !== undefined) out.scale = e.scale;
  if (e.precision !== undefined) out.precision = e.precision;
  if (e.fieldId !== undefined) out.fieldId = e.fieldId;
  if (!node.isLeaf) out.children = node.children.map((c) => schemaJson(c, false));
  return out;
}
