/**
 * JSON Lines past the sample read from their bytes into built columns
 * (column-builders.ts), with no JS value per field and no record per line:
 * numbers, dates and timestamps parsed from the bytes into typed storage,
 * strings copied as bytes (decoded only when they hold escapes), nested
 * values (structs and lists of these) into their leaves' levels.
 *
 * Only the common form of each type is read here: a line with anything else
 * (a number with an exponent or more than 15 digits, a value of another JSON
 * type than its column's, a key the schema lacks or a repeated one, invalid
 * UTF-8, lone surrogates, malformed JSON...) is taken back whole and read
 * by the general reader (JSON.parse, the writer's coercion), in its place:
 * what this reads is what the general reader gives, so the output is the same.
 */
import type { DefinedSchema } from '../schema/builder.js';
import type { GroupNode, LeafNode, SchemaNode } from '../schema/tree.js';
import { invalidUtf8At } from '../bytes/utf8-checks.js';
import { isWellFormed } from '../encodings/values-builder.js';
import { BytesBuilder, grown, Int64Builder, NumberBuilder, type BuiltColumn, type ColumnBuilder } from './column-builders.js';
import { dateCell, int32Cell, smallInteger, timestampMicros } from './csv-cells.js';
import { decimalDouble } from './decimal-double.js';
import type { ColumnBlock, ColumnTail } from './pipeline.js';
import { itemParser, LineCutter, lineDecoder, lineItem, lineItems, textItem, type JsonReadOptions, type JsonRecord } from './read-json.js';
import { InvalidUtf8Watch, replacedField } from './utf8.js';
import type { InputBytes, Item } from './source.js';

/** Thrown to leave the fast path for a line (made once: nothing of it is read). */
const GENERAL = { general: true };

const T = { Int32: 0, Int64: 1, Double: 2, Bool: 3, String: 4, Date: 5, Timestamp: 6 } as const;
type ScalarType = (typeof T)[keyof typeof T];

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** One leaf column: its values in a builder, its nulls there (a top-level leaf) or its levels here (a nested one). */
class JsonColumn {
  builder: ColumnBuilder;
  /** Nested: an entry's levels. */
  def = new Uint16Array(0);
  rep: Uint16Array | null;
  rowStarts: Int32Array | null;
  entries = 0;
  rows = 0;
  /** The entries and values at the start of the line being read, to take it back. */
  markEntries = 0;
  markPresent = 0;

  constructor(readonly leaf: LeafNode, readonly type: ScalarType) {
    this.builder = type === T.Int64 || type === T.Timestamp ? new Int64Builder()
      : type === T.String ? new BytesBuilder()
      : type === T.Double ? new NumberBuilder(Float64Array)
      : type === T.Bool ? new NumberBuilder(Uint8Array)
      : new NumberBuilder(Int32Array);
    const nested = leaf.path.length > 1;
    this.rep = nested && leaf.repLevel > 0 ? new Uint16Array(0) : null;
    this.rowStarts = this.rep ? new Int32Array(0) : null;
  }

  get nested(): boolean {
    return this.leaf.path.length > 1;
  }

  /** A nested entry without a value, or (def = maxDef) for the value just added. */
  level(rep: number, def: number): void {
    const n = this.entries;
    if (n === this.def.length) {
      this.def = grown(this.def, n + 1);
      if (this.rep) this.rep = grown(this.rep, n + 1);
    }
    this.def[n] = def;
    if (this.rep) this.rep[n] = rep;
    this.entries = n + 1;
  }

  mark(): void {
    this.markEntries = this.entries;
    this.markPresent = this.builder.present;
    if (this.rowStarts) {
      if (this.rows + 2 > this.rowStarts.length) this.rowStarts = grown(this.rowStarts, this.rows + 2);
      this.rowStarts[this.rows] = this.entries;
    }
  }

  /** The line is read: one row more. */
  endRow(): void {
    this.rows++;
  }

  /** Takes back the line being read. */
  rollback(): void {
    this.entries = this.markEntries;
    const keep = this.nested ? this.markPresent : this.rows;
    if (this.builder.rows > keep) this.builder.rollback(keep);
  }

