/**
 * `parquetry convert` to and from Trevni (.trv): real Parquet files (the
 * parquet-testing corpus, a DuckDB-written sample) to Trevni and back, values
 * compared with what the library reads from the originals; every file of the
 * Java-written Trevni corpus to Parquet and JSON Lines, compared with what the
 * Java reader saw (`.expected.json`, and `.expected-avro.jsonl` for
 * trevni-avro files); --codec and --checksum as the written columns declare
 * them; errors.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { Command } from 'commander';
import { openParquet } from '../../src/node/index.js';
import { registerConvert } from '../../src/cli/convert-command.js';
import { avroName } from '../../src/convert/write-trevni.js';
import { TrevniReader } from '../../src/trevni/reader.js';
import { AvroTrevniWriter, AVRO_SCHEMA_KEY, avroJson, branchName, parseAvroSchema, readAvro, type AvroSchema } from '../../src/trevni/avro.js';
import { metaGet, type TrevniType } from '../../src/trevni/types.js';
import { BufferSink } from '../../src/io/sink.js';
import { hex } from '../../src/schema/convert.js';
import { crc32 } from '../../src/checksum/crc32.js';
import { ParquetryError, UnsupportedError } from '../../src/errors.js';
import { inCliRun, runWith, type CliResult } from './run-cli.js';

const PARQUET = join('..', 'shared', 'corpus', 'parquet-testing', 'data');
const TREVNI = join('..', 'shared', 'trevni-corpus');
const SAMPLE = join('examples', 'fixtures', 'sample.parquet');

let dir = '';

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'parquetry-convert-trevni-'));
});

after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A fresh empty directory, to see exactly what a run leaves. */
function freshDir(prefix: string): string {
  return mkdtempSync(join(dir, prefix));
}

/** Runs `parquetry convert` in this process (quiet): fast enough for the whole corpus. */
async function run(...args: string[]): Promise<void> {
  const program = new Command().exitOverride();
  registerConvert(program);
  await inCliRun(() => program.parseAsync(['node', 'parquetry', 'convert', '-q', ...args]));
}

/** Runs the command as a user does, for exit status and messages. */
function cli(args: string[]): Promise<CliResult> {
  return runWith(['convert', ...args]);
}

async function parquetRows(path: string): Promise<Record<string, unknown>[]> {
  const reader = await openParquet(path);
  try {
    return await reader.readRows();
  } finally {
    await reader.close();
  }
}

async function withTrevni<T>(path: string, fn: (r: TrevniReader) => Promise<T>): Promise<T> {
  const r = await TrevniReader.open(new Uint8Array(readFileSync(path)));
  try {
    return await fn(r);
  } finally {
    await r.close();
  }
}

function jsonLines(path: string): unknown[] {
  return readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as unknown);
}

// ------------------------------------------------------------------ Parquet → Trevni → Parquet

const PARQUET_FILES = [
  'alltypes_plain.parquet', 'alltypes_dictionary.parquet', 'alltypes_plain.snappy.parquet', 'nested_lists.snappy.parquet',
  'nested_structs.rust.parquet', 'nullable.impala.parquet', 'nonnullable.impala.parquet', 'list_columns.parquet',
  'byte_array_decimal.parquet', 'fixed_length_decimal.parquet', 'fixed_length_decimal_legacy.parquet', 'int32_decimal.parquet',
  'int64_decimal.parquet', 'float16_nonzeros_and_nans.parquet', 'null_list.parquet', 'repeated_no_annotation.parquet',
  'old_list_structure.parquet', 'unknown-logical-type.parquet', 'incorrect_map_schema.parquet', 'nulls.snappy.parquet',
  'data_index_bloom_encoding_stats.parquet', 'delta_byte_array.parquet', 'delta_binary_packed.parquet', 'datapage_v2.snappy.parquet',
];

