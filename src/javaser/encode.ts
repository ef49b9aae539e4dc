/**
 * The encoder twin of decode.ts: writes a tree of the same value types as a
 * serialization stream that java.io.ObjectInputStream reads. Class
 * descriptors, strings and enum constants seen before are written as
 * back-references (strings by equality, where Java shares by identity: both
 * read back the same), objects and arrays by identity, with handles numbered
 * in the order ObjectOutputStream assigns them. A string that Java would hold
 * as its own object (not an interned literal) can be given as a `JavaString`,
 * shared by identity like Java's, so the bytes are the ones Java writes.
 */
import { ByteWriter } from '../bytes/writer.js';
import { InvalidArgumentError } from '../errors.js';
import type { ClassDesc, FieldDesc, JavaArray, JavaObject, JavaValue } from './decode.js';
import { encodeModifiedUtf8 } from './modified-utf8.js';
import * as tc from './protocol.js';

/** A string shared only where the same JavaString object recurs, as a non-interned Java String is. */
export interface JavaString {
  t: 'string';
  value: string;
}

export type EncodableValue = JavaValue | JavaString | EncodableObject | EncodableArray;
export interface EncodableObject extends Omit<JavaObject, 'values' | 'annotation' | 'expansion'> {
  fields: Map<string, EncodableValue>;
  annotation: (Uint8Array | EncodableValue)[];
}
export interface EncodableArray extends Omit<JavaArray, 'items' | 'expansion'> {
  items: EncodableValue[];
}

export function encodeJavaStream(value: EncodableValue): Uint8Array {
  const e = new StreamEncoder();
  e.w.u16be(tc.STREAM_MAGIC);
  e.w.u16be(tc.STREAM_VERSION);
  e.content(value);
  return e.w.finish();
}

class StreamEncoder {
  readonly w = new ByteWriter(1024);
  private next = 0;
  private readonly handles = new Map<unknown, number>();

  private assign(key: unknown): void {
    this.handles.set(key, this.next++);
  }

  /** Writes a back-reference when `key` was written before. */
  private shared(key: unknown): boolean {
    const h = this.handles.get(key);
    if (h === undefined) return false;
    this.w.u8(tc.TC_REFERENCE);
    this.w.i32be(tc.BASE_WIRE_HANDLE + h);
    return true;
  }

  private utf(s: string): void {
    const b = encodeModifiedUtf8(s);
    if (b.length > 0xffff) throw new InvalidArgumentError(`a name of ${b.length} bytes is longer than Java serialization's 65535`);
    this.w.u16be(b.length);
    this.w.bytes(b);
  }

  /** Writes `s`, shared with an earlier equal string when `key` is the string itself, or with the same JavaString object. */
  private string(s: string, key: unknown = `s:${s}`): void {
    if (this.shared(key)) return;
    const b = encodeModifiedUtf8(s);
    if (b.length > 0xffff) {
      this.w.u8(tc.TC_LONGSTRING);
      this.w.i64be(BigInt(b.length));
    } else {
      this.w.u8(tc.TC_STRING);
      this.w.u16be(b.length);
    }
    this.w.bytes(b);
    this.assign(key);
  }

  private classDesc(d: ClassDesc | null): void {
    if (d === null) return this.w.u8(tc.TC_NULL);
    if (this.shared(d)) return;
    this.w.u8(tc.TC_CLASSDESC);
    this.utf(d.name);
    this.w.i64be(d.suid);
    this.assign(d);
    this.w.u8(d.flags);
    this.w.u16be(d.fields.length);
    for (const f of d.fields) {
      this.w.u8(f.code.charCodeAt(0));
      this.utf(f.name);
      if (f.signature !== undefined) this.string(f.signature);
    }
    this.w.u8(tc.TC_ENDBLOCKDATA);
    this.classDesc(d.superDesc);
  }

  content(v: EncodableValue): void {
    if (v === null) return this.w.u8(tc.TC_NULL);
    if (typeof v === 'string') return this.string(v);
    if (typeof v !== 'object') throw new InvalidArgumentError(`a primitive ${typeof v} where an object belongs`);
    if (v.t === 'string') return this.string(v.value, v);
    if (v.t === 'enum') {
      const key = `e:${v.cls.name}:${v.name}`;
      if (this.shared(key)) return;
      this.w.u8(tc.TC_ENUM);
      this.classDesc(v.cls);
      this.assign(key);
      return this.string(v.name);
    }
    if (this.shared(v)) return;
    if (v.t === 'array') {
      this.w.u8(tc.TC_ARRAY);
      this.classDesc(v.cls);
      this.w.i32be(v.items.length);
      this.assign(v);
      const code = v.cls.name[1]!;
      for (const item of v.items) this.field({ code, name: '' }, item);
      return;
    }
    this.w.u8(tc.TC_OBJECT);
    this.classDesc(v.cls);
    this.assign(v);
    const chain: ClassDesc[] = [];
    for (let d: ClassDesc | null = v.cls; d !== null; d = d.superDesc) chain.unshift(d);
    // A decoded object (values in field order) is written back as it was read.
    let i = 0;
    for (const d of chain) {
      for (const f of d.fields) this.field(f, ('values' in v ? v.values[i++] : v.fields.get(f.name)) ?? null);
      if (d.flags & tc.SC_WRITE_METHOD) {
        for (const a of v.annotation) {
          if (a instanceof Uint8Array) this.blockData(a);
          else this.content(a);
        }
        this.w.u8(tc.TC_ENDBLOCKDATA);
      }
    }
  }

  private blockData(b: Uint8Array): void {
    if (b.length <= 0xff) {
      this.w.u8(tc.TC_BLOCKDATA);
      this.w.u8(b.length);
    } else {
      this.w.u8(tc.TC_BLOCKDATALONG);
      this.w.i32be(b.length);
    }
    this.w.bytes(b);
  }

  private field(f: FieldDesc, v: EncodableValue): void {
    const w = this.w;
    switch (f.code) {
      case 'B': return w.u8(Number(v) & 0xff);
      case 'Z': return w.u8(v ? 1 : 0);
      case 'C':
      case 'S': return w.u16be(Number(v) & 0xffff);
      case 'I': return w.i32be(Number(v));
      case 'J': return w.i64be(BigInt(v as bigint));
      case 'F': {
        const b = new Uint8Array(4);
        new DataView(b.buffer).setFloat32(0, Number(v));
        return w.bytes(b);
      }
      case 'D': {
        const b = new Uint8Array(8);
        new DataView(b.buffer).setFloat64(0, Number(v));
        return w.bytes(b);
      }
      default: return this.content(v);
    }
  }
}
