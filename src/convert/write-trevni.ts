/**
 * Trevni output of a conversion: rows of a Parquet schema (what the
 * Parquet writer takes: Parquet input, typed CSV / JSON rows, Trevni input)
 * become Avro records, shredded into Trevni columns as trevni-avro does
 * (src/trevni/avro.ts), with the Avro schema stored as `avro.schema`.
 *
 * The Parquet schema becomes an Avro schema:
 *
 * | Parquet | Avro |
 * | --- | --- |
 * | BOOLEAN | boolean |
 * | INT32, INT(8/16/32, signed), UINT(8/16) | int |
 * | UINT(32) | long |
 * | INT64, INT(64, signed), UINT(64) | long (a UINT64 value above 2^63-1 is an error) |
 * | FLOAT, FLOAT16 / DOUBLE | float / double |
 * | STRING, ENUM, JSON | string |
 * | UUID | string, logicalType uuid |
 * | BYTE_ARRAY, BSON, GEOMETRY, GEOGRAPHY | bytes |
 * | FIXED_LEN_BYTE_ARRAY(n) | fixed(n) |
 * | DECIMAL(p,s), any storage | bytes, logicalType decimal(p,s) (unscaled, big-endian two's complement) |
 * | DATE | int, logicalType date |
 * | TIME(MILLIS) / TIME(MICROS) | int time-millis / long time-micros |
 * | TIME(NANOS) | long (Avro has no time-nanos) |
 * | TIMESTAMP(unit), UTC / local | long timestamp-{millis,micros,nanos} / local-timestamp-{…} |
 * | INT96 | long timestamp-nanos (a value outside years 1677 to 2262 is an error) |
 * | INTERVAL | fixed(12), logicalType duration (the same bytes) |
 * | the null type (UNKNOWN) | null |
 * | struct | record |
 * | LIST | array |
 * | MAP with string keys | map |
 * | optional (nullable) | union ["null", T] |
 *
 * No Avro form: VARIANT, and MAP keys that are not strings (Avro map keys are
 * strings): an UnsupportedError naming the column, before anything is written.
 *
 * Names: Avro names are `[A-Za-z_][A-Za-z0-9_]*`, so other characters become
 * `_` (and a leading digit gets a `_` before it); a field so renamed keeps its
 * Parquet name in the field property `parquetry.name`, which the Trevni
 * reader of convert uses. Records and fixed types are named after their
 * field's path, made unique.
 */
import { InvalidArgumentError, UnsupportedError } from '../errors.js';
import { formatUuid, float16, int96Nanos } from '../schema/convert.js';
import { describeValue, leafCoercer, twosComplementBytes } from '../schema/coerce.js';
import type { LeafNode, Schema } from '../schema/tree.js';
import { formatTimestamp } from '../schema/temporal-format.js';
import { planRecord, type Plan } from '../shred/plan.js';
import { isPlainObject } from '../shred/shred.js';
import { AvroTrevniWriter, avroColumns, parseAvroSchema } from '../trevni/avro.js';
import type { TrevniVersion } from '../trevni/version.js';
import { TrevniDraftWriter } from '../trevni/draft/writer.js';
import { draftColumns } from '../trevni/draft/schema.js';
import { checkVersionTypes } from '../trevni/writer.js';
import type { SpillFactory } from '../trevni/spill.js';
import { writerOutput, type CountingSink, type FileWriter, type RowOutput } from './output.js';

/** The field property holding a Parquet name that is not a valid Avro name. */
export const PARQUET_NAME = 'parquetry.name';

export interface TrevniOutputOptions {
  /** The file's codec: null, deflate, snappy or bzip2. */
  codec: string;
  /** The file's checksum: null or crc32. */
  checksum: string;
  /** Where the column blocks wait until every descriptor is written (the layout puts them after all of them). */
  spill: SpillFactory;
  /**
   * The Trevni version (default 2); version 1 has no boolean type: a boolean
   * column is refused, naming it, before anything is created. `draft`: the
   * wiki draft's Dremel dialect of version 1, which keeps the Parquet schema
   * as it is (no Avro mapping) and refuses the types it lacks, also before.
   */
  version?: TrevniVersion | 'draft';
}