describe('Parquet to Trevni and back', () => {
  for (const name of [...PARQUET_FILES.map((f) => join(PARQUET, f)), SAMPLE]) {
    const base = name.split('/').pop()!.replace(/\.parquet$/, '');
    test(base, async () => {
      const trv = join(dir, `${base}.trv`);
      const back = join(dir, `${base}.back.parquet`);
      await run(name, trv);
      await run(trv, back);
      const original = await parquetRows(name);
      // The Trevni file holds the rows as Avro records (readAvro reassembles them) ...
      const count = await withTrevni(trv, async (r) => {
        assert.ok(metaGet(r.metadata, AVRO_SCHEMA_KEY), 'avro.schema is stored');
        let n = 0;
        for await (const _ of readAvro(r)) n++;
        return n;
      });
      assert.equal(count, original.length);
      // ... and they come back to exactly the values the library reads from the original.
      assert.deepStrictEqual(await parquetRows(back), original);
      // Text straight from the Trevni file is the text of the Parquet file.
      await run(name, join(dir, `${base}.p.jsonl`));
      await run(trv, join(dir, `${base}.t.jsonl`));
      assert.equal(readFileSync(join(dir, `${base}.t.jsonl`), 'utf8'), readFileSync(join(dir, `${base}.p.jsonl`), 'utf8'));
    });
  }

  test('types map to Avro as documented; names that are not Avro names are kept aside', async () => {
    const schemaOf = async (path: string) => withTrevni(path, async (r) => JSON.parse(new TextDecoder().decode(metaGet(r.metadata, AVRO_SCHEMA_KEY)!)) as { fields: { name: string; type: unknown; 'parquetry.name'?: string }[] });
    const sample = await schemaOf(join(dir, 'sample.trv'));
    const types = Object.fromEntries(sample.fields.map((f) => [f.name, f.type]));
    assert.deepEqual(types.id, ['null', 'long']);
    assert.deepEqual(types.discount, ['null', { type: 'bytes', logicalType: 'decimal', precision: 9, scale: 2 }]);
    assert.deepEqual(types.updated_at, ['null', { type: 'long', logicalType: 'local-timestamp-micros' }]);
    assert.deepEqual(types.day, ['null', { type: 'int', logicalType: 'date' }]);
    assert.deepEqual(types.tags, ['null', { type: 'array', items: ['null', 'long'] }]);
    assert.deepEqual(types.attrs, ['null', { type: 'map', values: ['null', 'long'] }]);
    const plain = await schemaOf(join(dir, 'alltypes_plain.trv'));
    assert.deepEqual(plain.fields.find((f) => f.name === 'timestamp_col')!.type, ['null', { type: 'long', logicalType: 'timestamp-nanos' }]);
    assert.deepEqual(plain.fields.find((f) => f.name === 'float_col')!.type, ['null', 'float']);
    const renamed = await schemaOf(join(dir, 'unknown-logical-type.trv'));
    assert.deepEqual(renamed.fields.map((f) => [f.name, f['parquetry.name']]), [
      ['column_with_known_type', 'column with known type'], ['column_with_unknown_type', 'column with unknown type'],
    ]);
    assert.equal(avroName('9 lives'), '_9_lives');
    // The columns are trevni-avro's: a nullable field is a union column of 0/1 lengths.
    await withTrevni(join(dir, 'sample.trv'), async (r) => {
      const id = r.column('id/long');
      assert.equal(id.type, 'long');
      assert.ok(id.array);
      assert.ok(r.column('tags/array').array);
      assert.equal(r.column('tags/array[]/long').parent, 'tags/array[]');
    });
  });

  test('Trevni to Trevni rewrites with other options and keeps the rows', async () => {
    const again = join(dir, 'sample.again.trv');
    await run(join(dir, 'sample.trv'), again, '--codec', 'bzip2');
    await run(again, join(dir, 'sample.again.parquet'));
    assert.deepStrictEqual(await parquetRows(join(dir, 'sample.again.parquet')), await parquetRows(SAMPLE));
    await withTrevni(again, async (r) => assert.ok(r.columns.every((c) => c.codec === 'bzip2')));
  });
});

// ------------------------------------------------------------------ CSV and JSON Lines → Trevni

describe('CSV and JSON Lines to Trevni', () => {
  // CSV files that come with the corpus (their expected values), and JSON Lines made from a real Parquet file.
  const inputs = ['delta_binary_packed_expect.csv', 'delta_byte_array_expect.csv', 'delta_encoding_optional_column_expect.csv'].map((f) => join(PARQUET, f));
  for (const input of inputs) {
    test(input.split('/').pop()!, async () => {
      const base = join(dir, input.split('/').pop()!.replace(/\.csv$/, ''));
      await run(input, `${base}.trv`);
      await run(input, `${base}.parquet`);
      await run(`${base}.trv`, `${base}.t.csv`);
      await run(`${base}.parquet`, `${base}.p.csv`);
      // The same inference and the same values either way.
      assert.equal(readFileSync(`${base}.t.csv`, 'utf8'), readFileSync(`${base}.p.csv`, 'utf8'));
      await run(`${base}.trv`, `${base}.back.parquet`);
      assert.deepStrictEqual(await parquetRows(`${base}.back.parquet`), await parquetRows(`${base}.parquet`));
    });
  }

  test('JSON Lines (nested: lists, structs, maps as objects)', async () => {
    const jsonl = join(dir, 'nullable.impala.p.jsonl');
    await run(jsonl, join(dir, 'from-jsonl.trv'));
    await run(jsonl, join(dir, 'from-jsonl.parquet'));
    await run(join(dir, 'from-jsonl.trv'), join(dir, 'from-jsonl.back.parquet'));
    assert.deepStrictEqual(await parquetRows(join(dir, 'from-jsonl.back.parquet')), await parquetRows(join(dir, 'from-jsonl.parquet')));
  });
});

