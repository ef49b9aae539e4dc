/**
 * Recovery of damaged Parquet and Trevni files, a surface each, over
 * writer-made files whose rows are known (read from the unmutated file).
 * The damage is what recovery must cope with and what it can be judged on:
 * truncation, pages and chunks dropped or copied, pages swapped (with the
 * footer gone), blocks dropped or copied, the footer destroyed, counts that lie; byte damage inside pages
 * and blocks only where a checksum covers them (without one, a changed
 * value cannot be told from a real one, by recovery or by anyone).
 * Cases of either format read by `salvage` (Parquet with or without
 * `like`; every row, or `wholeOnly`) or write a recovered file
 * (recoverParquet, recoverTrevni) and read it back. Invariant: every row
 * back is a row of the original (lost fields aside; none under
 * `wholeOnly`), none more often than there; and when fewer rows come back
 * than the original has, a loss is reported.
 */
import { ByteCursor } from '../../../src/bytes/cursor.js';
import { decodePageHeader } from '../../../src/parquet/metadata/index.js';
import { BufferSink, openParquet, bufferSource } from '../../../src/node/index.js';
import { recoverTrevni, TrevniReader } from '../../../src/node/entries/trevni.js';
import { MISSING, recoverParquet, salvage, type Salvage, type SalvageOptions } from '../../../src/node/entries/recover.js';
import { writerSeeds } from '../seeds.js';
import { parquetMap, trevniMap } from '../file-map.js';
import { generatedFile } from '../generate.js';
import type { FileMap, Mutation, Rng, Span } from '../mutate.js';
import type { RangeMutation } from '../structured.js';
import { drain, InvariantError, judge, readParquet, type ReadLimits } from '../read.js';
import { OriginalRows } from '../rows-match.js';
import { randomRange } from '../structured.js';
import type { CaseInput, SeedFile, Surface } from '../surface.js';
import { parseTrevni, type TrevniMutation } from '../trevni.js';
import { applyAll } from './parquet.js';
import { interchangeable, pagesOf } from '../parquet-pages.js';

interface ParquetPrepared {
  map: FileMap;
  /** Page bodies, where the page CRC (when the writer wrote one) covers every byte. */
  bodies: Span[];
  crc: boolean;
}

function prepareParquet(f: SeedFile): ParquetPrepared {
  const map = parquetMap(f.bytes);
  const bodies: Span[] = [];
  let crc = false;
  for (const p of map.pages ?? []) {
    try {
      const c = new ByteCursor(f.bytes, p.start, p.end, 0);
      const h = decodePageHeader(c);
      crc ||= h.crc !== undefined;
      bodies.push({ start: c.pos, end: p.end });
    } catch {
      // The map only lists pages whose headers decode.
    }
  }
  return { map, bodies, crc };
}

/** Damage recovery can be judged on (see the module comment). */
function parquetDamage(rng: Rng, p: ParquetPrepared): Mutation {
  const { size, footerStart, footerEnd } = p.map;
  const data = () => 4 + rng.int(Math.max(1, footerStart - 4));
  const r = rng.next();
  if (r < 0.3) return { kind: 'truncate', length: rng.next() < 0.8 ? data() : rng.int(size) };
  if (r < 0.6) return randomRange(rng, p.map.pages ?? [], p.map.chunks ?? [], p.map.chunkPages) ?? { kind: 'truncate', length: data() };
  if (r < 0.75) {
    const q = rng.next();
    if (q < 0.4) return { kind: 'zero', start: footerStart + rng.int(Math.max(1, footerEnd - footerStart)), length: 1 + rng.int(64) };
    if (q < 0.7) return { kind: 'footerLength', value: rng.pick([0, 1, size, 0x7fffffff, footerEnd - footerStart + 1]) };
    return { kind: 'flip', at: [[size - 1 - rng.int(4), 1 << rng.int(8)]] };
  }
  if (p.crc && p.bodies.length) {
    const b = rng.pick(p.bodies);
    const at = b.start + rng.int(Math.max(1, b.end - b.start));
    if (rng.next() < 0.5) return { kind: 'flip', at: [[at, rng.next() < 0.5 ? 1 << rng.int(8) : 1 + rng.int(255)]] };
    return { kind: 'cut', start: at, end: Math.min(b.end, at + 1 + rng.int(32)) };
  }
  return { kind: 'truncate', length: data() };
}

