/**
 * `--where`: the SQL WHERE subset that maps onto the reader's filter
 * expressions, so the same text works as a DuckDB WHERE clause and selects
 * the same rows.
 *
 *   expr       := or
 *   or         := and (OR and)*
 *   and        := not (AND not)*
 *   not        := NOT not | primary
 *   primary    := '(' expr ')' | predicate
 *   predicate  := call                                   a predicate function (FUNCTIONS)
 *               | operand cmp value | value cmp operand
 *               | operand [NOT] BETWEEN value AND value
 *               | operand [NOT] (LIKE | ILIKE) value [ESCAPE 'c']
 *               | operand [NOT] IN '(' value (',' value)* ')'
 *               | operand IS [NOT] (NULL | TRUE | FALSE)
 *               | operand IS [NOT] DISTINCT FROM value
 *               | column                                 a BOOLEAN column alone: its true rows
 *               (intersects(column, xmin, ymin, xmax, ymax) is ours, not DuckDB's: a GEOMETRY
 *               or GEOGRAPHY value's bounding box meets the box)
 *   operand    := column | lower '(' column ')' | upper '(' column ')'
 *   cmp        := '=' | '!=' | '<>' | '<' | '<=' | '>' | '>='
 *   column     := name ('.' name)*      name: bare identifier or "double-quoted" ("" escapes ")
 *   value      := ['+'|'-'] number | 'single-quoted' ('' escapes ') | TRUE | FALSE | NULL
 *               | (DATE | TIMESTAMP | TIMESTAMPTZ) 'text'
 *
 * Keywords are case-insensitive. Numbers: an integer is a JS number when it
 * is a safe integer, else a bigint; a decimal or float is a number when its
 * text survives a trip through a double (at most 15 significant digits, in
 * the normal range), else its exact text, which the filter layer reads as a
 * decimal for numeric columns. Whatever else SQL has (other functions,
 * arithmetic, casts, two columns compared) is a WhereSyntaxError naming the
 * construct and its position.
 */
import { InvalidArgumentError } from '../../errors.js';
import type { Filter } from './expression.js';
import { sqlTemporalForm, sqlTemporalNanos, type SqlTemporalType } from '../../schema/temporal-text.js';
import type { CaseMap } from './text.js';

export type { Filter };

type Comparison = '=' | '!=' | '<' | '<=' | '>' | '>=';
type ColumnRef = string | string[];

/** A column as a predicate's subject: itself or its lower/upper case. */
interface Operand {
  column: ColumnRef;
  transform?: CaseMap;
}

/**
 * A syntax error in a `--where` expression: where (1-based character
 * position) and what was expected, or (`unsupported`) the SQL construct
 * found there that the grammar does not take.
 */
export class WhereSyntaxError extends InvalidArgumentError {
  constructor(
    readonly option: string,
    readonly expected: string,
    /** 1-based character position in the expression text. */
    readonly position: number,
    readonly found: string,
    hint?: string,
    readonly unsupported?: string,
  ) {
    super(
      unsupported
        ? `${option}: ${unsupported} is not supported at position ${position}${hint ? ` (${hint})` : ''}`
        : `${option}: expected ${expected} at position ${position}, found ${found}${hint ? ` (${hint})` : ''}`,
    );
  }
}

/** What a function's argument must be. */
type ArgKind = 'column' | 'string' | 'number';

/**
 * The functions the grammar knows. A `predicate` call is a condition of its
 * own; an `operand` one (lower, upper) stands for its column in a
 * predicate. Adding a function is one entry here.
 */
const FUNCTIONS: Record<string, { args: readonly ArgKind[] } & ({ predicate: (args: unknown[]) => Filter } | { operand: (column: ColumnRef) => Operand })> = {
  starts_with: { args: ['column', 'string'], predicate: ([column, value]) => ({ column: column as ColumnRef, op: 'starts_with', value: value as string | null }) },
  contains: { args: ['column', 'string'], predicate: ([column, value]) => ({ column: column as ColumnRef, op: 'contains', value: value as string | null }) },
  lower: { args: ['column'], operand: (column) => ({ column, transform: 'lower' }) },
  upper: { args: ['column'], operand: (column) => ({ column, transform: 'upper' }) },
  intersects: {
    args: ['column', 'number', 'number', 'number', 'number'],
    predicate: ([column, xmin, ymin, xmax, ymax]) => ({ column: column as ColumnRef, op: 'intersects', box: { xmin: Number(xmin), ymin: Number(ymin), xmax: Number(xmax), ymax: Number(ymax) } }),
  },
};

