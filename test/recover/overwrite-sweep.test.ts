/**
 * A data page overwritten by a neighbouring page of the same size, the
 * footer intact: the copy keeps a valid CRC (its own) and decodes, so only
 * what the file states about the page apart from its bytes can tell (the
 * page index, the chunk's statistics). Where every page's values differ
 * from its neighbours' in range, the page index tells every such overwrite:
 * `check` must call the file damaged, and `recover` must give back only
 * original rows and report the loss. Where the stated claims cannot tell
 * (pages alike in range, or no page index), the overwrite is counted as
 * undetectable, and whatever is detected must still be recovered soundly.
 */
import { strict as assert } from 'node:assert';
import { isDeepStrictEqual } from 'node:util';
import { it } from 'node:test';
import { BufferSink, ParquetReader, ParquetWriter, defineSchema, field, type WriterOptions } from '../../src/index.js';
import { ParquetryError } from '../../src/errors.js';
import { checkParquet } from '../../src/parquet/recover/index.js';
import { judge, recoverRows, reportsLoss } from './invariant.js';
import { pagesOf } from '../../scripts/fuzz/parquet-pages.js';
import { mixed, numbers, type Mutation } from './sweep-files.js';

/** Each data page copied over the next data page, and the next over it, where both are the same size and differ. */
async function overwrites(bytes: Uint8Array): Promise<Mutation[]> {
  const pages = (await pagesOf(bytes)).filter((p) => !p.dictionary);
  const out: Mutation[] = [];
  for (let i = 0; i + 1 < pages.length; i++) {
    const [a, b] = [pages[i]!, pages[i + 1]!];
    if (a.end - a.start !== b.end - b.start || isDeepStrictEqual(bytes.subarray(a.start, a.end), bytes.subarray(b.start, b.end))) continue;
    for (const [from, to] of [[a, b], [b, a]] as const) {
      const d = bytes.slice();
      d.set(bytes.subarray(from.start, from.end), to.start);
      out.push({ label: `page at ${from.start}..${from.end} over ${to.start}..${to.end}`, bytes: d });
    }
  }
  return out;
}

interface Outcome {
  cases: number;
  /** Overwrites that changed the rows yet `check` called whole: nothing the file states about the page tells. */
  undetected: string[];
  /** Detected overwrites recovered wrongly (rows not the original's, or loss not reported). */
  failures: string[];
}

async function sweep(bytes: Uint8Array): Promise<Outcome> {
  const original = await (await ParquetReader.open(bytes)).readRows();
  const out: Outcome = { cases: 0, undetected: [], failures: [] };
  for (const m of await overwrites(bytes)) {
    out.cases++;
    const changed = !isDeepStrictEqual(await readRows(m.bytes), original);
    const check = await checkParquet(m.bytes);
    if (check.whole) {
      if (changed) out.undetected.push(m.label);
      continue;
    }
    const got = await recoverRows(m.bytes);
    const v = judge(original, got, {});
    const reported = !(got instanceof Error) && reportsLoss(got.report) && got.report.losses.length > 0;
    if (v.wrong > 0 || v.unreported || !reported) out.failures.push(`${m.label}: ${v.wrong} wrong rows${reported ? '' : ', loss not reported'}`);
  }
  process.stderr.write(`  ${out.cases} overwrites, ${out.undetected.length} changed the rows undetectably\n`);
  return out;
}

