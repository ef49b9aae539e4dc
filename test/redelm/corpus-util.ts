/** Shared access to ../shared/ancestors/redelm and its JSON conventions (its README) for the RedElm tests. */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ByteWriter } from '../../src/bytes/writer.js';
import { encodeRedElmFooter, REDELM_BLOCK } from '../../src/redelm/container.js';
import { hex } from '../../src/schema/convert.js';
import type { Plan, RecordPlan } from '../../src/shred/plan.js';

export const REDELM_CORPUS = join('..', 'shared', 'ancestors', 'redelm');

/** The corpus files, by case name (without `.redelm`). */
export function redelmCases(): string[] {
  return readdirSync(REDELM_CORPUS).filter((f) => f.endsWith('.redelm')).map((f) => f.slice(0, -'.redelm'.length)).sort();
}

export function corpusFile(name: string): Uint8Array {
  // A plain Uint8Array: Buffer.slice would share the bytes a test changes.
  return new Uint8Array(readFileSync(join(REDELM_CORPUS, name)));
}

/** tiny_default.redelm's footer index (its README annotation): its data area is the 78 bytes before it, less the 8-byte magic and version. */
export const TINY_FOOTER = 86;

/**
 * tiny_default's row group under another metadata block (`RedElm` unless
 * `name` says), its data area padded with zeros to `dataBytes` when given,
 * so the footer may list more columns than tiny's 78 bytes hold.
 */
export function tinyWithBlock(data: Uint8Array, { name = REDELM_BLOCK, dataBytes = TINY_FOOTER - 8 }: { name?: string; dataBytes?: number } = {}): Uint8Array {
  const w = new ByteWriter();
  w.bytes(corpusFile('tiny_default.redelm').subarray(0, TINY_FOOTER));
  w.bytes(new Uint8Array(dataBytes - (TINY_FOOTER - 8)));
  w.bytes(encodeRedElmFooter(dataBytes + 8, [{ name, data }]));
  return w.finish();
}

/**
 * The records a case holds: `.expected.jsonl`, or `.written.jsonl` where
 * the README shows the Java reader wrong (the required-group quirks).
 */
export function expectedLines(name: string): string[] {
  const written = join(REDELM_CORPUS, `${name}.written.jsonl`);
  const quirk = name === 'quirk_required_group_gzip' || name === 'quirk_required_leaf_gzip';
  const text = readFileSync(quirk ? written : join(REDELM_CORPUS, `${name}.expected.jsonl`), 'utf8');
  return text.split('\n').filter((l) => l !== '');
}

const SPECIAL: Record<string, number> = { NaN: Number.NaN, Infinity: Infinity, '-Infinity': -Infinity };

/** `row` with each leaf value replaced by `leaf(node, value)`; nulls stay null, groups and lists keep their shape. */
function mapLeaves(plan: RecordPlan, row: Record<string, unknown>, leaf: (node: Extract<Plan, { t: 'leaf' }>['leaf'], v: unknown) => unknown): Record<string, unknown> {
  const value = (p: Plan, v: unknown): unknown => {
    if (v === null || v === undefined) return null;
    switch (p.t) {
      case 'leaf': return leaf(p.leaf, v);
      case 'struct': {
        const o = v as Record<string, unknown>;
        return Object.fromEntries(p.fields.map((f) => [f.name, value(f.plan, o[f.name])]));
      }
      case 'list': return (v as unknown[]).map((e) => value(p.element, e));
      default: throw new Error(`no ${p.t} in RedElm schemas`);
    }
  };
  return Object.fromEntries(plan.fields.map((f) => [f.name, value(f.plan, row[f.name])]));
}

/**
 * A record in the corpus's conventions, from our values (`ours`) or from the
 * corpus's JSON (`theirs`), so the two compare with deepStrictEqual: int64 as
 * decimal text, binary as hex, floats as the float value (the corpus prints
 * Java's shortest float digits), NaN and infinities as numbers, -0 kept.
 */
export function inConvention(plan: RecordPlan, row: Record<string, unknown>, side: 'ours' | 'theirs'): unknown {
  return mapLeaves(plan, row, (leaf, v) => {
    if (leaf.physicalType === 'INT64') return String(v);
    if (leaf.physicalType === 'FLOAT' || leaf.physicalType === 'DOUBLE') {
      const n = typeof v === 'string' ? SPECIAL[v]! : (v as number);
      return leaf.physicalType === 'FLOAT' ? Math.fround(n) : n;
    }
    if (leaf.kind.kind === 'bytes' && side === 'ours') return hex(v as Uint8Array);
    return v;
  });
}

/**
 * A corpus record (its JSON conventions) as the canonical line `cat --json`
 * prints (CANONICAL.md's Parquet form): int64 as a number when safe, floats
 * widened from float, -0 as 0, binary as `{"$binary": hex}`.
 */
export function canonicalFromCorpus(plan: RecordPlan, row: Record<string, unknown>): string {
  return JSON.stringify(mapLeaves(plan, row, (leaf, v) => {
    if (leaf.physicalType === 'INT64') return Number.isSafeInteger(Number(v)) ? Number(v) : v;
    if ((leaf.physicalType === 'FLOAT' || leaf.physicalType === 'DOUBLE') && typeof v === 'number') return leaf.physicalType === 'FLOAT' ? Math.fround(v) : v;
    if (leaf.kind.kind === 'bytes') return { $binary: v };
    return v;
  }));
}
