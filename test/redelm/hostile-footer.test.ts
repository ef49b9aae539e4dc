/**
 * Java-serialized RedElm footers whose back-references describe far more
 * than their bytes (issue 21, finding 3): generated instances of the class,
 * made by rewriting a real footer with the project's own encoder so that
 * one object is referenced many times, in shapes of every kind (blocks x
 * columns x path, blocks x columns, columns x path, DAGs of lists doubling
 * at each level, long lists, a row group listed twice), plus deep nesting
 * and the third campaign's reproducers. Each is opened and read in a child
 * process under a 512 MiB cap and a hang guard, and must end in a typed
 * error (not a wrapped stack overflow) within seconds.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ByteWriter } from '../../src/bytes/writer.js';
import { CorruptFileError, LimitError } from '../../src/errors.js';
import { decodeJavaStream, fieldsOf, fieldValue, MAX_EXPANSION_PER_BYTE, type ClassDesc, type JavaArray, type JavaObject, type JavaValue } from '../../src/javaser/decode.js';
import { encodeJavaStream, type EncodableObject, type EncodableValue } from '../../src/javaser/encode.js';
import { readRedElmFooter, REDELM_BLOCK } from '../../src/redelm/container.js';
import { RedElmReader } from '../../src/redelm/reader.js';
import { decodeRedElmMetaData, encodeRedElmMetaData } from '../../src/redelm/metadata.js';
import { bufferSource } from '../../src/io/source.js';
import { runCases } from '../../scripts/fuzz/pool.js';
import type { CappedCase, CappedOutcome } from '../fuzz/capped-worker.js';
import { corpusFile, redelmCases, tinyWithBlock } from './corpus-util.js';

const MEMORY_MB = 512;
const SECONDS = 10;
const WORKER = new URL('../fuzz/capped-worker.ts', import.meta.url);
const T3 = join('..', 'shared', 'fuzz', 't3');

const CLASSES = [
  'java.lang.Enum', 'redelm.schema.PrimitiveType$Primitive', '[Ljava.lang.String;', 'java.util.ArrayList',
  'redelm.hadoop.ColumnMetaData', 'redelm.hadoop.BlockMetaData', 'redelm.hadoop.RedElmMetaData$FileMetaData', 'redelm.hadoop.RedElmMetaData',
];

const tiny = corpusFile('tiny_default.redelm');

/** tiny_default's footer, decoded: RedElmMetaData { blocks: ArrayList [block { columns: ArrayList [column { path: String[] }] }] }. */
async function tinyTree(): Promise<{ meta: JavaObject; block: JavaObject; column: JavaObject; list: ClassDesc }> {
  const footer = await readRedElmFooter(bufferSource(tiny));
  const meta = decodeJavaStream(footer.blocks[0]!.data, { classes: new Set(CLASSES) }) as JavaObject;
  const blocks = fieldValue(meta, 'blocks') as JavaObject;
  const block = blocks.annotation[1] as JavaObject;
  const column = (fieldValue(block, 'columns') as JavaObject).annotation[1] as JavaObject;
  return { meta, block, column, list: blocks.cls };
}

/** An ArrayList as its writeObject writes it: the size, then a capacity int and the elements. */
function arrayList(cls: ClassDesc, items: EncodableValue[]): EncodableObject {
  const capacity = new Uint8Array(4);
  new DataView(capacity.buffer).setInt32(0, items.length);
  const annotation: (Uint8Array | EncodableValue)[] = [capacity];
  for (const item of items) annotation.push(item);
  return { t: 'object', cls, fields: new Map([['size', items.length]]), annotation };
}

const withFields = (o: JavaObject, fields: [string, EncodableValue][]): EncodableObject => ({
  t: 'object', cls: o.cls, annotation: [...o.annotation], fields: new Map([...fieldsOf(o.cls).map((f, i): [string, EncodableValue] => [f.name, o.values[i]!]), ...fields]),
});

/** The footer with `blocks` references to one block of `columns` references to one column whose path is `path` references to one string. */
async function dag(blocks: number, columns: number, path: number): Promise<Uint8Array> {
  const t = await tinyTree();
  const p = fieldValue(t.column, 'path') as JavaArray;
  const column = withFields(t.column, [['path', { ...p, items: new Array<JavaValue>(path).fill(p.items[0]!) }]]);
  const block = withFields(t.block, [['columns', arrayList(t.list, new Array<EncodableValue>(columns).fill(column))]]);
  return encodeJavaStream(withFields(t.meta, [['blocks', arrayList(t.list, new Array<EncodableValue>(blocks).fill(block))]]));
}