// ------------------------------------------------------------------ the Java-written corpus → Parquet / JSON Lines

interface ExpectedColumn {
  name: string;
  type: TrevniType;
  array: boolean;
  parent: string | null;
  values: unknown[];
}

interface Expected {
  rowCount: number;
  metadata: { key: string; utf8: string | null }[];
  columns: ExpectedColumn[];
}

type Source = 'parquet' | 'jsonl';

function bytesOf(hexText: string): Uint8Array {
  return Uint8Array.from(hexText.match(/../g) ?? [], (h) => parseInt(h, 16));
}

/** A value read back from our output, in the corpus's JSON conventions (README "JSON conventions"). */
function corpusForm(type: TrevniType, v: unknown, src: Source): unknown {
  if (v === null) return null;
  switch (type) {
    case 'long':
    case 'fixed64': return String(v);
    case 'bytes': return src === 'parquet' ? hex(v as Uint8Array) : v;
    case 'float':
    case 'double': {
      if (typeof v === 'string') return v; // NaN and infinities in JSON Lines
      const n = v as number;
      if (Number.isNaN(n)) return 'NaN';
      if (!Number.isFinite(n)) return n > 0 ? 'Infinity' : '-Infinity';
      return n;
    }
    default: return v;
  }
}

/** The corpus value, as it compares: floats rounded to float, negative zero as zero in JSON Lines (which prints -0 as 0). */
function expectedForm(type: TrevniType, v: unknown, src: Source): unknown {
  if ((type === 'float' || type === 'double') && typeof v === 'number') {
    const n = type === 'float' ? Math.fround(v) : v;
    return src === 'jsonl' && n === 0 ? 0 : n;
  }
  return v;
}

function deepMap(v: unknown, depth: number, f: (x: unknown) => unknown): unknown {
  return depth === 0 ? f(v) : (v as unknown[]).map((x) => deepMap(x, depth - 1, f));
}

/** Each column's per-row value (README's shape) taken from rows in CANONICAL.md's Trevni shape. */
function columnsFromRows(columns: ExpectedColumn[], rows: Record<string, unknown>[]): unknown[][] {
  const byName = new Map(columns.map((c) => [c.name, c]));
  const hasKids = (c: ExpectedColumn) => columns.some((k) => k.parent === c.name);
  const elementValue = (c: ExpectedColumn, e: unknown) => (hasKids(c) ? (c.type === 'null' ? null : (e as Record<string, unknown>).$value) : e);
  /** Every element (or value) of column c in the row, across all parent elements. */
  const items = (c: ExpectedColumn, row: Record<string, unknown>): unknown[] => {
    if (c.parent === null) return c.array ? (row[c.name] as unknown[]) : [row[c.name]];
    const out: unknown[] = [];
    for (const pe of items(byName.get(c.parent)!, row)) {
      const v = (pe as Record<string, unknown>)[c.name];
      if (c.array) out.push(...(v as unknown[]));
      else out.push(v);
    }
    return out;
  };
  return columns.map((c) => rows.map((row) => {
    if (c.parent === null) return c.array ? items(c, row).map((e) => elementValue(c, e)) : elementValue(c, row[c.name]);
    if (!c.array) return items(c, row).map((e) => elementValue(c, e));
    return items(byName.get(c.parent)!, row).map((pe) => ((pe as Record<string, unknown>)[c.name] as unknown[]).map((e) => elementValue(c, e)));
  }));
}

function depthOf(c: ExpectedColumn): number {
  return c.parent === null ? (c.array ? 1 : 0) : c.array ? 2 : 1;
}