/** Trevni damage: truncation, blocks dropped or copied, row counts that lie, block bytes changed under a checksum. */
function trevniDamage(rng: Rng, f: SeedFile, map: FileMap): Mutation {
  const model = parseTrevni(f.bytes);
  const r = rng.next();
  const cols = model?.columns ?? [];
  const ci = rng.int(Math.max(1, cols.length));
  const col = cols[ci];
  const bi = col?.blocks.length ? rng.int(col.blocks.length) : -1;
  const checked = col?.meta.some((m) => m.key === 'trevni.checksum' && new TextDecoder().decode(m.value) === 'crc32')
    || model?.meta.some((m) => m.key === 'trevni.checksum' && new TextDecoder().decode(m.value) === 'crc32');
  const trevni = (edit: TrevniMutation['edit']): TrevniMutation => ({ kind: 'trevni', edit });
  if (r < 0.3 || !model) return { kind: 'truncate', length: map.footerEnd + rng.int(Math.max(1, map.size - map.footerEnd)) };
  if (r < 0.5 && bi >= 0) return trevni({ op: 'block', action: rng.pick(['drop', 'duplicate'] as const), column: ci, block: bi });
  if (r < 0.65) return trevni({ op: 'rowCount', value: rng.pick(['0', '1', String(model.rowCount + 1n), String(model.rowCount * 2n), '16777216', '2147483648']) });
  if (r < 0.8 && bi >= 0) {
    const old = col!.blocks[bi]!.rows;
    return trevni({ op: 'descriptor', column: ci, block: bi, field: 'rows', value: rng.pick([old + 1, old - 1, 0, old * 2]) });
  }
  if (checked && bi >= 0) return trevni({ op: 'blockData', column: ci, block: bi, at: rng.int(Math.max(1, col!.blocks[bi]!.data.length)), xor: 1 << rng.int(8) });
  return { kind: 'truncate', length: map.footerEnd + rng.int(Math.max(1, map.size - map.footerEnd)) };
}

/**
 * Two pages of a chunk swapped make a file a writer could have written
 * (page boundaries need not align across columns, and nothing in a page
 * says which rows it holds), unless the chunk's offset index states each
 * page's place, size and first row: only such swaps of pages that hold
 * different rows are judged, the footer intact. Others are left out, as the
 * recovery sweep leaves out swaps of interchangeable pages.
 */
async function judgedSwapsOnly(bytes: Uint8Array, mutations: readonly Mutation[]): Promise<Mutation[]> {
  if (!mutations.some((m) => m.kind === 'range' && m.op === 'swap')) return [...mutations];
  // Other damage can take the offset index that makes a swap visible (a chunk copied before it moves it, say).
  if (mutations.length > 1) return mutations.filter((m) => m.kind !== 'range' || m.op !== 'swap');
  const pages = await pagesOf(bytes);
  const at = (span: { start: number; end: number }) => pages.find((p) => p.start === span.start && p.end === span.end);
  return mutations.filter((m) => {
    if (m.kind !== 'range' || m.op !== 'swap' || !m.with) return true;
    const [a, b] = [at(m), at(m.with)];
    return a !== undefined && b !== undefined && a.indexed && !interchangeable(a, b);
  });
}

/**
 * Trevni block edits that leave a file a writer could have written: nothing
 * but the block counts places rows, so blocks doubled and dropped in one
 * column that add up again, or every column's blocks or counts changed with
 * the header's count set to match (a null column's counts, which no byte
 * backs, included), read as data written so. Such edits are left out;
 * others are judged.
 */