const TYPED_LITERALS = new Set(['DATE', 'TIMESTAMP', 'TIMESTAMPTZ']);
/** As deep as a bound filter may nest (expression.ts), and far from the stack's limit. */
const MAX_NESTING = 1000;

type TokenKind = 'name' | 'quoted' | 'number' | 'string' | 'op' | 'punct' | 'end';

interface Token {
  kind: TokenKind;
  /** For names, the text as written; for quoted names and strings, the unescaped content. */
  text: string;
  /** 0-based offset of the token's first character. */
  at: number;
  /** The token as written, for messages. */
  raw: string;
}

const KEYWORDS = new Set(['AND', 'OR', 'NOT', 'IN', 'IS', 'NULL', 'TRUE', 'FALSE', 'BETWEEN', 'LIKE', 'ILIKE']);
const NAME_START = /[A-Za-z_\u0080-\uffff]/;
const NAME_PART = /[A-Za-z0-9_$\u0080-\uffff]/;
const NUMBER = /(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/y;

function tokenize(text: string, option: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const fail = (expected: string, at: number, found: string, hint?: string): never => {
    throw new WhereSyntaxError(option, expected, at + 1, found, hint);
  };
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const start = i;
    if (c === "'" || c === '"') {
      // 'string' or "quoted name"; a doubled quote stands for one.
      let s = '';
      i++;
      for (;;) {
        if (i >= text.length) fail(`a closing ${c}`, i, 'the end of the expression', `for the ${c === "'" ? 'string' : 'quoted name'} opened at position ${start + 1}`);
        if (text[i] === c) {
          if (text[i + 1] === c) {
            s += c;
            i += 2;
            continue;
          }
          i++;
          break;
        }
        s += text[i++];
      }
      if (c === '"' && s === '') fail('a column name between the double quotes', start, '""');
      tokens.push({ kind: c === "'" ? 'string' : 'quoted', text: s, at: start, raw: text.slice(start, i) });
      continue;
    }
    const afterName = tokens.length > 0 && (tokens[tokens.length - 1]!.kind === 'name' || tokens[tokens.length - 1]!.kind === 'quoted');
    if (/\d/.test(c) || (c === '.' && !afterName && /\d/.test(text[i + 1] ?? ''))) {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(text)!;
      i += m[0].length;
      if (i < text.length && NAME_PART.test(text[i]!)) fail('an operator or space after the number', i, quote(text.slice(start, i + 1)));
      tokens.push({ kind: 'number', text: m[0], at: start, raw: m[0] });
      continue;
    }
    if (NAME_START.test(c)) {
      while (i < text.length && NAME_PART.test(text[i]!)) i++;
      const word = text.slice(start, i);
      tokens.push({ kind: 'name', text: word, at: start, raw: word });
      continue;
    }
    const two = text.slice(i, i + 2);
    if (two === '<=' || two === '>=' || two === '!=' || two === '<>' || two === '==') {
      i += 2;
      tokens.push({ kind: 'op', text: two === '<>' ? '!=' : two === '==' ? '=' : two, at: start, raw: two });
      continue;
    }
    if (c === '=' || c === '<' || c === '>') {
      i++;
      tokens.push({ kind: 'op', text: c, at: start, raw: c });
      continue;
    }
    if (two === '::') throw new WhereSyntaxError(option, '', start + 1, '"::"', 'compare the column with a literal of its type', 'a cast (::)');
    if (c === '*' || c === '/' || c === '%' || two === '||') {
      throw new WhereSyntaxError(option, '', start + 1, quote(c), 'compare a column with a literal', `arithmetic (${two === '||' ? two : c})`);
    }
    if (c === '(' || c === ')' || c === ',' || c === '.' || c === '+' || c === '-') {
      i++;
      tokens.push({ kind: 'punct', text: c, at: start, raw: c });
      continue;
    }
    fail('a column, a value, an operator or a parenthesis', i, quote(c));
  }
  tokens.push({ kind: 'end', text: '', at: text.length, raw: '' });
  return tokens;
}

