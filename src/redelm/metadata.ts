/**
 * The `RedElm` metadata block: what `redelm.hadoop.RedElmMetaData` holds
 * (the schema text, the Hadoop codec's class name, and per row group the
 * offsets of every column's three sections), in the two forms a file can
 * carry: the Java serialization the prototype writes, and the JSON of its
 * `toJSON`, which the design page asks for.
 */
import { CorruptFileError } from '../errors.js';
import { decodeJavaStream, fieldsOf, type ClassDesc, type JavaObject, type JavaValue } from '../javaser/decode.js';
import { encodeJavaStream, type EncodableObject, type EncodableValue, type JavaString } from '../javaser/encode.js';

export const REDELM_TYPES = ['STRING', 'INT64', 'INT32', 'BOOLEAN', 'BINARY', 'FLOAT', 'DOUBLE'] as const;
/** RedElm's seven column types. */
export type RedElmType = (typeof REDELM_TYPES)[number];

/** One column of a RedElm row group: its path, type, entry count and where its three sections start. */
export interface RedElmColumnMeta {
  path: string[];
  type: RedElmType;
  /** Level entries (nulls included). */
  valueCount: number;
  repetitionStart: number;
  definitionStart: number;
  dataStart: number;
  dataEnd: number;
  repetitionUncompressedLength: number;
  definitionUncompressedLength: number;
  dataUncompressedLength: number;
}

/** One row group of a RedElm file: its byte range, records and columns. */
export interface RedElmBlockMeta {
  startIndex: number;
  endIndex: number;
  recordCount: number;
  columns: RedElmColumnMeta[];
}

/** The `RedElm` footer block: the schema text, the codec, and each row group. */
export interface RedElmMetaData {
  schema: string;
  codecClassName: string;
  blocks: RedElmBlockMeta[];
}

const LONG_FIELDS = [
  'dataEnd', 'dataStart', 'dataUncompressedLength', 'definitionStart', 'definitionUncompressedLength', 'repetitionStart', 'repetitionUncompressedLength',
] as const;

// The class descriptors exactly as the prototype's classes serialize (names, serialVersionUIDs, flags, fields in Java's order).
const str = 'Ljava/lang/String;';
const list = 'Ljava/util/List;';
const ENUM: ClassDesc = { t: 'class', name: 'java.lang.Enum', suid: 0n, flags: 0x12, fields: [], superDesc: null };
const PRIMITIVE: ClassDesc = { t: 'class', name: 'redelm.schema.PrimitiveType$Primitive', suid: 0n, flags: 0x12, fields: [], superDesc: ENUM };
const STRING_ARRAY: ClassDesc = { t: 'class', name: '[Ljava.lang.String;', suid: -5921575005990323385n, flags: 0x02, fields: [], superDesc: null };
const ARRAY_LIST: ClassDesc = { t: 'class', name: 'java.util.ArrayList', suid: 8683452581122892189n, flags: 0x03, fields: [{ code: 'I', name: 'size' }], superDesc: null };
const COLUMN: ClassDesc = {
  t: 'class', name: 'redelm.hadoop.ColumnMetaData', suid: 1n, flags: 0x02, superDesc: null,
  fields: [
    ...LONG_FIELDS.map((name) => ({ code: 'J', name })),
    { code: 'I', name: 'valueCount' },
    { code: '[', name: 'path', signature: '[Ljava/lang/String;' },
    { code: 'L', name: 'type', signature: 'Lredelm/schema/PrimitiveType$Primitive;' },
  ],
};
const BLOCK: ClassDesc = {
  t: 'class', name: 'redelm.hadoop.BlockMetaData', suid: 1n, flags: 0x02, superDesc: null,
  fields: [{ code: 'J', name: 'endIndex' }, { code: 'I', name: 'recordCount' }, { code: 'J', name: 'startIndex' }, { code: 'L', name: 'columns', signature: list }],
};
const FILE: ClassDesc = {
  t: 'class', name: 'redelm.hadoop.RedElmMetaData$FileMetaData', suid: 1n, flags: 0x02, superDesc: null,
  fields: [{ code: 'L', name: 'codecClassName', signature: str }, { code: 'L', name: 'schema', signature: str }],
};
const META: ClassDesc = {
  t: 'class', name: 'redelm.hadoop.RedElmMetaData', suid: 1n, flags: 0x02, superDesc: null,
  fields: [{ code: 'L', name: 'blocks', signature: list }, { code: 'L', name: 'fileMetaData', signature: `L${FILE.name.replace(/\./g, '/')};` }],
};
const CLASSES: ReadonlyMap<string, ClassDesc> = new Map([ENUM, PRIMITIVE, STRING_ARRAY, ARRAY_LIST, COLUMN, BLOCK, FILE, META].map((d) => [d.name, d]));
const CLASS_NAMES: ReadonlySet<string> = new Set(CLASSES.keys());
/** Each class's fields: a decoded object's values are in this order once Shape.object has checked it declares them. */
const LAYOUTS: ReadonlyMap<string, string> = new Map([...CLASSES.values()].map((d) => [d.name, layout(d)]));
const SLOTS: ReadonlyMap<string, ReadonlyMap<string, number>> = new Map([...CLASSES.values()].map((d) => [d.name, new Map(fieldsOf(d).map((f, i) => [f.name, i]))]));