/** The footer whose blocks list is `depth` levels of lists, each holding two references to the level below; the last holds the block. */
async function doubling(depth: number): Promise<Uint8Array> {
  const t = await tinyTree();
  let level: EncodableValue = arrayList(t.list, [t.block]);
  for (let i = 0; i < depth; i++) level = arrayList(t.list, [level, level]);
  return encodeJavaStream(withFields(t.meta, [['blocks', level]]));
}

/** The footer with `blocks` row groups of `columns` columns, every block, list, column and path its own object: nothing shared, so each is created as it is read. */
async function distinct(blocks: number, columns: number): Promise<Uint8Array> {
  const t = await tinyTree();
  const p = fieldValue(t.column, 'path') as JavaArray;
  const block = () => withFields(t.block, [['columns', arrayList(t.list, Array.from({ length: columns }, () => withFields(t.column, [['path', { ...p, items: [...p.items] }]])))]]);
  return encodeJavaStream(withFields(t.meta, [['blocks', arrayList(t.list, Array.from({ length: blocks }, block))]]));
}

/** The footer with its blocks list naming its one row group `n` times. */
async function repeated(n: number): Promise<Uint8Array> {
  const t = await tinyTree();
  return encodeJavaStream(withFields(t.meta, [['blocks', arrayList(t.list, new Array<EncodableValue>(n).fill(t.block))]]));
}

interface Hostile {
  name: string;
  bytes: Uint8Array;
  op?: CappedCase['op'];
  classes?: string[];
  error: typeof CorruptFileError | typeof LimitError;
  message: RegExp;
  /** A tighter cap than MEMORY_MB, for streams refused as their objects are created. */
  memoryMb?: number;
}

/** The peak of a child that created no more objects than tiny_default's data area backs: the old decoder peaked at 290 MiB on the first case, 12 MB of 140,000 columns. */
const CREATED_MB = 200;
const CREATED = (n: number, cls: string) => new RegExp(`more than ${n} ${cls.replace(/[.[$]/g, '\\$&')} objects, but the data area holds 78 bytes`);

const EXPANDS = /expands through back-references to more than \d+ values, the most a \d+-byte stream may \(8 a byte\)/;

