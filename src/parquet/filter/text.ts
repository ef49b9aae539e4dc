/**
 * Text predicates on UTF-8 values as DuckDB evaluates them: `lower`/`upper`
 * (one code point to one code point, utf8proc's simple mappings, so no
 * final-sigma context and `ß` uppercases to `ẞ`), `LIKE` (`%` any run, `_`
 * one code point, no escape character unless one is given), `ILIKE` (LIKE
 * of both sides lowered), `starts_with` and `contains`. A LIKE pattern's
 * literal prefix bounds the values it can match, which is what statistics
 * prune with.
 */
import { InvalidArgumentError } from '../../errors.js';
import { utf8Encode } from '../../schema/coerce.js';
import { compareBytes } from './compare.js';

export type CaseMap = 'lower' | 'upper';

/** Code points whose full uppercase is several (SpecialCasing) but whose simple one is another code point. */
function simpleUpper(cp: number): number {
  if (cp === 0xdf) return 0x1e9e; // ß → ẞ, as utf8proc maps it
  // Greek with ypogegrammeni: ᾀ..ᾇ → ᾈ..ᾏ (and the ᾐ, ᾠ rows); ᾳ ῃ ῳ → ᾼ ῌ ῼ.
  if ((cp >= 0x1f80 && cp <= 0x1f87) || (cp >= 0x1f90 && cp <= 0x1f97) || (cp >= 0x1fa0 && cp <= 0x1fa7)) return cp + 8;
  if (cp === 0x1fb3 || cp === 0x1fc3 || cp === 0x1ff3) return cp + 9;
  return cp;
}

/** DuckDB's lower/upper: each code point mapped alone, to one code point. */
export function mapCase(s: string, to: CaseMap): string {
  let out = '';
  for (const ch of s) {
    const m = to === 'lower' ? ch.toLowerCase() : ch.toUpperCase();
    if (m.length === ch.length || [...m].length === 1) out += m;
    else if (to === 'lower') out += ch === '\u0130' ? 'i' : ch; // İ: simple lowercase is i
    else out += String.fromCodePoint(simpleUpper(ch.codePointAt(0)!));
  }
  return out;
}

/** A compiled LIKE pattern: the runs between `%`s, each code points where -1 stands for `_`. */
export interface LikePattern {
  segments: number[][];
  /** The literal text before the first wildcard. */
  prefix: string;
  /** The pattern is `prefix` then one or more `%`: a value matches exactly when it starts with the prefix. */
  prefixOnly: boolean;
}

const PERCENT = 0x25;
const UNDERSCORE = 0x5f;

/** Compiles a LIKE pattern; `escape` (one character) makes the character after it literal. */
export function compileLike(pattern: string, escape?: string): LikePattern {
  let esc = -1;
  if (escape !== undefined && escape !== '') {
    if ([...escape].length !== 1) throw new InvalidArgumentError(`a LIKE escape must be one character, got ${JSON.stringify(escape)}`);
    esc = escape.codePointAt(0)!;
  }
  const segments: number[][] = [[]];
  let prefix = '';
  let inPrefix = true;
  const cps = codePoints(pattern);
  for (let i = 0; i < cps.length; i++) {
    let cp = cps[i]!;
    let literal = false;
    if (cp === esc) {
      if (i + 1 >= cps.length) throw new InvalidArgumentError(`LIKE pattern ${JSON.stringify(pattern)} ends with its escape character`);
      cp = cps[++i]!;
      literal = true;
    }
    if (!literal && cp === PERCENT) {
      inPrefix = false;
      segments.push([]);
    } else if (!literal && cp === UNDERSCORE) {
      inPrefix = false;
      segments[segments.length - 1]!.push(-1);
    } else {
      if (inPrefix) prefix += String.fromCodePoint(cp);
      segments[segments.length - 1]!.push(cp);
    }
  }
  const prefixOnly = segments.length > 1 && segments.slice(1).every((s) => s.length === 0) && !segments[0]!.includes(-1);
  return { segments, prefix, prefixOnly };
}

function matchAt(v: number[], at: number, run: number[]): boolean {
  for (let k = 0; k < run.length; k++) if (run[k] !== -1 && v[at + k] !== run[k]) return false;
  return true;
}

