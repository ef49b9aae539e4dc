/**
 * A decoder for Java Object Serialization streams (protocol 5), limited to
 * what plain serializable classes produce: objects with their field values
 * and writeObject annotations, object and primitive arrays, strings, enums,
 * nulls and back-references. Proxies, class objects, exceptions and resets
 * are refused, and so is every class not on the caller's list, so a stream
 * can only describe the objects the caller expects. Nothing is instantiated:
 * the result is a tree of plain values for the caller to check.
 *
 * Every count is bounded by the bytes left before anything is allocated,
 * handles must point at something already read, and nesting is limited, so
 * decoding costs at most a small multiple of the stream's size. The tree a
 * caller walks is another matter: a back-reference shares an object, so a
 * few bytes can repeat a large subtree, and references to references
 * multiply (600 references to a list of 600 references to an array of 600
 * strings expand to 216M values from 10 KB). The decoder counts the values
 * each object expands to, shared ones counted at every use, and refuses a
 * stream whose expansion exceeds MAX_EXPANSION_PER_BYTE values per byte.
 *
 * What is built per object is kept small, since a stream of distinct small
 * objects is legitimately many objects (a 24 MB footer of 280,000 columns):
 * field values in an array in the descriptors' order rather than a Map by
 * name, a long as a number when it is exact, primitive arrays as typed
 * arrays, and one shared empty annotation. A Map and a bigint per field made
 * the tree about 1 KB a column, 18 times the stream.
 */
import { ByteCursor } from '../bytes/cursor.js';
import { CorruptFileError, LimitError } from '../errors.js';
import { decodeModifiedUtf8 } from './modified-utf8.js';
import * as tc from './protocol.js';

export interface FieldDesc {
  /** The type code: B C D F I J S Z, `L` (object) or `[` (array). */
  code: string;
  name: string;
  /** For `L` and `[`: the JVM type signature (`Ljava/lang/String;`). */
  signature?: string;
}

export interface ClassDesc {
  t: 'class';
  name: string;
  suid: bigint;
  flags: number;
  fields: FieldDesc[];
  superDesc: ClassDesc | null;
}

export interface JavaObject {
  t: 'object';
  cls: ClassDesc;
  /** Field values of every class in the hierarchy, in fieldsOf(cls)'s order (`fieldValue` finds one by name). */
  values: JavaValue[];
  /** What the classes' writeObject methods wrote after the fields: block data and objects, in order. */
  annotation: readonly (Uint8Array | JavaValue)[];
  /** Values the object expands to, itself included, a shared one counted at each use (1 while it is still being read: a reference to it then closes a cycle). */
  expansion: number;
}

/** A primitive array's elements (`Z` as 0 and 1, `J` as BigInt64Array). */
export type PrimitiveItems = Int8Array | Uint8Array | Uint16Array | Int16Array | Int32Array | BigInt64Array | Float32Array | Float64Array;

export interface JavaArray {
  t: 'array';
  cls: ClassDesc;
  items: JavaValue[] | PrimitiveItems;
  /** As JavaObject's. */
  expansion: number;
}

export interface JavaEnum {
  t: 'enum';
  cls: ClassDesc;
  name: string;
}

/** A `J` is a number when it is a safe integer, else a bigint. */
export type JavaValue = null | string | number | bigint | boolean | JavaObject | JavaArray | JavaEnum;

type Handle = Exclude<JavaValue, null | number | bigint | boolean> | ClassDesc;

export interface DecodeOptions {
  /** Class names the stream may describe (array classes included, e.g. `[Ljava.lang.String;`). */
  classes: ReadonlySet<string>;
  /** File offset of the stream's first byte, for error locations. */
  offset?: number;
  /**
   * Called as each object, array or enum constant is created, before its
   * contents are read, with its file offset: a caller that knows how many of
   * a class its data can back throws there, rather than after the stream's
   * bytes have all become objects (a 12 MB stream of 140,000 columns for a
   * file with room for 67,000 took 170 MB to refuse).
   */
  onCreate?: (cls: ClassDesc, offset: number) => void;
}