function layout(d: ClassDesc): string {
  return fieldsOf(d).map((f) => `${f.code}${f.name}`).join(',');
}

/** A field of an object Shape.object has checked. */
function get(o: JavaObject, name: string): JavaValue {
  return o.values[SLOTS.get(o.cls.name)!.get(name)!] as JavaValue;
}

/**
 * Reads a `RedElm` block in either form: Java serialization (`AC ED`) or
 * JSON (`{`). `offset` is the block's file offset; `dataBytes`, the size of
 * the data area the row groups share, bounds how many columns the block may
 * describe before any is built.
 */
export function decodeRedElmMetaData(bytes: Uint8Array, offset: number, dataBytes: number, leafCount?: LeafCount): RedElmMetaData {
  if (bytes[0] === 0xac && bytes[1] === 0xed) {
    return fromJava(decodeJavaStream(bytes, { classes: CLASS_NAMES, offset, onCreate: createdWithin(dataBytes) }), offset, dataBytes, leafCount);
  }
  if (bytes[0] === 0x7b) return fromJson(bytes, offset, dataBytes, leafCount);
  throw new CorruptFileError('the RedElm metadata block is neither Java serialization nor JSON', { offset });
}

export function encodeRedElmMetaData(meta: RedElmMetaData, form: 'java' | 'json'): Uint8Array {
  return form === 'java' ? encodeJavaStream(toJava(meta)) : new TextEncoder().encode(toJson(meta));
}

// --- Java serialization -----------------------------------------------------

class Shape {
  /** Each ArrayList's elements, checked once: a list shared by many references is not copied at each. */
  private readonly lists = new WeakMap<JavaObject, JavaValue[]>();
  /** Each decoded class descriptor's fields, worked out once: the descriptors are shared by their objects. */
  private readonly layouts = new WeakMap<ClassDesc, string>();

  constructor(private readonly offset: number) {}

  fail(detail: string): never {
    throw new CorruptFileError(`RedElm metadata: ${detail}`, { offset: this.offset });
  }

  object(v: JavaValue, cls: ClassDesc, what: string): JavaObject {
    if (v === null || typeof v !== 'object' || v.t !== 'object' || v.cls.name !== cls.name) this.fail(`${what} is not a ${cls.name}`);
    // The fields are the class's own: a stream that declares others describes a different class.
    let declared = this.layouts.get(v.cls);
    if (declared === undefined) this.layouts.set(v.cls, (declared = layout(v.cls)));
    if (declared !== LAYOUTS.get(cls.name)) this.fail(`${what} (${cls.name}) declares fields ${declared}`);
    return v;
  }

  string(v: JavaValue, what: string): string {
    if (typeof v !== 'string') this.fail(`${what} is not a string`);
    return v;
  }

