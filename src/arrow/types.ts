import type { DataType, Field } from './peer.js';
import type { LeafNode } from '../schema/tree.js';
import type { Plan } from '../shred/plan.js';
import type { ArrowModule } from './load.js';

/**
 * The Arrow type of a leaf, as arrow-rs (parquet-wasm) maps Parquet types:
 * integers by their annotated width and sign, DECIMAL to Decimal128 (256 past
 * 38 digits), DATE to Date32, TIME and TIMESTAMP keep their unit (UTC-adjusted
 * timestamps carry the zone "UTC"), INT96 to nanosecond timestamps, UUID and
 * other fixed-length binary to FixedSizeBinary, ENUM to Binary, UNKNOWN to
 * Null. One departure: INTERVAL becomes MonthDayNano, which keeps its months.
 */
export function leafType(a: ArrowModule, leaf: LeafNode): DataType {
  const k = leaf.kind;
  switch (k.kind) {
    case 'boolean': return new a.Bool();
    case 'int': {
      if (k.bitWidth === 8) return k.signed ? new a.Int8() : new a.Uint8();
      if (k.bitWidth === 16) return k.signed ? new a.Int16() : new a.Uint16();
      if (k.bitWidth === 32) return k.signed ? new a.Int32() : new a.Uint32();
      return k.signed ? new a.Int64() : new a.Uint64();
    }
    case 'float': return leaf.physicalType === 'FLOAT' ? new a.Float32() : new a.Float64();
    case 'float16': return new a.Float16();
    case 'int96': return new a.TimestampNanosecond();
    // ENUM is text to us, but arrow-rs (and pyarrow) give its bytes.
    case 'string': return isEnum(leaf) ? new a.Binary() : new a.Utf8();
    case 'bytes': return leaf.physicalType === 'FIXED_LEN_BYTE_ARRAY' ? new a.FixedSizeBinary(leaf.typeLength!) : new a.Binary();
    case 'uuid': return new a.FixedSizeBinary(16);
    // Months, days and milliseconds all kept: arrow-rs's DayTime would drop the months.
    case 'interval': return new a.IntervalMonthDayNano();
    // arrow-rs widens by the stored width where there is one: a fixed length past 16 bytes is 256-bit at any precision.
    case 'decimal': {
      const wide = leaf.physicalType === 'FIXED_LEN_BYTE_ARRAY' ? leaf.typeLength! > 16 : k.precision > 38;
      return new a.Decimal(k.scale, k.precision, wide ? 256 : 128);
    }
    case 'date': return new a.DateDay();
    case 'time':
      return k.unit === 'MILLIS' ? new a.TimeMillisecond() : k.unit === 'MICROS' ? new a.TimeMicrosecond() : new a.TimeNanosecond();
    case 'timestamp': {
      const tz = k.utc ? 'UTC' : null;
      return k.unit === 'MILLIS' ? new a.TimestampMillisecond(tz) : k.unit === 'MICROS' ? new a.TimestampMicrosecond(tz) : new a.TimestampNanosecond(tz);
    }
    case 'null': return new a.Null();
  }
}

function isEnum(leaf: LeafNode): boolean {
  const logical = leaf.element.logicalType;
  return logical ? logical.type === 'ENUM' : leaf.element.convertedType === 'ENUM';
}

/** Byte strings whose repeated values a dictionary chunk keeps as an Arrow Dictionary. */
export function dictionaryCapable(leaf: LeafNode): boolean {
  return (leaf.kind.kind === 'string' || leaf.kind.kind === 'bytes') && leaf.physicalType === 'BYTE_ARRAY';
}

/** Field metadata arrow-rs also sets: the Parquet field id, and the canonical extension name of a UUID. */
function fieldMeta(node: { element: { fieldId?: number } } | LeafNode): Map<string, string> | undefined {
  const meta = new Map<string, string>();
  const id = node.element.fieldId;
  if (id !== undefined) meta.set('PARQUET:field_id', String(id));
  if ('isLeaf' in node && node.isLeaf && node.kind.kind === 'uuid') meta.set('ARROW:extension:name', 'arrow.uuid');
  return meta.size ? meta : undefined;
}

/**
 * The Arrow field of a planned field. `dictionary` says, per plan leaf index,
 * whether that leaf becomes a Dictionary vector.
 */
export function planField(a: ArrowModule, name: string, plan: Plan, leaves: readonly LeafNode[], dictionary: readonly boolean[]): Field {
  const nullable = plan.nullable;
  switch (plan.t) {
    case 'leaf': {
      const base = leafType(a, plan.leaf);
      const type = dictionary[plan.first] ? new a.Dictionary(base, new a.Int32()) : base;
      return new a.Field(name, type, nullable || base.typeId === a.Type.Null, fieldMeta(plan.leaf));
    }
    case 'struct':
    case 'variant': {
      const parts = plan.t === 'struct' ? plan : plan.parts;
      const children = parts.fields.map((f) => planField(a, f.name, f.plan, leaves, dictionary));
      const meta = fieldMeta(parts.node) ?? new Map<string, string>();
      if (plan.t === 'variant') meta.set('ARROW:extension:name', 'arrow.parquet.variant');
      return new a.Field(name, new a.Struct(children), nullable, meta.size ? meta : undefined);
    }
    case 'list': {
      const element = planField(a, elementName(plan.element), plan.element, leaves, dictionary);
      return new a.Field(name, new a.List(element), nullable);
    }
    case 'map': {
      const key = planField(a, plan.keyName, plan.entry.fields.find((f) => f.name === plan.keyName)!.plan, leaves, dictionary);
      // A map without a value field is a list of its keys, as arrow-rs reads it.
      if (plan.valueName === undefined) return new a.Field(name, new a.List(key), nullable);
      const valuePlan = plan.entry.fields.find((f) => f.name === plan.valueName)?.plan;
      const value = valuePlan ? planField(a, plan.valueName, valuePlan, leaves, dictionary) : new a.Field(plan.valueName, new a.Null(), true);
      const entries = new a.Field('key_value', new a.Struct([new a.Field(key.name, key.type, false, key.metadata), value]), false);
      return new a.Field(name, new a.Map_(entries, false), nullable);
    }
  }
}

/** The name of a list's element field: the Parquet element's own name, as arrow-rs keeps it. */
export function elementName(plan: Plan): string {
  return plan.t === 'leaf' ? plan.leaf.name : plan.t === 'list' || plan.t === 'map' ? plan.name : plan.node.name;
}
