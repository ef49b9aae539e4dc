/** The writer's onWarning: strings with lone surrogates are written with U+FFFD, and reported once per column with the first record. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BufferSink, ParquetReader, ParquetWriter, bufferSource, defineSchema, field, type ParquetryWarning, type WriterOptions } from '../../src/index.js';

const schema = defineSchema({ id: field.int32(), s: field.string(), j: field.json(), t: field.struct({ u: field.string() }) });

async function write(options: WriterOptions, how: (w: ParquetWriter) => Promise<void>): Promise<unknown[]> {
  const sink = new BufferSink();
  const w = await ParquetWriter.open(sink, schema, options);
  await how(w);
  await w.close();
  const r = await ParquetReader.open(bufferSource(sink.bytes()));
  return r.readRows();
}

const long = 'x'.repeat(100);
const records = [
  { id: 0, s: 'ok', j: '"ok"', t: { u: 'ok' } },
  { id: 1, s: 'bad \ud800 one', j: '"ok"', t: { u: 'ok' } },
  { id: 2, s: `${long}\udfff`, j: '"\udc00"', t: { u: 'ok' } },
  { id: 3, s: 'pair \ud83d\ude00 fine', j: '"ok"', t: { u: `${long}\ud800` } },
];
const written = [
  { id: 0, s: 'ok', j: '"ok"', t: { u: 'ok' } },
  { id: 1, s: 'bad \ufffd one', j: '"ok"', t: { u: 'ok' } },
  { id: 2, s: `${long}\ufffd`, j: '"\ufffd"', t: { u: 'ok' } },
  { id: 3, s: 'pair \ud83d\ude00 fine', j: '"ok"', t: { u: `${long}\ufffd` } },
];
const expected = [
  { code: 'LONE_SURROGATE', column: 's', record: 1 },
  { code: 'LONE_SURROGATE', column: 'j', record: 2 },
  { code: 'LONE_SURROGATE', column: 't.u', record: 3 },
];

for (const dictionary of [true, false]) {
  const ways: Array<[string, (w: ParquetWriter) => Promise<void>]> = [
    ['write()', async (w) => {
      for (const r of records) await w.write(r);
    }],
    ['writeMany()', (w) => w.writeMany(records)],
  ];
  for (const [name, how] of ways) {
    test(`${name}${dictionary ? '' : ', no dictionary'}: each column with a lone surrogate is reported once, at its first record`, async () => {
      const warnings: ParquetryWarning[] = [];
      const rows = await write({ dictionary, onWarning: (w) => warnings.push(w) }, async (w) => {
        await how(w);
        await how(w); // the same again: no more warnings
      });
      assert.deepEqual(rows, [...written, ...written]);
      assert.deepEqual(warnings.map(({ code, column, record }) => ({ code, column, record })), expected);
      for (const w of warnings) assert.match(w.message, new RegExp(`column ${w.column!.replace('.', '\\.')}, record ${w.record}: .*lone surrogate.*U\\+FFFD`));
    });
  }
}

test('writeColumns: the record of the first lone surrogate among the slices', async () => {
  const flat = defineSchema({ s: field.string() });
  const sink = new BufferSink();
  const warnings: ParquetryWarning[] = [];
  const w = await ParquetWriter.open(sink, flat, { onWarning: (x) => warnings.push(x) });
  await w.writeColumns({ s: ['a', 'b'] });
  await w.writeColumns({ s: Array.from({ length: 5000 }, (_, i) => (i === 4321 || i === 4500 ? 'x\udbff' : `v${i}`)) });
  await w.close();
  assert.deepEqual(warnings.map(({ column, record }) => ({ column, record })), [{ column: 's', record: 2 + 4321 }]);
});

for (const dictionary of [true, false]) {
  test(`a record refused after its lone surrogate was taken writes nothing of it: no warning for it, the next one's is told${dictionary ? '' : ', no dictionary'}`, async () => {
    const warnings: ParquetryWarning[] = [];
    await write({ dictionary, onWarning: (x) => warnings.push(x) }, async (w) => {
      await w.write(records[0]!);
      // s takes its string, then t refuses its value: the record is taken back.
      await assert.rejects(w.write({ ...records[1]!, t: { u: 5n } } as never));
      await w.write(records[0]!);
      await w.write(records[0]!);
      await w.write(records[1]!);
    });
    assert.deepEqual(warnings.map(({ column, record }) => ({ column, record })), [{ column: 's', record: 4 }]);
  });
}