function quote(s: string): string {
  return `"${s}"`;
}

function describe(t: Token): string {
  return t.kind === 'end' ? 'the end of the expression' : quote(t.raw);
}

/** The JS value of a number literal's text (sign included). */
export function numberValue(text: string): number | bigint | string {
  if (/^[+-]?\d+$/.test(text)) {
    const big = BigInt(text);
    return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
  }
  const m = /^[+-]?(\d*)(?:\.(\d*))?(?:[eE][+-]?\d+)?$/.exec(text);
  if (!m) return text;
  const digits = ((m[1] ?? '') + (m[2] ?? '')).replace(/^0+/, '').replace(/0+$/, '');
  const n = Number(text);
  // Up to 15 significant digits survive a double exactly (DBL_DIG), in the normal range.
  if (digits.length === 0) return n; // a zero
  if (digits.length <= 15 && Number.isFinite(n) && Math.abs(n) >= 2.2250738585072014e-308) return n;
  return text;
}

class Parser {
  private i = 0;
  constructor(private readonly tokens: Token[], private readonly option: string) {}

  private get tok(): Token {
    return this.tokens[this.i]!;
  }

  private isKeyword(t: Token, word: string): boolean {
    return t.kind === 'name' && t.text.toUpperCase() === word;
  }

  private accept(word: string): Token | undefined {
    if (this.isKeyword(this.tok, word)) return this.tokens[this.i++];
    return undefined;
  }

  private acceptPunct(p: string): Token | undefined {
    if (this.tok.kind === 'punct' && this.tok.text === p) return this.tokens[this.i++];
    return undefined;
  }

  parse(): Filter {
    if (this.tok.kind === 'end') this.fail('a condition');
    const f = this.or();
    const rest = this.tok;
    if (rest.kind !== 'end') {
      this.fail('AND, OR or the end of the expression', rest.kind === 'punct' && rest.text === ')' ? 'this ")" closes nothing' : undefined);
    }
    return f;
  }

  private or(): Filter {
    const parts = [this.and()];
    while (this.accept('OR')) parts.push(this.and());
    return parts.length === 1 ? parts[0]! : { or: parts.flatMap((p) => ('or' in p ? p.or : [p])) };
  }

  private and(): Filter {
    const parts = [this.not()];
    while (this.accept('AND')) parts.push(this.not());
    return parts.length === 1 ? parts[0]! : { and: parts.flatMap((p) => ('and' in p ? p.and : [p])) };
  }

  /** NOTs and parentheses open around the current token. */
  private depth = 0;

  private not(): Filter {
    if (this.depth >= MAX_NESTING) this.unsupported(`nesting deeper than ${MAX_NESTING} NOTs and parentheses`);
    this.depth++;
    try {
      if (this.accept('NOT')) return { not: this.not() };
      return this.primary();
    } finally {
      this.depth--;
    }
  }

  private primary(): Filter {
    const open = this.acceptPunct('(');
    if (open) {
      if (this.tok.kind === 'end' || (this.tok.kind === 'punct' && this.tok.text === ')')) this.fail('a condition after "("');
      const f = this.or();
      if (!this.acceptPunct(')')) this.fail('AND, OR or ")"', `to close the "(" at position ${open.at + 1}`);
      return f;
    }
    return this.predicate();
  }

  private fail(expected: string, hint?: string, t: Token = this.tok): never {
    throw new WhereSyntaxError(this.option, expected, t.at + 1, describe(t), hint);
  }

  private unsupported(construct: string, t: Token = this.tok, hint?: string): never {
    throw new WhereSyntaxError(this.option, '', t.at + 1, describe(t), hint, construct);
  }

  private next(k = 1): Token {
    return this.tokens[Math.min(this.i + k, this.tokens.length - 1)]!;
  }

  private isPunct(t: Token, p: string): boolean {
    return t.kind === 'punct' && t.text === p;
  }

  /** A name followed by "(": a function call. */
  private atCall(): boolean {
    return this.tok.kind === 'name' && this.isPunct(this.next(), '(');
  }

