/**
 * Files the writers make, as fuzz seeds next to the shared corpora: random
 * Parquet schemas (structs, lists and maps over every leaf type) under random
 * writer options, and random Trevni files (plain columns, and Avro schemas
 * through the Avro writer) under random codecs, checksums and block sizes.
 * The same (seed, index) always makes the same file.
 */
import { BufferSink, TrevniWriter, AvroTrevniWriter, defineSchema, field as f, openWriter, type WriterOptions } from '../../src/node/index.js';
import type { AnyField } from '../../src/schema/builder.js';
import type { AvroSchema } from '../../src/trevni/avro.js';
import type { TrevniType, TrevniValue } from '../../src/trevni/types.js';
import { makeRecords } from '../../test/writer/gen.js';
import { Rng } from './mutate.js';

const LEAVES: (() => AnyField)[] = [
  () => f.boolean(), () => f.int8(), () => f.int32(), () => f.int64(), () => f.uint64(), () => f.float(), () => f.double(), () => f.float16(),
  () => f.int96(), () => f.binary(), () => f.fixed(3), () => f.string(), () => f.enum(), () => f.json(), () => f.uuid(), () => f.decimal(4, 2),
  () => f.decimal(18, 6, { storage: 'BYTE_ARRAY' }), () => f.decimal(38, 10), () => f.date(), () => f.time('MILLIS'), () => f.time('NANOS', { utc: false }),
  () => f.timestamp('MICROS'), () => f.timestamp('NANOS'), () => f.interval(), () => f.null(),
];
const NAMES = ['a', 'b', 'x y', 'ünï', 'key', 'value', 'element', 'list'];

function randomField(rng: Rng, depth: number): AnyField {
  const r = rng.next();
  let fb: AnyField;
  if (depth === 0 || r < 0.5) {
    const leaf = rng.int(LEAVES.length);
    // The null type has no required form.
    if (leaf === LEAVES.length - 1) return LEAVES[leaf]!();
    fb = LEAVES[leaf]!();
  } else if (r < 0.7) {
    const names = NAMES.filter(() => rng.next() < 0.4);
    fb = f.struct((names.length ? names : ['s']).map((n) => [n, randomField(rng, depth - 1)] as const));
  } else if (r < 0.85) fb = f.list(randomField(rng, depth - 1));
  else fb = f.map(rng.pick([() => f.string(), () => f.int32(), () => f.date()])(), randomField(rng, depth - 1));
  return rng.next() < 0.3 ? fb.required() : fb;
}

async function parquetFile(rng: Rng): Promise<Uint8Array> {
  const fields = Array.from({ length: 1 + rng.int(5) }, (_, i) => [`c${i}`, randomField(rng, 3)] as [string, AnyField]);
  const options: WriterOptions = {
    codec: rng.pick(['UNCOMPRESSED', 'SNAPPY', 'GZIP', 'BROTLI', 'ZSTD', 'LZ4_RAW'] as const),
    pageVersion: rng.pick([1, 2] as const),
    dictionary: rng.next() < 0.5,
    pageSize: 32 + rng.int(4096),
    pageRowLimit: 1 + rng.int(40),
    rowGroupRows: 1 + rng.int(80),
    dictionaryPageSize: 16 + rng.int(2048),
    checksums: rng.next() < 0.5,
  };
  if (options.codec === 'BROTLI') options.compressionLevel = 1;
  const { input } = makeRecords(fields, rng.int(200), 1 + rng.int(1_000_000), { nullRate: rng.pick([0, 0.1, 0.5]), emptyRate: rng.pick([0, 0.2]), maxLen: 3 });
  const sink = new BufferSink();
  const w = await openWriter(sink, defineSchema(fields), options);
  await w.writeMany(input);
  await w.close();
  return sink.bytes();
}

const AVRO_PRIMITIVES = ['null', 'boolean', 'int', 'long', 'float', 'double', 'bytes', 'string'] as const;

function avroSchema(rng: Rng, depth: number, names: { n: number }): AvroSchema {
  const r = rng.next();
  if (depth === 0 || r < 0.45) return { type: rng.pick(AVRO_PRIMITIVES) };
  const name = () => `T${names.n++}`;
  if (r < 0.6) return { type: 'record', name: name(), fields: Array.from({ length: 1 + rng.int(3) }, (_, i) => ({ name: `f${i}`, type: avroSchema(rng, depth - 1, names) })) };
  if (r < 0.7) return { type: 'array', items: avroSchema(rng, depth - 1, names) };
  if (r < 0.78) return { type: 'map', values: avroSchema(rng, depth - 1, names) };
  if (r < 0.86) return { type: 'enum', name: name(), symbols: ['A', 'B', 'C'] };
  if (r < 0.92) return { type: 'fixed', name: name(), size: 1 + rng.int(4) };
  return { type: 'union', branches: [{ type: 'null' }, avroSchema(rng, 0, names)] };
}

function avroJsonSchema(s: AvroSchema): unknown {
  switch (s.type) {
    case 'record': return { type: 'record', name: s.name, fields: s.fields.map((x) => ({ name: x.name, type: avroJsonSchema(x.type) })) };
    case 'array': return { type: 'array', items: avroJsonSchema(s.items) };
    case 'map': return { type: 'map', values: avroJsonSchema(s.values) };
    case 'union': return s.branches.map(avroJsonSchema);
    case 'enum': return { type: 'enum', name: s.name, symbols: s.symbols };
    case 'fixed': return { type: 'fixed', name: s.name, size: s.size };
    default: return s.type;
  }
}

