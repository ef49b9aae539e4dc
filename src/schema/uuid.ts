/** UUID text and hex digits, for the writer's coercion, filters and variants alike (no other imports: variants load it at start). */

function hexTable(): Int8Array {
  const t = new Int8Array(128).fill(-1);
  for (let i = 0; i < 10; i++) t[48 + i] = i;
  for (let i = 0; i < 6; i++) {
    t[65 + i] = 10 + i;
    t[97 + i] = 10 + i;
  }
  return t;
}

/** Each ASCII code's hex digit value, or -1. Built by a pure call, so a bundle that never parses a UUID drops it. */
export const HEX_DIGIT = /* @__PURE__ */ hexTable();

/** 16 bytes of `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`, or undefined. */
export function parseUuid(s: string): Uint8Array | undefined {
  if (s.length !== 36) return undefined;
  const out = new Uint8Array(16);
  let j = 0;
  for (let i = 0; i < 36; ) {
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (s.charCodeAt(i) !== 45) return undefined;
      i++;
      continue;
    }
    const a = s.charCodeAt(i);
    const b = s.charCodeAt(i + 1);
    const hi = a < 128 ? HEX_DIGIT[a]! : -1;
    const lo = b < 128 ? HEX_DIGIT[b]! : -1;
    if (hi < 0 || lo < 0) return undefined;
    out[j++] = (hi << 4) | lo;
    i += 2;
  }
  return out;
}
