import type { Data, DataType } from './peer.js';
import { InvalidArgumentError } from '../errors.js';
import { float16 } from '../schema/convert.js';
import type { LeafSink } from '../shred/shred.js';
import type { Plan, RecordPlan } from '../shred/plan.js';
import type { ArrowModule } from './load.js';

/**
 * Arrow record batches to leaf entries (Dremel shredding) on the writer's
 * plan, reading Arrow's buffers directly: levels from validity bitmaps and
 * offsets, leaf values from the value buffers in the form the column writer
 * coerces (numbers, bigints, UTF-8 bytes as they are, exact decimal text).
 */
export class ArrowShredder {
  /** Per top-level plan field, the batch's child data. */
  private top: (Data | undefined)[] = [];
  private readonly path: string[] = [];

  constructor(private readonly a: ArrowModule, private readonly plan: RecordPlan, private readonly sinks: readonly LeafSink[]) {}

  /** Takes a batch's columns, as `batchColumns` gives them. */
  bind(top: (Data | undefined)[]): void {
    this.top = top;
  }

  /** Shreds row `i` of the bound batch. */
  row(i: number): void {
    const fields = this.plan.fields;
    for (let k = 0; k < fields.length; k++) {
      this.path[0] = fields[k]!.name;
      this.field(fields[k]!.plan, this.top[k], i, 0, 1);
    }
  }

  private empty(p: Plan, rep: number, def: number): void {
    for (let l = p.first; l < p.first + p.width; l++) this.sinks[l]!.level(rep, def);
  }

  private field(p: Plan, data: Data | undefined, i: number, rep: number, depth: number): void {
    if (!data || data.type.typeId === this.a.Type.Null || !data.getValid(i) || nullInDictionary(this.a, data, i)) {
      if (p.nullable) return this.empty(p, rep, p.def - 1);
      if (p.t === 'list' || p.t === 'map') return this.empty(p, rep, p.elementDef - 1);
      const column = this.path.slice(0, depth).join('.');
      throw new InvalidArgumentError(`field ${column}: a null in a required field`, { column });
    }
    switch (p.t) {
      case 'leaf':
        this.sinks[p.first]!.value(rep, leafValue(this.a, data, i, (why) => this.fail(depth, why)));
        return;
      case 'struct':
      case 'variant': {
        const fields = p.t === 'struct' ? p.fields : p.parts.fields;
        const children = structChildren(data, fields.map((fl) => fl.name), this.path.slice(0, depth).join('.'));
        for (let k = 0; k < fields.length; k++) {
          this.path[depth] = fields[k]!.name;
          this.field(fields[k]!.plan, children[k], i, rep, depth + 1);
        }
        return;
      }
      case 'list':
      case 'map': {
        const offsets = data.valueOffsets as ArrayLike<number | bigint> | undefined;
        const fixed = offsets ? 0 : (data.type as unknown as { listSize: number }).listSize;
        // A sliced FixedSizeList has its child sliced with it (Arrow JS), so row i starts at i * size.
        const start = offsets ? Number(offsets[i]) : i * fixed;
        const end = offsets ? Number(offsets[i + 1]) : start + fixed;
        if (start === end) return this.empty(p, rep, p.elementDef - 1);
        const child = data.children[0]!;
        this.path[depth] = p.t === 'list' ? 'element' : 'key_value';
        for (let j = start; j < end; j++) {
          const r = j === start ? rep : p.rep;
          if (p.t === 'list') this.field(p.element, child, j, r, depth + 1);
          else this.entry(p, child, j, r, depth + 1);
        }
        return;
      }
    }
  }

  /** One map entry: the entries struct's first child is the key, its second the value. */
  private entry(p: Extract<Plan, { t: 'map' }>, entries: Data, j: number, rep: number, depth: number): void {
    const [key, value] = entries.children;
    for (const fl of p.entry.fields) {
      this.path[depth] = fl.name;
      this.field(fl.plan, fl.name === p.keyName ? key : value, j, rep, depth + 1);
    }
  }

  private fail(depth: number, why: string): InvalidArgumentError {
    const column = this.path.slice(0, depth).join('.');
    return new InvalidArgumentError(`field ${column}: ${why}`, { column });
  }
}

/** A struct's child data in the order of `names` (Arrow's order may differ). */
export function structChildren(data: Data, names: string[], path: string): (Data | undefined)[] {
  const fields = (data.type as unknown as { children: { name: string }[] }).children.map((c) => c.name);
  return names.map((n) => {
    const k = fields.indexOf(n);
    if (k < 0) throw new InvalidArgumentError(`field ${path}: the Arrow struct has no field "${n}"`, { column: path });
    return data.children[k];
  });
}

/** An Arrow decimal (little-endian two's-complement words) as exact text at its scale. */
function decimalText(words: Uint32Array, i: number, n: number, scale: number): string {
  let x = 0n;
  for (let w = n - 1; w >= 0; w--) x = (x << 32n) | BigInt(words[i * n + w]!);
  x = BigInt.asIntN(n * 32, x);
  const neg = x < 0n;
  const digits = (neg ? -x : x).toString().padStart(scale + 1, '0');
  const text = scale ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits;
  return neg ? `-${text}` : text;
}