/** Deepest nesting of objects in objects: far above what serialized metadata needs, far below the stack. */
export const MAX_DEPTH = 64;

/**
 * Most values a stream may expand to (every value of the tree, a shared
 * object counted at each of its uses), per byte of the stream. Without
 * back-references a value takes at least a byte, so only sharing goes past
 * 1; RedElm footers written by the prototype expand to at most 0.1 per byte
 * (measured over the shared corpus), and even a footer of unshared
 * references could not pass 0.2 (5 bytes a reference): 8 leaves a margin of
 * 40 over that while bounding what a caller builds from a 10 KB stream to
 * 80,000 values.
 */
export const MAX_EXPANSION_PER_BYTE = 8;

const PRIMITIVE_SIZE: Record<string, number> = { B: 1, C: 2, D: 8, F: 4, I: 4, J: 8, S: 2, Z: 1 };

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

const NO_ANNOTATION: readonly never[] = Object.freeze([]);

/** A class and its superclasses, superclass first. `offset` locates the error of a cyclic chain. */
function chainOf(cls: ClassDesc, offset?: number): ClassDesc[] {
  const chain: ClassDesc[] = [];
  for (let d: ClassDesc | null = cls; d !== null; d = d.superDesc) {
    // Descriptors nest at most MAX_DEPTH deep when read, but a reference can close a cycle.
    if (chain.length === MAX_DEPTH) throw new CorruptFileError(`Java serialization: class ${cls.name} has more than ${MAX_DEPTH} superclasses`, offset === undefined ? {} : { offset });
    chain.push(d);
  }
  return chain.reverse();
}

/** The fields of a class and its superclasses, superclass first: the order of an object's values. */
export function fieldsOf(cls: ClassDesc): FieldDesc[] {
  return chainOf(cls).flatMap((d) => d.fields);
}

/** The value of an object's field by name (the subclass's when a superclass has one of the same name), undefined when it has none. */
export function fieldValue(o: JavaObject, name: string): JavaValue | undefined {
  const fields = fieldsOf(o.cls);
  for (let i = fields.length - 1; i >= 0; i--) if (fields[i]!.name === name) return o.values[i];
  return undefined;
}

/** Decodes the one object a stream holds (its first content); bytes after it are an error. */
export function decodeJavaStream(bytes: Uint8Array, options: DecodeOptions): JavaValue {
  return new StreamDecoder(bytes, options).stream();
}

class StreamDecoder {
  private readonly c: ByteCursor;
  private readonly handles: Handle[] = [];
  private depth = 0;
  private readonly maxExpansion: number;

  constructor(bytes: Uint8Array, private readonly options: DecodeOptions) {
    this.c = new ByteCursor(bytes, 0, bytes.length, options.offset ?? 0);
    this.maxExpansion = MAX_EXPANSION_PER_BYTE * bytes.length;
  }

  /**
   * `n`, what `v` expands to so far, with `part` added: counted as each part
   * is read, so a list of references is refused at the first past the
   * budget, not after it is built. `v` keeps 1 until it is finished.
   */
  private grows(v: JavaObject | JavaArray, n: number, part: JavaValue | Uint8Array, at: number): number {
    n += part !== null && typeof part === 'object' && !(part instanceof Uint8Array) && part.t !== 'enum' ? part.expansion : 1;
    if (n > this.maxExpansion) {
      throw new LimitError(
        `Java serialization: the ${v.cls.name} ${v.t === 'array' ? 'array' : 'object'} expands through back-references to more than ${this.maxExpansion} values, the most a ${this.c.end}-byte stream may (${MAX_EXPANSION_PER_BYTE} a byte)`,
        { offset: this.c.base + at },
      );
    }
    return n;
  }

  private fail(detail: string, at = this.c.pos): never {
    throw new CorruptFileError(`Java serialization: ${detail}`, { offset: this.c.base + at });
  }