function judgedBlockEdits(bytes: Uint8Array, mutations: readonly Mutation[]): Mutation[] {
  const block = (m: Mutation) => (m.kind === 'trevni' && (m.edit.op === 'block' || (m.edit.op === 'descriptor' && m.edit.field === 'rows')) ? m.edit : undefined);
  const columns = parseTrevni(bytes)?.columns.length ?? 0;
  const edited = new Set(mutations.map(block).map((e) => e?.column));
  const recounted = mutations.some((m) => m.kind === 'trevni' && m.edit.op === 'rowCount') && [...Array(columns).keys()].every((c) => edited.has(c));
  const actions = (column: number) => new Set(mutations.map(block).filter((e) => e?.op === 'block' && e.column === column).map((e) => (e as { action: string }).action));
  return mutations.filter((m) => {
    const e = block(m);
    return !e || !(recounted || (e.op === 'block' && actions(e.column).size > 1));
  });
}

/**
 * How row groups may be found where the case's damage leaves a file a
 * writer could have written, whose rows are then not judged: in a file of
 * one leaf, pages or chunks doubled or dropped read, to the scan, as rows
 * written twice or never (docs/recovery.md); a page doubled in place with the
 * footer's offsets left reads, through the footer, as a chunk of that page
 * twice, its last page pushed out, which only a page index (shifted away
 * with the bytes after it) could tell.
 */
async function unjudgedBy(bytes: Uint8Array, mutations: readonly Mutation[]): Promise<string[]> {
  const out = new Set<string>();
  if (mutations.some((m) => m.kind === 'range' && m.op !== 'swap') && (await openParquet(bytes)).schema.leaves.length === 1) out.add('scan');
  if (mutations.some((m) => m.kind === 'range' && m.op === 'duplicate' && m.unit === 'page' && !m.fixOffsets)) out.add('footer');
  for (const by of await doubledAndDropped(bytes, mutations)) out.add(by);
  return [...out];
}

/**
 * A page doubled and another dropped in one chunk: its counts add up
 * again, into a chunk a writer could have written with the one page twice
 * and the other never, which only the chunk's offset index can tell (left
 * where it was: no other damage can have moved it). Neither the scan nor,
 * without that index, the footer can; such rows are not judged.
 */
async function doubledAndDropped(bytes: Uint8Array, mutations: readonly Mutation[]): Promise<string[]> {
  const ops = mutations.filter((m) => m.kind === 'range' && m.unit === 'page' && m.op !== 'swap') as RangeMutation[];
  if (!ops.some((m) => m.op === 'duplicate') || !ops.some((m) => m.op === 'delete')) return [];
  const pages = await pagesOf(bytes);
  const at = (m: RangeMutation) => pages.find((p) => p.start === m.start && p.end === m.end);
  const chunk = (m: RangeMutation) => { const p = at(m); return p ? `${p.rowGroup}:${p.column}` : undefined; };
  const dropped = new Set(ops.filter((m) => m.op === 'delete').map(chunk));
  const both = ops.filter((m) => m.op === 'duplicate' && chunk(m) !== undefined && dropped.has(chunk(m)));
  if (!both.length) return [];
  return mutations.length > 2 || both.some((m) => !at(m)!.indexed) ? ['scan', 'footer'] : ['scan'];
}

/**
 * The damage in order, a page or chunk copied or dropped only where it
 * still lies whole: after a cut, one that ran past it would put bytes
 * inside the cut page (damage to its values, which without a CRC no one
 * can tell from values written so).
 */
function applyWhole(bytes: Uint8Array, mutations: readonly Mutation[]): Uint8Array {
  return mutations.reduce((b, m) => (m.kind === 'range' && m.op !== 'swap' && m.end > b.length ? b : applyAll(b, [m])), bytes);
}

/** The original's rows, read once per original. */
const originals = new WeakMap<Uint8Array, Promise<OriginalRows>>();

