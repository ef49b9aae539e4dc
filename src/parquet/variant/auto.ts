/**
 * `field.variant({ shred: 'auto' })`: the shredded shape picked from a sample
 * of the values, as DuckDB's Parquet writer picks it (analyze_variant.cpp):
 * at each level the most frequent kind of value wins, an object or array
 * only when it outnumbers every primitive type, and a decimal only when the
 * sample's decimals share one scale. Two departures: integers of every width
 * count as one kind (the writer puts any integer into an integer column it
 * fits, so the column is as wide as the widest seen, at least 32 bits), and
 * an object field is shredded only when at least a tenth of the sampled
 * objects have it, so objects used as maps do not become thousands of
 * columns. A level of nulls only, or of nothing, is not shredded.
 */
import { InvalidArgumentError } from '../../errors.js';
import { FieldBuilder, defineSchema, field, type AnyField, type DefinedSchema, type VariantSpec } from '../../schema/builder.js';
import { MAX_VARIANT_DEPTH } from './decode.js';
import { isVariantObject, presentKeys, scalarOf, type VariantEncodeOptions } from './encode.js';

/** Fewest sampled objects (as a fraction of those at a level) that must hold a field for it to be shredded. */
const FIELD_SHARE = 0.1;

interface Tally {
  /** Values seen, by kind: a variant type, 'boolean', 'null', 'int', 'object', 'array'. */
  kinds: Map<string, number>;
  intBits: number;
  /** The one scale of the decimals seen (null once two differ), and their widest type. */
  decimalScale: number | null | undefined;
  decimalWidth: number;
  objects: number;
  fields: Map<string, Tally>;
  element?: Tally;
}

const tally = (): Tally => ({ kinds: new Map(), intBits: 32, decimalScale: undefined, decimalWidth: 4, objects: 0, fields: new Map() });

const INT_BITS: Record<string, number> = { int8: 8, int16: 16, int32: 32, int64: 64 };
const DECIMAL_BYTES: Record<string, number> = { decimal4: 4, decimal8: 8, decimal16: 16 };

function count(t: Tally, kind: string): void {
  t.kinds.set(kind, (t.kinds.get(kind) ?? 0) + 1);
}

function observe(t: Tally, v: unknown, options: VariantEncodeOptions, depth: number): void {
  if (depth > MAX_VARIANT_DEPTH) throw new InvalidArgumentError(`a variant value nests deeper than ${MAX_VARIANT_DEPTH} levels`);
  if (Array.isArray(v)) {
    count(t, 'array');
    t.element ??= tally();
    for (const e of v) observe(t.element, e ?? null, options, depth + 1);
    return;
  }
  const s = scalarOf(v, options);
  if (s === undefined) {
    if (!isVariantObject(v)) return; // refused when written
    count(t, 'object');
    t.objects++;
    for (const k of presentKeys(v)) {
      let f = t.fields.get(k);
      if (!f) t.fields.set(k, (f = tally()));
      observe(f, v[k], options, depth + 1);
    }
    return;
  }
  if (s === null) return count(t, 'null');
  if (typeof s === 'boolean') return count(t, 'boolean');
  if (INT_BITS[s.type] !== undefined) {
    t.intBits = Math.max(t.intBits, INT_BITS[s.type]!);
    return count(t, 'int');
  }
  if (DECIMAL_BYTES[s.type] !== undefined) {
    t.decimalScale = t.decimalScale === undefined || t.decimalScale === s.scale ? s.scale : null;
    t.decimalWidth = Math.max(t.decimalWidth, DECIMAL_BYTES[s.type]!);
    return count(t, 'decimal');
  }
  count(t, s.type);
}

/** The declaration a primitive kind shreds into. */
function primitiveField(kind: string, t: Tally): AnyField | undefined {
  switch (kind) {
    case 'boolean': return field.boolean();
    case 'int': return t.intBits === 64 ? field.int64() : field.int32();
    case 'decimal': return t.decimalScale === null || t.decimalScale === undefined ? undefined : field.decimal(t.decimalWidth === 4 ? 9 : t.decimalWidth === 8 ? 18 : 38, t.decimalScale);
    case 'float': return field.float();
    case 'double': return field.double();
    case 'date': return field.date();
    case 'time': return field.time('MICROS', { utc: false });
    case 'timestamp': return field.timestamp('MICROS');
    case 'timestamp_ntz': return field.timestamp('MICROS', { utc: false });
    case 'timestamp_nanos': return field.timestamp('NANOS');
    case 'timestamp_ntz_nanos': return field.timestamp('NANOS', { utc: false });
    case 'string': return field.string();
    case 'binary': return field.binary();
    case 'uuid': return field.uuid();
    default: return undefined;
  }
}

