/**
 * Exact row filtering on column vectors, before record assembly: each leaf
 * test runs over its column's levels and values (a dictionary-encoded column
 * is tested once per dictionary entry), giving one three-valued result per
 * row; `and`, `or`, `not` combine them; the rows whose result is true are the
 * selection the assembler builds.
 */
import { CorruptFileError, withContext } from '../../errors.js';
import { isByteArrays, valueCount, type ByteArrays, type Values } from '../../encodings/types.js';
import type { LeafNode } from '../../schema/tree.js';
import type { ColumnChunkData } from '../../shred/column-data.js';
import { compareBytes, type D, type Lit } from './compare.js';
import type { BoundFilter, BoundLeaf } from './expression.js';
import { valueMeets } from './intersects.js';

/** Three-valued results, one byte each. */
export const FALSE = 0;
export const TRUE = 1;
export const UNKNOWN = 2;

type NumTest = (x: number | bigint) => boolean;
type BytesTest = (data: Uint8Array, start: number, end: number) => boolean;

/** The test one literal makes of a number (NaN sorts above everything and equals itself). */
function numTest(op: string, lit: Lit): NumTest {
  if (lit.k === 'nan') {
    switch (op) {
      case '=':
      case '>=':
        return (x) => x !== x;
      case '<':
      case '!=':
        return (x) => x === x;
      case '<=':
        return () => true;
      default:
        return () => false;
    }
  }
  if (lit.k !== 'val') return () => false;
  const lo = lit.lo as number | bigint;
  const hi = lit.hi as number | bigint;
  switch (op) {
    case '=':
      return lit.exact ? (x) => x === lo : () => false;
    case '!=':
      return lit.exact ? (x) => x !== lo : () => true;
    case '<':
      return (x) => x < hi;
    case '<=':
      return (x) => x <= lo;
    case '>':
      return (x) => x > lo || x !== x;
    default:
      return (x) => x >= hi || x !== x;
  }
}

function bytesTest(op: string, lit: Lit): BytesTest {
  if (lit.k !== 'val') return () => false;
  const b = lit.lo as Uint8Array;
  switch (op) {
    case '=':
      return (d, s, e) => e - s === b.length && compareBytes(d, s, e, b) === 0;
    case '!=':
      return (d, s, e) => e - s !== b.length || compareBytes(d, s, e, b) !== 0;
    case '<':
      return (d, s, e) => compareBytes(d, s, e, b) < 0;
    case '<=':
      return (d, s, e) => compareBytes(d, s, e, b) <= 0;
    case '>':
      return (d, s, e) => compareBytes(d, s, e, b) > 0;
    default:
      return (d, s, e) => compareBytes(d, s, e, b) >= 0;
  }
}

function latin1(d: Uint8Array, s: number, e: number): string {
  let out = '';
  for (let i = s; i < e; i++) out += String.fromCharCode(d[i]!);
  return out;
}

