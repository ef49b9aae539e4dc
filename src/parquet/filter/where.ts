/**
 * `--where`: the SQL WHERE subset that maps onto the reader's filter
 * expressions, so the same text works as a DuckDB WHERE clause.
 *
 *   expr       := or
 *   or         := and (OR and)*
 *   and        := not (AND not)*
 *   not        := NOT not | primary
 *   primary    := '(' expr ')' | predicate
 *   predicate  := column cmp value | value cmp column
 *               | column [NOT] IN '(' value (',' value)* ')'
 *               | column IS [NOT] NULL
 *               | INTERSECTS '(' column ',' number ',' number ',' number ',' number ')'   (xmin, ymin, xmax, ymax)
 *   cmp        := '=' | '!=' | '<>' | '<' | '<=' | '>' | '>='
 *   column     := name ('.' name)*      name: bare identifier or "double-quoted" ("" escapes ")
 *   value      := ['+'|'-'] number | 'single-quoted' ('' escapes ') | TRUE | FALSE
 *
 * Keywords are case-insensitive. Numbers: an integer is a JS number when it
 * is a safe integer, else a bigint; a decimal or float is a number when its
 * text survives a trip through a double (at most 15 significant digits, in
 * the normal range), else its exact text, which the filter layer reads as a
 * decimal for numeric columns.
 */
import { InvalidArgumentError } from '../../errors.js';
import type { Filter } from './expression.js';

export type { Filter };

type Comparison = '=' | '!=' | '<' | '<=' | '>' | '>=';
type ColumnRef = string | string[];

/** A syntax error in a `--where` expression: where (1-based character position) and what was expected. */
export class WhereSyntaxError extends InvalidArgumentError {
  constructor(
    readonly option: string,
    readonly expected: string,
    /** 1-based character position in the expression text. */
    readonly position: number,
    readonly found: string,
    hint?: string,
  ) {
    super(`${option}: expected ${expected} at position ${position}, found ${found}${hint ? ` (${hint})` : ''}`);
  }
}

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

const KEYWORDS = new Set(['AND', 'OR', 'NOT', 'IN', 'IS', 'NULL', 'TRUE', 'FALSE']);
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

  private fail(expected: string, hint?: string, t: Token = this.tok): never {
    throw new WhereSyntaxError(this.option, expected, t.at + 1, describe(t), hint);
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

  private not(): Filter {
    if (this.accept('NOT')) return { not: this.not() };
    return this.primary();
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

  private predicate(): Filter {
    if (this.isKeyword(this.tok, 'INTERSECTS') && this.tokens[this.i + 1]!.kind === 'punct' && this.tokens[this.i + 1]!.text === '(') return this.intersects();
    if (this.startsValue()) {
      // A literal on the left: `5 < x` is `x > 5`.
      const value = this.value('a column or a value');
      const op = this.tok;
      if (op.kind !== 'op') this.fail('a comparison operator (=, !=, <>, <, <=, >, >=) after the value');
      this.i++;
      if (this.startsValue()) this.fail(`a column after "${op.raw}"`, 'one side of a comparison must be a column');
      const column = this.column(`a column after "${op.raw}"`);
      return { column, op: flip(op.text as Comparison), value };
    }
    const column = this.column('a column name, a value, NOT or "("');
    const t = this.tok;
    if (t.kind === 'op') {
      this.i++;
      const value = this.value(`a value after "${t.raw}"`);
      return { column, op: t.text as Comparison, value };
    }
    if (this.accept('IS')) {
      const negated = Boolean(this.accept('NOT'));
      if (!this.accept('NULL')) this.fail(negated ? 'NULL after "IS NOT"' : 'NULL or NOT NULL after "IS"');
      return { column, op: negated ? 'is not null' : 'is null' };
    }
    if (this.isKeyword(t, 'NOT') && this.isKeyword(this.tokens[this.i + 1]!, 'IN')) {
      this.i += 2;
      return { column, op: 'not in', values: this.list('NOT IN') };
    }
    if (this.accept('IN')) return { column, op: 'in', values: this.list('IN') };
    return this.fail('a comparison operator (=, !=, <>, <, <=, >, >=), IN, NOT IN or IS after the column');
  }

  /** intersects(column, xmin, ymin, xmax, ymax): a GEOMETRY or GEOGRAPHY value's box meets this one. */
  private intersects(): Filter {
    this.i += 2;
    const column = this.column('a GEOMETRY or GEOGRAPHY column after "intersects("');
    const box: Record<string, number> = {};
    for (const name of ['xmin', 'ymin', 'xmax', 'ymax']) {
      if (!this.acceptPunct(',')) this.fail(`"," then ${name} in intersects(column, xmin, ymin, xmax, ymax)`);
      const t = this.tok;
      const number = t.kind === 'number' || (t.kind === 'punct' && (t.text === '-' || t.text === '+'));
      if (!number) this.fail(`${name}, a number`);
      box[name] = Number(this.value(`${name}, a number`));
    }
    if (!this.acceptPunct(')')) this.fail('")" after ymax in intersects(column, xmin, ymin, xmax, ymax)');
    return { column, op: 'intersects', box: box as { xmin: number; ymin: number; xmax: number; ymax: number } };
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
    return this.isKeyword(t, 'TRUE') || this.isKeyword(t, 'FALSE') || this.isKeyword(t, 'NULL');
  }

  private value(expected: string): unknown {
    const t = this.tok;
    if (t.kind === 'punct' && (t.text === '-' || t.text === '+')) {
      const n = this.tokens[this.i + 1]!;
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
    if (this.isKeyword(t, 'NULL')) this.fail(expected, 'NULL never compares equal: use IS NULL or IS NOT NULL');
    return this.fail(expected, "a value is a number, a 'string', TRUE or FALSE");
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
 * text in error messages (`--where`).
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
