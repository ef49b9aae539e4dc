/**
 * The byte ranges a read wants, turned into the requests that fetch them
 * (`planFetches`, no I/O), and those requests made (`fetchRanges`).
 */
import type { Source } from './source.js';

/** A byte range [start, end) of a source. */
export interface ByteRange {
  start: number;
  end: number;
}

/** One request of a plan: the bytes it reads, and which wanted ranges (by index) it serves. */
export interface PlannedFetch extends ByteRange {
  members: number[];
}

/**
 * The gap rule: two ranges are fetched in one request when the gap between
 * them is at most this and no longer than the range after it. A round trip
 * costs more than a small gap; and since each gap read through is no longer
 * than a range asked for, a read never fetches more than twice its bytes.
 */
export const COALESCE_GAP = 64 * 1024;

/** The requests that fetch `ranges`, in file order, neighbours merged by the gap rule. */
export function planFetches(ranges: readonly ByteRange[]): PlannedFetch[] {
  const order = ranges.map((_, i) => i).sort((a, b) => ranges[a]!.start - ranges[b]!.start);
  const plan: PlannedFetch[] = [];
  for (const i of order) {
    const r = ranges[i]!;
    const last = plan[plan.length - 1];
    const gap = last ? r.start - last.end : 0;
    if (last && (gap <= 0 || (gap <= COALESCE_GAP && gap <= r.end - r.start))) {
      last.end = Math.max(last.end, r.end);
      last.members.push(i);
    } else plan.push({ start: r.start, end: r.end, members: [i] });
  }
  return plan;
}

/** Bytes fetched for a wanted range, and the offset of their first. */
export interface Fetched {
  buf: Uint8Array;
  base: number;
}

/**
 * Reads `ranges` by `planFetches`' requests; into one buffer from `scratch`
 * when given and the source can read into one.
 */
export async function fetchRanges(source: Source, ranges: readonly ByteRange[], scratch?: (n: number) => Uint8Array): Promise<Fetched[]> {
  const plan = planFetches(ranges);
  const out: Fetched[] = new Array(ranges.length);
  const readInto = scratch && source.readInto?.bind(source);
  let into: Uint8Array | undefined;
  const at: number[] = [];
  if (readInto) {
    let n = 0;
    for (const f of plan) {
      at.push(n);
      n += f.end - f.start;
    }
    into = scratch!(n);
  }
  await Promise.all(plan.map(async (f, k) => {
    let bytes: Uint8Array;
    if (into) {
      bytes = into.subarray(at[k]!, at[k]! + f.end - f.start);
      await readInto!(f.start, bytes);
    } else bytes = await source.read(f.start, f.end - f.start);
    for (const i of f.members) {
      const r = ranges[i]!;
      out[i] = { buf: bytes.subarray(r.start - f.start, r.end - f.start), base: r.start };
    }
  }));
  return out;
}