  count(v: JavaValue, what: string): number {
    if (typeof v === 'bigint') {
      if (v < 0n || v > BigInt(Number.MAX_SAFE_INTEGER)) this.fail(`${what} is ${v}`);
      return Number(v);
    }
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) this.fail(`${what} is ${String(v)}`);
    return v;
  }

  /** An ArrayList's elements: its size field, then (written by its writeObject) a capacity int and the elements. */
  list(v: JavaValue, what: string): JavaValue[] {
    const o = this.object(v, ARRAY_LIST, what);
    const seen = this.lists.get(o);
    if (seen) return seen;
    const size = this.count(get(o, 'size'), `${what}'s size`);
    const [capacity, ...items] = o.annotation;
    if (!(capacity instanceof Uint8Array) || capacity.length !== 4 || items.length !== size) {
      this.fail(`${what} holds ${items.length} elements after its capacity, its size says ${size}`);
    }
    const elements = items.map((item) => (item instanceof Uint8Array ? this.fail(`${what} holds block data among its elements`) : item));
    this.lists.set(o, elements);
    return elements;
  }

  /** The row groups' columns against what the data area can hold (see MIN_COLUMN_BYTES), on the lists' lengths, before any column is built. */
  columnsFit(columnLists: readonly (readonly unknown[])[], dataBytes: number): void {
    const columns = columnLists.reduce((n, l) => n + l.length, 0);
    if (columns * MIN_COLUMN_BYTES > dataBytes) this.fail(`${columnLists.length} row group${columnLists.length === 1 ? '' : 's'} list${columnLists.length === 1 ? 's' : ''} ${columns} columns, but the data area holds ${dataBytes} bytes and each column takes at least ${MIN_COLUMN_BYTES}`);
  }
}

/**
 * The fewest bytes of the data area a column takes: its sections are
 * streams of the file's codec, and no Hadoop codec's is shorter than
 * Snappy's framing of nothing (a zero length, 4 bytes); the reader refuses
 * a column whose three sections are all empty, and sections of different
 * columns do not overlap (see checkBlocks).
 */
const MIN_COLUMN_BYTES = 4;

/**
 * Refuses the stream's objects of a class past the columns the data area
 * can hold plus one, as each is created: every row group has a column, and
 * every object a footer holds is a column or row group, or their path, type
 * or column list, or one of the root's three (itself, its file metadata, its
 * blocks list).
 */
function createdWithin(dataBytes: number): (cls: ClassDesc, at: number) => void {
  const created = new Map<string, number>();
  const most = Math.floor(dataBytes / MIN_COLUMN_BYTES) + 1;
  return (cls, at) => {
    const n = (created.get(cls.name) ?? 0) + 1;
    if (n > most) {
      throw new CorruptFileError(`RedElm metadata: the stream holds more than ${most} ${cls.name} objects, but the data area holds ${dataBytes} bytes and each column takes at least ${MIN_COLUMN_BYTES}`, { offset: at });
    }
    created.set(cls.name, n);
  };
}

/** The leaves of a schema text: given, every row group must list that many columns, checked before any column is built. */
export type LeafCount = (schema: string) => number;

/** Each row group's column list against the schema's leaves, before a column is built: back-references let a small stream list one column 100,000 times. */
function columnsMatch(columnLists: readonly (readonly unknown[])[], schema: string, leafCount: LeafCount | undefined, offset: number): void {
  if (!leafCount) return;
  const leaves = leafCount(schema);
  columnLists.forEach((l, g) => {
    if (l.length !== leaves) throw new CorruptFileError(`row group has ${l.length} columns, the schema ${leaves} leaves`, { offset, rowGroup: g });
  });
}