/** Compares columns read back with the corpus's, value by value; `src` says where the values went through (JSON Lines drops the sign of zero). */
function assertColumns(expected: ExpectedColumn[], got: unknown[][], src: Source, what: string, inMemory = false): void {
  expected.forEach((c, i) => {
    const d = depthOf(c);
    const actual = got[i]!.map((row) => deepMap(row, d, (x) => corpusForm(c.type, x, inMemory ? 'parquet' : src)));
    const want = c.values.map((row) => deepMap(row, d, (x) => expectedForm(c.type, x, src)));
    assert.deepStrictEqual(actual, want, `${what}: column ${c.name}`);
  });
}

/** An output row (Parquet's shape of an Avro value) as the Avro value readAvro gives. */
function toAvro(s: AvroSchema, v: unknown, src: Source): unknown {
  switch (s.type) {
    case 'null': return null;
    case 'long': return BigInt(v as bigint | number | string);
    case 'float':
    case 'double': return typeof v === 'string' ? Number(v) : v;
    case 'bytes':
    case 'fixed': return src === 'parquet' ? v : bytesOf(v as string);
    case 'record': {
      const o: Record<string, unknown> = {};
      for (const f of s.fields) o[f.name] = toAvro(f.type, (v as Record<string, unknown>)[f.name], src);
      return o;
    }
    case 'array': return (v as unknown[]).map((x) => toAvro(s.items, x, src));
    case 'map': {
      const o: Record<string, unknown> = {};
      for (const e of v as { key: string; value: unknown }[]) o[e.key] = toAvro(s.values, e.value, src);
      return o;
    }
    case 'union': {
      if (v === null) return null;
      const others = s.branches.filter((b) => b.type !== 'null');
      if (others.length === 1) return { [branchName(others[0]!)]: toAvro(others[0]!, v, src) };
      const o = v as Record<string, unknown>;
      const chosen = others.filter((b) => o[branchName(b)] !== null && o[branchName(b)] !== undefined);
      assert.equal(chosen.length, 1, `one branch of ${JSON.stringify(o)}`);
      return { [branchName(chosen[0]!)]: toAvro(chosen[0]!, o[branchName(chosen[0]!)], src) };
    }
    default: return v;
  }
}

/** An Avro value in the corpus's JSON form with floats compared as floats (Java prints a float's shortest float digits), and -0 as 0 from JSON Lines. */
function floatsAsFloats(s: AvroSchema, v: unknown, src: Source): unknown {
  if (v === null) return null;
  switch (s.type) {
    case 'float':
    case 'double':
      return typeof v === 'number' ? expectedForm(s.type, v, src) : v;
    case 'record': {
      const o: Record<string, unknown> = {};
      for (const f of s.fields) o[f.name] = floatsAsFloats(f.type, (v as Record<string, unknown>)[f.name], src);
      return o;
    }
    case 'array': return (v as unknown[]).map((x) => floatsAsFloats(s.items, x, src));
    case 'map': return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, floatsAsFloats(s.values, x, src)]));
    case 'union': {
      const [name, inner] = Object.entries(v as Record<string, unknown>)[0]!;
      return { [name]: floatsAsFloats(s.branches.find((b) => branchName(b) === name)!, inner, src) };
    }
    default: return v;
  }
}

/** Shreds Avro values again (trevni-avro's columns) and reads every column back. */
async function reshred(schemaText: string, records: unknown[], names: string[]): Promise<unknown[][]> {
  const sink = new BufferSink();
  const w = await AvroTrevniWriter.open(sink, schemaText);
  for (const r of records) await w.write(r);
  await w.close();
  const reader = await TrevniReader.open(sink.bytes());
  const out: unknown[][] = [];
  for (const n of names) out.push(await reader.readColumn(n));
  return out;
}

