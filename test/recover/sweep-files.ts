/**
 * Files for the recovery sweeps, and the damage they get: every data page
 * duplicated, every page dropped, neighbouring pages of two column chunks
 * swapped. Pages are located through the intact file's footer.
 */
import { ByteWriter } from '../../src/bytes/writer.js';
import { BufferSink, ParquetWriter, defineSchema, field, type WriterOptions } from '../../src/index.js';
import { interchangeable, type Page } from '../../scripts/fuzz/parquet-pages.js';
import { generatedFile } from '../../scripts/fuzz/generate.js';

/** The file up to the end of its last page: page index, footer and magic gone. */
export function footerless(bytes: Uint8Array, pages: readonly Page[]): Uint8Array {
  return bytes.slice(0, pages[pages.length - 1]!.end);
}

export interface Mutation {
  label: string;
  bytes: Uint8Array;
}

/**
 * Whole-page damage to the footerless file: each data page doubled, each
 * page dropped, the pages either side of each chunk boundary swapped. A swap
 * of two data pages that each decode as the other's column with the same
 * rows is left out: it makes a file a writer could have written (nothing in
 * a page says which column or rows it holds), counted in `indistinguishable`.
 */
export function pageMutations(bytes: Uint8Array, pages: readonly Page[]): { mutations: Mutation[]; indistinguishable: number } {
  const body = footerless(bytes, pages);
  const cat = (...parts: Uint8Array[]): Uint8Array => {
    const w = new ByteWriter(body.length * 2);
    for (const p of parts) w.bytes(p);
    return w.finish();
  };
  const out: Mutation[] = [];
  let indistinguishable = 0;
  pages.forEach((p, i) => {
    const page = body.subarray(p.start, p.end);
    if (!p.dictionary) out.push({ label: `page ${i} doubled`, bytes: cat(body.subarray(0, p.end), page, body.subarray(p.end)) });
    out.push({ label: `page ${i} dropped`, bytes: cat(body.subarray(0, p.start), body.subarray(p.end)) });
    const next = pages[i + 1];
    if (next && (next.column !== p.column || next.rowGroup !== p.rowGroup)) {
      if (interchangeable(p, next)) {
        indistinguishable++;
        return;
      }
      out.push({ label: `pages ${i} and ${i + 1} swapped`, bytes: cat(body.subarray(0, p.start), body.subarray(next.start, next.end), page, body.subarray(next.end)) });
    }
  });
  return { mutations: out, indistinguishable };
}

async function write(schema: Parameters<typeof ParquetWriter.open>[1], rows: Record<string, unknown>[], options: WriterOptions): Promise<Uint8Array> {
  const sink = new BufferSink();
  const w = await ParquetWriter.open(sink, schema, options);
  for (const r of rows) await w.write(r);
  await w.close();
  return sink.bytes();
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/** The reproducer's shape: three int64 columns no page of which can be told from another's. */
export function sameTypes(options: WriterOptions = {}): Promise<Uint8Array> {
  const schema = defineSchema({ a: field.int64().required(), b: field.int64().required(), c: field.int64().required() });
  return write(schema, range(120).map((i) => ({ a: BigInt(i), b: BigInt(2 * i), c: BigInt(3 * i) })), { rowGroupRows: 40, pageRowLimit: 10, dictionary: false, ...options });
}

/** int64 and double side by side (either's pages decode as the other's), then strings. */
export function numbers(options: WriterOptions = {}, rows = 120): Promise<Uint8Array> {
  const schema = defineSchema({ n: field.int64().required(), x: field.double().required(), s: field.string().required() });
  return write(schema, range(rows).map((i) => ({ n: BigInt(i * 7), x: i / 4, s: `s${i % 9}` })), { rowGroupRows: 40, pageRowLimit: 10, ...options });
}

/** Most kinds of leaf: int32, nullable int64, double, dictionary strings, a list, a struct. */
export function mixed(options: WriterOptions = {}, rows = 90): Promise<Uint8Array> {
  const schema = defineSchema({
    id: field.int32().required(),
    big: field.int64(),
    x: field.double().required(),
    name: field.string(),
    tags: field.list(field.string()),
    s: field.struct({ a: field.int32(), b: field.list(field.int32()) }),
  });
  return write(schema, range(rows).map((i) => ({
    id: i,
    big: i % 4 === 0 ? null : BigInt(i) * 1000003n,
    x: i * 1.5,
    name: i % 7 === 0 ? null : `name-${i % 5}`,
    tags: i % 5 === 0 ? null : range(i % 4).map((k) => `t${(i + k) % 3}`),
    s: i % 11 === 0 ? null : { a: i % 3 === 0 ? null : i, b: range(i % 3).map((k) => i + k) },
  })), { rowGroupRows: 30, pageRowLimit: 8, ...options });
}

/** One nullable column: nothing to place a page by but its order. */
export function oneColumn(options: WriterOptions = {}): Promise<Uint8Array> {
  const schema = defineSchema({ v: field.int32() });
  return write(schema, range(100).map((i) => ({ v: i % 6 === 0 ? null : i })), { rowGroupRows: 40, pageRowLimit: 10, ...options });
}

/**
 * Each data page doubled or dropped, and the footerless file then cut a few
 * bytes into one of the next pages: the scan's walk ends at bytes it cannot
 * read, where a page that would show the shift may lie.
 */
export function pageMutationsCutAfter(bytes: Uint8Array, pages: readonly Page[], within = 4): Mutation[] {
  const body = footerless(bytes, pages);
  const out: Mutation[] = [];
  pages.forEach((p, i) => {
    if (p.dictionary) return;
    const page = body.subarray(p.start, p.end);
    for (const [what, shift, damaged] of [
      ['doubled', p.end - p.start, Buffer.concat([body.subarray(0, p.end), page, body.subarray(p.end)])],
      ['dropped', p.start - p.end, Buffer.concat([body.subarray(0, p.start), body.subarray(p.end)])],
    ] as const) {
      for (const later of pages.slice(i + 1, i + 1 + within)) {
        const cut = later.start + shift + Math.min(8, later.end - later.start - 1);
        out.push({ label: `page ${i} ${what}, cut in page at ${later.start}`, bytes: new Uint8Array(damaged.subarray(0, cut)) });
      }
    }
  });
  return out;
}

/** Runs `sweep` over the fuzz recovery surface's first `count` small files of `seed` (random nested schemas) and returns its cases summed. */
export async function overGeneratedFiles(seed: number, count: number, sweep: (bytes: Uint8Array) => Promise<number>): Promise<number> {
  let cases = 0;
  for (let i = 0; i < count; i++) {
    const f = await generatedFile(seed + 104729, i, 'parquet-small');
    if (f) cases += await sweep(f);
  }
  return cases;
}
