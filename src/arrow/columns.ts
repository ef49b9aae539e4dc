import type { Data } from './peer.js';
import { InvalidArgumentError } from '../errors.js';
import type { LeafEntries, PresentValues } from '../shred/entries.js';
import type { Plan, RecordPlan } from '../shred/plan.js';
import type { ArrowModule } from './load.js';
import { leafValue, nullInDictionary, structChildren } from './shred.js';

/** A column writer as the columnar shredder feeds it. */
export interface EntrySink {
  stores(form: 'bytes' | ArrayBufferView): boolean;
  appendEntries(e: LeafEntries): void;
}

/**
 * The entries of one field for a run of rows: per entry, the index of its
 * value in the field's Arrow data, or -1 when the entry is absent higher up
 * (a null or an empty list), at definition level `def`; and its repetition level.
 */
interface Slots {
  n: number;
  idx: Int32Array;
  rep: Uint16Array;
  def: Uint16Array;
}

/** A batch's columns in the order of the plan's fields; a field the batch lacks is an error (or all null, when nullable). */
export function batchColumns(plan: RecordPlan, batch: { schema: { fields: { name: string }[] }; data: Data }): (Data | undefined)[] {
  const names = batch.schema.fields.map((fl) => fl.name);
  const top = plan.fields.map((fl) => {
    const i = names.indexOf(fl.name);
    if (i < 0 && !fl.plan.nullable) throw new InvalidArgumentError(`the Arrow data has no column "${fl.name}", which the schema requires`, { column: fl.name });
    return i < 0 ? undefined : batch.data.children[i];
  });
  const known = new Set(plan.fields.map((fl) => fl.name));
  for (const n of names) if (!known.has(n)) throw new InvalidArgumentError(`the Arrow data has a column "${n}" that the schema lacks`, { column: n });
  return top;
}

/**
 * Arrow record batches to leaf entries a run of rows at a time (Dremel
 * shredding done column by column): validity bitmaps become definition
 * levels, list offsets repetition levels, and values go from the Arrow
 * buffers to the column writers in bulk (typed arrays as they are, byte
 * strings as offsets into the data buffer, dictionary vectors as indices
 * into their entries). Any failure throws a ParquetryError without a row:
 * the writer takes the run again row by row (ArrowShredder) to name it.
 */
export class ArrowColumns {
  private top: (Data | undefined)[] = [];

  constructor(private readonly a: ArrowModule, private readonly plan: RecordPlan, private readonly sinks: readonly EntrySink[]) {}

  bind(top: (Data | undefined)[]): void {
    this.top = top;
  }

  /** Shreds rows start..end of the bound batch. */
  rows(start: number, end: number): void {
    const n = end - start;
    const fields = this.plan.fields;
    const rows = new Int32Array(n);
    for (let i = 0; i < n; i++) rows[i] = start + i;
    for (let k = 0; k < fields.length; k++) {
      const { plan: p, name } = fields[k]!;
      const data = this.top[k];
      // A top-level column without nulls: every entry present, no levels to work out.
      if (p.t === 'leaf' && data && !this.mayHoldNulls(data)) {
        this.sinks[p.first]!.appendEntries({ n, rep: null, def: null, values: this.present(this.sinks[p.first]!, data, rows, name, true) });
      } else this.field(p, data, { n, idx: rows.slice(), rep: new Uint16Array(n), def: new Uint16Array(n) }, name);
    }
  }

  /** Whether some value of `data` may be null: a null in its validity bitmap, a valid index to a null dictionary entry, or the Null type. */
  private mayHoldNulls(data: Data): boolean {
    const T = this.a.Type;
    return data.type.typeId === T.Null || data.nullCount > 0 || (data.type.typeId === T.Dictionary && data.dictionary!.nullCount > 0);
  }

  private field(p: Plan, data: Data | undefined, s: Slots, path: string): void {
    this.markNulls(p, data, s, path);
    switch (p.t) {
      case 'leaf':
        return this.leaf(p.first, p.leaf.repLevel > 0, p.def, data, s, path);
      case 'struct':
      case 'variant': {
        const fields = p.t === 'struct' ? p.fields : p.parts.fields;
        const children = data ? structChildren(data, fields.map((fl) => fl.name), path) : [];
        for (let k = 0; k < fields.length; k++) {
          this.field(fields[k]!.plan, children[k], k === fields.length - 1 ? s : copy(s), `${path}.${fields[k]!.name}`);
        }
        return;
      }
      case 'list':
      case 'map': {
        const inner = this.expand(p, data, s);
        const child = data?.children[0];
        if (p.t === 'list') return this.field(p.element, child, inner, `${path}.element`);
        const fields = p.entry.fields;
        for (let k = 0; k < fields.length; k++) {
          const fl = fields[k]!;
          this.field(fl.plan, child?.children[fl.name === p.keyName ? 0 : 1], k === fields.length - 1 ? inner : copy(inner), `${path}.key_value.${fl.name}`);
        }
      }
    }
  }

