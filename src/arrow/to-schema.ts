import type { DataType, Field, Schema as ArrowSchema } from './peer.js';
import { InvalidArgumentError, ParquetryError } from '../errors.js';
import { defineSchema, field as f, type AnyField, type DefinedSchema } from '../schema/builder.js';
import type { TimeUnit } from '../schema/logical.js';
import { ARROW_SCHEMA_KEY, encodeSchema, storableSchema } from './hint.js';
import { loadArrow, type ArrowModule } from './load.js';

/**
 * The Parquet schema for an Arrow schema (`elements` is what
 * `openWriter` takes): the inverse of `leafType`, so a
 * table written and read back has the types it had. Arrow types Parquet has
 * no exact twin for are mapped as docs/arrow.md documents (seconds to
 * milliseconds, Large and View strings to STRING, durations to INT64, date
 * milliseconds to DATE); a Union is refused, naming the field.
 */
export async function schemaFromArrow(schema: ArrowSchema): Promise<DefinedSchema> {
  const a = await loadArrow();
  return defineSchema(schema.fields.map((fl) => [fl.name, declare(a, fl, fl.name)] as [string, AnyField]));
}

/**
 * The key-value metadata a table's file keeps: the table's schema metadata,
 * and the schema itself under `ARROW:schema` (what reading gives back of it,
 * see `storableSchema`), as arrow-rs and pyarrow store it.
 */
export async function metadataFromArrow(schema: ArrowSchema): Promise<Record<string, string>> {
  const a = await loadArrow();
  return { ...Object.fromEntries(schema.metadata), [ARROW_SCHEMA_KEY]: encodeSchema(a, storableSchema(a, schema)) };
}

/** The names arrow-rs (and parquetry's reader) give the Parquet VARIANT extension type: a struct of metadata, value and typed_value. */
const VARIANT_EXTENSIONS = new Set(['arrow.parquet.variant', 'parquet.variant']);

function declare(a: ArrowModule, fl: Field, path: string): AnyField {
  try {
    const ext = fl.metadata.get('ARROW:extension:name');
    const decl = fl.type.typeId === a.Type.FixedSizeBinary && ext === 'arrow.uuid' ? f.uuid()
      : fl.type.typeId === a.Type.Struct && ext !== undefined && VARIANT_EXTENSIONS.has(ext) ? variantOf(a, fl.type.children, path)
        : typeOf(a, fl.type, path);
    const id = fl.metadata.get('PARQUET:field_id');
    const withId = id !== undefined && /^-?\d+$/.test(id) ? decl.fieldId(Number(id)) : decl;
    return fl.nullable || fl.type.typeId === a.Type.Null ? withId : withId.required();
  } catch (e) {
    // The builder's refusals (a negative decimal scale, say) know no field: name it.
    throw e instanceof ParquetryError ? e.within({ column: path }) : e;
  }
}

/** A VARIANT from its Arrow struct: shredded as its typed_value is (each object field and list element a struct of value and typed_value). */
function variantOf(a: ArrowModule, children: Field[], path: string): AnyField {
  const typed = children.find((c) => c.name === 'typed_value');
  return f.variant(typed ? { shredded: shapeOf(a, typed, `${path}.typed_value`) } : {});
}

/** The declared shape of a typed_value field (the inverse of the builder's shredding). */
function shapeOf(a: ArrowModule, fl: Field, path: string): AnyField {
  const pairTyped = (pair: Field, where: string): AnyField => {
    const typed = pair.type.typeId === a.Type.Struct ? (pair.type.children as Field[]).find((c) => c.name === 'typed_value') : undefined;
    if (!typed) throw new InvalidArgumentError(`Arrow field "${where}" of a shredded variant has no typed_value`, { column: where });
    return shapeOf(a, typed, `${where}.typed_value`);
  };
  const T = a.Type;
  switch (fl.type.typeId) {
    case T.Struct:
      return f.struct((fl.type.children as Field[]).map((c) => [c.name, pairTyped(c, `${path}.${c.name}`)] as [string, AnyField]) as never);
    case T.List: case T.LargeList: {
      const element = (fl.type.children as Field[])[0]!;
      return f.list(pairTyped(element, `${path}.${element.name}`));
    }
    default:
      return declare(a, fl, path);
  }
}

const UNITS: Record<number, TimeUnit> = { 0: 'MILLIS', 1: 'MILLIS', 2: 'MICROS', 3: 'NANOS' };

function typeOf(a: ArrowModule, t: DataType, path: string): AnyField {
  const T = a.Type;
  const x = t as unknown as { bitWidth: number; isSigned: boolean; precision: number; scale: number; byteWidth: number; unit: number; timezone?: string | null; dictionary: DataType; children: Field[] };
  switch (t.typeId) {
    case T.Null: return f.null();
    case T.Bool: return f.boolean();
    case T.Int: {
      if (x.bitWidth === 64) return x.isSigned ? f.int64() : f.uint64();
      if (x.bitWidth === 32) return x.isSigned ? f.int32() : f.uint32();
      return x.bitWidth === 16 ? (x.isSigned ? f.int16() : f.uint16()) : (x.isSigned ? f.int8() : f.uint8());
    }
    case T.Float: return x.precision === 0 ? f.float16() : x.precision === 1 ? f.float() : f.double();
    case T.Utf8: case T.LargeUtf8: case T.Utf8View: return f.string();
    case T.Binary: case T.LargeBinary: case T.BinaryView: return f.binary();
    case T.FixedSizeBinary: return f.fixed(x.byteWidth);
    case T.Decimal: return f.decimal(x.precision, x.scale);
    case T.Date: return f.date();
    case T.Time: return f.time(UNITS[x.unit]!);
    case T.Timestamp: return f.timestamp(UNITS[x.unit]!, { utc: x.timezone !== null && x.timezone !== undefined });
    case T.Interval: return f.interval();
    case T.Duration: return f.int64();
    case T.Dictionary: return typeOf(a, x.dictionary, path);
    case T.List: case T.LargeList: case T.FixedSizeList: {
      const child = x.children[0]!;
      return f.list(declare(a, child, `${path}.${child.name}`));
    }
    case T.Map: {
      const [key, value] = x.children[0]!.type.children as [Field, Field];
      return f.map(declare(a, key, `${path}.${key.name}`), declare(a, value, `${path}.${value.name}`));
    }
    case T.Struct:
      return f.struct(x.children.map((c) => [c.name, declare(a, c, `${path}.${c.name}`)] as [string, AnyField]) as never);
    default:
      throw new InvalidArgumentError(`Arrow field "${path}" has type ${String(t)}, which has no Parquet equivalent`, { column: path });
  }
}