  stream(): JavaValue {
    if (this.c.remaining < 4 || this.c.u16be() !== tc.STREAM_MAGIC) this.fail('not a serialization stream (no ACED magic)', 0);
    const version = this.c.u16be();
    if (version !== tc.STREAM_VERSION) this.fail(`stream version ${version}, expected ${tc.STREAM_VERSION}`, 2);
    const value = this.content();
    if (this.c.remaining !== 0) this.fail(`${this.c.remaining} bytes after the object`);
    return value;
  }

  private assign(h: Handle): void {
    this.handles.push(h);
  }

  private reference(): Handle {
    const at = this.c.pos;
    const n = this.c.i32be() - tc.BASE_WIRE_HANDLE;
    if (n < 0 || n >= this.handles.length) this.fail(`back-reference to handle 0x${(n + tc.BASE_WIRE_HANDLE).toString(16)}, but only ${this.handles.length} objects precede it`, at);
    return this.handles[n]!;
  }

  /** One content item: an object, array, string, enum, null or reference. */
  private content(): JavaValue {
    if (++this.depth > MAX_DEPTH) this.fail(`objects nest deeper than ${MAX_DEPTH} levels`);
    try {
      const at = this.c.pos;
      const tag = this.c.u8();
      switch (tag) {
        case tc.TC_NULL: return null;
        case tc.TC_REFERENCE: {
          const h = this.reference();
          if (typeof h !== 'string' && h.t === 'class') this.fail('a class descriptor where a value belongs', at);
          return h;
        }
        case tc.TC_STRING: return this.string(this.c.u16be());
        case tc.TC_LONGSTRING: {
          const n = this.c.i64be();
          if (n < 0n || n > BigInt(this.c.remaining)) this.fail(`string of ${n} bytes, but ${this.c.remaining} remain`, at);
          return this.string(Number(n));
        }
        case tc.TC_OBJECT: return this.object();
        case tc.TC_ARRAY: return this.array();
        case tc.TC_ENUM: return this.enumConstant();
        default: return this.fail(`unexpected ${tc.tagName(tag)}`, at);
      }
    } finally {
      this.depth--;
    }
  }

  private string(n: number): string {
    const at = this.c.pos;
    const s = decodeModifiedUtf8(this.c.bytes(n, 'string'), this.c.base + at);
    this.assign(s);
    return s;
  }

  /** A string where the grammar allows only a string (or a reference to one). */
  private stringOrRef(what: string): string {
    const at = this.c.pos;
    const tag = this.c.u8();
    if (tag === tc.TC_STRING) return this.string(this.c.u16be());
    if (tag === tc.TC_REFERENCE) {
      const h = this.reference();
      if (typeof h === 'string') return h;
    }
    return this.fail(`${what} is not a string`, at);
  }

  /** classDesc: a new descriptor, a reference to one, or null. Superclass descriptors nest, so they count towards the depth. */
  private classDesc(): ClassDesc | null {
    if (++this.depth > MAX_DEPTH) this.fail(`class descriptors nest deeper than ${MAX_DEPTH} levels`);
    try {
      return this.classDescBody();
    } finally {
      this.depth--;
    }
  }

