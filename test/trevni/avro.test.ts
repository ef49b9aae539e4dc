/**
 * trevni-avro: the avro_* corpus files reassemble to exactly the records
 * Java's AvroColumnReader printed (.expected-avro.jsonl), their columns are
 * the ones the schema shreds to, and shredding those records again gives the
 * Java files' columns (byte-identical files where the data has no maps,
 * whose entry order Java took from a HashMap).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CorruptFileError, InvalidArgumentError, UnsupportedError } from '../../src/errors.js';
import { BufferSink } from '../../src/io/sink.js';
import { AvroTrevniWriter, avroColumns, avroJson, branchName, parseAvroSchema, readAvro, type AvroSchema } from '../../src/trevni/avro.js';
import { TrevniReader } from '../../src/trevni/reader.js';
import { metaGet } from '../../src/trevni/types.js';
import { TREVNI_CORPUS, TREVNI_V1_CORPUS, corpusBytes, fromHex, trvFiles } from './corpus-util.js';

/**
 * Both versions' Avro files. cutting/trevni's reader returns a union's enum
 * or fixed branch as its raw column value (the corpus README's quirk 10), so
 * for that file the records written (`.written-avro.jsonl`) are the truth.
 */
const avroFiles = [
  ...trvFiles().filter((f) => f.startsWith('avro_')).map((trv) => ({ trv, dir: TREVNI_CORPUS, version: 2 as const, records: 'expected' })),
  ...trvFiles(TREVNI_V1_CORPUS)
    .filter((f) => /^(quirk_)?avro_/.test(f))
    .map((trv) => ({ trv, dir: TREVNI_V1_CORPUS, version: 1 as const, records: trv.startsWith('quirk_') ? 'written' : 'expected' })),
];

function expectedRecords({ trv, dir, records }: { trv: string; dir: string; records: string }): unknown[] {
  return readFileSync(join(dir, `${trv}.${records}-avro.jsonl`), 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));
}

/** Expected JSON with floats rounded to float precision (Java printed them as floats). */
function normalize(s: AvroSchema, v: unknown): unknown {
  switch (s.type) {
    case 'float': return typeof v === 'number' ? Math.fround(v) : v;
    case 'record': return Object.fromEntries(s.fields.map((f) => [f.name, normalize(f.type, (v as Record<string, unknown>)[f.name])]));
    case 'array': return (v as unknown[]).map((x) => normalize(s.items, x));
    case 'map': return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, normalize(s.values, x)]));
    case 'union': {
      if (v === null) return null;
      const [k, x] = Object.entries(v as Record<string, unknown>)[0]!;
      return { [k]: normalize(s.branches.find((b) => branchName(b) === k)!, x) };
    }
    default: return v;
  }
}

/** The corpus JSON form back into writer values. */
function fromJson(s: AvroSchema, v: unknown): unknown {
  switch (s.type) {
    case 'long': return BigInt(v as string);
    case 'float':
    case 'double': {
      const n = v === 'NaN' ? NaN : v === 'Infinity' ? Infinity : v === '-Infinity' ? -Infinity : (v as number);
      return s.type === 'float' ? Math.fround(n) : n;
    }
    case 'bytes':
    case 'fixed': return fromHex(v as string);
    case 'record': return Object.fromEntries(s.fields.map((f) => [f.name, fromJson(f.type, (v as Record<string, unknown>)[f.name])]));
    case 'array': return (v as unknown[]).map((x) => fromJson(s.items, x));
    case 'map': return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, fromJson(s.values, x)]));
    case 'union': {
      if (v === null) return null;
      const [k, x] = Object.entries(v as Record<string, unknown>)[0]!;
      return { [k]: fromJson(s.branches.find((b) => branchName(b) === k)!, x) };
    }
    default: return v;
  }
}

function hasMap(s: AvroSchema): boolean {
  switch (s.type) {
    case 'map': return true;
    case 'record': return s.fields.some((f) => hasMap(f.type));
    case 'array': return hasMap(s.items);
    case 'union': return s.branches.some(hasMap);
    default: return false;
  }
}

function schemaOf(r: TrevniReader): { text: string; schema: AvroSchema } {
  const text = new TextDecoder().decode(metaGet(r.metadata, 'avro.schema')!);
  return { text, schema: parseAvroSchema(text) };
}

