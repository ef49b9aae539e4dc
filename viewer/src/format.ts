/**
 * How the page writes values: a cell as `parquetry head` writes it (one
 * renderer for both, src/text/render.ts), and the detail panel's whole
 * forms of the values a cell cuts short.
 */
import { renderValue } from '../../src/text/render.js';

/** A value as one table cell, the text `head` prints for it (before `head` clips it to its column width). */
export const cell = (v: unknown): string => renderValue(v);

/** Every byte, 16 to a line with the offset of each line, for the detail panel. */
export function hexDump(b: Uint8Array): string {
  const lines: string[] = [];
  for (let at = 0; at < b.length; at += 16) {
    const bytes = Array.from(b.subarray(at, at + 16), (x) => x.toString(16).padStart(2, '0')).join(' ');
    lines.push(`${at.toString(16).padStart(8, '0')}  ${bytes}`);
  }
  return lines.join('\n');
}
