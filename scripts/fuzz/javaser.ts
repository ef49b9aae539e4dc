/**
 * Structure-aware mutations of a Java serialization stream (RedElm's footer
 * block): the stream is walked as the protocol reads it, noting where each
 * handle, back-reference, class descriptor, array length, string length and
 * ArrayList size lies and which bytes each content item spans; an edit then
 * changes one of them: a back-reference aimed elsewhere, a length that lies,
 * a descriptor's flags or name, an item dropped, copied, nested deeper, or
 * multiplied into many back-references to one object (a stream that shares
 * objects describes far more than its bytes).
 */
import { TC_ARRAY, TC_BLOCKDATA, TC_BLOCKDATALONG, TC_CLASSDESC, TC_ENDBLOCKDATA, TC_ENUM, TC_LONGSTRING, TC_NULL, TC_OBJECT, TC_REFERENCE, TC_STRING, BASE_WIRE_HANDLE } from '../../src/javaser/protocol.js';
import type { Rng } from './mutate.js';

interface Desc {
  name: string;
  handle: number;
  /** Where the descriptor's name length (u16) is; the name follows, then the suid (8), flags (1), field count (u16). */
  at: number;
  flags: number;
  fields: { code: string }[];
  superDesc: Desc | null;
}

/** A content item: its bytes [start, end), its handle (undefined for null and references), and where the count of its container lies. */
export interface Item {
  start: number;
  end: number;
  tag: number;
  handle?: number;
  /** The array length (i32) or ArrayList size (i32) that counts this item among its siblings. */
  countAt?: number;
}

export interface StreamMap {
  items: Item[];
  /** Positions of back-reference handles (i32, after TC_REFERENCE). */
  refs: number[];
  /** Positions of lengths: array (i32), string (u16), long string (i64), block data (u8 or i32). */
  lengths: { at: number; size: 1 | 2 | 4 | 8 }[];
  descs: Desc[];
  handles: number;
  /** Handle of a descriptor of java.util.ArrayList, for nesting. */
  arrayList?: number;
}

const PRIMITIVE_SIZE: Record<string, number> = { B: 1, C: 2, D: 8, F: 4, I: 4, J: 8, S: 2, Z: 1 };

/** Walks the stream as the decoder would (lenient: it stops at the first thing it does not know). */
export function mapStream(b: Uint8Array): StreamMap {
  const dv = new DataView(b.buffer, b.byteOffset, b.length);
  const map: StreamMap = { items: [], refs: [], lengths: [], descs: [], handles: 0 };
  const handles: (Desc | 'value')[] = [];
  let p = 4;
  const need = (n: number) => {
    if (p + n > b.length) throw new Error('end');
  };
  const u8 = () => (need(1), b[p++]!);
  const u16 = () => (need(2), (p += 2), dv.getUint16(p - 2));
  const i32 = () => (need(4), (p += 4), dv.getInt32(p - 4));
  const skip = (n: number) => (need(n), (p += n));
  let depth = 0;

  const classDesc = (): Desc | null => {
    const tag = u8();
    if (tag === TC_NULL) return null;
    if (tag === TC_REFERENCE) {
      map.refs.push(p);
      const h = handles[i32() - BASE_WIRE_HANDLE];
      if (!h || h === 'value') throw new Error('ref');
      return h;
    }
    if (tag !== TC_CLASSDESC) throw new Error('desc');
    const at = p;
    map.lengths.push({ at, size: 2 });
    const n = u16();
    need(n);
    const name = new TextDecoder().decode(b.subarray(p, p + n));
    skip(n + 8);
    const d: Desc = { name, handle: handles.length, at, flags: u8(), fields: [], superDesc: null };
    handles.push(d);
    map.descs.push(d);
    if (name === 'java.util.ArrayList') map.arrayList = d.handle;
    map.lengths.push({ at: p, size: 2 });
    const count = u16();
    for (let i = 0; i < count; i++) {
      const code = String.fromCharCode(u8());
      map.lengths.push({ at: p, size: 2 });
      skip(u16());
      if (code === 'L' || code === '[') content();
      d.fields.push({ code });
    }
    annotation();
    d.superDesc = classDesc();
    return d;
  };

  const annotation = (countAt?: number) => {
    for (;;) {
      need(1);
      const tag = b[p]!;
      if (tag === TC_ENDBLOCKDATA) return void p++;
      if (tag === TC_BLOCKDATA) {
        p++;
        map.lengths.push({ at: p, size: 1 });
        skip(u8());
      } else if (tag === TC_BLOCKDATALONG) {
        p++;
        map.lengths.push({ at: p, size: 4 });
        skip(i32());
      } else content(countAt);
    }
  };

  const content = (countAt?: number): void => {
    if (++depth > 200) throw new Error('deep');
    const start = p;
    const tag = u8();
    const item: Item = { start, end: start, tag, countAt };
    switch (tag) {
      case TC_NULL:
        break;
      case TC_REFERENCE:
        map.refs.push(p);
        skip(4);
        break;
      case TC_STRING:
        map.lengths.push({ at: p, size: 2 });
        item.handle = handles.push('value') - 1;
        skip(u16());
        break;
      case TC_LONGSTRING:
        map.lengths.push({ at: p, size: 8 });
        item.handle = handles.push('value') - 1;
        skip(8 + Number(dv.getBigInt64(p)));
        break;
      case TC_OBJECT: {
        const d = classDesc();
        item.handle = handles.push('value') - 1;
        const chain: Desc[] = [];
        for (let c = d; c && chain.length < 64; c = c.superDesc) chain.unshift(c);
        for (const c of chain) {
          let sizeAt: number | undefined;
          for (const f of c.fields) {
            if (f.code === 'L' || f.code === '[') content();
            else {
              if (c.name === 'java.util.ArrayList' && f.code === 'I') sizeAt = p;
              skip(PRIMITIVE_SIZE[f.code] ?? 1);
            }
          }
          if (c.flags & 0x01) annotation(sizeAt);
        }
        break;
      }
      case TC_ARRAY: {
        const d = classDesc();
        item.handle = handles.push('value') - 1;
        const lengthAt = p;
        map.lengths.push({ at: p, size: 4 });
        const n = i32();
        const size = PRIMITIVE_SIZE[d?.name[1] ?? ''];
        if (n < 0 || n > b.length) throw new Error('length');
        if (size !== undefined) skip(n * size);
        else for (let i = 0; i < n; i++) content(lengthAt);
        break;
      }
      case TC_ENUM:
        classDesc();
        item.handle = handles.push('value') - 1;
        content();
        break;
      default:
        throw new Error('tag');
    }
    item.end = p;
    map.items.push(item);
    depth--;
  };

  try {
    content();
  } catch {
    // A stream that does not walk (a corpus file's, or an earlier mutation's) keeps what was found before the fault.
  }
  map.handles = handles.length;
  return map;
}