for (const file of avroFiles) {
  const { trv, dir, version } = file;
  test(`${trv} (version ${version}): records as AvroColumnReader reassembles them, columns as AvroColumnator names them`, async () => {
    const r = await TrevniReader.open(corpusBytes(trv, dir));
    const { schema } = schemaOf(r);
    const specs = avroColumns(schema);
    assert.deepEqual(
      specs.map((c) => [c.name, c.type, c.metadata!.map((m) => m.key)]),
      r.columns.map((c) => [c.name, c.type, c.metadata.map((m) => m.key).filter((k) => k !== 'trevni.name' && k !== 'trevni.type')]),
    );
    const want = expectedRecords(file).map((v) => normalize(schema, v));
    const got: unknown[] = [];
    for await (const rec of readAvro(r)) got.push(avroJson(schema, rec));
    assert.equal(got.length, want.length);
    for (let i = 0; i < want.length; i++) assert.deepStrictEqual(got[i], want[i], `record ${i}`);
  });

  test(`${trv} (version ${version}): shredding the records again gives the Java file's columns`, async () => {
    const java = await TrevniReader.open(corpusBytes(trv, dir));
    const { text, schema } = schemaOf(java);
    const sink = new BufferSink();
    const w = await AvroTrevniWriter.open(sink, text, { version, metadata: java.metadata.filter((m) => m.key !== 'avro.schema') });
    for (const rec of expectedRecords(file)) await w.write(fromJson(schema, rec));
    await w.close();
    const mine = await TrevniReader.open(sink.bytes());
    assert.deepEqual(mine.metadata, java.metadata);
    assert.deepEqual(mine.columns.map((c) => ({ ...c, start: 0 })), java.columns.map((c) => ({ ...c, start: 0 })));
    const got: unknown[] = [];
    for await (const rec of readAvro(mine)) got.push(avroJson(schema, rec));
    assert.deepStrictEqual(got, expectedRecords(file).map((v) => normalize(schema, v)));
    if (!hasMap(schema)) {
      // The records' JSON writes every NaN as "NaN": the version 1 file's NaN payloads come back as the canonical NaN.
      const nanPayloads = version === 1 && java.columns.some((c) => c.type === 'float' || c.type === 'double');
      for (const c of java.columns) {
        const a = await mine.blocks(c.name);
        const b = await java.blocks(c.name);
        assert.deepEqual(a.map((x) => [x.numRows, x.uncompressedSize]), b.map((x) => [x.numRows, x.uncompressedSize]), c.name);
        if (nanPayloads && (c.type === 'float' || c.type === 'double')) continue;
        for (let k = 0; k < b.length; k++) assert.deepEqual(await mine.readBlock(c.name, k), await java.readBlock(c.name, k), `${c.name} block ${k}`);
      }
      if (!nanPayloads && java.columns.every((c) => c.codec === 'null')) assert.ok(Buffer.compare(sink.bytes(), corpusBytes(trv, dir)) === 0, `${trv} not byte-identical`);
    }
  });
}

test('Avro schemas: names, references, refusals', async () => {
  const json = { type: 'record', name: 'R', namespace: 'a.b', fields: [{ name: 'p', type: { type: 'fixed', name: 'F', size: 2 } }, { name: 'q', type: ['null', 'F'] }, { name: 'e', type: { type: 'enum', name: 'x.E', symbols: ['A'] } }] };
  const s = parseAvroSchema(json);
  assert.deepEqual(avroColumns(s).map((c) => c.name), ['p', 'q/a.b.F', 'e']);
  assert.throws(() => parseAvroSchema({ type: 'record', name: 'L', fields: [{ name: 'next', type: ['null', 'L'] }] }), UnsupportedError);
  assert.throws(() => parseAvroSchema('{"type":"nope"}'), InvalidArgumentError);
  assert.throws(() => parseAvroSchema('not json'), InvalidArgumentError);
  const sink = new BufferSink();
  const w = await AvroTrevniWriter.open(sink, json);
  await assert.rejects(w.write({ p: new Uint8Array(3), q: null, e: 'A' }), /needs fixed/);
  await assert.rejects(w.write({ p: new Uint8Array(2), q: null, e: 'B' }), /needs enum/);
  await assert.rejects(w.write({ p: new Uint8Array(2), q: 5, e: 'A' }), /needs/);
  await w.write({ p: new Uint8Array(2), q: new Uint8Array([1, 2]), e: 'A' }); // bare value for a single non-null branch
  await w.write({ p: new Uint8Array(2), q: { 'a.b.F': new Uint8Array([3, 4]) }, e: 'A' });
  await w.close();
  const back: unknown[] = [];
  for await (const rec of readAvro(await TrevniReader.open(sink.bytes()))) back.push(avroJson(s, rec));
  assert.deepEqual(back, [
    { p: '0000', q: { 'a.b.F': '0102' }, e: 'A' },
    { p: '0000', q: { 'a.b.F': '0304' }, e: 'A' },
  ]);
});