  /** Turns the slots whose value is null into absent entries at the field's null level. */
  private markNulls(p: Plan, data: Data | undefined, s: Slots, path: string): void {
    const a = this.a;
    if (data && !this.mayHoldNulls(data)) return;
    const allNull = !data || data.type.typeId === a.Type.Null;
    const dictionaryNulls = !allNull && data.type.typeId === a.Type.Dictionary && data.dictionary!.nullCount > 0;
    const level = p.nullable ? p.def - 1 : p.t === 'list' || p.t === 'map' ? p.elementDef - 1 : -1;
    const { idx, def } = s;
    // The validity bitmap read here, as Data.getValid reads it (bits from the data's offset), without its per-call checks.
    const bits = !allNull && data.nullCount > 0 && data.nullBitmap?.length ? data.nullBitmap : undefined;
    const offset = allNull ? 0 : data.offset;
    for (let i = 0; i < s.n; i++) {
      const k = idx[i]!;
      if (k < 0) continue;
      if (!allNull && (!bits || (bits[(offset + k) >> 3]! >> ((offset + k) & 7)) & 1) && !(dictionaryNulls && nullInDictionary(a, data, k))) continue;
      if (level < 0) throw new InvalidArgumentError(`field ${path}: a null in a required field`, { column: path });
      idx[i] = -1;
      def[i] = level;
    }
  }

  /** The slots of a list's (or map's) elements: one per element, and one absent entry for each absent or empty list. */
  private expand(p: Extract<Plan, { t: 'list' | 'map' }>, data: Data | undefined, s: Slots): Slots {
    const offsets = data?.valueOffsets as ArrayLike<number | bigint> | undefined;
    const fixed = offsets ? 0 : ((data?.type as unknown as { listSize?: number })?.listSize ?? 0);
    // A sliced FixedSizeList has its child sliced with it (Arrow JS), so row i starts at i * size.
    const start = (k: number) => (offsets ? Number(offsets[k]) : k * fixed);
    const end = (k: number) => (offsets ? Number(offsets[k + 1]) : (k + 1) * fixed);
    let n = 0;
    for (let i = 0; i < s.n; i++) {
      const k = s.idx[i]!;
      n += k < 0 ? 1 : Math.max(1, end(k) - start(k));
    }
    const out: Slots = { n, idx: new Int32Array(n), rep: new Uint16Array(n), def: new Uint16Array(n) };
    const empty = p.elementDef - 1;
    for (let i = 0, o = 0; i < s.n; i++) {
      const k = s.idx[i]!;
      const from = k < 0 ? 0 : start(k);
      const to = k < 0 ? 0 : end(k);
      if (from === to) {
        out.idx[o] = -1;
        out.def[o] = k < 0 ? s.def[i]! : empty;
        out.rep[o++] = s.rep[i]!;
        continue;
      }
      for (let j = from; j < to; j++) {
        out.idx[o] = j;
        out.rep[o++] = j === from ? s.rep[i]! : p.rep;
      }
    }
    return out;
  }

  private leaf(first: number, repeated: boolean, maxDef: number, data: Data | undefined, s: Slots, path: string): void {
    let present = 0;
    for (let i = 0; i < s.n; i++) if (s.idx[i]! >= 0) present++;
    const take = new Int32Array(present);
    let def: Uint16Array | null = null;
    if (present < s.n) {
      def = s.def;
      for (let i = 0, o = 0; i < s.n; i++) {
        const k = s.idx[i]!;
        if (k >= 0) {
          take[o++] = k;
          def[i] = maxDef;
        }
      }
    } else take.set(s.idx.subarray(0, s.n));
    const sink = this.sinks[first]!;
    const values: PresentValues = present === 0 || !data ? { t: 'any', values: [] } : this.present(sink, data, take, path);
    sink.appendEntries({ n: s.n, rep: repeated ? s.rep : null, def, values });
  }