async function hostile(): Promise<Hostile[]> {
  const cases: Hostile[] = [
    { name: 'blocks x columns x path, 600 each (the campaign\'s shape, rebuilt)', bytes: tinyWithBlock(await dag(600, 600, 600)), error: LimitError, message: EXPANDS },
    { name: 'blocks x columns x path, 60 each', bytes: tinyWithBlock(await dag(60, 60, 60)), error: LimitError, message: EXPANDS },
    { name: 'blocks x columns, 3000 each', bytes: tinyWithBlock(await dag(3000, 3000, 1)), error: LimitError, message: EXPANDS },
    { name: 'columns x path, 5000 each', bytes: tinyWithBlock(await dag(1, 5000, 5000)), error: LimitError, message: EXPANDS },
    { name: 'blocks x path, 4000 each', bytes: tinyWithBlock(await dag(4000, 1, 4000)), error: LimitError, message: EXPANDS },
    { name: 'lists doubling 40 levels deep (2^40 blocks)', bytes: tinyWithBlock(await doubling(40), { dataBytes: 4096 }), error: LimitError, message: EXPANDS },
    // Within the budget (a block expands to a few dozen values), so the lists' lengths meet the data area.
    { name: 'a long list: 200,000 references to one row group', bytes: tinyWithBlock(await repeated(200_000)), error: CorruptFileError, message: /200000 row groups list 400000 columns, but the data area holds 78 bytes/ },
    { name: 'one column more than the data area holds (19, at 4 bytes each)', bytes: tinyWithBlock(await dag(1, 20, 1)), error: CorruptFileError, message: /1 row group lists 20 columns, but the data area holds 78 bytes and each column takes at least 4/ },
    // Nothing shared, so within the expansion budget: what the data area backs bounds the objects created.
    { name: '140,000 columns, each its own object', bytes: tinyWithBlock(await distinct(1, 140_000)), error: CorruptFileError, message: CREATED(20, 'redelm.hadoop.ColumnMetaData'), memoryMb: CREATED_MB },
    { name: '20,000 row groups of 7 columns, each its own object', bytes: tinyWithBlock(await distinct(20_000, 7)), error: CorruptFileError, message: CREATED(20, 'redelm.hadoop.ColumnMetaData'), memoryMb: CREATED_MB },
    { name: '100,000 row groups of one column, each its own object (and column list)', bytes: tinyWithBlock(await distinct(100_000, 1)), error: CorruptFileError, message: CREATED(20, 'java.util.ArrayList'), memoryMb: CREATED_MB },
    { name: '140,000 references to one column', bytes: tinyWithBlock(await dag(1, 140_000, 1)), error: CorruptFileError, message: /1 row group lists 140000 columns, but the data area holds 78 bytes/, memoryMb: CREATED_MB },
    { name: 'a row group listed twice (its rows would come back twice)', bytes: tinyWithBlock(await repeated(2)), error: CorruptFileError, message: /column's sections \(8 to \d+\) overlap those of row group 0 column a/ },
    { name: 'a row group listed 30 times', bytes: tinyWithBlock(await repeated(30), { dataBytes: 4096 }), error: CorruptFileError, message: /overlap those of row group/ },
  ];
  for (const name of ['redelm-javaser-dag-path-600x600x600', 'redelm-javaser-200k-annotation']) {
    cases.push({ name: `t3/${name}`, bytes: new Uint8Array(readFileSync(join(T3, `${name}.redelm`))), error: name.includes('dag') ? LimitError : CorruptFileError, message: name.includes('dag') ? EXPANDS : /block 0 is not a redelm.hadoop.BlockMetaData/ });
  }
  // The decoder alone, on classes RedElm does not allow: Object[] arrays nested as a DAG, and nested deep.
  const objectArray: ClassDesc = { t: 'class', name: '[Ljava.lang.Object;', suid: -8012369246846506644n, flags: 2, fields: [], superDesc: null };
  const arr = (items: EncodableValue[]): EncodableValue => ({ t: 'array', cls: objectArray, items });
  let dagArray = arr(['x']);
  for (let i = 0; i < 50; i++) dagArray = arr([dagArray, dagArray, dagArray]);
  cases.push({ name: 'Object[] of three references to the level below, 50 levels (3^50)', op: 'javaser', classes: [objectArray.name], bytes: encodeJavaStream(dagArray), error: LimitError, message: EXPANDS });
  const deep = new ByteWriter();
  deep.bytes(Uint8Array.of(0xac, 0xed, 0, 5));
  const arrayHead = encodeJavaStream(arr([null])).subarray(4, -5); // TC_ARRAY, the class descriptor, then (cut off) length 1 and TC_NULL
  deep.bytes(arrayHead);
  deep.i32be(1);
  for (let i = 1; i < 100_000; i++) {
    deep.u8(0x75); // TC_ARRAY
    deep.u8(0x71); // of the class descriptor, handle 0
    deep.i32be(0x7e0000);
    deep.i32be(1);
  }
  deep.u8(0x70);
  cases.push({ name: 'Object[] nested 100,000 deep', op: 'javaser', classes: [objectArray.name], bytes: deep.finish(), error: CorruptFileError, message: /nest deeper than 64 levels/ });
  // A class descriptor whose superclass is itself (a reference to its own handle), then one nested 100,000 deep.
  const cyclic = new ByteWriter();
  cyclic.bytes(Uint8Array.of(0xac, 0xed, 0, 5, 0x73, 0x72, 0, 1, 0x41, 0, 0, 0, 0, 0, 0, 0, 1, 2, 0, 0, 0x78, 0x71));
  cyclic.i32be(0x7e0000);
  cases.push({ name: 'a class that is its own superclass', op: 'javaser', classes: ['A'], bytes: cyclic.finish(), error: CorruptFileError, message: /class A has more than 64 superclasses/ });
  const supers = new ByteWriter();
  supers.bytes(Uint8Array.of(0xac, 0xed, 0, 5, 0x73));
  for (let i = 0; i < 100_000; i++) supers.bytes(Uint8Array.of(0x72, 0, 1, 0x41, 0, 0, 0, 0, 0, 0, 0, 1, 2, 0, 0, 0x78));
  supers.u8(0x70);
  cases.push({ name: 'superclass descriptors nested 100,000 deep', op: 'javaser', classes: ['A'], bytes: supers.finish(), error: CorruptFileError, message: /class descriptors nest deeper than 64 levels/ });
  return cases;
}

test(`hostile Java-serialized footers end in a typed error within ${SECONDS} s under ${MEMORY_MB} MiB`, { timeout: 300_000 }, async (t) => {
  const cases = await hostile();
  const results = (await runCases(
    cases.map((c, id): CappedCase => ({ id, op: c.op ?? 'redelm', bytes: c.bytes, ...(c.classes ? { classes: c.classes } : {}) })),
    { workers: 2, timeoutMs: 60_000, memoryMb: MEMORY_MB, batch: 4, entry: WORKER },
  )) as (CappedOutcome | { id: number; result: string; error: string; ms?: number; peakMb?: number })[];
  const bad: string[] = [];
  for (const r of results) {
    const c = cases[r.id]!;
    const o = r as CappedOutcome;
    const problems = [
      o.result !== 'typed' && `${r.result}`,
      o.result === 'typed' && o.errorClass !== c.error.name && `${o.errorClass}, expected ${c.error.name}`,
      o.result === 'typed' && !c.message.test(o.error!) && `message does not match ${c.message}`,
      o.wrapped && 'a plain exception wrapped by the safety net',
      (o.ms ?? 0) > SECONDS * 1000 && `${(o.ms / 1000).toFixed(1)} s`,
      (o.peakMb ?? 0) > (c.memoryMb ?? MEMORY_MB) && `peak ${o.peakMb!.toFixed(0)} MiB, over ${c.memoryMb ?? MEMORY_MB}`,
    ].filter(Boolean);
    t.diagnostic(`${problems.length ? 'FAIL' : 'ok  '} ${c.name} (${c.bytes.length} bytes): ${r.error ?? r.result}, ${(o.ms ?? 0).toFixed(0)} ms, peak ${(o.peakMb ?? 0).toFixed(0)} MiB`);
    if (problems.length) bad.push(`${c.name}: ${problems.join('; ')} (${r.error ?? ''})`);
  }
  assert.equal(results.length, cases.length);
  assert.deepEqual(bad, []);
});

/**
 * Footers of distinct columns (nothing shared, each within every count bound
 * because the data area is padded to hold them), in a sweep of sizes up to
 * fuzz seed 20261130 case 74198's 280,000 (two row groups of 140,000, a
 * 24 MB stream): the stream is decoded whole before the schema, written after
 * the row groups, says they are too many. A Map and bigints per object made
 * the largest peak at 443 MiB (13.6 MiB more per MB of file), over the fuzz
 * cap with the harness's own; the compact tree peaks at 268 MiB (7.1 more per
 * MB). A case's peak counts the child's resident set (about 100 MiB).
 */
const PEAK_PER_FILE_MB = 8;
const CHILD_MB = 120;

test(`footers of up to 280,000 distinct columns decode within ${PEAK_PER_FILE_MB} MiB per MB of file`, { timeout: 300_000 }, async (t) => {
  const sizes: [number, number][] = [[1, 17_500], [1, 70_000], [2, 140_000]];
  const cases = await Promise.all(sizes.map(async ([blocks, columns]) => tinyWithBlock(await distinct(blocks, columns), { dataBytes: 4 * blocks * columns + 78 })));
  const results = await runCases(
    cases.map((bytes, id): CappedCase => ({ id, op: 'redelm', bytes })),
    { workers: 1, timeoutMs: 60_000, memoryMb: MEMORY_MB, batch: 1, entry: WORKER },
  );
  const leaves = (await RedElmReader.open(tiny)).schema.leaves.length;
  const bad: string[] = [];
  for (const r of results as CappedOutcome[]) {
    const [blocks, columns] = sizes[r.id]!;
    const mb = cases[r.id]!.length / 2 ** 20;
    const line = `${blocks} x ${columns} columns (${mb.toFixed(1)} MB): ${r.error ?? r.result}, ${(r.ms ?? 0).toFixed(0)} ms, peak ${(r.peakMb ?? 0).toFixed(0)} MiB`;
    t.diagnostic(line);
    const ok = r.result === 'typed' && new RegExp(`row group has ${columns} columns, the schema ${leaves} leaves`).test(r.error!)
      && r.peakMb <= CHILD_MB + PEAK_PER_FILE_MB * mb && r.ms < 3 * SECONDS * 1000; // wall time, on a machine the suite loads: the case alone takes under 5 s
    if (!ok) bad.push(line);
  }
  assert.equal(results.length, cases.length);
  assert.deepEqual(bad, []);
});

/** Every value of a decoded tree, a shared one counted at each of its uses: what a caller walking it builds. */
function expansion(v: JavaValue | Uint8Array): number {
  if (v === null || typeof v !== 'object' || v instanceof Uint8Array || v.t === 'enum') return 1;
  if (v.t === 'array') return Array.isArray(v.items) ? v.items.reduce((n: number, x) => n + expansion(x), 1) : 1 + v.items.length;
  let n = 1;
  for (const x of v.values) n += expansion(x);
  for (const x of v.annotation) n += expansion(x);
  return n;
}

test('the Java reference\'s footers expand to under a fortieth of the budget', async () => {
  let most = 0;
  for (const name of redelmCases()) {
    const footer = await readRedElmFooter(bufferSource(corpusFile(`${name}.redelm`)));
    const data = footer.blocks.find((b) => b.name === REDELM_BLOCK)!.data;
    if (data[0] !== 0xac) continue; // the JSON form has no references
    most = Math.max(most, expansion(decodeJavaStream(data, { classes: new Set(CLASSES) })) / data.length);
  }
  assert.ok(most > 0.05 && most < MAX_EXPANSION_PER_BYTE / 40, `the corpus's footers expand to at most ${most} values a byte`);
});

test('a JSON footer listing more columns than the data area has bytes is refused before any is built', async () => {
  const meta = (await RedElmReader.open(tiny)).metadata;
  const column = meta.blocks[0]!.columns[0]!;
  const json = JSON.stringify({ fileMetaData: { schema: meta.schema, codecClassName: meta.codecClassName }, blocks: [{ ...meta.blocks[0], columns: new Array(500).fill(column) }] });
  await assert.rejects(RedElmReader.open(tinyWithBlock(new TextEncoder().encode(json))), (e: unknown) => {
    assert.ok(e instanceof CorruptFileError);
    assert.match(e.message, /1 row group lists 500 columns, but the data area holds 78 bytes/);
    return true;
  });
});

test('a column path of 140,000 components is encoded in time linear in it (the fuzz harness re-encodes what it decoded)', async () => {
  const meta = (await RedElmReader.open(tiny)).metadata;
  const path = Array.from({ length: 140_000 }, (_, i) => `p${i % 7}`);
  const long = { ...meta, blocks: [{ ...meta.blocks[0]!, columns: [{ ...meta.blocks[0]!.columns[0]!, path }] }] };
  const t0 = performance.now();
  // A key per path prefix made this 10^10 characters of keys.
  const bytes = encodeRedElmMetaData(long, 'java');
  assert.ok(performance.now() - t0 < 20_000, `${((performance.now() - t0) / 1000).toFixed(1)} s`);
  assert.deepEqual(decodeRedElmMetaData(bytes, 0, 1_000_000).blocks[0]!.columns[0]!.path, path);
});

test('a row group listing one column 140,000 times against a schema of fewer leaves is refused before any column is built, in both footer forms (fuzz seed 20261130 case 74198: 10 s and the memory cap in its batch)', async () => {
  const meta = (await RedElmReader.open(tiny)).metadata;
  const leaves = meta.blocks[0]!.columns.length;
  const many = { ...meta, blocks: [{ ...meta.blocks[0]!, columns: new Array(140_000).fill(meta.blocks[0]!.columns[0]!) }] };
  for (const form of ['java', 'json'] as const) {
    const bytes = encodeRedElmMetaData(many, form);
    let built = 0;
    assert.throws(() => decodeRedElmMetaData(bytes, 0, 10_000_000, () => (built++, leaves)), (e: unknown) => {
      assert.ok(e instanceof CorruptFileError, String(e));
      assert.match(e.message, new RegExp(`row group has 140000 columns, the schema ${leaves} leaves`));
      assert.equal(e.context.rowGroup, 0);
      return true;
    }, form);
    assert.equal(built, 1);
    // The file's own list still decodes under the same check.
    assert.equal(decodeRedElmMetaData(encodeRedElmMetaData(meta, form), 0, 10_000_000, () => leaves).blocks[0]!.columns.length, leaves);
  }
});