/**
 * Whether code points `v` match the pattern: the first run at the start,
 * the last at the end, and each run between at its leftmost place after the
 * one before (a later place only leaves less room for the rest), so no
 * backtracking: runs times value length at worst.
 */
export function likeMatches(p: LikePattern, v: number[]): boolean {
  const s = p.segments;
  const head = s[0]!;
  if (s.length === 1) return v.length === head.length && matchAt(v, 0, head);
  const tail = s[s.length - 1]!;
  if (head.length + tail.length > v.length || !matchAt(v, 0, head) || !matchAt(v, v.length - tail.length, tail)) return false;
  let start = head.length;
  const end = v.length - tail.length;
  for (let k = 1; k < s.length - 1; k++) {
    const run = s[k]!;
    let at = start;
    while (at + run.length <= end && !matchAt(v, at, run)) at++;
    if (at + run.length > end) return false;
    start = at + run.length;
  }
  return true;
}

/** The code points of a string. */
export function codePoints(s: string): number[] {
  const out: number[] = [];
  for (const ch of s) out.push(ch.codePointAt(0)!);
  return out;
}

/** Text made of characters no case mapping touches in either direction (ASCII outside letters), so bytes bound it under ILIKE too. */
export function caseFreePrefix(s: string): string {
  const m = /^[\x00-\x40\x5b-\x60\x7b-\x7f]*/.exec(s);
  return m![0];
}

/** The least byte string above every string that starts with `prefix`, or undefined when there is none (empty, or all 0xff). */
export function prefixSuccessor(prefix: Uint8Array): Uint8Array | undefined {
  let k = prefix.length - 1;
  while (k >= 0 && prefix[k] === 0xff) k--;
  if (k < 0) return undefined;
  const out = prefix.slice(0, k + 1);
  out[k]!++;
  return out;
}

/** Where the values a text test can match lie, in byte order: from `lo`, below `hi` (unbounded without it); `all` when every value there matches. */
export interface TextPrefix {
  lo: Uint8Array;
  hi?: Uint8Array;
  all: boolean;
}

/** The byte range of the values that start with `prefix` (UTF-8 byte order is code point order), or undefined for no bound. */
export function prefixRange(prefix: string, all: boolean): TextPrefix | undefined {
  if (prefix === '') return undefined;
  const lo = utf8Encode(prefix);
  const hi = prefixSuccessor(lo);
  return hi ? { lo, hi, all } : { lo, all };
}

type TextOp = '=' | '!=' | '<' | '<=' | '>' | '>=' | 'in' | 'like' | 'ilike' | 'starts_with' | 'contains';

/**
 * The test of one value's text: `transform` (lower/upper) applied first;
 * `arg` is the LIKE pattern, the substring, the literal's bytes of a
 * comparison (compared as UTF-8 bytes, the column's order) or the list of
 * `in`.
 */
export function textPredicate(op: TextOp, arg: LikePattern | string | Uint8Array | Uint8Array[], transform: CaseMap | undefined): (s: string) => boolean {
  const pre = transform ? (s: string) => mapCase(s, transform) : (s: string) => s;
  switch (op) {
    case 'like':
      return (s) => likeMatches(arg as LikePattern, codePoints(pre(s)));
    case 'ilike':
      return (s) => likeMatches(arg as LikePattern, codePoints(mapCase(pre(s), 'lower')));
    case 'starts_with':
      return (s) => pre(s).startsWith(arg as string);
    case 'contains':
      return (s) => pre(s).includes(arg as string);
    case 'in': {
      const decoder = new TextDecoder();
      const set = new Set((arg as Uint8Array[]).map((b) => decoder.decode(b)));
      return (s) => set.has(pre(s));
    }
    default: {
      const lit = arg as Uint8Array;
      const sign = (s: string): number => {
        const b = utf8Encode(pre(s));
        return compareBytes(b, 0, b.length, lit);
      };
      switch (op) {
        case '=': return (s) => sign(s) === 0;
        case '!=': return (s) => sign(s) !== 0;
        case '<': return (s) => sign(s) < 0;
        case '<=': return (s) => sign(s) <= 0;
        case '>': return (s) => sign(s) > 0;
        default: return (s) => sign(s) >= 0;
      }
    }
  }
}