export type JavaserEdit =
  | { op: 'ref'; at: number; handle: number }
  | { op: 'length'; at: number; size: 1 | 2 | 4 | 8; value: string }
  | { op: 'descFlags'; at: number; flags: number }
  | { op: 'descName'; at: number; name: string }
  | { op: 'item'; action: 'drop' | 'copy' | 'null'; start: number; end: number; countAt?: number }
  /** The item kept once, then `times - 1` back-references to it, its container's count raised to match. */
  | { op: 'multiply'; start: number; end: number; handle: number; countAt: number; times: number }
  /** The item wrapped in `levels` ArrayLists (by reference to the stream's ArrayList descriptor). */
  | { op: 'nest'; start: number; end: number; levels: number; arrayList: number };

export interface JavaserMutation {
  kind: 'javaser';
  edit: JavaserEdit;
}

/** `b` with `start..end` replaced by `insert`; unchanged where that span is not inside it (an edit over a length the case changed). */
function splice(b: Uint8Array, start: number, end: number, insert: Uint8Array): Uint8Array {
  if (!(start >= 0 && start <= end && end <= b.length)) return b;
  const out = new Uint8Array(b.length - (end - start) + insert.length);
  out.set(b.subarray(0, start), 0);
  out.set(insert, start);
  out.set(b.subarray(end), start + insert.length);
  return out;
}

function addCount(b: Uint8Array, at: number | undefined, delta: number): void {
  if (at === undefined || at + 4 > b.length) return;
  const dv = new DataView(b.buffer, b.byteOffset, b.length);
  dv.setInt32(at, dv.getInt32(at) + delta);
}

const refBytes = (handle: number) => {
  const r = new Uint8Array(5);
  r[0] = TC_REFERENCE;
  new DataView(r.buffer).setInt32(1, handle + BASE_WIRE_HANDLE);
  return r;
};

