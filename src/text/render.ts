/** Human-readable rendering of values and rows for the terminal (not a contract: see `--json`). */
import { hex } from '../schema/convert.js';

/** One value as short, unambiguous text: strings bare (quoted when they read as null or hold spaces at an end or control characters), binary as 0x.., nested values JSON-like. */
export function renderValue(v: unknown, top = true): string {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    // Bare at the top, unless it could be taken for a null or hides characters: then quoted.
    case 'string': return top && v !== 'null' && v.trim() === v && !/[\x00-\x1f\x7f]/.test(v) ? v : JSON.stringify(v);
    case 'bigint': return v.toString();
    case 'number': return String(v);
    case 'boolean': return String(v);
  }
  if (v instanceof Uint8Array) return `0x${hex(v.subarray(0, 64))}${v.length > 64 ? `...(${v.length} bytes)` : ''}`;
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? 'Invalid Date' : v.toISOString();
  if (Array.isArray(v)) return `[${v.map((e) => renderValue(e, false)).join(', ')}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o).map((k) => `${k}: ${renderValue(o[k], false)}`).join(', ')}}`;
}

/** bigint and bytes become strings so JSON.stringify can print them. */
export function jsonable<T>(v: T): T {
  return JSON.parse(JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? x.toString() : x instanceof Uint8Array ? renderValue(x) : x)));
}

/** A cell text cut to `width` characters, as a table column shows it (line breaks and tabs as spaces). */
export function clip(s: string, width: number): string {
  const flat = s.replace(/[\n\r\t]/g, ' ');
  return flat.length > width ? flat.slice(0, width - 1) + '…' : flat;
}

/** An aligned text table of rows (values clipped to `maxWidth` characters). */
export function renderTable(columns: string[], rows: Record<string, unknown>[], maxWidth = 40): string {
  const cells = rows.map((r) => columns.map((c) => clip(renderValue(r[c]), maxWidth)));
  // Reduced, not spread into Math.max: rows past about 100,000 overflow the stack as arguments.
  const widths = columns.map((c, i) => cells.reduce((w, row) => Math.max(w, row[i]!.length), clip(c, maxWidth).length));
  const fmt = (row: string[]) => row.map((s, i) => s.padEnd(widths[i]!)).join('  ').trimEnd();
  return [fmt(columns.map((c) => clip(c, maxWidth))), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(fmt)].join('\n');
}

/** One row as `name = value` lines, the way parquet-tools' cat prints records. */
export function renderRecord(row: Record<string, unknown>): string {
  return Object.keys(row).map((k) => `${k} = ${renderValue(row[k])}`).join('\n');
}