type AvroJson = string | Record<string, unknown> | AvroJson[];

/** One field's Avro type and the conversion of its (non-null) JS values to Avro values. */
interface Mapped {
  type: AvroJson;
  /** The union branch name of `type`. */
  branch: string;
  convert: (v: unknown) => unknown;
}

const AVRO_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A valid Avro name for `name`. */
export function avroName(name: string): string {
  if (AVRO_NAME.test(name)) return name;
  const s = name.replace(/[^A-Za-z0-9_]/g, '_');
  return /^[A-Za-z_]/.test(s) ? s : `_${s}`;
}

/** Sets a property even when the name is `__proto__`. */
function put(o: Record<string, unknown>, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The Avro schema (as JSON) of a Parquet schema, and the row conversion. */
export function avroSchemaOf(schema: Schema): { json: AvroJson; convert: (row: Record<string, unknown>) => Record<string, unknown> } {
  const taken = new Set(['null', 'boolean', 'int', 'long', 'float', 'double', 'bytes', 'string', 'record', 'enum', 'array', 'map', 'fixed', 'error']);
  const named = (base: string): string => {
    let name = avroName(base);
    for (let k = 2; taken.has(name); k++) name = `${avroName(base)}_${k}`;
    taken.add(name);
    return name;
  };
  const plan = planRecord(schema.root);

  const nullable = (m: Mapped, column: string, isNullable: boolean): Mapped => {
    if (!isNullable) {
      return {
        ...m,
        convert: (v) => {
          if (v === null || v === undefined) throw new InvalidArgumentError(`a null in the required column ${column}`, { column });
          return m.convert(v);
        },
      };
    }
    if (m.type === 'null') return m;
    const { branch, convert } = m;
    return {
      type: ['null', m.type],
      branch: 'union',
      convert: (v) => {
        if (v === null || v === undefined) return null;
        const tagged: Record<string, unknown> = {};
        put(tagged, branch, convert(v));
        return tagged;
      },
    };
  };

  const record = (fields: { name: string; plan: Plan }[], path: string[], recordName: string): Mapped => {
    const used = new Set<string>();
    const parts = fields.map((f) => {
      let name = avroName(f.name);
      for (let k = 2; used.has(name); k++) name = `${avroName(f.name)}_${k}`;
      used.add(name);
      const m = field(f.plan, [...path, f.name]);
      const json: Record<string, unknown> = { name, type: m.type };
      if (name !== f.name) json[PARQUET_NAME] = f.name;
      return { from: f.name, name, json, convert: m.convert };
    });
    const column = path.join('.') || 'the row';
    return {
      type: { type: 'record', name: recordName, fields: parts.map((p) => p.json) },
      branch: recordName,
      convert: (v) => {
        if (!isPlainObject(v)) throw new InvalidArgumentError(`expected a struct (an object), got ${describeValue(v)}`, { column });
        const o: Record<string, unknown> = {};
        for (const p of parts) put(o, p.name, p.convert(Object.prototype.hasOwnProperty.call(v, p.from) ? v[p.from] : undefined));
        return o;
      },
    };
  };

  const field = (p: Plan, path: string[]): Mapped => {
    const column = path.join('.');
    let m: Mapped;
    switch (p.t) {
      case 'leaf':
        m = leaf(p.leaf, column, path);
        break;
      case 'struct':
        m = record(p.fields, path, named(path.join('_')));
        break;
      case 'list': {
        const element = field(p.element, [...path, 'element']);
        m = {
          type: { type: 'array', items: element.type },
          branch: 'array',
          convert: (v) => {
            if (!Array.isArray(v)) throw new InvalidArgumentError(`expected a list (an array), got ${describeValue(v)}`, { column });
            return v.map(element.convert);
          },
        };
        break;
      }
      case 'map': {
        const [keyField, valueField] = [p.entry.fields.find((f) => f.name === p.keyName), p.entry.fields.find((f) => f.name === p.valueName)];
        const keyPlan = keyField?.plan;
        if (!keyPlan || keyPlan.t !== 'leaf' || keyPlan.leaf.kind.kind !== 'string') {
          const what = keyPlan?.t === 'leaf' ? keyPlan.leaf.physicalType + (keyPlan.leaf.kind.kind === 'int' ? '' : ` (${keyPlan.leaf.kind.kind})`) : 'a nested type';
          throw new UnsupportedError(`cannot write this map to Trevni: its keys are ${what}, and Avro map keys are strings`, { column });
        }
        const key = leaf(keyPlan.leaf, `${column}.key`, [...path, 'key']);
        const value: Mapped = valueField ? field(valueField.plan, [...path, 'value']) : { type: 'null', branch: 'null', convert: () => null };
        m = {
          type: { type: 'map', values: value.type },
          branch: 'map',
          convert: (v) => {
            let entries: [unknown, unknown][];
            if (v instanceof Map) entries = [...v.entries()];
            else if (Array.isArray(v)) entries = v.map((e) => (isPlainObject(e) ? [e.key, e.value] : [undefined, undefined]));
            else if (isPlainObject(v)) entries = Object.entries(v);
            else throw new InvalidArgumentError(`expected a map (an array of { key, value }, a Map or an object), got ${describeValue(v)}`, { column });
            const out = new Map<string, unknown>();
            for (const [k, x] of entries) {
              if (k === null || k === undefined) throw new InvalidArgumentError('a map key is null', { column });
              const ks = key.convert(k) as string;
              if (out.has(ks)) throw new InvalidArgumentError(`the map key ${JSON.stringify(ks)} appears twice (an Avro map holds each key once)`, { column });
              out.set(ks, value.convert(x));
            }
            return out;
          },
        };
        break;
      }
      case 'variant':
        throw new UnsupportedError('cannot write VARIANT to Trevni: it has no Avro form', { column });
    }
    return nullable(m, column, p.nullable);
  };

  const leaf = (node: LeafNode, column: string, path: string[]): Mapped => {
    const coerce = leafCoercer(node);
    const k = node.kind;
    const simple = (type: AvroJson, convert: (v: unknown) => unknown): Mapped => ({
      type, branch: typeof type === 'string' ? type : ((type as Record<string, unknown>).name as string | undefined) ?? ((type as Record<string, unknown>).type as string), convert,
    });
    switch (k.kind) {
      case 'boolean':
        return simple('boolean', coerce);
      case 'int':
        if (k.bitWidth === 64) {
          if (k.signed) return simple('long', coerce);
          return simple('long', (v) => {
            const p = coerce(v) as bigint;
            if (p < 0n) throw new InvalidArgumentError(`the UINT64 value ${BigInt.asUintN(64, p)} is beyond an Avro long (2^63-1)`, { column });
            return p;
          });
        }
        if (k.bitWidth === 32 && !k.signed) return simple('long', (v) => BigInt((coerce(v) as number) >>> 0));
        return simple('int', coerce);
      case 'float':
        return simple(node.physicalType === 'FLOAT' ? 'float' : 'double', coerce);
      case 'float16':
        return simple('float', (v) => {
          const b = coerce(v) as Uint8Array;
          return float16(b[0]!, b[1]!);
        });
      case 'int96':
        return simple({ type: 'long', logicalType: 'timestamp-nanos' }, (v) => {
          const n = int96Nanos(coerce(v) as Uint8Array, 0);
          if (n < INT64_MIN || n > INT64_MAX) {
            throw new InvalidArgumentError(`the INT96 timestamp ${formatTimestamp(n, 'NANOS', true)} is beyond an Avro timestamp-nanos (int64 nanoseconds: years 1677 to 2262)`, { column });
          }
          return n;
        });
      case 'string':
        return simple('string', (v) => {
          const json = node.element.logicalType?.type === 'JSON' || node.element.convertedType === 'JSON';
          if (typeof v === 'string' && !json && node.physicalType === 'BYTE_ARRAY') return v;
          try {
            return strictUtf8.decode(coerce(v) as Uint8Array);
          } catch (e) {
            if (e instanceof InvalidArgumentError) throw e;
            throw new InvalidArgumentError('a string value is not valid UTF-8 (an Avro string must be)', { column });
          }
        });
      case 'bytes':
        if (node.physicalType === 'FIXED_LEN_BYTE_ARRAY' && node.typeLength! > 0) {
          return simple({ type: 'fixed', name: named(path.join('_')), size: node.typeLength! }, coerce);
        }
        return simple('bytes', coerce);
      case 'uuid':
        return simple({ type: 'string', logicalType: 'uuid' }, (v) => formatUuid(coerce(v) as Uint8Array, 0));
      case 'decimal':
        return simple({ type: 'bytes', logicalType: 'decimal', precision: k.precision, scale: k.scale }, (v) => {
          const p = coerce(v);
          return typeof p === 'number' || typeof p === 'bigint' ? twosComplementBytes(p, -1) : p;
        });
      case 'date':
        return simple({ type: 'int', logicalType: 'date' }, coerce);
      case 'time':
        if (k.unit === 'MILLIS') return simple({ type: 'int', logicalType: 'time-millis' }, coerce);
        return simple(k.unit === 'MICROS' ? { type: 'long', logicalType: 'time-micros' } : 'long', coerce);
      case 'timestamp':
        return simple({ type: 'long', logicalType: `${k.utc ? '' : 'local-'}timestamp-${k.unit.toLowerCase()}` }, coerce);
      case 'interval':
        return simple({ type: 'fixed', name: named(path.join('_')), size: 12, logicalType: 'duration' }, coerce);
      case 'null':
        return simple('null', () => null);
    }
  };

  const top = record(plan.fields, [], named(schema.root.name || 'Row'));
  return { json: top.type, convert: top.convert as (row: Record<string, unknown>) => Record<string, unknown> };
}

/** Trevni output on the sink `open` gives, opened once the schema is known to have an Avro form (nothing is created for one without). */
export async function trevniOutput(open: () => Promise<CountingSink>, schema: Schema, options: TrevniOutputOptions): Promise<RowOutput> {
  if (options.version === 'draft') return draftOutput(open, schema, options);
  const avro = avroSchemaOf(schema);
  const version = options.version ?? 2;
  checkVersionTypes(version, avroColumns(parseAvroSchema(avro.json)));
  return writerOutput(await open(), async (sink) => {
    const writer = await AvroTrevniWriter.open(sink, avro.json, { codec: options.codec, checksum: options.checksum, spill: options.spill, version, unknownFields: 'ignore' });
    return fileWriter(writer, avro.convert);
  });
}

/** A Trevni writer as the conversion drives it, each row converted first. */
function fileWriter<R>(
  writer: { readonly numRows: number; write(row: R): Promise<void>; close(): Promise<void>; abort(): Promise<void> },
  convert: (row: Record<string, unknown>) => R,
): FileWriter {
  return {
    get rows() {
      return writer.numRows;
    },
    write: (row) => writer.write(convert(row)),
    async close() {
      await writer.close();
      return { rows: writer.numRows };
    },
    abort: () => writer.abort(),
  };
}

/** The draft dialect's output: records as the Parquet writer takes them, shredded by the draft writer. */
async function draftOutput(open: () => Promise<CountingSink>, schema: Schema, options: TrevniOutputOptions): Promise<RowOutput> {
  draftColumns(schema);
  return writerOutput(await open(), async (sink) => {
    const writer = await TrevniDraftWriter.open(sink, schema, { codec: options.codec, checksum: options.checksum, spill: options.spill, unknownFields: 'ignore' });
    return fileWriter(writer, (row) => row);
  });
}
