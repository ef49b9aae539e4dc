/**
 * Files the writers make, as fuzz seeds next to the shared corpora: random
 * Parquet schemas (structs, lists and maps over every leaf type) under random
 * writer options (some with checkpoints), random Trevni files of versions 2
 * and 1 (plain columns, and Avro schemas through the Avro writer) under
 * random codecs, checksums and block sizes, and the same random schemas,
 * over the leaf types each has, as draft-dialect Trevni and RedElm files.
 * The same (seed, index, kind) always makes the same file.
 */
import { BufferSink, defineSchema, field as f, openWriter, type WriterOptions } from '../../src/node/index.js';
import { RedElmWriter } from '../../src/node/entries/redelm.js';
import { TrevniDraftWriter, TrevniWriter, AvroTrevniWriter } from '../../src/node/entries/trevni.js';
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
/** The leaf types the draft dialect has (draft/schema.ts) and RedElm has (redelm/types.ts). */
const DRAFT_LEAVES: (() => AnyField)[] = [() => f.int32(), () => f.int64(), () => f.float(), () => f.double(), () => f.binary(), () => f.string()];
const REDELM_LEAVES: (() => AnyField)[] = [...DRAFT_LEAVES, () => f.boolean()];
const NAMES = ['a', 'b', 'x y', 'ünï', 'key', 'value', 'element', 'list'];
const REDELM_NAMES = ['a', 'b', 'ünï', 'key', 'value', 'element', 'list'];

function randomField(rng: Rng, depth: number, leaves = LEAVES, names = NAMES): AnyField {
  const r = rng.next();
  let fb: AnyField;
  if (depth === 0 || r < 0.5) {
    const leaf = rng.int(leaves.length);
    fb = leaves[leaf]!();
    // The null type has no required form.
    if (leaves === LEAVES && leaf === LEAVES.length - 1) return fb;
  } else if (r < 0.7) {
    const some = names.filter(() => rng.next() < 0.4);
    fb = f.struct((some.length ? some : ['s']).map((n) => [n, randomField(rng, depth - 1, leaves, names)] as const));
  } else if (r < 0.85) fb = f.list(randomField(rng, depth - 1, leaves, names));
  else fb = f.map(leaves === LEAVES ? rng.pick([() => f.string(), () => f.int32(), () => f.date()])() : f.string(), randomField(rng, depth - 1, leaves, names));
  return rng.next() < 0.3 ? fb.required() : fb;
}

function randomFields(rng: Rng, leaves = LEAVES, names = NAMES): [string, AnyField][] {
  return Array.from({ length: 1 + rng.int(5) }, (_, i) => [`c${i}`, randomField(rng, 3, leaves, names)] as [string, AnyField]);
}

/**
 * Records for these fields: `rows` of them, from the writer tests' generator, in the many forms the
 * Parquet writer takes (`input`), or in the reader's (`expected`), which the stricter writers want.
 */
function records(rng: Rng, fields: [string, AnyField][], rows: number, form: 'input' | 'expected' = 'input'): Record<string, unknown>[] {
  return makeRecords(fields, rows, 1 + rng.int(1_000_000), { nullRate: rng.pick([0, 0.1, 0.5]), emptyRate: rng.pick([0, 0.2]), maxLen: 3 })[form];
}

async function parquetFile(rng: Rng, maxRows = 200): Promise<Uint8Array> {
  const fields = randomFields(rng);
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
  // A checkpointing writer leaves the footer of the row groups so far after every few: what recovery finds when the real footer is gone.
  if (options.checksums && rng.next() < 0.3) options.checkpointEvery = 1 + rng.int(3);
  const input = records(rng, fields, rng.int(maxRows));
  const sink = new BufferSink();
  const w = await openWriter(sink, defineSchema(fields), options);
  await w.writeMany(input);
  await w.close();
  return sink.bytes();
}

const AVRO_PRIMITIVES = ['null', 'boolean', 'int', 'long', 'float', 'double', 'bytes', 'string'] as const;

