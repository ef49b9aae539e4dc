/**
 * The detail panel: the selected cell's value whole. Lists and structs as
 * a tree whose branches fold (`<details>`), strings whole, binary as every
 * byte in hex; any other value as its cell text.
 */
import { cell, hexDump } from './format.js';

/** Bytes past this are not dumped: a dump is about four characters a byte, and a value may be megabytes. */
const MAX_HEX_BYTES = 1 << 20;

function node(tag: string, cls: string, text: string): HTMLElement {
  const e = document.createElement(tag);
  e.className = cls;
  e.textContent = text;
  return e;
}

/** One value under its label (a field name, a list index, or nothing at the top). */
export function valueTree(v: unknown, label?: string): HTMLElement {
  const nested = v !== null && typeof v === 'object' && !(v instanceof Uint8Array) && !(v instanceof Date);
  if (nested) {
    const entries: [string, unknown][] = Array.isArray(v) ? v.map((e, i) => [String(i), e]) : Object.entries(v as Record<string, unknown>);
    const details = document.createElement('details');
    details.open = true;
    const summary = document.createElement('summary');
    if (label !== undefined) summary.append(node('span', 'key', label), ': ');
    summary.append(node('span', 'shape', Array.isArray(v) ? `list [${entries.length}]` : `struct {${entries.length}}`));
    const list = document.createElement('ul');
    for (const [k, e] of entries) {
      const li = document.createElement('li');
      li.append(valueTree(e, k));
      list.append(li);
    }
    details.append(summary, list);
    return details;
  }
  const leaf = document.createElement('div');
  leaf.className = 'leaf';
  if (label !== undefined) leaf.append(node('span', 'key', label), ': ');
  if (typeof v === 'string') leaf.append(node('pre', 'string', v));
  else if (v instanceof Uint8Array) {
    const shown = v.subarray(0, MAX_HEX_BYTES);
    leaf.append(node('span', 'shape', `${v.length} bytes${shown.length < v.length ? `, the first ${shown.length} shown` : ''}`), node('pre', 'hex', hexDump(shown)));
  }
  else leaf.append(node('span', 'value', cell(v)));
  return leaf;
}