  private classDescBody(): ClassDesc | null {
    const at = this.c.pos;
    const tag = this.c.u8();
    if (tag === tc.TC_NULL) return null;
    if (tag === tc.TC_REFERENCE) {
      const h = this.reference();
      if (typeof h !== 'string' && h.t === 'class') return h;
      return this.fail('reference to something that is not a class descriptor', at);
    }
    if (tag !== tc.TC_CLASSDESC) return this.fail(`expected a class descriptor, found ${tc.tagName(tag)}`, at);
    const nameBytes = this.c.bytes(this.c.u16be(), 'class name');
    const name = decodeModifiedUtf8(nameBytes, this.c.base + at + 3);
    if (!this.options.classes.has(name)) this.fail(`unexpected class ${JSON.stringify(name)}`, at);
    const desc: ClassDesc = { t: 'class', name, suid: this.c.i64be(), flags: 0, fields: [], superDesc: null };
    this.assign(desc);
    desc.flags = this.c.u8();
    const count = this.c.u16be();
    // A field takes at least 3 bytes (code and name length).
    if (count * 3 > this.c.remaining) this.fail(`class ${name} claims ${count} fields, more than the bytes left hold`);
    for (let i = 0; i < count; i++) {
      const fat = this.c.pos;
      const code = String.fromCharCode(this.c.u8());
      const fname = decodeModifiedUtf8(this.c.bytes(this.c.u16be(), 'field name'), this.c.base + fat + 3);
      if (code === 'L' || code === '[') desc.fields.push({ code, name: fname, signature: this.stringOrRef(`type of field ${fname}`) });
      else if (PRIMITIVE_SIZE[code] !== undefined) desc.fields.push({ code, name: fname });
      else this.fail(`field ${fname} has unknown type code ${JSON.stringify(code)}`, fat);
    }
    this.annotation(() => {}); // classAnnotation: nothing any class here writes is kept
    desc.superDesc = this.classDesc();
    return desc;
  }

  private requireClass(): ClassDesc {
    const at = this.c.pos;
    const desc = this.classDesc();
    if (desc === null) this.fail('null class descriptor', at);
    return desc;
  }

  /** Block data and objects up to TC_ENDBLOCKDATA, each passed to `add` as it is read. */
  private annotation(add: (item: Uint8Array | JavaValue) => void): void {
    for (;;) {
      const tag = this.c.buf[this.c.pos];
      if (tag === tc.TC_ENDBLOCKDATA) {
        this.c.pos++;
        return;
      }
      if (tag === tc.TC_BLOCKDATA) {
        this.c.pos++;
        add(this.c.bytes(this.c.u8(), 'block data'));
      } else if (tag === tc.TC_BLOCKDATALONG) {
        this.c.pos++;
        const n = this.c.i32be();
        add(this.c.bytes(n, 'block data'));
      } else {
        add(this.content());
      }
    }
  }

  private object(): JavaObject {
    const at = this.c.pos - 1; // its TC_OBJECT
    const cls = this.requireClass();
    if (cls.flags & tc.SC_EXTERNALIZABLE || !(cls.flags & tc.SC_SERIALIZABLE) || cls.flags & tc.SC_ENUM) {
      this.fail(`class ${cls.name} is not a plain serializable class (flags 0x${cls.flags.toString(16)})`);
    }
    this.options.onCreate?.(cls, this.c.base + at);
    const chain = chainOf(cls, this.c.fileOffset);
    const values = new Array<JavaValue>(chain.reduce((k, d) => k + d.fields.length, 0));
    const annotation: (Uint8Array | JavaValue)[] = [];
    const obj: JavaObject = { t: 'object', cls, values, annotation: chain.some((d) => d.flags & tc.SC_WRITE_METHOD) ? annotation : NO_ANNOTATION, expansion: 1 };
    this.assign(obj);
    let n = 1;
    let i = 0;
    for (const d of chain) {
      for (const f of d.fields) {
        const v = this.field(f);
        values[i++] = v;
        n = this.grows(obj, n, v, at);
      }
      if (d.flags & tc.SC_WRITE_METHOD) {
        this.annotation((item) => {
          annotation.push(item);
          n = this.grows(obj, n, item, at);
        });
      }
    }
    obj.expansion = n;
    return obj;
  }

  private field(f: FieldDesc): JavaValue {
    return f.code === 'L' || f.code === '[' ? this.content() : this.primitive(f.code);
  }