function avroValue(rng: Rng, s: AvroSchema): unknown {
  switch (s.type) {
    case 'null': return null;
    case 'boolean': return rng.next() < 0.5;
    case 'int': return rng.int(2 ** 32) - 2 ** 31;
    case 'long': return BigInt(rng.int(2 ** 32)) * BigInt(rng.int(2 ** 20)) - (1n << 40n);
    case 'float': return Math.fround(rng.next() * 1000 - 500);
    case 'double': return rng.next() * 1e6;
    case 'bytes': return new Uint8Array(rng.int(6)).map(() => rng.int(256));
    case 'string': return 'sé'.repeat(rng.int(4));
    case 'record': return Object.fromEntries(s.fields.map((x) => [x.name, avroValue(rng, x.type)]));
    case 'array': return Array.from({ length: rng.int(4) }, () => avroValue(rng, s.items));
    case 'map': return Object.fromEntries(Array.from({ length: rng.int(3) }, (_, i) => [`k${i}`, avroValue(rng, s.values)]));
    case 'enum': return rng.pick(s.symbols);
    case 'fixed': return new Uint8Array(s.size).map(() => rng.int(256));
    case 'union': {
      const b = rng.pick(s.branches);
      return b.type === 'null' ? null : avroValue(rng, b);
    }
  }
}

const TREVNI_TYPES: TrevniType[] = ['null', 'boolean', 'int', 'long', 'fixed32', 'fixed64', 'float', 'double', 'string', 'bytes'];

function trevniValue(rng: Rng, t: TrevniType): TrevniValue {
  switch (t) {
    case 'null': return null;
    case 'boolean': return rng.next() < 0.5;
    case 'int': case 'fixed32': return rng.int(2 ** 32) - 2 ** 31;
    case 'long': case 'fixed64': return BigInt(rng.int(2 ** 32)) - (1n << 31n);
    case 'float': return Math.fround(rng.next());
    case 'double': return rng.next();
    case 'string': return 'v'.repeat(rng.int(5));
    case 'bytes': return new Uint8Array(rng.int(5));
  }
}

async function trevniFile(rng: Rng): Promise<Uint8Array> {
  const sink = new BufferSink();
  const options = { codec: rng.pick(['null', 'deflate', 'snappy', 'bzip2']), checksum: rng.pick(['null', 'crc32']), blockSize: rng.pick([64, 512, 65536]) };
  const rows = rng.int(300);
  if (rng.next() < 0.5) {
    const schema = avroSchema(rng, 3, { n: 0 });
    const root: AvroSchema = schema.type === 'record' ? schema : { type: 'record', name: 'Root', fields: [{ name: 'v', type: schema }] };
    const w = await AvroTrevniWriter.open(sink, JSON.stringify(avroJsonSchema(root)), options);
    for (let i = 0; i < rows; i++) await w.write(avroValue(rng, root));
    await w.close();
    return sink.bytes();
  }
  // Plain columns: some arrays, some children of an array, a sorted one with first values in its descriptors.
  const columns = Array.from({ length: 1 + rng.int(4) }, (_, i) => ({ name: `c${i}`, type: rng.pick(TREVNI_TYPES), array: rng.next() < 0.4 }));
  const specs: { name: string; type: TrevniType; array: boolean; parent?: string }[] = [];
  for (const c of columns) {
    const prev = specs[specs.length - 1];
    specs.push(prev && prev.array && prev.parent === undefined && rng.next() < 0.5 ? { ...c, parent: prev.name } : c);
  }
  const sorted = rng.next() < 0.3;
  const all = sorted ? [{ name: 'id', type: 'long' as TrevniType, array: false, values: true }, ...specs] : specs;
  const w = await TrevniWriter.open(sink, { ...options, columns: all });
  for (let i = 0; i < rows; i++) {
    const lengths = new Map<string, number>();
    const row = all.map((c) => {
      if (c.name === 'id') return BigInt(i);
      const many = () => Array.from({ length: rng.int(4) }, () => trevniValue(rng, c.type));
      const one = () => (c.array ? many() : trevniValue(rng, c.type));
      if ('parent' in c && c.parent !== undefined) return Array.from({ length: lengths.get(c.parent)! }, one);
      if (!c.array) return one();
      const seq = many();
      lengths.set(c.name, seq.length);
      return seq;
    });
    await w.writeRow(row as never);
  }
  await w.close();
  return sink.bytes();
}

/** The `index`th writer-made file of this seed, or undefined when the writer refused the random schema (its own check, not a finding). */
export async function generatedFile(seed: number, index: number, format: 'parquet' | 'trevni'): Promise<Uint8Array | undefined> {
  const rng = new Rng((seed * 0x9e3779b1 + index * 0x85ebca6b + (format === 'parquet' ? 1 : 2)) >>> 0);
  try {
    return await (format === 'parquet' ? parquetFile(rng) : trevniFile(rng));
  } catch {
    return undefined;
  }
}
