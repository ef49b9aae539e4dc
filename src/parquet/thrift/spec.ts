/**
 * A small declarative description of thrift types, one table per struct.
 * `codec.ts` compiles each table once into codecs (generated code for the
 * decode fast path, closures otherwise; see there).
 *
 * How values look in TypeScript:
 * - bool: boolean; i8/i16/i32: number; i64: number (must be a safe integer,
 *   for offsets, sizes and counts) or bigint (`i64big`, full range);
 *   double: number; string: string; binary/uuid: Uint8Array (a copy);
 *   list/set: array; map: Map.
 * - enum: the member name as a string; an unknown number reads as
 *   `UNKNOWN_<n>` (and writes back as n).
 * - struct: an object whose keys are the camelCase field names. Absent
 *   optional fields are absent (not present-and-undefined).
 * - union: an object `{ type: MEMBER_NAME, ...fields of the member struct }`;
 *   an unknown member reads as `{ type: 'UNKNOWN_FIELD_<id>' }` (and writes
 *   back as an empty struct with that id); a union with no member set reads
 *   as `{ type: 'UNKNOWN_FIELD_0' }`.
 * - unit union (a union whose members are all empty structs, like TimeUnit):
 *   just the member name as a string, or `UNKNOWN_FIELD_<id>`.
 */

export type Spec =
  | { readonly kind: 'bool' }
  | { readonly kind: 'i8' }
  | { readonly kind: 'i16' }
  | { readonly kind: 'i32' }
  | { readonly kind: 'i64' }
  | { readonly kind: 'i64big' }
  | { readonly kind: 'double' }
  | { readonly kind: 'string' }
  | { readonly kind: 'binary' }
  | { readonly kind: 'uuid' }
  | EnumSpec
  | ListSpec
  | MapSpec
  | StructSpec
  | UnionSpec
  | UnitUnionSpec;

export interface EnumSpec {
  readonly kind: 'enum';
  readonly name: string;
  /** names[n] = the member with value n (holes allowed). */
  readonly names: readonly (string | undefined)[];
}

export interface ListSpec {
  readonly kind: 'list';
  readonly elem: Spec;
  /** Write as a set (type 10) instead of a list (type 9). Both are accepted on read. */
  readonly set?: boolean;
}

export interface MapSpec {
  readonly kind: 'map';
  readonly key: Spec;
  readonly value: Spec;
}

export interface FieldSpec {
  readonly id: number;
  /** The name in the .thrift file (used in error messages). */
  readonly thriftName: string;
  /** The property name in TypeScript (camelCase of thriftName). */
  readonly key: string;
  readonly type: Spec;
  readonly required: boolean;
  /**
   * For a required field: the value to assume when a file leaves it out
   * (leniency for writers known to omit it), and to write when the object
   * has none. Undefined = missing is corrupt.
   */
  readonly missingDefault?: unknown;
}

export interface StructSpec {
  readonly kind: 'struct';
  readonly name: string;
  readonly fields: readonly FieldSpec[];
}

export interface UnionMember {
  readonly id: number;
  /** The discriminant: the member's field name in the .thrift union. */
  readonly name: string;
  readonly struct: StructSpec;
}

export interface UnionSpec {
  readonly kind: 'union';
  readonly name: string;
  readonly members: readonly UnionMember[];
}

export interface UnitUnionSpec {
  readonly kind: 'unitUnion';
  readonly name: string;
  readonly members: readonly { readonly id: number; readonly name: string }[];
}

/** snake_case to camelCase; names without underscores are kept as they are. */
export function camelCase(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, ch: string) => ch.toUpperCase());
}

/** Field description tuple: [id, thrift name, type, 'required' | 'optional', missing default]. */
export type FieldTuple = readonly [number, string, Spec, ('required' | 'optional')?, unknown?];

/** Builders for the tables. */
export const T = {
  bool: { kind: 'bool' } as Spec,
  i8: { kind: 'i8' } as Spec,
  i16: { kind: 'i16' } as Spec,
  i32: { kind: 'i32' } as Spec,
  /** i64 held as a number: must be a safe integer (offsets, sizes, counts). */
  i64: { kind: 'i64' } as Spec,
  /** i64 held as a bigint (full range). */
  i64big: { kind: 'i64big' } as Spec,
  double: { kind: 'double' } as Spec,
  string: { kind: 'string' } as Spec,
  binary: { kind: 'binary' } as Spec,
  uuid: { kind: 'uuid' } as Spec,
  list(elem: Spec): ListSpec {
    return { kind: 'list', elem };
  },
  set(elem: Spec): ListSpec {
    return { kind: 'list', elem, set: true };
  },
  map(key: Spec, value: Spec): MapSpec {
    return { kind: 'map', key, value };
  },
  /** An enum from a { NAME: value } table. */
  enum(name: string, values: Readonly<Record<string, number>>): EnumSpec {
    const names: (string | undefined)[] = [];
    for (const [k, v] of Object.entries(values)) names[v] = k;
    return { kind: 'enum', name, names };
  },
  struct(name: string, fields: readonly FieldTuple[] = []): StructSpec {
    const seen = new Set<number>();
    const out: FieldSpec[] = [];
    for (const [id, thriftName, type, req, missingDefault] of fields) {
      if (seen.has(id)) throw new Error(`${name}: duplicate field id ${id}`);
      seen.add(id);
      out.push({ id, thriftName, key: camelCase(thriftName), type, required: req === 'required', missingDefault });
    }
    out.sort((a, b) => a.id - b.id);
    return { kind: 'struct', name, fields: out };
  },
  /** A union; each member is [id, discriminant, member struct]. */
  union(name: string, members: readonly (readonly [number, string, StructSpec])[]): UnionSpec {
    return { kind: 'union', name, members: members.map(([id, n, struct]) => ({ id, name: n, struct })) };
  },
  /** A union of empty structs, held as the member name. */
  unitUnion(name: string, members: readonly (readonly [number, string])[]): UnitUnionSpec {
    return { kind: 'unitUnion', name, members: members.map(([id, n]) => ({ id, name: n })) };
  },
};