  take(): BuiltColumn {
    const taken = this.builder.take();
    const rows = this.rows;
    this.rows = 0;
    if (!this.nested) return taken;
    if (this.rowStarts) {
      this.rowStarts = grown(this.rowStarts, rows + 1);
      this.rowStarts[rows] = this.entries;
    }
    const column: BuiltColumn = {
      rows, valid: undefined, values: taken.values,
      levels: {
        def: this.def.subarray(0, this.entries), maxDef: this.leaf.defLevel, rep: this.rep ? this.rep.subarray(0, this.entries) : null,
        rowStarts: this.rowStarts ? this.rowStarts.subarray(0, rows + 1) : null,
      },
    };
    this.def = new Uint16Array(0);
    if (this.rep) this.rep = new Uint16Array(0);
    if (this.rowStarts) this.rowStarts = new Int32Array(0);
    this.entries = 0;
    return column;
  }
}

/** A node of the schema as the reader walks it. */
type Slot =
  | { kind: 'leaf'; node: LeafNode; column: JsonColumn }
  | { kind: 'struct'; node: GroupNode; names: Uint8Array[]; plain: boolean[]; children: Slot[]; seen: Int32Array }
  | { kind: 'list'; node: GroupNode; repeated: GroupNode | LeafNode; element: Slot };

function scalarType(leaf: LeafNode): ScalarType | undefined {
  const k = leaf.kind;
  switch (leaf.physicalType) {
    case 'BYTE_ARRAY':
      return k.kind === 'string' ? T.String : undefined;
    case 'INT32':
      return k.kind === 'int' && k.signed && k.bitWidth === 32 ? T.Int32 : k.kind === 'date' ? T.Date : undefined;
    case 'INT64':
      return k.kind === 'int' && k.signed ? T.Int64 : k.kind === 'timestamp' && k.unit === 'MICROS' ? T.Timestamp : undefined;
    case 'DOUBLE':
      return k.kind === 'float' ? T.Double : undefined;
    case 'BOOLEAN':
      return T.Bool;
    default:
      return undefined;
  }
}

/** The slot of a schema node, or undefined when this reader does not read its type (the general reader reads the whole input). */
function slotOf(node: SchemaNode, columns: JsonColumn[]): Slot | undefined {
  if (node.isLeaf) {
    if (node.repetition === 'REPEATED') return undefined;
    const type = scalarType(node);
    if (type === undefined) return undefined;
    const column = new JsonColumn(node, type);
    columns.push(column);
    return { kind: 'leaf', node, column };
  }
  if (node.repetition === 'REPEATED') return undefined;
  if (node.kind === 'struct') {
    // `__proto__` is a key JSON.parse keeps as an own property, which a record then treats apart.
    if (node.children.some((c) => c.name === '__proto__')) return undefined;
    const children: Slot[] = [];
    for (const c of node.children) {
      const s = slotOf(c, columns);
      if (!s) return undefined;
      children.push(s);
    }
    return { kind: 'struct', node, names: node.children.map((c) => encoder.encode(c.name)), plain: node.children.map((c) => plainName(c.name)), children, seen: new Int32Array(children.length) };
  }
  if (node.kind === 'list') {
    // The three-level LIST the writer makes: <list> { repeated group list { element } }.
    const repeated = node.children[0];
    if (node.children.length !== 1 || !repeated || repeated.repetition !== 'REPEATED' || repeated.isLeaf || repeated.children.length !== 1) return undefined;
    const element = slotOf(repeated.children[0]!, columns);
    return element && { kind: 'list', node, repeated, element };
  }
  return undefined;
}

/** The columns a JSON line reader fills, in the schema's leaf order, and the top-level slots; undefined when some type is not read here. */
function plan(schema: DefinedSchema): { top: Extract<Slot, { kind: 'struct' }>; columns: JsonColumn[] } | undefined {
  const columns: JsonColumn[] = [];
  const root = schema.schema.root;
  const top = slotOf({ ...root, kind: 'struct', repetition: 'REQUIRED' }, columns);
  if (!top || top.kind !== 'struct') return undefined;
  // Leaves in the schema's order (the writer's columns): slots were made depth first, as the leaves are.
  const order = new Map(schema.schema.leaves.map((l, i) => [l, i]));
  if (columns.some((c, i) => order.get(c.leaf) !== i) || columns.length !== schema.schema.leaves.length) return undefined;
  return { top, columns };
}

