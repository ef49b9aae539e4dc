import { CorruptFileError } from '../errors.js';
import type { PhysicalType } from '../encodings/types.js';
import type { Edges } from '../geo/bounds.js';

/**
 * What a leaf's bytes mean, resolved once from the logical type, the legacy
 * converted type and the physical type, in that order of precedence
 * (CANONICAL.md: a logical type wins; an unknown one falls back to the
 * converted type, then to the physical type).
 */
export type TimeUnit = 'MILLIS' | 'MICROS' | 'NANOS';

/** What a leaf's bytes mean, from its logical type, else its converted type, else its physical type. */
export type LeafKind =
  | { kind: 'boolean' }
  | { kind: 'int'; bitWidth: 8 | 16 | 32 | 64; signed: boolean }
  | { kind: 'float' } // FLOAT and DOUBLE
  | { kind: 'float16' }
  | { kind: 'int96' } // legacy timestamp: nanoseconds, adjusted to UTC
  | { kind: 'string' } // STRING/UTF8, ENUM, JSON: all text
  | { kind: 'bytes' } // unannotated binary, BSON, GEOMETRY, GEOGRAPHY
  | { kind: 'uuid' }
  | { kind: 'decimal'; precision: number; scale: number }
  | { kind: 'date' }
  | { kind: 'time'; unit: TimeUnit; utc: boolean }
  | { kind: 'timestamp'; unit: TimeUnit; utc: boolean }
  | { kind: 'interval' }
  | { kind: 'null' }; // UNKNOWN logical type: always null

/** Group annotations that change how a group assembles. */
export type GroupKind = 'struct' | 'list' | 'map' | 'variant';

/** A thrift LogicalType union value: `type` names the member, its fields sit beside it. */
export type LogicalTypeLike = { type: string } | { type: string; [k: string]: unknown };

const UNITS = new Set(['MILLIS', 'MICROS', 'NANOS']);
const TEXT = new Set(['STRING', 'ENUM', 'JSON']);
const TEXT_CONVERTED = new Set(['UTF8', 'ENUM', 'JSON']);

/**
 * A decimal's scale sizes every value's text, so one from a corrupt footer
 * must be checked before use: 0 <= scale <= precision, as the spec requires.
 */
function decimal(precision: number, scale: number): LeafKind {
  if (!(Number.isInteger(precision) && Number.isInteger(scale) && precision >= 1 && scale >= 0 && scale <= precision && precision <= MAX_PRECISION)) {
    throw new CorruptFileError(`DECIMAL(${precision}, ${scale}) is not a valid decimal type (need 1 <= precision <= ${MAX_PRECISION} and 0 <= scale <= precision)`);
  }
  return { kind: 'decimal', precision, scale };
}

/** Far above any storage's digits (a 16-byte value holds 38), far below what breaks text formatting. */
const MAX_PRECISION = 1000;

export function fromLogical(logical: LogicalTypeLike, physical: PhysicalType): LeafKind | undefined {
  const lt = logical as LogicalTypeLike & Record<string, unknown>;
  const t = lt.type;
  if (TEXT.has(t)) return { kind: 'string' };
  switch (t) {
    case 'BSON':
    case 'GEOMETRY':
    case 'GEOGRAPHY':
      return { kind: 'bytes' };
    case 'UUID':
      return { kind: 'uuid' };
    case 'DECIMAL':
      return decimal(Number(lt.precision), Number(lt.scale));
    case 'DATE':
      return { kind: 'date' };
    case 'TIME':
    case 'TIMESTAMP': {
      // A unit added after this version reads as unknown: fall back to the converted type.
      if (!UNITS.has(lt.unit as string)) return undefined;
      return { kind: t === 'TIME' ? 'time' : 'timestamp', unit: lt.unit as TimeUnit, utc: Boolean(lt.isAdjustedToUTC) };
    }
    case 'INTEGER': {
      const w = Number(lt.bitWidth);
      if (w !== 8 && w !== 16 && w !== 32 && w !== 64) return undefined;
      return { kind: 'int', bitWidth: w, signed: Boolean(lt.isSigned) };
    }
    case 'FLOAT16':
      return physical === 'FIXED_LEN_BYTE_ARRAY' ? { kind: 'float16' } : undefined;
    case 'UNKNOWN':
      return { kind: 'null' };
    default:
      return undefined; // unknown to us: fall back to the converted type
  }
}