/** Per value of `values`, the leaf test's three-valued result. */
export function valueResults(b: BoundLeaf, values: Values): (i: number) => number {
  if (b.residual) return residualResults(b, b.residual, values as ByteArrays);
  const { op, lits, domain } = b;
  if (b.geo) {
    const meets = valueMeets(b.geo.edges, b.geo.box);
    const { data, offsets } = values as ByteArrays;
    return (i) => {
      const r = meets(data.subarray(offsets[i]!, offsets[i + 1]!));
      return r === undefined ? UNKNOWN : r ? TRUE : FALSE;
    };
  }
  const miss = lits.some((l) => l.k === 'null') ? UNKNOWN : FALSE;
  const hit = op === 'in' ? TRUE : FALSE;
  const missOut = op === 'in' ? miss : miss === UNKNOWN ? UNKNOWN : TRUE;
  if (b.text) {
    const test = b.text;
    const { data, offsets } = values as ByteArrays;
    const decoder = new TextDecoder();
    const text = (i: number): boolean => test(decoder.decode(data.subarray(offsets[i]!, offsets[i + 1]!)));
    if (op === 'in' || op === 'not in') return (i) => (text(i) ? hit : missOut);
    return (i) => (text(i) ? TRUE : FALSE);
  }
  if (op === 'in' || op === 'not in') {
    if (isByteArrays(values)) {
      const keys = new Set<string>();
      for (const l of lits) if (l.k === 'val' && l.exact) keys.add(latin1(l.lo as Uint8Array, 0, (l.lo as Uint8Array).length));
      const { data, offsets } = values;
      if (domain.type === 'bytes') return (i) => (keys.has(latin1(data, offsets[i]!, offsets[i + 1]!)) ? hit : missOut);
    }
    const set = new Set<D>();
    for (const l of lits) {
      if (l.k === 'val' && l.exact) set.add(l.lo);
      else if (l.k === 'nan') set.add(NaN);
    }
    const read = domain.reader(values);
    return (i) => (set.has(read(i)) ? hit : missOut);
  }
  const lit = lits[0]!;
  if (domain.type === 'bytes') {
    const { data, offsets } = values as { data: Uint8Array; offsets: Int32Array };
    const t = bytesTest(op, lit);
    return (i) => (t(data, offsets[i]!, offsets[i + 1]!) ? TRUE : FALSE);
  }
  const read = domain.reader(values);
  const t = numTest(op, lit);
  return (i) => (t(read(i)) ? TRUE : FALSE);
}

/** The test on variant values read into the typed column's domain; a value of another type is unknown. */
function residualResults(b: BoundLeaf, read: (bytes: Uint8Array) => D | undefined, { data, offsets }: ByteArrays): (i: number) => number {
  const { op, lits, domain } = b;
  const bytes = domain.type === 'bytes';
  let test: (x: D) => boolean;
  if (op === 'in' || op === 'not in') {
    const tests = lits.map((l) => (bytes ? bytesTest('=', l) : numTest('=', l)));
    const any = (x: D) => tests.some((t) => (bytes ? (t as BytesTest)(x as Uint8Array, 0, (x as Uint8Array).length) : (t as NumTest)(x as number | bigint)));
    const hasNull = lits.some((l) => l.k === 'null');
    return (i) => {
      const x = read(data.subarray(offsets[i]!, offsets[i + 1]!));
      if (x === undefined) return UNKNOWN;
      if (any(x)) return op === 'in' ? TRUE : FALSE;
      return hasNull ? UNKNOWN : op === 'in' ? FALSE : TRUE;
    };
  }
  if (bytes) {
    const t = bytesTest(op, lits[0]!);
    test = (x) => t(x as Uint8Array, 0, (x as Uint8Array).length);
  } else {
    const t = numTest(op, lits[0]!);
    test = (x) => t(x as number | bigint);
  }
  return (i) => {
    const x = read(data.subarray(offsets[i]!, offsets[i + 1]!));
    return x === undefined ? UNKNOWN : test(x) ? TRUE : FALSE;
  };
}