function originalRows(bytes: Uint8Array, read: (b: Uint8Array) => Promise<Record<string, unknown>[]>): Promise<OriginalRows> {
  let p = originals.get(bytes);
  if (!p) originals.set(bytes, (p = read(bytes).then((rows) => new OriginalRows(rows))));
  return p;
}

async function parquetRows(bytes: Uint8Array): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  for await (const r of (await openParquet(bytes)).rows()) rows.push(r);
  return rows;
}

async function trevniRows(bytes: Uint8Array): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  for await (const r of (await TrevniReader.open(bufferSource(bytes))).rows()) rows.push(r);
  return rows;
}

interface RecoverOptions extends Record<string, unknown> {
  mode: 'salvage' | 'recover';
  like: boolean;
  wholeOnly: boolean;
  /** Ways of finding row groups whose rows are not judged (`unjudgedBy`). */
  unjudgedBy?: string[];
}

/** A checker that counts rows and judges none. */
function unjudged() {
  let back = 0;
  return { add: () => void back++, finish: () => {}, get back() { return back; } };
}

const noLoss = (back: number, of: number, reported: boolean, what: string) => {
  if (back < of && !reported) throw new InvariantError(`${what}: ${back} of the original's ${of} rows came back and no loss is reported`);
};

/**
 * `salvage` read through: each row judged, none with a lost field under
 * `wholeOnly`, and the report true to the batches (rows given and lost,
 * each batch's losses in it). Returns the rows back and whether a loss is reported.
 */
async function salvageRows(s: Salvage, check: { add(row: Record<string, unknown>): void }, o: SalvageOptions, what: string): Promise<{ back: number; reported: boolean }> {
  let back = 0;
  let losses = 0;
  for await (const batch of s) {
    if (batch.rows.length !== batch.spans.reduce((n, x) => n + x.end - x.start, 0)) throw new InvariantError(`${what}: a batch of ${batch.rows.length} rows whose spans hold another number`);
    losses += batch.losses.length;
    for (const row of batch.rows) {
      if (o.wholeOnly && Object.values(row).includes(MISSING)) throw new InvariantError(`${what}: wholeOnly gave a row with a lost field`);
      check.add(row);
      back++;
    }
  }
  const r = s.report;
  if (r.rowsRecovered !== back || r.rowsLost !== r.numRows - back || r.losses.length !== losses) {
    throw new InvariantError(`${what}: the report (${r.rowsRecovered} rows recovered, ${r.rowsLost} lost, ${r.losses.length} losses) is not what the batches held (${back} rows of ${r.numRows}, ${losses} losses)`);
  }
  return { back, reported: losses > 0 || r.lostFrom !== undefined || r.foundBy === 'checkpoint' };
}

async function runParquet(input: CaseInput, limits: ReadLimits, stage: { name: string }): Promise<number> {
  const o = input.options as RecoverOptions;
  const orig = await originalRows(input.original!, parquetRows);
  const open = { ...(o.like ? { like: input.original! } : {}) };
  const decode = { verifyChecksums: input.verifyChecksums, maxDecompressedBytes: limits.maxDecompressedBytes, wholeOnly: o.wholeOnly };
  if (o.mode === 'salvage') {
    stage.name = 'salvage';
    const options = { ...open, ...decode };
    const s = await salvage(input.bytes, options);
    const what = `salvage (found by ${s.report.foundBy})`;
    const check = o.unjudgedBy?.includes(s.report.foundBy!) ? unjudged() : orig.checker(what);
    const { back, reported } = await salvageRows(s, check, options, what);
    check.finish();
    noLoss(back, orig.count, reported, what);
    return back;
  }
  stage.name = 'recoverParquet';
  const sink = new BufferSink();
  const report = await recoverParquet(input.bytes, sink, { ...open, ...decode });
  stage.name = 'read the recovered file';
  const nulled = new Set(report.fieldsNulled);
  const check = o.unjudgedBy?.includes(report.foundBy!) ? unjudged() : orig.checker(`recoverParquet (found by ${report.foundBy})`, (r, f) => nulled.has(f) && r[f] === null);
  const out = sink.bytes();
  await readParquet(out, true, limits, { name: '' });
  for await (const row of (await openParquet(out)).rows()) check.add(row);
  check.finish();
  const reported = report.losses.length > 0 || report.rowsLost > 0 || report.lostFrom !== undefined || report.foundBy === 'checkpoint';
  noLoss(check.back, orig.count, reported, `recoverParquet (found by ${report.foundBy})`);
  return check.back;
}