  private predicate(): Filter {
    if (this.atCall()) {
      const call = this.call();
      if ('op' in call || 'and' in call || 'or' in call || 'not' in call) return call;
      return this.afterOperand(call);
    }
    if (this.startsValue()) {
      // A literal on the left: `5 < x` is `x > 5`.
      const value = this.value('a column or a value');
      const op = this.tok;
      if (op.kind !== 'op') {
        this.arithmetic();
        this.fail('a comparison operator (=, !=, <>, <, <=, >, >=) after the value', this.isKeyword(op, 'BETWEEN') || this.isKeyword(op, 'LIKE') || this.isKeyword(op, 'ILIKE') || this.isKeyword(op, 'IN') ? `${op.text.toUpperCase()} takes the column on its left` : undefined);
      }
      this.i++;
      if (this.startsValue()) this.fail(`a column after "${op.raw}"`, 'one side of a comparison must be a column');
      const operand = this.operand(`a column after "${op.raw}"`);
      return { ...operand, op: flip(op.text as Comparison), value };
    }
    return this.afterOperand(this.operand('a column name, a value, NOT or "("'));
  }

  /** A function call: a predicate (a Filter) or an operand. */
  private call(): Filter | Operand {
    const nameTok = this.tok;
    const rule = Object.hasOwn(FUNCTIONS, nameTok.text.toLowerCase()) ? FUNCTIONS[nameTok.text.toLowerCase()]! : undefined;
    if (!rule) this.unsupported(`function ${nameTok.text}()`, nameTok, `functions: ${Object.keys(FUNCTIONS).join(', ')}`);
    this.i += 2;
    const args: unknown[] = [];
    rule.args.forEach((kind, k) => {
      if (k > 0 && !this.acceptPunct(',')) this.fail(`"," and argument ${k + 1} of ${nameTok.text}()`);
      if (kind === 'column') {
        if (this.atCall()) this.unsupported(`a function call inside ${nameTok.text}()`);
        args.push(this.column(`a column as argument ${k + 1} of ${nameTok.text}()`));
        return;
      }
      const t = this.tok;
      const v = this.value(`a ${kind} as argument ${k + 1} of ${nameTok.text}()`);
      // A string argument may be NULL (the call is then unknown, as in SQL); a number is written as one (its value may be exact text).
      const fits = kind === 'string' ? v === null || typeof v === 'string' : t.kind === 'number' || this.isPunct(t, '-') || this.isPunct(t, '+');
      if (!fits) this.fail(`a ${kind} as argument ${k + 1} of ${nameTok.text}()`, undefined, t);
      args.push(v);
    });
    if (!this.acceptPunct(')')) this.fail(`")" after the ${rule.args.length} argument${rule.args.length === 1 ? '' : 's'} of ${nameTok.text}()`);
    return 'predicate' in rule ? rule.predicate(args) : rule.operand(args[0] as ColumnRef);
  }

  /** `+`, `-` where a comparison or the end was expected: arithmetic, which the grammar does not take. */
  private arithmetic(): void {
    const t = this.tok;
    if (this.isPunct(t, '+') || this.isPunct(t, '-')) this.unsupported(`arithmetic (${t.text})`, t, 'compare a column with a literal');
  }