/** Rows (of `rows`) whose values in column `c` satisfy the leaf test, three-valued. */
export function leafRows(b: BoundLeaf, c: ColumnChunkData, rows: number): Uint8Array {
  const out = new Uint8Array(rows);
  const leaf = b.leaf;
  const maxDef = leaf.defLevel;
  const { def, rep } = c;
  const nullTest = b.op === 'is null' || b.op === 'is not null';
  let res: ((i: number) => number) | null = null;
  if (!nullTest) {
    if (b.domain.type === 'null' || (b.lits.length === 1 && b.op !== 'in' && b.op !== 'not in' && b.lits[0]!.k === 'null')) {
      out.fill(UNKNOWN);
      countRows(c, rows, leaf);
      return out;
    }
    if (c.indices && c.dictionary) {
      const size = valueCount(c.dictionary);
      const per = valueResults(b, c.dictionary);
      const dict = new Uint8Array(size);
      for (let i = 0; i < size; i++) dict[i] = per(i);
      const idx = c.indices;
      res = (i) => dict[idx[i]!]!;
    } else res = valueResults(b, c.values!);
  }
  if (rep === null) {
    if (c.length !== rows) throw new CorruptFileError(`column holds ${c.length} rows where ${rows} were expected`);
    let v = 0;
    for (let r = 0; r < rows; r++) {
      const has = def === null || def[r] === maxDef;
      if (nullTest) out[r] = has === (b.op === 'is not null') ? TRUE : FALSE;
      else out[r] = has ? res!(v++) : UNKNOWN;
    }
    return out;
  }
  // Repeated: a row is true when one of its values is; unknown when it has no value (or only unknown ones); else false.
  let row = -1;
  let v = 0;
  let state = 3; // 3: no value yet
  const close = (): void => {
    if (row < 0) return;
    if (nullTest) out[row] = (state === 3) === (b.op === 'is null') ? TRUE : FALSE;
    else out[row] = state === 3 ? UNKNOWN : state;
  };
  for (let p = 0; p < c.length; p++) {
    if (rep[p] === 0) {
      close();
      if (++row >= rows) throw new CorruptFileError(`column holds more than the ${rows} rows expected`);
      state = 3;
    } else if (row < 0) throw new CorruptFileError('column starts in the middle of a row');
    if (def === null || def[p] === maxDef) {
      const x = nullTest ? FALSE : res!(v);
      v++;
      if (x === TRUE) state = TRUE;
      else if (x === UNKNOWN) {
        if (state !== TRUE) state = UNKNOWN;
      } else if (state === 3) state = FALSE;
    }
  }
  close();
  if (row + 1 !== rows) throw new CorruptFileError(`column holds ${row + 1} rows where ${rows} were expected`);
  return out;
}

function countRows(c: ColumnChunkData, rows: number, _leaf: LeafNode): void {
  let n = c.length;
  if (c.rep !== null) {
    n = 0;
    for (let p = 0; p < c.length; p++) if (c.rep[p] === 0) n++;
  }
  if (n !== rows) throw new CorruptFileError(`column holds ${n} rows where ${rows} were expected`);
}

/** The three-valued result of the filter per row, from the decoded filter columns. */
export function evaluateRows(f: BoundFilter, columns: Map<LeafNode, ColumnChunkData>, rows: number): Uint8Array {
  switch (f.t) {
    case 'leaf': {
      const c = columns.get(f.leaf)!;
      return withContext({ column: f.leaf.path.join('.') }, () => leafRows(f, c, rows));
    }
    case 'not': {
      const a = evaluateRows(f.part, columns, rows);
      for (let i = 0; i < rows; i++) a[i] = a[i] === UNKNOWN ? UNKNOWN : 1 - a[i]!;
      return a;
    }
    case 'either': {
      const a = evaluateRows(f.parts[0], columns, rows);
      const b = evaluateRows(f.parts[1], columns, rows);
      for (let i = 0; i < rows; i++) if (a[i] === UNKNOWN) a[i] = b[i]!;
      return a;
    }
    case 'and':
    case 'or': {
      const out = new Uint8Array(rows).fill(f.t === 'and' ? TRUE : FALSE);
      for (const p of f.parts) {
        const a = evaluateRows(p, columns, rows);
        if (f.t === 'and') {
          for (let i = 0; i < rows; i++) {
            const x = a[i]!;
            const o = out[i]!;
            out[i] = o === FALSE || x === FALSE ? FALSE : o === UNKNOWN || x === UNKNOWN ? UNKNOWN : TRUE;
          }
        } else {
          for (let i = 0; i < rows; i++) {
            const x = a[i]!;
            const o = out[i]!;
            out[i] = o === TRUE || x === TRUE ? TRUE : o === UNKNOWN || x === UNKNOWN ? UNKNOWN : FALSE;
          }
        }
      }
      return out;
    }
  }
}

/** Indexes of the rows whose result is true. */
export function selectedRows(results: Uint8Array): Int32Array {
  let n = 0;
  for (let i = 0; i < results.length; i++) if (results[i] === TRUE) n++;
  const out = new Int32Array(n);
  n = 0;
  for (let i = 0; i < results.length; i++) if (results[i] === TRUE) out[n++] = i;
  return out;
}