async function runTrevni(input: CaseInput, limits: ReadLimits, stage: { name: string }): Promise<number> {
  const o = input.options as RecoverOptions;
  const orig = await originalRows(input.original!, trevniRows);
  const open = { verifyChecksums: input.verifyChecksums, maxDecompressedBytes: limits.maxDecompressedBytes };
  if (o.mode === 'salvage') {
    stage.name = 'salvage';
    const options = { ...open, wholeOnly: o.wholeOnly };
    const s = await salvage(input.bytes, options);
    const check = orig.checker('salvage');
    const { back, reported } = await salvageRows(s, check, options, 'salvage');
    check.finish();
    noLoss(back, orig.count, reported, 'salvage');
    return back;
  }
  stage.name = 'recoverTrevni';
  const sink = new BufferSink();
  const report = await recoverTrevni(input.bytes, sink, open);
  stage.name = 'read the recovered file';
  const check = orig.checker('recoverTrevni');
  const reader = await TrevniReader.open(bufferSource(sink.bytes()));
  for await (const row of reader.rows()) check.add(row);
  check.finish();
  noLoss(check.back, orig.count, report.losses.length > 0 || report.rowsLost > 0, 'recoverTrevni');
  return check.back;
}

function recoverSurface(name: 'parquet-recover' | 'trevni-recover'): Surface<Mutation> {
  const parquet = name === 'parquet-recover';
  return {
    name,
    ext: parquet ? 'parquet' : 'trv',
    async seeds(seed, count) {
      // Their own writer-made files (another salt), twice as many: each must first read back whole, or it teaches nothing.
      const kinds = parquet ? (['parquet-small'] as const) : (['trevni', 'trevni-v1'] as const);
      const out: SeedFile[] = [];
      for (const kind of kinds) {
        for (const f of await writerSeeds(name, seed, count * 2 / kinds.length, (i) => generatedFile(seed + 104729, i, kind))) {
          try {
            await (parquet ? parquetRows : trevniRows)(f.bytes);
            out.push({ ...f, name: `${f.name}:${kind}` });
          } catch {
            // The writer wrote it; if the reader refuses it, that is the reader surfaces' finding, not recovery's.
          }
        }
      }
      return out;
    },
    prepare: (f) => (parquet ? prepareParquet(f) : trevniMap(f.bytes)),
    mutate: (rng, f, prepared) => (parquet ? parquetDamage(rng, prepared as ParquetPrepared) : trevniDamage(rng, f, prepared as FileMap)),
    options: (rng) => ({
      verifyChecksums: true,
      options: { mode: rng.next() < 0.6 ? 'salvage' : 'recover', like: parquet && rng.next() < 0.6, wholeOnly: rng.next() < 0.2 } satisfies RecoverOptions,
    }),
    build: async (f, mutations, o) => ({
      format: name,
      bytes: parquet ? applyWhole(f.bytes, await judgedSwapsOnly(f.bytes, mutations)) : applyAll(f.bytes, judgedBlockEdits(f.bytes, mutations)),
      verifyChecksums: o.verifyChecksums,
      options: parquet ? { ...o.options, unjudgedBy: await unjudgedBy(f.bytes, mutations) } : o.options,
      original: f.bytes,
    }),
    run(input, limits) {
      const stage = { name: '' };
      return judge(stage, () => (parquet ? runParquet : runTrevni)(input, limits, stage));
    },
  };
}

export const parquetRecoverSurface = recoverSurface('parquet-recover');
export const trevniRecoverSurface = recoverSurface('trevni-recover');