function fromJava(root: JavaValue, offset: number, dataBytes: number, leafCount?: LeafCount): RedElmMetaData {
  const s: Shape = new Shape(offset);
  const meta = s.object(root, META, 'the block');
  const file = s.object(get(meta, 'fileMetaData'), FILE, 'fileMetaData');
  const blockObjects = s.list(get(meta, 'blocks'), 'blocks').map((b, i) => s.object(b, BLOCK, `block ${i}`));
  const columnLists = blockObjects.map((block, i) => s.list(get(block, 'columns'), `block ${i}'s columns`));
  s.columnsFit(columnLists, dataBytes);
  const schema = s.string(get(file, 'schema'), 'the schema');
  columnsMatch(columnLists, schema, leafCount, offset);
  const blocks = blockObjects.map((block, i) => {
    const columns = columnLists[i]!.map((c, j) => {
      const what = `block ${i} column ${j}`;
      const col = s.object(c, COLUMN, what);
      const path = get(col, 'path');
      if (path === null || typeof path !== 'object' || path.t !== 'array' || path.cls.name !== STRING_ARRAY.name || !Array.isArray(path.items)) s.fail(`${what}'s path is not a String[]`);
      const type = get(col, 'type');
      if (type === null || typeof type !== 'object' || type.t !== 'enum' || type.cls.name !== PRIMITIVE.name) s.fail(`${what}'s type is not a PrimitiveType.Primitive`);
      const longs = Object.fromEntries(LONG_FIELDS.map((f) => [f, s.count(get(col, f), `${what}'s ${f}`)])) as Record<(typeof LONG_FIELDS)[number], number>;
      return checkColumn(s, what, {
        path: path.items.map((p, k) => s.string(p, `${what}'s path[${k}]`)),
        type: primitiveType(s, type.name, what),
        valueCount: s.count(get(col, 'valueCount'), `${what}'s valueCount`),
        ...longs,
      });
    });
    return {
      startIndex: s.count(get(block, 'startIndex'), `block ${i}'s startIndex`),
      endIndex: s.count(get(block, 'endIndex'), `block ${i}'s endIndex`),
      recordCount: s.count(get(block, 'recordCount'), `block ${i}'s recordCount`),
      columns,
    };
  });
  return { schema, codecClassName: s.string(get(file, 'codecClassName'), 'the codec class name'), blocks };
}

function primitiveType(s: Shape, name: unknown, what: string): RedElmType {
  if (!(REDELM_TYPES as readonly unknown[]).includes(name)) s.fail(`${what} has unknown type ${JSON.stringify(name)}`);
  return name as RedElmType;
}

/** Sections in order, each after the one before: what the writer records, and what reading needs to trust the lengths. */
function checkColumn(s: Shape, what: string, c: RedElmColumnMeta): RedElmColumnMeta {
  if (!(c.repetitionStart <= c.definitionStart && c.definitionStart <= c.dataStart && c.dataStart <= c.dataEnd)) {
    s.fail(`${what}'s sections are out of order (${c.repetitionStart}, ${c.definitionStart}, ${c.dataStart}, ${c.dataEnd})`);
  }
  return c;
}

/**
 * The object graph Java serializes. Strings are Java objects of their own:
 * a path component is the name of one schema field, the same String in every
 * column and row group under that field, while two fields of the same name
 * have two Strings (so `x` of `g.x` and of `r.h.x` are written twice).
 */
function toJava(meta: RedElmMetaData): EncodableValue {
  // The Strings by field, as a tree of path prefixes: a key per prefix (its components joined) took time and memory quadratic in a path's length.
  interface Field { s?: JavaString; children: Map<string, Field> }
  const root: Field = { children: new Map() };
  const names = (path: string[]): JavaString[] => {
    let node = root;
    return path.map((component) => {
      let next = node.children.get(component);
      if (!next) node.children.set(component, (next = { s: { t: 'string', value: component }, children: new Map() }));
      node = next;
      return next.s!;
    });
  };
  const list = (items: EncodableValue[]): EncodableObject => {
    const capacity = new Uint8Array(4);
    new DataView(capacity.buffer).setInt32(0, items.length);
    return { t: 'object', cls: ARRAY_LIST, fields: new Map([['size', items.length]]), annotation: [capacity, ...items] };
  };
  const object = (cls: ClassDesc, fields: [string, EncodableValue][]): EncodableObject => ({ t: 'object', cls, fields: new Map(fields), annotation: [] });
  const blocks = meta.blocks.map((b) => object(BLOCK, [
    ['endIndex', BigInt(b.endIndex)], ['recordCount', b.recordCount], ['startIndex', BigInt(b.startIndex)],
    ['columns', list(b.columns.map((c) => object(COLUMN, [
      ...LONG_FIELDS.map((f): [string, EncodableValue] => [f, BigInt(c[f])]),
      ['valueCount', c.valueCount],
      ['path', { t: 'array', cls: STRING_ARRAY, items: names(c.path) }],
      ['type', { t: 'enum', cls: PRIMITIVE, name: c.type }],
    ])))],
  ]));
  return object(META, [['blocks', list(blocks)], ['fileMetaData', object(FILE, [['codecClassName', { t: 'string', value: meta.codecClassName }], ['schema', { t: 'string', value: meta.schema }]])]]);
}

