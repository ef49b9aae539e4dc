/**
 * Numbers that a double would change, kept as their decimal text. JSON input
 * makes them (`1123456789012345678.0000000001` has more digits than a double
 * holds, `1e400` is beyond its range); the writer's coercion (coerce.ts)
 * takes them exactly into DECIMAL and integer columns, as the nearest double
 * into FLOAT and DOUBLE ones, and refuses them where they cannot be exact.
 */
export class ExactNumber {
  /** `text`: a JSON number (`-?digits[.digits][e±digits]`). */
  constructor(readonly text: string) {}

  /** The nearest double, for code that only needs a number (inference, comparisons). */
  valueOf(): number {
    return Number(this.text);
  }

  toString(): string {
    return this.text;
  }

  /** JSON.stringify can only write a double here. */
  toJSON(): number {
    return Number(this.text);
  }
}

/**
 * Numbers JSON text wrote as floats (`1.0`, `1e2`, `2.50e1`) whose value is
 * whole: JSON.parse makes them the same integer as `1`, so the JSON reader
 * notes them here, by the object or array holding them and their key, for
 * inference to type them DOUBLE, as DuckDB and Arrow do (not INT64, which a
 * later `2.5` would not fit). Weak: the notes go with their records.
 */
const wholeFloats = new WeakMap<object, Set<string>>();

export function noteWholeFloat(holder: object, key: string): void {
  const keys = wholeFloats.get(holder);
  if (keys) keys.add(key);
  else wholeFloats.set(holder, new Set([key]));
}

/** Whether `holder[key]` was a whole number written as a float in JSON text. */
export function isWholeFloat(holder: object, key: string): boolean {
  return wholeFloats.get(holder)?.has(key) === true;
}

/**
 * A decimal number's value as `[-]digits e exponent` with no leading or
 * trailing zeros in the digits (`0` for zero), so equal values give equal
 * keys whatever their notation; undefined for text that is not a decimal number.
 */
function decimalKey(s: string): string | undefined {
  const m = /^(-?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(s);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return undefined;
  const frac = m[3] ?? '';
  let digits = m[2]! + frac;
  let exp = Number(m[4] ?? 0) - frac.length;
  const lead = /^0*/.exec(digits)![0].length;
  digits = digits.slice(lead);
  if (digits === '') return '0';
  const trail = /0*$/.exec(digits)![0].length;
  digits = digits.slice(0, digits.length - trail);
  exp += trail;
  return `${m[1]}${digits}e${exp}`;
}

/**
 * The value of a JSON number token that has a fraction or an exponent: a
 * number when the double's shortest text has the token's exact value (`0.1`,
 * `1.50`, `2e3`), else an ExactNumber.
 */
export function fractionalNumber(token: string): number | ExactNumber {
  const n = Number(token);
  const shortest = String(n);
  // Most numbers are written as a double's shortest text: then no other comparison is needed.
  return shortest === token || decimalKey(shortest) === decimalKey(token) ? n : new ExactNumber(token);
}