/** Applies an edit to a stream; positions past its end leave it unchanged. */
export function applyJavaser(src: Uint8Array, m: JavaserMutation): Uint8Array {
  const e = m.edit;
  const b = src.slice();
  const dv = new DataView(b.buffer);
  const fits = (at: number, n: number) => at >= 0 && at + n <= b.length;
  switch (e.op) {
    case 'ref':
      if (fits(e.at, 4)) dv.setInt32(e.at, e.handle + BASE_WIRE_HANDLE);
      return b;
    case 'length': {
      if (!fits(e.at, e.size)) return b;
      const v = BigInt(e.value);
      if (e.size === 1) b[e.at] = Number(BigInt.asUintN(8, v));
      else if (e.size === 2) dv.setUint16(e.at, Number(BigInt.asUintN(16, v)));
      else if (e.size === 4) dv.setInt32(e.at, Number(BigInt.asIntN(32, v)));
      else dv.setBigInt64(e.at, BigInt.asIntN(64, v));
      return b;
    }
    case 'descFlags': {
      // The flags follow the name (u16 length, bytes) and the suid.
      if (!fits(e.at, 2)) return b;
      const at = e.at + 2 + dv.getUint16(e.at) + 8;
      if (fits(at, 1)) b[at] = e.flags;
      return b;
    }
    case 'descName': {
      if (!fits(e.at, 2)) return b;
      const name = new TextEncoder().encode(e.name);
      const head = new Uint8Array(2 + name.length);
      new DataView(head.buffer).setUint16(0, name.length);
      head.set(name, 2);
      return splice(b, e.at, e.at + 2 + dv.getUint16(e.at), head);
    }
    case 'item': {
      if (!fits(e.start, e.end - e.start)) return b;
      if (e.action === 'null') return splice(b, e.start, e.end, Uint8Array.of(TC_NULL));
      addCount(b, e.countAt, e.action === 'drop' ? -1 : 1);
      return e.action === 'drop' ? splice(b, e.start, e.end, new Uint8Array()) : splice(b, e.end, e.end, b.slice(e.start, e.end));
    }
    case 'multiply': {
      if (!fits(e.start, e.end - e.start) || e.times < 1) return b;
      addCount(b, e.countAt, e.times - 1);
      const refs = new Uint8Array(5 * (e.times - 1));
      const one = refBytes(e.handle);
      for (let i = 0; i < e.times - 1; i++) refs.set(one, 5 * i);
      return splice(b, e.end, e.end, refs);
    }
    case 'nest': {
      if (!fits(e.start, e.end - e.start)) return b;
      // TC_OBJECT, the descriptor by reference, size 1, then its writeObject data: a capacity int, the item, TC_ENDBLOCKDATA.
      const open = new Uint8Array(1 + 5 + 4 + 2 + 4);
      const o = new DataView(open.buffer);
      open[0] = TC_OBJECT;
      open.set(refBytes(e.arrayList), 1);
      o.setInt32(6, 1);
      open[10] = TC_BLOCKDATA;
      open[11] = 4;
      o.setInt32(12, 1);
      const parts: Uint8Array[] = [];
      for (let i = 0; i < e.levels; i++) parts.push(open);
      parts.push(b.subarray(e.start, e.end));
      for (let i = 0; i < e.levels; i++) parts.push(Uint8Array.of(TC_ENDBLOCKDATA));
      const inner = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
      let at = 0;
      for (const p of parts) {
        inner.set(p, at);
        at += p.length;
      }
      return splice(b, e.start, e.end, inner);
    }
  }
}

const CLASS_NAMES = [
  'java.util.ArrayList', 'java.lang.Enum', '[Ljava.lang.String;', 'redelm.hadoop.ColumnMetaData', 'redelm.hadoop.BlockMetaData',
  'redelm.hadoop.RedElmMetaData', 'redelm.hadoop.RedElmMetaData$FileMetaData', 'redelm.schema.PrimitiveType$Primitive', 'java.lang.Object', '[I', '[[Ljava.lang.String;',
];
const LENGTHS = ['0', '1', '-1', '2', '255', '65535', '65536', '131072', '2147483647', '-2147483648', '9223372036854775807'];

/** One random edit of a stream with this map, or undefined when the walk found nothing to edit. */
export function randomJavaserMutation(rng: Rng, map: StreamMap): JavaserMutation | undefined {
  const r = rng.next();
  const objects = map.items.filter((i) => i.handle !== undefined);
  const counted = map.items.filter((i) => i.countAt !== undefined);
  const edit = ((): JavaserEdit | undefined => {
    if (r < 0.15 && map.refs.length) {
      const h = rng.pick([rng.int(Math.max(1, map.handles)), map.handles, map.handles + 1, -1, 0x7fffffff - BASE_WIRE_HANDLE, rng.int(Math.max(1, map.handles)) + 1]);
      return { op: 'ref', at: rng.pick(map.refs), handle: h };
    }
    if (r < 0.35 && map.lengths.length) {
      const l = rng.pick(map.lengths);
      return { op: 'length', at: l.at, size: l.size, value: rng.pick(LENGTHS) };
    }
    if (r < 0.45 && map.descs.length) {
      const d = rng.pick(map.descs);
      if (rng.next() < 0.5) return { op: 'descFlags', at: d.at, flags: rng.pick([0, 0x01, 0x02, 0x03, 0x04, 0x12, 0x13, 0x06, 0xff]) };
      return { op: 'descName', at: d.at, name: rng.pick(CLASS_NAMES) };
    }
    if (r < 0.6 && map.items.length) {
      const it = rng.pick(map.items);
      return { op: 'item', action: rng.pick(['drop', 'copy', 'null'] as const), start: it.start, end: it.end, countAt: it.countAt };
    }
    if (r < 0.85 && counted.length) {
      // Sharing multiplies: an object with children, repeated by reference, is decoded once per reference.
      const withHandle = counted.filter((i) => i.handle !== undefined);
      const it = withHandle.length ? rng.pick(withHandle) : rng.pick(counted);
      if (it.handle === undefined) return undefined;
      return { op: 'multiply', start: it.start, end: it.end, handle: it.handle, countAt: it.countAt!, times: rng.pick([2, 3, 17, 600, 4096, 140_000]) };
    }
    if (map.arrayList !== undefined && objects.length) {
      const it = rng.pick(objects);
      return { op: 'nest', start: it.start, end: it.end, levels: rng.pick([1, 2, 63, 64, 65, 1000, 20_000]), arrayList: map.arrayList };
    }
    return undefined;
  })();
  return edit && { kind: 'javaser', edit };
}