test('Avro names as Java resolves them: "" is the null namespace, a short name is looked up in the current namespace first', async () => {
  // The Avro spec: "The empty string may also be used as a namespace to indicate the null namespace";
  // Java's Schema.Names.get tries the name in the current namespace, then in the null one.
  // The column names below are what trevni-avro's AvroColumnator (Avro 1.8.2 and later) makes of this schema.
  const json = {
    type: 'record', name: 'Outer', namespace: 'gen.ns', fields: [
      { name: 'r', type: ['null', { type: 'record', name: 'NoSpace', namespace: '', fields: [{ name: 'v', type: 'int' }] }] },
      { name: 's', type: ['null', { type: 'record', name: 'NoSpace', fields: [{ name: 'w', type: 'string' }] }] },
      { name: 't', type: ['null', 'NoSpace'] },
      { name: 'u', type: ['null', { type: 'enum', name: 'Inherit', symbols: ['P'] }] },
    ],
  };
  const s = parseAvroSchema(json);
  assert.deepEqual(avroColumns(s).map((c) => c.name), ['r/NoSpace', 'r/NoSpace#v', 's/gen.ns.NoSpace', 's/gen.ns.NoSpace#w', 't/gen.ns.NoSpace', 't/gen.ns.NoSpace#w', 'u/gen.ns.Inherit']);
  const sink = new BufferSink();
  const w = await AvroTrevniWriter.open(sink, json);
  const recs = [
    { r: { NoSpace: { v: 1 } }, s: null, t: { 'gen.ns.NoSpace': { w: 't' } }, u: { 'gen.ns.Inherit': 'P' } },
    { r: null, s: { 'gen.ns.NoSpace': { w: 's' } }, t: null, u: null },
  ];
  for (const r of recs) await w.write(r);
  await w.close();
  const back: unknown[] = [];
  for await (const rec of readAvro(await TrevniReader.open(sink.bytes()))) back.push(avroJson(s, rec));
  assert.deepEqual(back, recs);
});

const FUZZ = '../shared/fuzz';

