/** How the page writes values (the browser test formats the library's rows with this to compare). */

export function hex(b: Uint8Array): string {
  return Array.from(b.subarray(0, 32), (x) => x.toString(16).padStart(2, '0')).join('') + (b.length > 32 ? '…' : '');
}

/** A value as one line of a table cell: text as it is, bigints as digits, binary as hex, nested values as JSON. */
export function cell(v: unknown): string {
  if (v === null || v === undefined) return v === null ? 'null' : '';
  if (typeof v === 'string') return v;
  if (v instanceof Uint8Array) return `0x${hex(v)}`;
  if (typeof v === 'object') return JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? x.toString() : x instanceof Uint8Array ? `0x${hex(x)}` : x));
  return String(v);
}