  private afterOperand(operand: Operand): Filter {
    const t = this.tok;
    if (t.kind === 'op') {
      this.i++;
      const value = this.value(`a value after "${t.raw}"`);
      return { ...operand, op: t.text as Comparison, value };
    }
    if (this.accept('IS')) {
      const negated = Boolean(this.accept('NOT'));
      if (this.accept('DISTINCT')) {
        if (!this.accept('FROM')) this.fail(`FROM after "IS ${negated ? 'NOT ' : ''}DISTINCT"`);
        return { ...operand, op: negated ? 'is not distinct from' : 'is distinct from', value: this.value('a value after "FROM"') };
      }
      // IS [NOT] TRUE and FALSE: a null is neither, as IS [NOT] DISTINCT FROM has it.
      const truth = this.accept('TRUE') ?? this.accept('FALSE');
      if (truth) return { ...operand, op: negated ? 'is distinct from' : 'is not distinct from', value: truth.text.toUpperCase() === 'TRUE' };
      if (!this.accept('NULL')) this.fail(negated ? 'NULL, TRUE, FALSE or DISTINCT FROM after "IS NOT"' : 'NULL, NOT NULL, [NOT] TRUE, [NOT] FALSE or [NOT] DISTINCT FROM after "IS"');
      return { column: operand.column, op: negated ? 'is not null' : 'is null' };
    }
    const negated = this.isKeyword(t, 'NOT') && ['IN', 'BETWEEN', 'LIKE', 'ILIKE'].some((w) => this.isKeyword(this.next(), w));
    if (negated) this.i++;
    const not = negated ? 'not ' : '';
    if (this.accept('IN')) return { ...operand, op: negated ? 'not in' : 'in', values: this.list(`${not.toUpperCase()}IN`) };
    if (this.accept('BETWEEN')) {
      const low = this.value(`a value after "${not.toUpperCase()}BETWEEN"`);
      if (!this.accept('AND')) this.fail('AND between the bounds of BETWEEN');
      const high = this.value('a value after "AND"');
      return { ...operand, op: negated ? 'not between' : 'between', low, high };
    }
    const like = this.accept('LIKE') ?? this.accept('ILIKE');
    if (like) {
      const word = `${not.toUpperCase()}${like.text.toUpperCase()}`;
      const pattern = this.tok;
      const value = this.value(`a 'pattern' after "${word}"`);
      if (value !== null && typeof value !== 'string') this.fail(`a 'pattern' after "${word}"`, undefined, pattern);
      const op = `${not}${like.text.toLowerCase()}` as 'like' | 'not like' | 'ilike' | 'not ilike';
      if (!this.accept('ESCAPE')) return { ...operand, op, value: value as string | null };
      const e = this.tok;
      if (e.kind !== 'string' || [...e.text].length > 1) this.fail("one character in quotes after ESCAPE", undefined, e);
      this.i++;
      return { ...operand, op, value: value as string | null, escape: e.text };
    }
    this.arithmetic();
    for (const word of ['GLOB', 'SIMILAR', 'REGEXP', 'RLIKE']) if (this.isKeyword(t, word)) this.unsupported(word);
    // A column alone is a condition (a BOOLEAN column's true rows), as in SQL.
    if (!operand.transform && (t.kind === 'end' || this.isPunct(t, ')') || this.isKeyword(t, 'AND') || this.isKeyword(t, 'OR'))) return { column: operand.column, op: '=', value: true };
    return this.fail('a comparison operator (=, !=, <>, <, <=, >, >=), [NOT] IN, [NOT] BETWEEN, [NOT] LIKE, [NOT] ILIKE or IS after the column');
  }

  private list(after: string): unknown[] {
    if (!this.acceptPunct('(')) this.fail(`"(" after "${after}"`);
    const values = [this.value(`a value in the ${after} list`)];
    while (!this.acceptPunct(')')) {
      if (!this.acceptPunct(',')) this.fail(`"," or ")" in the ${after} list`);
      values.push(this.value(`a value after ","`));
    }
    return values;
  }

  private startsValue(): boolean {
    const t = this.tok;
    if (t.kind === 'number' || t.kind === 'string') return true;
    if (t.kind === 'punct' && (t.text === '-' || t.text === '+')) return true;
    if (t.kind === 'name' && this.next().kind === 'string') return true; // a typed literal, DATE '…'
    return this.isKeyword(t, 'TRUE') || this.isKeyword(t, 'FALSE') || this.isKeyword(t, 'NULL');
  }