test("a file's own avro.schema that is malformed, too deep or at odds with the columns is a CorruptFileError naming the key; the caller's schema, an InvalidArgumentError", async () => {
  const drain = async (r: TrevniReader, schema?: string) => {
    const out: unknown[] = [];
    for await (const v of readAvro(r, schema === undefined ? {} : { schema })) out.push(v);
    return out;
  };
  const isCorruptKey = (e: unknown) => e instanceof CorruptFileError && /avro\.schema/.test(e.message);
  // 5,000 and 10,000 nested arrays: the walk would overflow the stack.
  for (const f of ['repro/untyped-avro-deep.trv', 'hostile/trv-avro-deep-10000.trv']) {
    const r = await TrevniReader.open(readFileSync(join(FUZZ, f)));
    await assert.rejects(drain(r), (e) => isCorruptKey(e) && /deeper than 200/.test((e as Error).message), f);
  }
  const deep = '{"type":"array","items":'.repeat(300) + '"int"' + '}'.repeat(300);
  assert.throws(() => parseAvroSchema(deep), (e) => e instanceof InvalidArgumentError && /deeper than 200/.test(e.message));
  assert.equal(avroColumns(parseAvroSchema('{"type":"array","items":'.repeat(150) + '"int"' + '}'.repeat(150))).length, 150);

  const schema = { type: 'record', name: 'R', fields: [{ name: 'n', type: 'int' }, { name: 'e', type: { type: 'enum', name: 'E', symbols: ['A', 'B'] } }] };
  const written = async (schemaText: string) => {
    const sink = new BufferSink();
    const w = await AvroTrevniWriter.open(sink, schema, { schemaText });
    await w.write({ n: 1, e: 'B' });
    await w.close();
    return TrevniReader.open(sink.bytes());
  };
  // The error points at the avro.schema value in the header: its one-byte length, then the text.
  const sink = new BufferSink();
  const w = await AvroTrevniWriter.open(sink, schema, { schemaText: 'not json' });
  await w.write({ n: 1, e: 'B' });
  await w.close();
  const bytes = sink.bytes();
  await assert.rejects(drain(await TrevniReader.open(bytes)), (e) => {
    const at = (e as CorruptFileError).context.offset;
    return isCorruptKey(e) && at !== undefined && new TextDecoder().decode(bytes.subarray(at + 1, at + 9)) === 'not json';
  });
  await assert.rejects(drain(await written('{"type":"nope"}')), isCorruptKey);
  // Columns the stored schema does not make: a missing column, a column of another type.
  await assert.rejects(drain(await written('{"type":"record","name":"R","fields":[{"name":"m","type":"int"}]}')), isCorruptKey);
  await assert.rejects(drain(await written('{"type":"record","name":"R","fields":[{"name":"n","type":"string"}]}')), isCorruptKey);
  // An ordinal past the stored enum's symbols: the file contradicts itself.
  const oneSymbol = JSON.stringify({ ...schema, fields: [schema.fields[0], { name: 'e', type: { type: 'enum', name: 'E', symbols: ['A'] } }] });
  await assert.rejects(drain(await written(oneSymbol)), (e) => e instanceof CorruptFileError && e.context.column === 'e');
  // The same schemas from the caller are the caller's mistake.
  const good = await written(JSON.stringify(schema));
  assert.deepEqual(await drain(good), [{ n: 1, e: 'B' }]);
  await assert.rejects(drain(good, '{"type":"nope"}'), InvalidArgumentError);
  await assert.rejects(drain(good, '{"type":"record","name":"R","fields":[{"name":"m","type":"int"}]}'), InvalidArgumentError);
  await assert.rejects(drain(good, oneSymbol), InvalidArgumentError);

  // The other hostile schemas keep ending typed or in rows.
  // A recursive schema is valid Avro that columns cannot hold: unsupported, at the avro.schema value.
  const recursive = readFileSync(join(FUZZ, 'hostile/trv-avro-recursive.trv'));
  await assert.rejects(drain(await TrevniReader.open(recursive)), (e) => {
    const at = (e as UnsupportedError).context.offset;
    return e instanceof UnsupportedError && /avro\.schema metadata: recursive/.test(e.message) && at !== undefined && /^.?\{/.test(new TextDecoder().decode(recursive.subarray(at + 1, at + 3)));
  });
  const proto = await drain(await TrevniReader.open(readFileSync(join(FUZZ, 'hostile/trv-avro-proto-fields.trv'))));
  assert.ok(proto.length > 0 && proto.every((r) => Object.getPrototypeOf(r) === Object.prototype && Object.keys(r as object).includes('__proto__')));
});

test('Avro records with two fields of one name, unions with two branches of one name: refused (each is a column, read twice)', async () => {
  const dupFields = { type: 'record', name: 'R', fields: [{ name: 'a', type: 'int' }, { name: 'a', type: 'string' }] };
  assert.throws(() => parseAvroSchema(dupFields), (e) => e instanceof InvalidArgumentError && /record R has two fields named "a"/.test(e.message));
  assert.throws(() => parseAvroSchema({ type: 'record', name: 'R', fields: [{ name: 'u', type: ['null', 'int', 'int'] }] }), (e) => e instanceof InvalidArgumentError && /int twice/.test(e.message));
  assert.throws(() => parseAvroSchema(['null', { type: 'array', items: 'int' }, { type: 'array', items: 'string' }]), /array twice/);
  // Named types of different names in one union are fine (Avro allows them).
  assert.equal(avroColumns(parseAvroSchema(['null', { type: 'fixed', name: 'A', size: 1 }, { type: 'fixed', name: 'B', size: 1 }])).length, 2);
  await assert.rejects(AvroTrevniWriter.open(new BufferSink(), dupFields), InvalidArgumentError);
  // In a file: the stored schema is corrupt. Columns a and b, the stored schema reads column a twice.
  const sink = new BufferSink();
  const w = await AvroTrevniWriter.open(sink, { type: 'record', name: 'R', fields: [{ name: 'a', type: 'int' }, { name: 'b', type: 'int' }] }, {
    schemaText: JSON.stringify({ type: 'record', name: 'R', fields: [{ name: 'a', type: 'int' }, { name: 'a', type: 'int' }] }),
  });
  await w.write({ a: 1, b: 2 });
  await w.close();
  const read = async () => {
    for await (const _ of readAvro(await TrevniReader.open(sink.bytes()))) void _;
  };
  await assert.rejects(read(), (e) => e instanceof CorruptFileError && /avro\.schema metadata: .*two fields named "a"/.test(e.message));
});

test('readAvro fields: each record cut to the fields, reading only their columns; other selections refused', async () => {
  for (const trv of ['avro_nested_records.trv', 'avro_unions.trv', 'avro_maps.trv']) {
    const r = await TrevniReader.open(corpusBytes(trv));
    const schema = parseAvroSchema(new TextDecoder().decode(metaGet(r.metadata, 'avro.schema')!));
    assert.equal(schema.type, 'record');
    const names = (schema as { fields: { name: string }[] }).fields.map((f) => f.name);
    const all: Record<string, unknown>[] = [];
    for await (const rec of readAvro(r)) all.push(rec as Record<string, unknown>);
    const pick = [names[names.length - 1]!, names[0]!];
    const got: unknown[] = [];
    for await (const rec of readAvro(r, { fields: pick })) got.push(rec);
    const order = names.filter((n) => pick.includes(n));
    assert.deepStrictEqual(got, all.map((rec) => Object.fromEntries(order.map((n) => [n, rec[n]]))), trv);
    await assert.rejects(readAvro(r, { fields: ['no such field'] }).next(), InvalidArgumentError);
  }
  const map = await TrevniReader.open(corpusBytes('avro_toplevel_map.trv'));
  await assert.rejects(readAvro(map, { fields: ['x'] }).next(), InvalidArgumentError);
});
