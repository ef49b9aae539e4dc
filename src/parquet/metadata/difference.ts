/**
 * Where two decoded Thrift values differ: the path of the first field that
 * does (`logicalType.unit`, `[2].name`), or undefined when they are equal.
 * An absent field and a field set to undefined are the same thing to the
 * encoder, so they compare equal here too.
 */
export function thriftDifference(a: unknown, b: unknown, at = ''): string | undefined {
  if (a === b) return undefined;
  const here = at || '(the value itself)';
  if (a instanceof Uint8Array || b instanceof Uint8Array) {
    if (!(a instanceof Uint8Array && b instanceof Uint8Array) || a.length !== b.length) return here;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return here;
    return undefined;
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!(Array.isArray(a) && Array.isArray(b))) return here;
    if (a.length !== b.length) return `${at}.length`;
    for (let i = 0; i < a.length; i++) {
      const d = thriftDifference(a[i], b[i], `${at}[${i}]`);
      if (d !== undefined) return d;
    }
    return undefined;
  }
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return here;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  for (const key of new Set([...Object.keys(x), ...Object.keys(y)])) {
    const d = thriftDifference(x[key], y[key], at ? `${at}.${key}` : key);
    if (d !== undefined) return d;
  }
  return undefined;
}