function shapeOf(t: Tally): AnyField | undefined {
  let best: AnyField | undefined;
  let bestCount = 0;
  for (const [kind, n] of t.kinds) {
    if (kind === 'object' || kind === 'array' || kind === 'null' || n <= bestCount) continue;
    const f = primitiveField(kind, t);
    if (f) [best, bestCount] = [f, n];
  }
  const arrays = t.kinds.get('array') ?? 0;
  const objects = t.kinds.get('object') ?? 0;
  if (arrays > objects && arrays > bestCount) {
    const element = t.element && shapeOf(t.element);
    return element ? field.list(element) : best;
  }
  if (objects >= arrays && objects > bestCount) {
    const fields: Array<[string, AnyField]> = [];
    for (const [name, f] of t.fields) {
      if (f.kinds.size === 0 || [...f.kinds.values()].reduce((a, b) => a + b, 0) < FIELD_SHARE * t.objects) continue;
      // A field of nulls only still gets its pair, so that its presence is a column (as DuckDB's INT32).
      fields.push([name, shapeOf(f) ?? field.int32()]);
    }
    if (fields.length > 0) return field.struct(fields);
  }
  return best;
}

/** The shredded shape for a sample of one variant's values, or undefined when nothing is worth shredding. */
export function autoShape(values: readonly unknown[], options: VariantEncodeOptions = {}): AnyField | undefined {
  const t = tally();
  for (const v of values) if (v !== undefined) observe(t, v, options, 0);
  return shapeOf(t);
}

/**
 * The schema with every `shred: 'auto'` variant given the shape its values
 * in `sample` (records) call for. Variants under a map stay unshredded.
 */
export function resolveAutoVariants<R>(defined: DefinedSchema<R>, sample: readonly unknown[]): DefinedSchema<R> {
  const resolve = (fb: AnyField, values: readonly unknown[]): AnyField => {
    const spec = fb.spec;
    switch (spec.node) {
      case 'variant': {
        if (spec.shredded !== 'auto') return fb;
        const shape = autoShape(values, { exactDecimals: spec.exactDecimals });
        const resolved: VariantSpec = { node: 'variant', shredded: shape, exactDecimals: spec.exactDecimals };
        return new FieldBuilder(resolved, fb.repetition, fb.id);
      }
      case 'struct': {
        const fields = spec.fields.map(([n, c]) => [n, resolve(c, pick(values, n))] as const);
        return new FieldBuilder({ ...spec, fields }, fb.repetition, fb.id);
      }
      case 'list': {
        const elements = values.flatMap((v) => (Array.isArray(v) ? v : []));
        return new FieldBuilder({ ...spec, element: resolve(spec.element, elements) }, fb.repetition, fb.id);
      }
      case 'map':
        return new FieldBuilder({ ...spec, key: resolve(spec.key, []), value: resolve(spec.value, []) }, fb.repetition, fb.id);
      default:
        return fb;
    }
  };
  if (!hasAutoVariants(defined)) return defined;
  const fields = defined.fields.map(([n, fb]) => [n, resolve(fb, pick(sample, n))] as [string, AnyField]);
  return defineSchema(fields, { name: defined.elements[0]!.name }) as DefinedSchema<R>;
}

/** Whether a declaration has a `shred: 'auto'` variant, which needs a sample. */
export function hasAutoVariants(defined: Pick<DefinedSchema, 'fields'>): boolean {
  const auto = (fb: AnyField): boolean => {
    const s = fb.spec;
    return s.node === 'variant' ? s.shredded === 'auto' : s.node === 'struct' ? s.fields.some(([, c]) => auto(c)) : s.node === 'list' ? auto(s.element) : s.node === 'map' && (auto(s.key) || auto(s.value));
  };
  return defined.fields.some(([, fb]) => auto(fb));
}

/** The values of key `name` of those values that are objects. */
function pick(values: readonly unknown[], name: string): unknown[] {
  const out: unknown[] = [];
  for (const v of values) {
    if (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.hasOwn(v, name)) out.push((v as Record<string, unknown>)[name]);
  }
  return out;
}