  private primitive(code: string): JavaValue {
    const c = this.c;
    switch (code) {
      case 'B': c.need(1, 'byte'); return c.view.getInt8(c.pos++);
      case 'Z': return c.u8() !== 0;
      case 'C': return c.u16be();
      case 'S': { c.need(2, 'short'); const v = c.view.getInt16(c.pos); c.pos += 2; return v; }
      case 'I': return c.i32be();
      case 'J': {
        const v = c.i64be();
        return v >= -MAX_SAFE && v <= MAX_SAFE ? Number(v) : v;
      }
      case 'F': { c.need(4, 'float'); const v = c.view.getFloat32(c.pos); c.pos += 4; return v; }
      default: { c.need(8, 'double'); const v = c.view.getFloat64(c.pos); c.pos += 8; return v; }
    }
  }

  private array(): JavaArray {
    const start = this.c.pos - 1; // its TC_ARRAY
    const cls = this.requireClass();
    if (!cls.name.startsWith('[')) this.fail(`array of non-array class ${cls.name}`);
    const at = this.c.pos;
    const n = this.c.i32be();
    const code = cls.name[1]!;
    const size = PRIMITIVE_SIZE[code] ?? 1; // an object element takes at least its one tag byte
    if (n < 0 || n * size > this.c.remaining) this.fail(`array of ${n} elements, more than the ${this.c.remaining} bytes left hold`, at);
    this.options.onCreate?.(cls, this.c.base + start);
    if (PRIMITIVE_SIZE[code] !== undefined) {
      const arr: JavaArray = { t: 'array', cls, items: this.primitives(code, n), expansion: 1 };
      this.assign(arr);
      arr.expansion = this.grows(arr, n, null, start); // its n elements and itself
      return arr;
    }
    const items: JavaValue[] = [];
    const arr: JavaArray = { t: 'array', cls, items, expansion: 1 };
    this.assign(arr);
    let expansion = 1;
    for (let i = 0; i < n; i++) {
      const v = this.content();
      items.push(v);
      expansion = this.grows(arr, expansion, v, start);
    }
    // An exact copy: pushing leaves up to half again and 16 slots spare (a column's path of one string took 152 bytes).
    arr.items = items.slice();
    arr.expansion = expansion;
    return arr;
  }

  /** `n` elements of a primitive type (their bytes checked by the caller), big-endian as Java writes them. */
  private primitives(code: string, n: number): PrimitiveItems {
    const c = this.c;
    const at = c.pos;
    c.pos += n * PRIMITIVE_SIZE[code]!;
    const v = c.view;
    const fill = <A extends { [i: number]: number | bigint }>(a: A, size: number, get: (o: number) => A[number]): A => {
      for (let i = 0; i < n; i++) a[i] = get(at + i * size);
      return a;
    };
    switch (code) {
      case 'B': return new Int8Array(c.buf.buffer, c.buf.byteOffset + at, n).slice();
      case 'Z': return fill(new Uint8Array(n), 1, (o) => (c.buf[o] !== 0 ? 1 : 0));
      case 'C': return fill(new Uint16Array(n), 2, (o) => v.getUint16(o));
      case 'S': return fill(new Int16Array(n), 2, (o) => v.getInt16(o));
      case 'I': return fill(new Int32Array(n), 4, (o) => v.getInt32(o));
      case 'J': return fill(new BigInt64Array(n), 8, (o) => v.getBigInt64(o));
      case 'F': return fill(new Float32Array(n), 4, (o) => v.getFloat32(o));
      default: return fill(new Float64Array(n), 8, (o) => v.getFloat64(o));
    }
  }

  private enumConstant(): JavaEnum {
    const at = this.c.pos - 1; // its TC_ENUM
    const cls = this.requireClass();
    if (!(cls.flags & tc.SC_ENUM)) this.fail(`enum constant of class ${cls.name}, which is not an enum`);
    this.options.onCreate?.(cls, this.c.base + at);
    const e: JavaEnum = { t: 'enum', cls, name: '' };
    this.assign(e);
    e.name = this.stringOrRef(`constant name of enum ${cls.name}`);
    return e;
  }
}