  private value(expected: string): unknown {
    const t = this.tok;
    if (t.kind === 'punct' && (t.text === '-' || t.text === '+')) {
      const n = this.next();
      if (n.kind !== 'number') this.fail(`a number after "${t.text}"`, undefined, n);
      this.i += 2;
      return numberValue((t.text === '-' ? '-' : '') + n.text);
    }
    if (t.kind === 'number') {
      this.i++;
      return numberValue(t.text);
    }
    if (t.kind === 'string') {
      this.i++;
      return t.text;
    }
    if (this.isKeyword(t, 'TRUE') || this.isKeyword(t, 'FALSE')) {
      this.i++;
      return t.text.toUpperCase() === 'TRUE';
    }
    if (this.isKeyword(t, 'NULL')) {
      this.i++;
      return null;
    }
    if (t.kind === 'name' && this.next().kind === 'string') {
      const type = t.text.toUpperCase();
      if (!TYPED_LITERALS.has(type)) this.unsupported(`a ${type} literal`, t, 'typed literals: DATE, TIMESTAMP, TIMESTAMPTZ');
      const text = this.next();
      const sqlType = type.toLowerCase() as SqlTemporalType;
      if (sqlTemporalNanos(sqlType, text.text) === undefined) this.fail(`${type} text`, `${type} '${text.text}' is not a valid ${sqlTemporalForm(sqlType)}`, text);
      this.i += 2;
      return { [type.toLowerCase()]: text.text };
    }
    if (this.atCall()) this.unsupported(`function ${t.text}() as a value`, t, 'compare a column with a literal');
    if (t.kind === 'name' || t.kind === 'quoted') this.fail(expected, 'comparing two columns is not supported: a value is a number, a \'string\', TRUE, FALSE, NULL or DATE/TIMESTAMP \'…\'');
    return this.fail(expected, "a value is a number, a 'string', TRUE, FALSE, NULL or DATE/TIMESTAMP '…'");
  }

  private operand(expected: string): Operand {
    if (this.atCall()) {
      const nameTok = this.tok;
      const call = this.call();
      if (!('column' in call) || 'op' in call) this.unsupported(`${nameTok.text}() as a value`, nameTok, 'it is a condition of its own');
      return call as Operand;
    }
    return { column: this.column(expected) };
  }

  private column(expected: string): ColumnRef {
    const parts = [this.name(expected)];
    while (this.acceptPunct('.')) parts.push(this.name('a field name after "."'));
    return parts.some((p) => p.includes('.')) ? parts : parts.join('.');
  }

  private name(expected: string): string {
    const t = this.tok;
    if (t.kind === 'quoted') {
      this.i++;
      return t.text;
    }
    if (t.kind === 'name') {
      if (KEYWORDS.has(t.text.toUpperCase())) this.fail(expected, `${t.text.toUpperCase()} is a keyword: write "${t.text}" in double quotes for a column of that name`);
      this.i++;
      return t.text;
    }
    return this.fail(expected);
  }
}

function flip(op: Comparison): Comparison {
  switch (op) {
    case '<': return '>';
    case '<=': return '>=';
    case '>': return '<';
    case '>=': return '<=';
    default: return op;
  }
}

/**
 * Parses a WHERE expression into a filter. `option` names the source of the
 * text in error messages (`--where`). The grammar is in docs/filtering.md;
 * a syntax error, or SQL outside it, is a `WhereSyntaxError` giving the position.
 *
 * @example
 * ```ts
 * const filter = parseWhere("price > 10 AND fruit IN ('apple', 'cherry') OR day = DATE '2024-01-02'");
 * const rows = await reader.readRows({ filter });
 * ```
 */
export function parseWhere(text: string, option = '--where'): Filter {
  return new Parser(tokenize(text, option), option).parse();
}

/**
 * Parses one literal of the grammar (a number, a 'string', TRUE, FALSE).
 * Returns undefined when `text` is not exactly one literal, so callers can
 * take such text as a plain string (`bloom-filter --value abc`).
 */
export function parseLiteral(text: string): { value: unknown } | undefined {
  try {
    const tokens = tokenize(text, '--value');
    const t = tokens[0]!;
    let value: unknown;
    let used: number;
    if (t.kind === 'punct' && (t.text === '-' || t.text === '+') && tokens[1]!.kind === 'number') {
      value = numberValue((t.text === '-' ? '-' : '') + tokens[1]!.text);
      used = 2;
    } else if (t.kind === 'number') [value, used] = [numberValue(t.text), 1];
    else if (t.kind === 'string') [value, used] = [t.text, 1];
    else if (t.kind === 'name' && /^(true|false)$/i.test(t.text)) [value, used] = [t.text.toLowerCase() === 'true', 1];
    else return undefined;
    return tokens[used]!.kind === 'end' ? { value } : undefined;
  } catch {
    return undefined;
  }
}