const LF = 10;
const SPACE = 32;
const TAB = 9;
const CR = 13;
const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const COLON = 58;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const MINUS = 45;
const ZERO = 48;
const DOT = 46;

function digitsEnd(b: Uint8Array, i: number, end: number): number {
  while (i < end && b[i]! >= ZERO && b[i]! <= 57) i++;
  return i;
}

/**
 * The end of the JSON number at b[i] (`-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`),
 * an integer's unless `fraction`; -1 for any other (then read by the general reader).
 */
function numberEnd(b: Uint8Array, i: number, end: number, fraction: boolean): number {
  if (b[i] === MINUS) i++;
  const first = i;
  i = digitsEnd(b, i, end);
  if (i === first || (b[first] === ZERO && i - first > 1)) return -1;
  const c = b[i];
  if (c !== DOT && c !== 101 && c !== 69) return i;
  if (!fraction) return -1;
  if (c === DOT) {
    const f = i + 1;
    i = digitsEnd(b, f, end);
    if (i === f) return -1;
  }
  if (b[i] === 101 || b[i] === 69) {
    if (b[i + 1] === 43 || b[i + 1] === MINUS) i++;
    const f = i + 1;
    i = digitsEnd(b, f, end);
    if (i === f) return -1;
  }
  return i;
}