describe('the Trevni corpus (written by Java) to Parquet and JSON Lines', () => {
  const cases = readdirSync(TREVNI).filter((f) => f.endsWith('.trv')).sort();
  test('the corpus is there', () => assert.ok(cases.length >= 30, `${cases.length} files`));

  for (const file of cases) {
    const base = file.replace(/\.trv$/, '');
    if (base.startsWith('quirk_')) {
      test(`${base}: the Java writer's bad checksum ends the conversion, naming column and block; nothing is left`, async () => {
        const out = freshDir('quirk-');
        for (const target of ['x.parquet', 'x.jsonl', 'x.trv']) {
          await assert.rejects(run(join(TREVNI, file), join(out, target)), (e: unknown) => {
            assert.ok(e instanceof ParquetryError, String(e));
            assert.equal(e.code, 'CHECKSUM');
            assert.match(e.message, /block 0 of column \w+/);
            return true;
          });
        }
        assert.deepEqual(readdirSync(out), []);
      });
      continue;
    }
    test(base, async () => {
      const expected = JSON.parse(readFileSync(join(TREVNI, `${file}.expected.json`), 'utf8')) as Expected;
      const schemaText = expected.metadata.find((m) => m.key === AVRO_SCHEMA_KEY)?.utf8 ?? undefined;
      const pq = join(dir, `${base}.from-trevni.parquet`);
      const jl = join(dir, `${base}.from-trevni.jsonl`);
      await run(join(TREVNI, file), jl);
      const outputs: Array<[Source, () => Promise<Record<string, unknown>[]>]> = [['jsonl', async () => jsonLines(jl) as Record<string, unknown>[]]];
      if (expected.columns.length === 0) {
        // Parquet cannot hold a file without columns: a typed error, and nothing written.
        await assert.rejects(run(join(TREVNI, file), pq), ParquetryError);
        assert.ok(!existsSync(pq));
        assert.equal(readFileSync(jl, 'utf8'), '');
        return;
      }
      await run(join(TREVNI, file), pq);
      outputs.push(['parquet', () => parquetRows(pq)]);
      // Reshredding is a function of the records alone: outputs giving the same records share one.
      let shredded: { values: unknown[]; got: unknown[][] } | undefined;
      for (const [src, read] of outputs) {
        const rows = await read();
        assert.equal(rows.length, expected.rowCount, `${src} rows`);
        if (schemaText === undefined) {
          assertColumns(expected.columns, columnsFromRows(expected.columns, rows), src, src);
          continue;
        }
        // A trevni-avro file: its rows are Avro records; they must be the records the Java reader assembled ...
        const schema = parseAvroSchema(schemaText);
        const record = schema.type === 'record';
        const values = rows.map((r) => toAvro(schema, record ? r : r.value, src));
        const javaRecords = jsonLines(join(TREVNI, `${file}.expected-avro.jsonl`));
        const norm = (v: unknown) => floatsAsFloats(schema, v, src);
        assert.deepStrictEqual(values.map((v) => norm(avroJson(schema, v))), javaRecords.map(norm), `${src}: Avro records`);
        // ... and, shredded again, every column the Java reader read.
        if (!shredded || !isDeepStrictEqual(shredded.values, values)) shredded = { values, got: await reshred(schemaText, values, expected.columns.map((c) => c.name)) };
        const { got } = shredded;
        assertColumns(expected.columns, got, src, `${src} reshredded`, true);
      }
    });
  }
});

// ------------------------------------------------------------------ codec and checksum

describe('--codec and --checksum', () => {
  const input = join(PARQUET, 'alltypes_tiny_pages_plain.parquet');
  let reference: Record<string, unknown>[] = [];
  before(async () => {
    reference = await parquetRows(input);
  });

  for (const codec of ['null', 'deflate', 'snappy', 'bzip2']) {
    for (const checksum of ['null', 'crc32']) {
      test(`${codec} / ${checksum}`, async () => {
        const out = join(dir, `codec-${codec}-${checksum}.trv`);
        await run(input, out, '--codec', codec.toUpperCase(), '--checksum', checksum);
        await withTrevni(out, async (r) => {
          assert.equal(new TextDecoder().decode(metaGet(r.metadata, 'trevni.codec')), codec);
          assert.equal(new TextDecoder().decode(metaGet(r.metadata, 'trevni.checksum')), checksum);
          let stored = 0;
          let raw = 0;
          for (const c of r.columns) {
            assert.equal(c.codec, codec, c.name);
            assert.equal(c.checksum, checksum, c.name);
            const blocks = await r.blocks(c.index);
            for (let b = 0; b < blocks.length; b++) {
              stored += blocks[b]!.compressedSize;
              raw += blocks[b]!.uncompressedSize;
              assert.equal(blocks[b]!.checksumSize, checksum === 'crc32' ? 4 : 0);
              if (checksum === 'crc32') {
                // The stored CRC-32 (big-endian) is that of the uncompressed block.
                const sum = await r.storedChecksum(c.index, b);
                const data = await r.readBlock(c.index, b);
                assert.equal(new DataView(sum.buffer, sum.byteOffset).getUint32(0, false), crc32(data));
              }
            }
            if (codec === 'null') for (const b of blocks) assert.equal(b.compressedSize, b.uncompressedSize);
          }
          if (codec !== 'null') assert.ok(stored < raw * 0.8, `${codec}: ${stored} of ${raw} bytes`);
          assert.ok(r.columns.some((c) => c.name === 'string_col/string'));
        });
        await run(out, join(dir, `codec-${codec}-${checksum}.parquet`));
        assert.deepStrictEqual(await parquetRows(join(dir, `codec-${codec}-${checksum}.parquet`)), reference);
      });
    }
  }

  test('the defaults are snappy and no checksum', async () => {
    const out = join(dir, 'default.trv');
    await run(join(PARQUET, 'alltypes_plain.parquet'), out);
    await withTrevni(out, async (r) => {
      for (const c of r.columns) assert.deepEqual([c.codec, c.checksum], ['snappy', 'null']);
    });
  });
});