// --- JSON ---------------------------------------------------------------------

function fromJson(bytes: Uint8Array, offset: number, dataBytes: number, leafCount?: LeafCount): RedElmMetaData {
  const s: Shape = new Shape(offset);
  let doc: unknown;
  try {
    doc = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (e) {
    return s.fail(`the JSON block does not parse: ${e instanceof Error ? e.message : String(e)}`);
  }
  const obj = (v: unknown, what: string): Record<string, unknown> => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) s.fail(`${what} is not an object`);
    return v as Record<string, unknown>;
  };
  const arr = (v: unknown, what: string): unknown[] => (Array.isArray(v) ? v : s.fail(`${what} is not an array`));
  const num = (v: unknown, what: string): number => s.count(typeof v === 'number' ? v : Number.NaN, what);
  const str = (v: unknown, what: string): string => (typeof v === 'string' ? v : s.fail(`${what} is not a string`));
  const root = obj(doc, 'the block');
  const file = obj(root.fileMetaData, 'fileMetaData');
  const blockObjects = arr(root.blocks, 'blocks').map((b, i) => obj(b, `block ${i}`));
  const columnLists = blockObjects.map((block, i) => arr(block.columns, `block ${i}'s columns`));
  s.columnsFit(columnLists, dataBytes);
  const schema = str(file.schema, 'the schema');
  columnsMatch(columnLists, schema, leafCount, offset);
  const blocks = blockObjects.map((block, i) => ({
    startIndex: num(block.startIndex, `block ${i}'s startIndex`),
    endIndex: num(block.endIndex, `block ${i}'s endIndex`),
    recordCount: num(block.recordCount, `block ${i}'s recordCount`),
    columns: columnLists[i]!.map((c, j) => {
      const what = `block ${i} column ${j}`;
      const col = obj(c, what);
      const longs = Object.fromEntries(LONG_FIELDS.map((f) => [f, num(col[f], `${what}'s ${f}`)])) as Record<(typeof LONG_FIELDS)[number], number>;
      return checkColumn(s, what, {
        path: arr(col.path, `${what}'s path`).map((p, k) => str(p, `${what}'s path[${k}]`)),
        type: primitiveType(s, col.type, what),
        valueCount: num(col.valueCount, `${what}'s valueCount`),
        ...longs,
      });
    }),
  }));
  return { schema, codecClassName: str(file.codecClassName, 'the codec class name'), blocks };
}

/** `RedElmMetaData.toJSON`'s text: Jackson 1.9's property order (declared fields, then the getter-only lengths and ends), no spaces. */
function toJson(meta: RedElmMetaData): string {
  return JSON.stringify({
    fileMetaData: { schema: meta.schema, codecClassName: meta.codecClassName },
    blocks: meta.blocks.map((b) => ({
      startIndex: b.startIndex,
      endIndex: b.endIndex,
      columns: b.columns.map((c) => ({
        repetitionStart: c.repetitionStart, definitionStart: c.definitionStart, dataStart: c.dataStart, dataEnd: c.dataEnd,
        path: c.path, type: c.type, valueCount: c.valueCount,
        repetitionUncompressedLength: c.repetitionUncompressedLength, definitionUncompressedLength: c.definitionUncompressedLength, dataUncompressedLength: c.dataUncompressedLength,
        repetitionEnd: c.definitionStart, definitionEnd: c.dataStart, columnEnd: c.dataEnd, columnStart: c.repetitionStart,
        repetitionLength: c.definitionStart - c.repetitionStart, definitionLength: c.dataStart - c.definitionStart, dataLength: c.dataEnd - c.dataStart,
        columnLength: c.dataEnd - c.repetitionStart,
      })),
      recordCount: b.recordCount,
    })),
  });
}