/** ASCII bytes (a number's) as text. */
function ascii(b: Uint8Array, start: number, end: number): string {
  return String.fromCharCode.apply(null, b.subarray(start, end) as unknown as number[]);
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** A block's most lines, values (lines times columns) and bytes of lines: what it holds is about what it read. */
const BLOCK_ROWS = 8192;
const BLOCK_CELLS = 1 << 20;
const BLOCK_BYTES = 1 << 20;

/** Reads JSON Lines into built columns for a settled schema; see the module's comment. */
export class JsonLineReader {
  private b: Uint8Array = new Uint8Array(0);
  private end = 0;
  /** Whether the string just scanned had escapes. */
  private escaped = false;
  private stamp = 0;
  private lines = new Int32Array(0);
  private bad: Array<{ at: number; line: number; why: string; column?: string | undefined }> = [];
  private records: Array<{ at: number; line: number; record: JsonRecord }> = [];

  private constructor(
    private readonly top: Extract<Slot, { kind: 'struct' }>, private readonly columns: JsonColumn[],
    /** The general reader of a line's text (blank lines: undefined). */
    private readonly general: (text: string, line: number) => Item<JsonRecord> | undefined,
  ) {}

  /** A reader for `schema`, or undefined when some of its types are not read here. */
  static of(schema: DefinedSchema, general: (text: string, line: number) => Item<JsonRecord> | undefined): JsonLineReader | undefined {
    const p = plan(schema);
    return p && new JsonLineReader(p.top, p.columns, general);
  }

  /** Rows read since the last take. */
  get rows(): number {
    return this.columns[0]?.rows ?? 0;
  }

  /** Lines read since the last take (blank ones aside): a block's size. */
  get size(): number {
    return this.rows + this.bad.length + this.records.length;
  }

  /** Lines a block takes: BLOCK_ROWS, fewer past BLOCK_CELLS values (and BLOCK_BYTES, which the caller counts). */
  get blockRows(): number {
    return Math.max(1, Math.min(BLOCK_ROWS, Math.floor(BLOCK_CELLS / Math.max(1, this.columns.length))));
  }

  /**
   * The line at b[start...], line number `line`; returns its end (its line
   * break, or b's end). No token read here crosses a line break (strings
   * stop at control characters, and one that a backslash carries past a
   * line break is refused with its escapes; white space is space, tab and
   * CR), so the line is read without finding its end first: its end is
   * where the object ends (and white space after it), or, when the line is
   * not read here, the next line break.
   */
  line(b: Uint8Array, start: number, line: number): number {
    this.b = b;
    const end = (this.end = b.length);
    const cols = this.columns;
    for (let k = 0; k < cols.length; k++) cols[k]!.mark();
    try {
      let i = this.ws(start);
      if (i === end || b[i] === LF) return i; // blank
      i = this.ws(this.object(this.top, 0, i));
      if (i !== end && b[i] !== LF) throw GENERAL;
      const row = this.rows;
      if (row === this.lines.length) this.lines = grown(this.lines, row + 1);
      this.lines[row] = line;
      for (let k = 0; k < cols.length; k++) cols[k]!.endRow();
      return i;
    } catch (e) {
      if (e !== GENERAL) throw e;
      for (let k = 0; k < cols.length; k++) cols[k]!.rollback();
      const nl = b.indexOf(LF, start);
      const lineEnd = nl < 0 ? end : nl;
      this.generalLine(b, start, lineEnd, line);
      return lineEnd;
    }
  }

  private generalLine(b: Uint8Array, start: number, end: number, line: number): void {
    const item = this.general(decoder.decode(b.subarray(start, end)), line);
    if (!item) return;
    const at = this.rows;
    if (item.error !== undefined) this.bad.push({ at, line, why: item.error, column: item.column });
    else this.records.push({ at, line, record: item.record });
  }

  /** The rows read since the last take, and the bad rows and records among them. */
  take(): ColumnBlock<JsonRecord> {
    const rows = this.rows;
    const block: ColumnBlock<JsonRecord> = { rows, columns: this.columns.map((c) => c.take()), lines: this.lines.slice(0, rows), bad: this.bad, records: this.records };
    this.bad = [];
    this.records = [];
    return block;
  }

  private ws(i: number): number {
    const b = this.b;
    const end = this.end;
    for (let c: number; i < end && ((c = b[i]!) === SPACE || c === TAB || c === CR); ) i++;
    return i;
  }

  /** Past a JSON string whose opening quote is at b[i]; `escaped` says whether it held escapes. Control characters and invalid UTF-8 leave the fast path. */
  private string(i: number): number {
    const b = this.b;
    const end = this.end;
    let escaped = false;
    let wide = false;
    const start = ++i;
    for (; i < end; i++) {
      const c = b[i]!;
      if (c === QUOTE) break;
      if (c === BACKSLASH) {
        escaped = true;
        i++;
      } else if (c < 0x20) throw GENERAL;
      else if (c >= 0x80) wide = true;
    }
    if (i >= end) throw GENERAL;
    if (wide && invalidUtf8At(b, start, i) >= 0) throw GENERAL;
    this.escaped = escaped;
    return i + 1;
  }

  /** An escaped string's text (from its opening quote to past its closing one); lone surrogates leave the fast path. */
  private unescaped(start: number, end: number): string {
    let s: string;
    try {
      s = JSON.parse(decoder.decode(this.b.subarray(start, end))) as string;
    } catch {
      throw GENERAL;
    }
    if (!isWellFormed(s)) throw GENERAL;
    return s;
  }

  /** A scalar at b[i] into its column (not null); past it. */
  private scalar(col: JsonColumn, i: number): number {
    const b = this.b;
    const end = this.end;
    switch (col.type) {
      case T.String: {
        if (b[i] !== QUOTE) throw GENERAL;
        const e = this.string(i);
        const builder = col.builder as BytesBuilder;
        if (this.escaped) builder.addText(this.unescaped(i, e));
        else builder.addBytes(b, i + 1, e - 1, false);
        return e;
      }
      case T.Int64: {
        const e = numberEnd(b, i, end, false);
        if (e < 0) throw GENERAL;
        const v = smallInteger(b, i, e);
        if (v === v) (col.builder as Int64Builder).addNumber(v);
        else {
          // Past 15 digits: the general reader's bigint (or number, when safe), the same value.
          const big = BigInt(ascii(b, i, e));
          if (big < INT64_MIN || big > INT64_MAX) throw GENERAL;
          (col.builder as Int64Builder).add(big);
        }
        return e;
      }
      case T.Int32: {
        const e = numberEnd(b, i, end, false);
        const v = e < 0 ? NaN : int32Cell(b, i, e);
        if (v !== v) throw GENERAL;
        (col.builder as NumberBuilder<Int32Array>).add(v);
        return e;
      }
      case T.Double: {
        const e = numberEnd(b, i, end, true);
        if (e < 0) throw GENERAL;
        // The nearest double, which JSON.parse gives too (and the writer makes of the general reader's
        // ExactNumber or bigint); from the text where the bytes' arithmetic cannot tell it.
        const v = decimalDouble(b, i, e);
        (col.builder as NumberBuilder<Float64Array>).add(v === v ? v : Number(ascii(b, i, e)));
        return e;
      }
      case T.Bool: {
        let v: number;
        if (b[i] === 116 && b[i + 1] === 114 && b[i + 2] === 117 && b[i + 3] === 101) v = 1;
        else if (b[i] === 102 && b[i + 1] === 97 && b[i + 2] === 108 && b[i + 3] === 115 && b[i + 4] === 101) v = 0;
        else throw GENERAL;
        (col.builder as NumberBuilder<Uint8Array>).add(v);
        return i + 4 + (1 - v);
      }
      case T.Date:
      case T.Timestamp: {
        if (b[i] !== QUOTE) throw GENERAL;
        const e = this.string(i);
        if (this.escaped) throw GENERAL;
        if (col.type === T.Date) {
          const v = dateCell(b, i + 1, e - 1);
          if (v !== v) throw GENERAL;
          (col.builder as NumberBuilder<Int32Array>).add(v);
        } else {
          const v = timestampMicros(b, i + 1, e - 1);
          if (v !== v) throw GENERAL;
          (col.builder as Int64Builder).addNumber(v);
        }
        return e;
      }
    }
    throw GENERAL;
  }

  /** Whether b[i] starts `null`. */
  private isNull(i: number): boolean {
    const b = this.b;
    return b[i] === 110 && b[i + 1] === 117 && b[i + 2] === 108 && b[i + 3] === 108;
  }

  /** Every leaf under `slot` gets an entry without a value at level `def` (null, or an empty list), or (top-level) a null. */
  private absent(slot: Slot, rep: number, def: number): void {
    switch (slot.kind) {
      case 'leaf':
        if (slot.column.nested) slot.column.level(rep, def);
        else slot.column.builder.null();
        return;
      case 'struct':
        for (const c of slot.children) this.absent(c, rep, def);
        return;
      case 'list':
        this.absent(slot.element, rep, def);
    }
  }

  /** The value at b[i] for `slot`, with repetition level `rep`; past it. */
  private value(slot: Slot, rep: number, i: number): number {
    if (this.isNull(i)) {
      // A required node (or an element) that is null: the general reader says what it makes of it.
      if (slot.node.repetition !== 'OPTIONAL') throw GENERAL;
      this.absent(slot, rep, slot.node.defLevel - 1);
      return i + 4;
    }
    switch (slot.kind) {
      case 'leaf': {
        const e = this.scalar(slot.column, i);
        if (slot.column.nested) slot.column.level(rep, slot.node.defLevel);
        return e;
      }
      case 'struct':
        return this.object(slot, rep, i);
      case 'list':
        return this.list(slot, rep, i);
    }
  }

  private list(slot: Extract<Slot, { kind: 'list' }>, rep: number, i: number): number {
    const b = this.b;
    if (b[i] !== OPEN_BRACKET) throw GENERAL;
    i = this.ws(i + 1);
    if (b[i] === CLOSE_BRACKET) {
      this.absent(slot.element, rep, slot.node.defLevel);
      return i + 1;
    }
    for (let r = rep; ; r = slot.repeated.repLevel) {
      i = this.ws(this.value(slot.element, r, i));
      if (b[i] === CLOSE_BRACKET) return i + 1;
      if (b[i] !== COMMA) throw GENERAL;
      i = this.ws(i + 1);
    }
  }

  /** An object at b[i] for a struct slot (or the record itself); past it. */
  private object(slot: Extract<Slot, { kind: 'struct' }>, rep: number, i: number): number {
    const b = this.b;
    if (b[i] !== OPEN_BRACE) throw GENERAL;
    const mark = ++this.stamp;
    const seen = slot.seen;
    const names = slot.names;
    const n = names.length;
    i = this.ws(i + 1);
    let next = 0;
    if (b[i] !== CLOSE_BRACE) {
      for (;;) {
        if (b[i] !== QUOTE) throw GENERAL;
        // Keys come in the schema's order most often: the one after the last is tried first, on the bytes before any scan.
        let k = -1;
        let ke = next < n && slot.plain[next] ? quotedKeyEnd(b, i, names[next]!) : -1;
        if (ke >= 0) k = next;
        else {
          ke = this.string(i);
          if (this.escaped) throw GENERAL;
          for (let j = 0; k < 0 && j < n; j++) if (sameKey(b, i + 1, ke - 1, names[j]!)) k = j;
        }
        if (k < 0 || seen[k] === mark) throw GENERAL; // a key the schema lacks (the general reader warns of it), or one repeated
        seen[k] = mark;
        next = k + 1;
        i = this.ws(ke);
        if (b[i] !== COLON) throw GENERAL;
        i = this.ws(this.value(slot.children[k]!, rep, this.ws(i + 1)));
        if (b[i] === CLOSE_BRACE) break;
        if (b[i] !== COMMA) throw GENERAL;
        i = this.ws(i + 1);
      }
    }
    for (let k = 0; k < n; k++) {
      if (seen[k] === mark) continue;
      const child = slot.children[k]!;
      // A missing key is null; a required field missing is the general reader's to refuse.
      if (child.node.repetition !== 'OPTIONAL') throw GENERAL;
      this.absent(child, rep, child.node.defLevel - 1);
    }
    return i + 1;
  }
}

/**
 * Past the key `"name"` at b[i] (its opening quote) when its bytes are
 * `name`'s followed by the closing quote, else -1. Only for plain names
 * (printable ASCII, no quote or backslash), whose JSON key text is their bytes.
 */
function quotedKeyEnd(b: Uint8Array, i: number, name: Uint8Array): number {
  const start = i + 1;
  const n = name.length;
  for (let j = 0; j < n; j++) if (b[start + j] !== name[j]) return -1;
  return b[start + n] === QUOTE ? start + n + 1 : -1;
}

/** Whether a key's JSON text is its bytes between quotes: printable ASCII, no quote or backslash. */
const plainName = (name: string): boolean => /^[\x20-\x21\x23-\x5b\x5d-\x7e]*$/.test(name);

function sameKey(b: Uint8Array, start: number, end: number, name: Uint8Array): boolean {
  if (end - start !== name.length) return false;
  for (let j = 0; j < name.length; j++) if (b[start + j] !== name[j]) return false;
  return true;
}

/**
 * JSON Lines as `readJsonLines` reads them: the sample, and (when the
 * output does not take columns, or the schema has a type the byte reader
 * does not read) every line after it. Else the tail's blocks read the
 * sample's lines again from their bytes, then the rest, into built columns
 * (json-columns.ts), its lines the fast path does not read given by the
 * general reader, as records or bad rows, in their places: a record parsed
 * and written as a row costs about 20 times a line read from bytes, and the
 * row writer's code is then not run at all.
 */
export function readJsonLinesColumns(input: InputBytes, options: JsonReadOptions = {}): { items: AsyncGenerator<Item<JsonRecord>[]>; tail: ColumnTail<JsonRecord> } {
  const watch = options.onWarning ? new InvalidUtf8Watch(options.onWarning) : undefined;
  const lines = new LineCutter();
  const chunks = (watch ? watch.watch(input, () => lines.nextLine) : input).chunks();
  const sampled = options.sampled ?? 0;
  const toItem = itemParser(sampled);
  let reader: JsonLineReader | undefined;
  /** The input's chunks have all been taken. */
  let ended = false;
  /** The head read every line (the output takes rows, or the input ended within the sample). */
  let finished = false;
  /** Lines cut and not all read yet: the next one starts at `at` (`bytes`' length: an empty last line) and is line `line`. */
  let cut: { bytes: Uint8Array; at: number; line: number } | undefined;
  /** The sample's lines, cut by cut: from `at` (line `line`) to the end of the one ending at `last`; and its bad ones. */
  let sample: Array<{ bytes: Uint8Array; at: number; line: number; last: number }> = [];
  let sampleBad = new Set<number>();
  const told = (item: Item<JsonRecord>) => {
    if (item.error === undefined) watch?.seen(item.line, item.line, item.record, replacedField);
    else watch?.seen(item.line, item.line, undefined, () => undefined);
  };
  /** Lines cut from the last chunk and not yet in `cut`. */
  const pieces: Array<{ bytes: Uint8Array; first: number }> = [];
  /** The next lines cut into `cut`; none when the chunk has no line break; `ended` at the end. */
  const nextCut = async (): Promise<void> => {
    if (!pieces.length) {
      const step = await chunks.next();
      if (step.done) ended = true;
      pieces.push(...(step.done ? lines.end() : lines.cut(step.value)));
    }
    const text = pieces.shift();
    // One kind of array (a Node Buffer has a map of its own): every read of a byte was compiled for both, and deoptimized at the change.
    if (text) cut = { bytes: text.bytes.constructor === Uint8Array ? text.bytes : new Uint8Array(text.bytes.buffer, text.bytes.byteOffset, text.bytes.byteLength), at: 0, line: text.first };
  };
  /** The cut's lines are all read; the next line is `line`. */
  const cutRead = (line: number): void => {
    lines.next(line);
    cut = undefined;
  };

  /**
   * The sample, whole, as the first batch (`settle` takes it and stops:
   * JSON records pass its check, so it takes exactly these), then, while
   * the lines are not read from bytes, every cut's lines as a batch.
   */
  async function* head(): AsyncGenerator<Item<JsonRecord>[]> {
    const out: Item<JsonRecord>[] = [];
    for (let good = 0; good < sampled; ) {
      if (!cut) {
        if (ended) break;
        await nextCut();
        continue;
      }
      const b = cut.bytes;
      let at = cut.at;
      let line = cut.line;
      let last = at;
      for (; good < sampled && at <= b.length; line++) {
        const nl = b.indexOf(LF, at);
        last = nl < 0 ? b.length : nl;
        const item = lineItem(b, at, last, line, toItem);
        at = last + 1;
        if (!item) continue;
        told(item);
        out.push(item);
        if (item.error === undefined) good++;
        else sampleBad.add(line);
      }
      sample.push({ bytes: b, at: cut.at, line: cut.line, last });
      if (at > b.length) cutRead(line);
      else cut = { bytes: b, at, line };
    }
    yield out;
    while (!reader) {
      if (!cut) {
        if (ended) {
          finished = true;
          watch?.finish();
          return;
        }
        await nextCut();
        continue;
      }
      const batch: Item<JsonRecord>[] = [];
      const line = lineItems(lineDecoder.decode(cut.bytes.subarray(cut.at)), cut.line, toItem, batch);
      for (const item of batch) told(item);
      cutRead(line);
      if (batch.length) yield batch;
    }
  }

  async function* blocks(): AsyncGenerator<ColumnBlock<JsonRecord>> {
    if (!reader) return;
    const r: JsonLineReader = reader;
    /** Bytes of the lines read into the block being built. */
    let read = 0;
    /** The lines of b from `start` (line `line`) to the one ending at `last` (its line break, or b's end), `skip`'s aside; the number of the line after them. */
    function* readLines(b: Uint8Array, start: number, line: number, last: number, skip?: Set<number>): Generator<ColumnBlock<JsonRecord>, number> {
      for (; ; line++) {
        let end: number;
        if (skip?.has(line)) {
          const nl = b.indexOf(LF, start);
          end = nl < 0 ? b.length : nl;
        } else end = r.line(b, start, line);
        read += end - start;
        if (r.size >= r.blockRows || read >= BLOCK_BYTES) {
          read = 0;
          yield r.take();
        }
        if (end >= last) return line + 1;
        start = end + 1;
      }
    }
    for (const s of sample) yield* readLines(s.bytes, s.at, s.line, s.last, sampleBad);
    sample = [];
    sampleBad = new Set();
    while (!finished) {
      if (!cut) {
        if (ended) break;
        await nextCut();
        continue;
      }
      cutRead(yield* readLines(cut.bytes, cut.at, cut.line, cut.bytes.length));
    }
    yield r.take();
    watch?.finish();
  }

  return {
    items: head(),
    tail: {
      settled(schema, columnar) {
        if (columnar) {
          reader = JsonLineReader.of(schema, (text, line) => {
            const item = textItem(text, line, toItem);
            if (item) told(item);
            return item;
          });
        }
        if (!reader) sample = [];
        return reader !== undefined;
      },
      blocks,
    },
  };
}
