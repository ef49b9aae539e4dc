/**
 * For pool children (scripts/fuzz/pool.ts) of the tests that hold each case
 * to a memory cap: the case's peak, and when a child is to be replaced.
 */
import { peakMb } from '../../scripts/fuzz/pool.js';

/** A child whose peak passed this many MiB exits after its case (the pool starts another): each case starts from a small process. */
export const RECYCLE_MB = 160;

/** The case's resident high-water mark (the process's where /proc cannot say: an upper bound, as a process that grew is recycled after its case). */
export function casePeakMb(): number {
  return peakMb() || process.resourceUsage().maxRSS / 1024;
}