/** Whether a valid dictionary index points at a null in the dictionary (Arrow allows both). */
export function nullInDictionary(a: ArrowModule, data: Data, i: number): boolean {
  if (data.type.typeId !== a.Type.Dictionary) return false;
  const dictionary = data.dictionary!;
  return dictionary.nullCount > 0 && !dictionary.isValid(Number((data.values as ArrayLike<number | bigint>)[i]));
}

/** A leaf value from the Arrow buffers, in a form the column writer takes; `fail` makes the error for a value that has none. */
export function leafValue(a: ArrowModule, data: Data, i: number, fail: (why: string) => Error): unknown {
  const T = a.Type;
  const t = data.type as DataType & { unit?: number; byteWidth?: number; scale?: number; bitWidth?: number; precision?: number };
  const values = data.values as ArrayLike<number | bigint> & { subarray?: (s: number, e: number) => Uint8Array };
  switch (t.typeId) {
    case T.Int: case T.Duration: return values[i];
    case T.Float: return t.precision === 0 ? float16((values[i] as number) & 0xff, (values[i] as number) >> 8) : values[i];
    case T.Bool: {
      const bit = data.offset + i;
      return (((data.values as Uint8Array)[bit >> 3]! >> (bit & 7)) & 1) === 1;
    }
    case T.Utf8: case T.Binary: case T.LargeUtf8: case T.LargeBinary: {
      const o = data.valueOffsets as ArrayLike<number | bigint>;
      return (data.values as Uint8Array).subarray(Number(o[i]), Number(o[i + 1]));
    }
    case T.Utf8View: case T.BinaryView: return viewBytes(data, i, fail);
    case T.FixedSizeBinary: return (data.values as Uint8Array).subarray(i * t.byteWidth!, (i + 1) * t.byteWidth!);
    case T.Decimal: return decimalText(data.values as Uint32Array, i, t.bitWidth! / 32, t.scale!);
    case T.Date: {
      // Date32 is days; Date64 milliseconds, which must fall on a day.
      if (t.unit === 0) return values[i];
      const ms = BigInt(values[i]!);
      if (ms % 86_400_000n !== 0n) throw fail(`Date64 value ${ms} is not a whole day`);
      return Number(ms / 86_400_000n);
    }
    case T.Time: case T.Timestamp:
      // Seconds are written as milliseconds (Parquet has no seconds unit).
      return t.unit === 0 ? BigInt(values[i]!) * 1000n : values[i];
    case T.Interval: return interval(t.unit!, data.values as Int32Array, i, fail);
    case T.Dictionary: {
      const index = Number(values[i]);
      const dict = data.dictionary!.data;
      // A dictionary vector may be in several chunks: find the one holding the index.
      let at = index;
      for (const d of dict) {
        if (at < 0) break;
        if (at < d.length) return leafValue(a, d, at, fail);
        at -= d.length;
      }
      throw fail(`dictionary index ${index} is outside its ${dict.reduce((n, d) => n + d.length, 0)}-entry dictionary`);
    }
    default:
      throw fail(`Arrow type ${String(t)} cannot be written to this column`);
  }
}

/** A view type's value: a 16-byte view holding its length, then its bytes inline (12 at most) or where in which variadic buffer they are. */
function viewBytes(data: Data, i: number, fail: (why: string) => Error): Uint8Array {
  const views = data.values as Uint8Array;
  const view = new DataView(views.buffer, views.byteOffset + i * 16, 16);
  const size = view.getInt32(0, true);
  if (size <= 12) return views.subarray(i * 16 + 4, i * 16 + 4 + Math.max(size, 0));
  const buffer = data.variadicBuffers[view.getInt32(8, true)];
  const at = view.getInt32(12, true);
  if (!buffer || at < 0 || at + size > buffer.length) throw fail(`view ${i} points outside its data buffers`);
  return buffer.subarray(at, at + size);
}

function interval(unit: number, v: Int32Array, i: number, fail: (why: string) => Error): { months: number; days: number; millis: number } {
  // IntervalUnit: 0 YEAR_MONTH, 1 DAY_TIME, 2 MONTH_DAY_NANO.
  if (unit === 0) return { months: v[i]!, days: 0, millis: 0 };
  if (unit === 1) return { months: 0, days: v[i * 2]!, millis: v[i * 2 + 1]! };
  const nanos = BigInt(v[i * 4 + 3]!) * 2n ** 32n + BigInt(v[i * 4 + 2]! >>> 0);
  if (nanos % 1_000_000n !== 0n) throw fail(`interval of ${nanos} ns is not whole milliseconds, which INTERVAL stores`);
  return { months: v[i * 4]!, days: v[i * 4 + 1]!, millis: Number(nanos / 1_000_000n) };
}