export function fromConverted(ct: string, scale: number | undefined, precision: number | undefined): LeafKind | undefined {
  if (TEXT_CONVERTED.has(ct)) return { kind: 'string' };
  switch (ct) {
    case 'BSON':
      return { kind: 'bytes' };
    case 'DECIMAL':
      return decimal(precision ?? 0, scale ?? 0);
    case 'DATE':
      return { kind: 'date' };
    case 'TIME_MILLIS':
      return { kind: 'time', unit: 'MILLIS', utc: true };
    case 'TIME_MICROS':
      return { kind: 'time', unit: 'MICROS', utc: true };
    case 'TIMESTAMP_MILLIS':
      return { kind: 'timestamp', unit: 'MILLIS', utc: true };
    case 'TIMESTAMP_MICROS':
      return { kind: 'timestamp', unit: 'MICROS', utc: true };
    case 'INTERVAL':
      return { kind: 'interval' };
    case 'INT_8': return { kind: 'int', bitWidth: 8, signed: true };
    case 'INT_16': return { kind: 'int', bitWidth: 16, signed: true };
    case 'INT_32': return { kind: 'int', bitWidth: 32, signed: true };
    case 'INT_64': return { kind: 'int', bitWidth: 64, signed: true };
    case 'UINT_8': return { kind: 'int', bitWidth: 8, signed: false };
    case 'UINT_16': return { kind: 'int', bitWidth: 16, signed: false };
    case 'UINT_32': return { kind: 'int', bitWidth: 32, signed: false };
    case 'UINT_64': return { kind: 'int', bitWidth: 64, signed: false };
    default:
      return undefined;
  }
}

function fromPhysical(physical: PhysicalType): LeafKind {
  switch (physical) {
    case 'BOOLEAN': return { kind: 'boolean' };
    case 'INT32': return { kind: 'int', bitWidth: 32, signed: true };
    case 'INT64': return { kind: 'int', bitWidth: 64, signed: true };
    case 'INT96': return { kind: 'int96' };
    case 'FLOAT':
    case 'DOUBLE': return { kind: 'float' };
    case 'BYTE_ARRAY':
    case 'FIXED_LEN_BYTE_ARRAY': return { kind: 'bytes' };
  }
}

/** Physical types each kind can be stored in; a mismatch falls back to the physical reading. */
function fits(k: LeafKind, physical: PhysicalType, typeLength: number | undefined): boolean {
  const binary = physical === 'BYTE_ARRAY' || physical === 'FIXED_LEN_BYTE_ARRAY';
  switch (k.kind) {
    case 'string': case 'bytes': return binary;
    case 'uuid': return physical === 'FIXED_LEN_BYTE_ARRAY' && typeLength === 16;
    case 'float16': return physical === 'FIXED_LEN_BYTE_ARRAY' && typeLength === 2;
    case 'interval': return physical === 'FIXED_LEN_BYTE_ARRAY' && typeLength === 12;
    case 'decimal': return physical === 'INT32' || physical === 'INT64' || binary;
    case 'date': return physical === 'INT32';
    case 'time': return k.unit === 'MILLIS' ? physical === 'INT32' : physical === 'INT64';
    case 'timestamp': return physical === 'INT64';
    case 'int': return k.bitWidth === 64 ? physical === 'INT64' : physical === 'INT32';
    case 'null': return true;
    default: return true;
  }
}

export function resolveLeafKind(
  physical: PhysicalType,
  typeLength: number | undefined,
  logicalType: LogicalTypeLike | undefined,
  convertedType: string | undefined,
  scale: number | undefined,
  precision: number | undefined,
): LeafKind {
  const candidates = [
    logicalType ? fromLogical(logicalType, physical) : undefined,
    convertedType ? fromConverted(convertedType, scale, precision) : undefined,
  ];
  for (const k of candidates) if (k && fits(k, physical, typeLength)) return k;
  return fromPhysical(physical);
}

export function resolveGroupKind(logicalType: LogicalTypeLike | undefined, convertedType: string | undefined): GroupKind {
  const t = logicalType?.type;
  if (t === 'LIST') return 'list';
  if (t === 'MAP') return 'map';
  if (t === 'VARIANT') return 'variant';
  if (convertedType === 'LIST') return 'list';
  if (convertedType === 'MAP' || convertedType === 'MAP_KEY_VALUE') return 'map';
  return 'struct';
}

/** How a GEOMETRY or GEOGRAPHY column's edges run (an unknown algorithm as an ellipsoid's); undefined for other columns. */
export function geoEdges(logicalType: LogicalTypeLike | undefined): Edges | undefined {
  const lt = logicalType as { type?: string; algorithm?: string } | undefined;
  if (lt?.type === 'GEOMETRY') return 'planar';
  if (lt?.type !== 'GEOGRAPHY') return undefined;
  return lt.algorithm === undefined || lt.algorithm === 'SPHERICAL' ? 'spherical' : 'ellipsoidal';
}