  /** A dictionary's entries as present values, made once per sink (batches of a table share their dictionaries), so the sink can keep what it looked up. */
  private entries(sink: EntrySink, entries: Data, path: string): PresentValues {
    let bySink = dictionaries.get(sink);
    if (!bySink) dictionaries.set(sink, (bySink = new WeakMap()));
    let v = bySink.get(entries);
    if (!v) {
      const all = new Int32Array(entries.length);
      for (let i = 0; i < all.length; i++) all[i] = i;
      bySink.set(entries, (v = this.present(sink, entries, all, path, true)));
    }
    return v;
  }

  /** The values at `take` of `data` (all valid), in the cheapest form the sink takes. */
  private present(sink: EntrySink, data: Data, take: Int32Array, path: string, run = isRun(take)): PresentValues {
    const T = this.a.Type;
    const t = data.type as { typeId: number; unit?: number; precision?: number };
    const values = data.values as unknown;
    switch (t.typeId) {
      case T.Int: case T.Duration: case T.Float: case T.Date: case T.Timestamp: {
        // Half floats, Date64 milliseconds and Timestamp seconds need converting: those go value by value.
        const converts = (t.typeId === T.Float && t.precision === 0) || (t.typeId === T.Date && t.unit !== 0) || (t.typeId === T.Timestamp && t.unit === 0);
        if (!converts && sink.stores(values as ArrayBufferView)) return { t: 'typed', values: gather(values as Int32Array, take, run) };
        break;
      }
      case T.Bool:
        if (sink.stores(values as Uint8Array)) {
          const bits = values as Uint8Array;
          const out = new Uint8Array(take.length);
          for (let i = 0; i < take.length; i++) {
            const bit = data.offset + take[i]!;
            out[i] = (bits[bit >> 3]! >> (bit & 7)) & 1;
          }
          return { t: 'typed', values: out };
        }
        break;
      case T.Utf8: case T.Binary: case T.LargeUtf8: case T.LargeBinary: {
        const offsets = data.valueOffsets as ArrayLike<number | bigint>;
        if (!sink.stores('bytes') || Number(offsets[offsets.length - 1]) > 0x7fffffff) break;
        // A run of values: views of the offsets themselves.
        if (run && offsets instanceof Int32Array && take.length > 0) {
          const k = take[0]!;
          return { t: 'bytes', data: values as Uint8Array, starts: offsets.subarray(k, k + take.length), ends: offsets.subarray(k + 1, k + take.length + 1) };
        }
        const starts = new Int32Array(take.length);
        const ends = new Int32Array(take.length);
        for (let i = 0; i < take.length; i++) {
          starts[i] = Number(offsets[take[i]!]);
          ends[i] = Number(offsets[take[i]! + 1]);
        }
        return { t: 'bytes', data: values as Uint8Array, starts, ends };
      }
      case T.Dictionary: {
        const dictionary = data.dictionary!;
        // Several dictionary chunks, or nulls in them, are rare: those go value by value.
        if (dictionary.data.length !== 1 || dictionary.nullCount > 0) break;
        const entries = dictionary.data[0]!;
        const indices = new Int32Array(take.length);
        const keys = values as ArrayLike<number | bigint>;
        for (let i = 0; i < take.length; i++) {
          const k = Number(keys[take[i]!]);
          if (!(k >= 0 && k < entries.length)) throw new InvalidArgumentError(`field ${path}: dictionary index ${k} is outside its dictionary`, { column: path });
          indices[i] = k;
        }
        return { t: 'indexed', entries: this.entries(sink, entries, path), size: entries.length, indices };
      }
    }
    const fail = (why: string) => new InvalidArgumentError(`field ${path}: ${why}`, { column: path });
    return { t: 'any', values: Array.from(take, (k) => leafValue(this.a, data, k, fail)) };
  }
}

/** Every entry of a dictionary, in the form `present` gives. */
const dictionaries = new WeakMap<EntrySink, WeakMap<Data, PresentValues>>();

function copy(s: Slots): Slots {
  return { n: s.n, idx: s.idx.slice(0, s.n), rep: s.rep, def: s.def.slice(0, s.n) };
}

/** Whether `take` is a run of consecutive indices. */
function isRun(take: Int32Array): boolean {
  for (let i = 1; i < take.length; i++) if (take[i] !== take[i - 1]! + 1) return false;
  return true;
}

/** values[take[i]], without a copy when `take` is a run of consecutive indices. */
function gather<V extends Int32Array | BigInt64Array | Float32Array | Float64Array>(values: V, take: Int32Array, run: boolean): V {
  const n = take.length;
  if (n > 0 && run) return values.subarray(take[0]!, take[0]! + n) as V;
  const out = new (values.constructor as new (n: number) => V)(n);
  for (let i = 0; i < n; i++) out[i] = values[take[i]!]!;
  return out;
}