function avroSchema(rng: Rng, depth: number, names: { n: number; version: 1 | 2 }): AvroSchema {
  const r = rng.next();
  // Version 1 has no boolean type.
  if (depth === 0 || r < 0.45) return { type: rng.pick(names.version === 1 ? AVRO_PRIMITIVES.filter((t) => t !== 'boolean') : AVRO_PRIMITIVES) };
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

async function trevniFile(rng: Rng, version: 1 | 2): Promise<Uint8Array> {
  const sink = new BufferSink();
  const codecs = version === 1 ? ['null', 'deflate', 'snappy'] : ['null', 'deflate', 'snappy', 'bzip2'];
  const options = { codec: rng.pick(codecs), checksum: rng.pick(['null', 'crc32']), blockSize: rng.pick([64, 512, 65536]), version };
  const rows = rng.int(300);
  if (rng.next() < 0.5) {
    const schema = avroSchema(rng, 3, { n: 0, version });
    const root: AvroSchema = schema.type === 'record' ? schema : { type: 'record', name: 'Root', fields: [{ name: 'v', type: schema }] };
    const w = await AvroTrevniWriter.open(sink, JSON.stringify(avroJsonSchema(root)), options);
    for (let i = 0; i < rows; i++) await w.write(avroValue(rng, root));
    await w.close();
    return sink.bytes();
  }
  // Plain columns: some arrays, some children of an array, a sorted one with first values in its descriptors.
  const types = version === 1 ? TREVNI_TYPES.filter((t) => t !== 'boolean') : TREVNI_TYPES;
  const columns = Array.from({ length: 1 + rng.int(4) }, (_, i) => ({ name: `c${i}`, type: rng.pick(types), array: rng.next() < 0.4 }));
  const specs: { name: string; type: TrevniType; array: boolean; parent?: string }[] = [];
  for (const c of columns) {
    const prev = specs[specs.length - 1];
    specs.push(prev && prev.array && prev.parent === undefined && rng.next() < 0.5 ? { ...c, parent: prev.name } : c);
  }
  const sorted = rng.next() < 0.3;
  const all = sorted ? [{ name: 'id', type: 'long' as TrevniType, array: false, values: true }, ...specs] : specs;
  const w = await TrevniWriter.open(sink, all, { ...options });
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

async function draftFile(rng: Rng): Promise<Uint8Array> {
  const fields = randomFields(rng, DRAFT_LEAVES);
  const sink = new BufferSink();
  const w = await TrevniDraftWriter.open(sink, defineSchema(fields).schema, { codec: rng.pick(['null', 'deflate', 'snappy']), checksum: rng.pick(['null', 'crc32']), blockSize: rng.pick([64, 512, 65536]) });
  for (const r of records(rng, fields, rng.int(200), 'expected')) await w.write(r);
  await w.close();
  return sink.bytes();
}

async function redelmFile(rng: Rng): Promise<Uint8Array> {
  const fields = randomFields(rng, REDELM_LEAVES, REDELM_NAMES);
  const sink = new BufferSink();
  const w = await RedElmWriter.open(sink, defineSchema(fields).schema, {
    codec: rng.pick(['gzip', 'default', 'snappy']), footer: rng.next() < 0.8 ? 'java' : 'json', rowGroupRecords: 1 + rng.int(60),
  });
  for (const r of records(rng, fields, rng.int(200))) await w.write(r);
  await w.close();
  return sink.bytes();
}

/** What the writers make: Parquet (of up to 200 rows, or 40 where a case costs more per row), Trevni version 2 or 1, the draft's dialect, RedElm. */
export type GeneratedKind = 'parquet' | 'parquet-small' | 'trevni' | 'trevni-v1' | 'trevni-draft' | 'redelm';

const MAKERS: Record<GeneratedKind, [salt: number, make: (rng: Rng) => Promise<Uint8Array>]> = {
  parquet: [1, (rng) => parquetFile(rng)],
  'parquet-small': [6, (rng) => parquetFile(rng, 40)],
  trevni: [2, (rng) => trevniFile(rng, 2)],
  'trevni-v1': [3, (rng) => trevniFile(rng, 1)],
  'trevni-draft': [4, draftFile],
  redelm: [5, redelmFile],
};

/** The `index`th writer-made file of this seed and kind, or undefined when the writer refused the random schema (its own check, not a finding). */
export async function generatedFile(seed: number, index: number, kind: GeneratedKind): Promise<Uint8Array | undefined> {
  const [salt, make] = MAKERS[kind];
  const rng = new Rng((seed * 0x9e3779b1 + index * 0x85ebca6b + salt) >>> 0);
  try {
    return await make(rng);
  } catch {
    return undefined;
  }
}