/** The rows the ordinary reader gives, or the typed error it fails with. */
async function readRows(bytes: Uint8Array): Promise<Record<string, unknown>[] | ParquetryError> {
  try {
    return await (await ParquetReader.open(bytes)).readRows();
  } catch (e) {
    if (e instanceof ParquetryError) return e;
    throw e;
  }
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/** Values rising page after page in every leaf, so no page's range is another's; a nullable leaf, a list, a dictionary. */
async function rising(options: WriterOptions): Promise<Uint8Array> {
  const schema = defineSchema({
    n: field.int64().required(),
    x: field.double().required(),
    s: field.string().required(),
    o: field.int32(),
    l: field.list(field.int32()),
  });
  const sink = new BufferSink();
  const w = await ParquetWriter.open(sink, schema, { rowGroupRows: 40, pageRowLimit: 10, ...options });
  for (const i of range(120)) {
    await w.write({ n: BigInt(i * 7), x: i / 4, s: `s${String(i).padStart(4, '0')}`, o: i % 3 === 0 ? null : i, l: range(i % 3).map((k) => 2 * i + k) });
  }
  await w.close();
  return sink.bytes();
}

it('with a page index, every overwrite of a page by its same-size neighbour is found and its rows lost, never returned', { timeout: 60_000 }, async () => {
  for (const options of [{}, { pageVersion: 2 as const, codec: 'ZSTD' as const, dictionary: false }, { checksums: false, codec: 'SNAPPY' as const }]) {
    const r = await sweep(await rising(options));
    assert.ok(r.cases >= 20, `only ${r.cases} overwrites`);
    assert.deepStrictEqual(r.undetected, []);
    assert.deepStrictEqual(r.failures.slice(0, 20), []);
  }
});

it('pages alike in range, or no page index: what is found is recovered soundly; the rest cannot be told (docs/recovery.md)', { timeout: 60_000 }, async () => {
  for (const bytes of [await numbers(), await mixed(), await numbers({ pageIndex: false }), await mixed({ pageIndex: false, pageVersion: 2 })]) {
    const r = await sweep(bytes);
    assert.deepStrictEqual(r.failures.slice(0, 20), []);
  }
});

it("the issue's reproducer: page 5 of numbers() over page 6, the footer intact", async () => {
  const bytes = await numbers();
  const pages = await pagesOf(bytes);
  const [from, to] = [pages[5]!, pages[6]!];
  assert.equal(from.end - from.start, to.end - to.start);
  const d = bytes.slice();
  d.set(bytes.subarray(from.start, from.end), to.start);
  const check = await checkParquet(d);
  assert.equal(check.whole, false);
  const loss = check.losses.find((l) => l.bytes.start === to.start);
  assert.ok(loss, JSON.stringify(check.losses));
  assert.match(loss.error.message, /column index, page \d+, min_values/);
});

/** A double column in IEEE_754_TOTAL_ORDER, ten rows a page, PLAIN, uncompressed: pages of one size whatever their values. */
async function totalOrder(pages: number[][]): Promise<Uint8Array> {
  const sink = new BufferSink();
  const w = await ParquetWriter.open(sink, defineSchema({ x: field.double().required() }), { floatOrder: 'total', pageRowLimit: 10, dictionary: false, codec: 'UNCOMPRESSED' });
  for (const x of pages.flat()) await w.write({ x });
  await w.close();
  return sink.bytes();
}

it('total order: a page overwritten by one alike in value but for a zero sign is lost; an all-NaN page among numbers is no contradiction', async () => {
  const tail = range(9).map((i) => i + 1);
  const bytes = await totalOrder([[-0, ...tail], [0, ...tail], [NaN, ...tail.map(() => NaN)], [5, ...tail]]);
  assert.equal((await checkParquet(bytes)).whole, true);
  const [a, b] = (await pagesOf(bytes)).filter((p) => !p.dictionary);
  assert.equal(a!.end - a!.start, b!.end - b!.start);
  const d = bytes.slice();
  d.set(bytes.subarray(a!.start, a!.end), b!.start);
  // -0 and +0 compare equal by value, so only the total-order bound tells the copy.
  const check = await checkParquet(d);
  const loss = check.losses.find((l) => l.bytes.start === b!.start);
  assert.ok(loss, JSON.stringify(check.losses));
  assert.match(loss.error.message, /column index, page 1, min_values stored 0, actual -0/);
  const original = await (await ParquetReader.open(bytes)).readRows();
  const got = await recoverRows(d);
  const v = judge(original, got, {});
  assert.equal(v.wrong, 0);
  assert.ok(!v.unreported && !(got instanceof Error) && reportsLoss(got.report));
});