// ------------------------------------------------------------------ errors and formats

describe('errors', () => {
  test('an unknown codec or checksum is a usage error; nothing is created', async () => {
    const out = freshDir('usage-');
    let r = await cli([join(PARQUET, 'alltypes_plain.parquet'), join(out, 'x.trv'), '--codec', 'zstd']);
    assert.equal(r.code, 1);
    assert.match(r.err, /--codec.*'zstd' is invalid: must be null, deflate, snappy or bzip2 for Trevni output/);
    r = await cli([join(PARQUET, 'alltypes_plain.parquet'), join(out, 'x.trv'), '--checksum', 'md5']);
    assert.equal(r.code, 1);
    assert.match(r.err, /--checksum.*must be null or crc32/);
    r = await cli([join(PARQUET, 'alltypes_plain.parquet'), join(out, 'x.parquet'), '--checksum', 'crc32']);
    assert.equal(r.code, 1);
    assert.match(r.err, /--checksum applies to Trevni output only/);
    r = await cli([join(PARQUET, 'alltypes_plain.parquet'), join(out, 'x.trv'), '--page-size', '1MiB']);
    assert.match(r.err, /--page-size applies to Parquet output only/);
    assert.deepEqual(readdirSync(out), []);
  });

  test('a type Avro cannot hold: a typed error naming the column, before anything is written', async () => {
    for (const [file, column] of [['map_no_value.parquet', 'my_map'], ['nested_maps.snappy.parquet', 'a.value']]) {
      const out = freshDir('unrepresentable-');
      await assert.rejects(run(join(PARQUET, file!), join(out, 'x.trv')), (e: unknown) => {
        assert.ok(e instanceof UnsupportedError, String(e));
        assert.equal(e.context.column, column);
        assert.match(e.message, /keys are INT32, and Avro map keys are strings/);
        return true;
      });
      assert.deepEqual(readdirSync(out), []);
    }
    const r = await cli([join(PARQUET, 'map_no_value.parquet'), join(dir, 'x.trv')]);
    assert.equal(r.code, 1);
    assert.match(r.err, /^parquetry: cannot write this map to Trevni: .*\(column my_map\)/);
  });

  test('a value Avro cannot hold (INT96 beyond timestamp-nanos) fails the row, and nothing is left half-written', async () => {
    const out = freshDir('int96-');
    await assert.rejects(run(join(PARQUET, 'int96_from_spark.parquet'), join(out, 'x.trv')), /INT96 timestamp 9999-12-31T03:00:00.000000000Z is beyond an Avro timestamp-nanos.*\(column a\)/);
    assert.deepEqual(readdirSync(out), []);
  });

  test('Trevni input is known by its magic, whatever its name; it must be a file', async () => {
    const odd = join(dir, 'tiny.data');
    copyFileSync(join(TREVNI, 'tiny.trv'), odd);
    await run(odd, join(dir, 'tiny.jsonl'));
    // tiny.trv as the corpus README reads its bytes: x; s, a string array; n, an int child of s.
    assert.deepEqual(jsonLines(join(dir, 'tiny.jsonl')), [
      { x: 1, s: [{ $value: 'a', n: -1 }, { $value: 'bc', n: 64 }] },
      { x: -2, s: [] },
      { x: 300, s: [{ $value: 'é', n: 0 }] },
    ]);
    const r = await cli(['-', join(dir, 'x.jsonl'), '--from', 'trevni']);
    assert.equal(r.code, 1);
    assert.match(r.err, /a Trevni input must be a file/);
    writeFileSync(join(dir, 'not.trv'), 'PAR1 not trevni');
    await assert.rejects(run(join(dir, 'not.trv'), join(dir, 'x.jsonl')), ParquetryError);
  });
});
