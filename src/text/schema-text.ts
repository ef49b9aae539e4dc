import type { LogicalTypeLike } from '../schema/logical.js';
import type { Schema, SchemaNode } from '../schema/tree.js';

/** The annotation in parentheses after a field, as parquet-java's schema text prints it. */
export function schemaAnnotation(node: SchemaNode): string {
  const lt = node.element.logicalType as (LogicalTypeLike & Record<string, unknown>) | undefined;
  if (lt) {
    switch (lt.type) {
      case 'DECIMAL': return `DECIMAL(${lt.precision},${lt.scale})`;
      case 'TIME':
      case 'TIMESTAMP': return `${lt.type}(${lt.unit},${lt.isAdjustedToUTC})`;
      case 'INTEGER': return `INTEGER(${lt.bitWidth},${lt.isSigned})`;
      case 'GEOMETRY': return lt.crs ? `GEOMETRY(${lt.crs})` : 'GEOMETRY';
      case 'GEOGRAPHY': return `GEOGRAPHY(${[lt.crs, lt.algorithm].filter(Boolean).join(',')})`.replace('()', '');
      default: return lt.type;
    }
  }
  const ct = node.element.convertedType;
  if (ct === 'DECIMAL') return `DECIMAL(${node.element.precision},${node.element.scale})`;
  return ct ?? '';
}

function quote(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_.$-]*$/.test(name) ? name : JSON.stringify(name);
}

function line(node: SchemaNode, indent: string, out: string[]): void {
  const ann = schemaAnnotation(node);
  const suffix = (ann ? ` (${ann})` : '') + (node.element.fieldId !== undefined ? ` = ${node.element.fieldId}` : '');
  const rep = node.repetition.toLowerCase();
  if (node.isLeaf) {
    const type = node.physicalType === 'FIXED_LEN_BYTE_ARRAY' ? `fixed_len_byte_array(${node.typeLength})` : node.physicalType.toLowerCase();
    out.push(`${indent}${rep} ${type} ${quote(node.name)}${suffix};`);
    return;
  }
  out.push(`${indent}${rep} group ${quote(node.name)}${suffix} {`);
  for (const c of node.children) line(c, indent + '  ', out);
  out.push(`${indent}}`);
}

/**
 * The schema in the text form parquet-java, pyarrow and the `parquet` CLI print:
 * `message schema { optional int32 id; ... }`.
 */
export function formatSchema(schema: Schema): string {
  const out = [`message ${quote(schema.root.name || 'schema')} {`];
  for (const c of schema.root.children) line(c, '  ', out);
  out.push('}');
  return out.join('\n');
}
