/** `--where`: the SQL WHERE subset parsed into filter expressions. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openParquet } from '../../src/node/index.js';
import { InvalidArgumentError, ParquetryError } from '../../src/errors.js';
import { numberValue, parseLiteral, parseWhere, WhereSyntaxError } from '../../src/parquet/filter/where.js';
import { runWith } from './run-cli.js';

const eq = (column: string | string[], value: unknown) => ({ column, op: '=', value });

describe('grammar', () => {
  test('every comparison operator; <> is !=', () => {
    for (const op of ['=', '!=', '<', '<=', '>', '>=']) assert.deepEqual(parseWhere(`x ${op} 1`), { column: 'x', op, value: 1 });
    assert.deepEqual(parseWhere('x <> 1'), { column: 'x', op: '!=', value: 1 });
    assert.deepEqual(parseWhere('x<>1'), { column: 'x', op: '!=', value: 1 });
    assert.deepEqual(parseWhere('x>=-1'), { column: 'x', op: '>=', value: -1 });
  });

  test('a literal on the left flips the comparison', () => {
    assert.deepEqual(parseWhere('5 < x'), { column: 'x', op: '>', value: 5 });
    assert.deepEqual(parseWhere('5 <= x'), { column: 'x', op: '>=', value: 5 });
    assert.deepEqual(parseWhere('5 > x'), { column: 'x', op: '<', value: 5 });
    assert.deepEqual(parseWhere('5 >= x'), { column: 'x', op: '<=', value: 5 });
    assert.deepEqual(parseWhere(`'a' = x`), { column: 'x', op: '=', value: 'a' });
    assert.deepEqual(parseWhere('-2.5 != x'), { column: 'x', op: '!=', value: -2.5 });
  });

  test('IN, NOT IN, IS NULL, IS NOT NULL', () => {
    assert.deepEqual(parseWhere(`s IN ('a', 'b')`), { column: 's', op: 'in', values: ['a', 'b'] });
    assert.deepEqual(parseWhere('n not in (1,2 , 3)'), { column: 'n', op: 'not in', values: [1, 2, 3] });
    assert.deepEqual(parseWhere('n in (7)'), { column: 'n', op: 'in', values: [7] });
    assert.deepEqual(parseWhere('n IS NULL'), { column: 'n', op: 'is null' });
    assert.deepEqual(parseWhere('n is not null'), { column: 'n', op: 'is not null' });
  });

  test('keywords are case-insensitive', () => {
    assert.deepEqual(parseWhere('a = TRUE aNd b = fAlSe Or c Is NoT nUlL'), {
      or: [{ and: [eq('a', true), eq('b', false)] }, { column: 'c', op: 'is not null' }],
    });
  });

  test('column paths: dotted, double-quoted with "" escapes, arrays when a name holds a dot', () => {
    assert.deepEqual(parseWhere('a.b.c = 1'), eq('a.b.c', 1));
    assert.deepEqual(parseWhere('"a" . "b" = 1'), eq('a.b', 1));
    assert.deepEqual(parseWhere('"my col" = 1'), eq('my col', 1));
    assert.deepEqual(parseWhere('"say ""hi""" = 1'), eq('say "hi"', 1));
    assert.deepEqual(parseWhere('"a.b".c = 1'), eq(['a.b', 'c'], 1));
    assert.deepEqual(parseWhere('"AND" = 1'), eq('AND', 1));
    assert.deepEqual(parseWhere('_x1$ = 1'), eq('_x1$', 1));
    assert.deepEqual(parseWhere('Größe = 1'), eq('Größe', 1));
    assert.deepEqual(parseWhere('CamelCase = 1'), eq('CamelCase', 1), 'names keep their case');
  });

  test('strings: single quotes, doubled to escape, anything inside', () => {
    assert.deepEqual(parseWhere(`s = 'it''s'`), eq('s', "it's"));
    assert.deepEqual(parseWhere(`s = ''`), eq('s', ''));
    assert.deepEqual(parseWhere(`s = 'a AND b = "c" (é)'`), eq('s', 'a AND b = "c" (é)'));
    assert.deepEqual(parseWhere(`s = ''''`), eq('s', "'"));
  });

  test('integers: numbers when safe, else bigint', () => {
    assert.deepEqual(parseWhere('x = 9007199254740991'), eq('x', 9007199254740991));
    assert.deepEqual(parseWhere('x = 9007199254740992'), eq('x', 9007199254740992n));
    assert.deepEqual(parseWhere('x = -9223372036854775808'), eq('x', -9223372036854775808n));
    assert.deepEqual(parseWhere('x = +7'), eq('x', 7));
    assert.deepEqual(parseWhere('x = - 7'), eq('x', -7));
    assert.deepEqual(parseWhere('x = 007'), eq('x', 7));
  });

  test('decimals and floats: numbers when the text survives a double, else the exact text', () => {
    assert.equal(numberValue('1.5'), 1.5);
    assert.equal(numberValue('-0.25'), -0.25);
    assert.equal(numberValue('.5'), 0.5);
    assert.equal(numberValue('5.'), 5);
    assert.equal(numberValue('1e3'), 1000);
    assert.equal(numberValue('1.5E-3'), 0.0015);
    assert.equal(numberValue('+2.5e+2'), 250);
    assert.equal(numberValue('0.000'), 0);
    assert.equal(numberValue('123456789012345'), 123456789012345);
    assert.equal(numberValue('1234567890.12345'), 1234567890.12345); // 15 significant digits
    assert.equal(numberValue('1234567890.123456'), '1234567890.123456'); // 16
    assert.equal(numberValue('0.1234567890123456'), '0.1234567890123456');
    assert.equal(numberValue('100000000000000000000.5'), '100000000000000000000.5');
    assert.equal(numberValue('1.10000000000000000000'), 1.1, 'trailing zeros are not significant');
    assert.equal(numberValue('1e400'), '1e400', 'overflows a double');
    assert.equal(numberValue('1e-320'), '1e-320', 'below the normal range');
    assert.deepEqual(parseWhere('d = -12345678901234567.89'), eq('d', '-12345678901234567.89'));
    assert.deepEqual(parseWhere('d = +12345678901234567.89'), eq('d', '12345678901234567.89'));
  });

  test('parentheses group; redundant ones change nothing', () => {
    assert.deepEqual(parseWhere('((x = 1))'), eq('x', 1));
    assert.deepEqual(parseWhere('(a = 1 OR b = 2) AND c = 3'), { and: [{ or: [eq('a', 1), eq('b', 2)] }, eq('c', 3)] });
    assert.deepEqual(parseWhere('NOT (a = 1 AND b = 2)'), { not: { and: [eq('a', 1), eq('b', 2)] } });
  });
});

describe('SQL forms beyond comparisons', () => {
  test('BETWEEN and NOT BETWEEN take two values joined by AND, which binds to them', () => {
    assert.deepEqual(parseWhere('x BETWEEN 1 AND 5'), { column: 'x', op: 'between', low: 1, high: 5 });
    assert.deepEqual(parseWhere("x not between -1 and 'a' AND y = 2"), { and: [{ column: 'x', op: 'not between', low: -1, high: 'a' }, eq('y', 2)] });
  });

  test('LIKE, ILIKE, their NOT forms, ESCAPE', () => {
    assert.deepEqual(parseWhere("s LIKE 'a%'"), { column: 's', op: 'like', value: 'a%' });
    assert.deepEqual(parseWhere("s NOT ILIKE '_b'"), { column: 's', op: 'not ilike', value: '_b' });
    assert.deepEqual(parseWhere("s like 'a!%' escape '!'"), { column: 's', op: 'like', value: 'a!%', escape: '!' });
    assert.deepEqual(parseWhere('s LIKE NULL'), { column: 's', op: 'like', value: null });
  });

  test('IS [NOT] DISTINCT FROM, NULL as a value anywhere', () => {
    assert.deepEqual(parseWhere('x IS DISTINCT FROM 3'), { column: 'x', op: 'is distinct from', value: 3 });
    assert.deepEqual(parseWhere('x is not distinct from null'), { column: 'x', op: 'is not distinct from', value: null });
    assert.deepEqual(parseWhere('x = NULL'), eq('x', null));
    assert.deepEqual(parseWhere('x IN (1, NULL)'), { column: 'x', op: 'in', values: [1, null] });
  });

  test('functions: starts_with, contains, and lower/upper on the column side', () => {
    assert.deepEqual(parseWhere("starts_with(s, 'ab')"), { column: 's', op: 'starts_with', value: 'ab' });
    assert.deepEqual(parseWhere("NOT CONTAINS(a.b, 'x')"), { not: { column: 'a.b', op: 'contains', value: 'x' } });
    assert.deepEqual(parseWhere("lower(s) = 'ab'"), { column: 's', transform: 'lower', op: '=', value: 'ab' });
    assert.deepEqual(parseWhere("'AB' < upper(s)"), { column: 's', transform: 'upper', op: '>', value: 'AB' });
    assert.deepEqual(parseWhere("Upper(s) NOT LIKE 'A%'"), { column: 's', transform: 'upper', op: 'not like', value: 'A%' });
    assert.deepEqual(parseWhere("lower(s) IN ('a')"), { column: 's', transform: 'lower', op: 'in', values: ['a'] });
    assert.deepEqual(parseWhere('lower(s) IS NULL'), { column: 's', op: 'is null' });
    assert.deepEqual(parseWhere('lower = 1'), eq('lower', 1), 'a column may be called lower');
  });

  test('a column alone is its true rows, and IS [NOT] TRUE / FALSE treat a null as neither', () => {
    assert.deepEqual(parseWhere('b'), eq('b', true));
    assert.deepEqual(parseWhere('NOT b AND (c) OR x = 1'), { or: [{ and: [{ not: eq('b', true) }, eq('c', true)] }, eq('x', 1)] });
    assert.deepEqual(parseWhere('b IS TRUE'), { column: 'b', op: 'is not distinct from', value: true });
    assert.deepEqual(parseWhere('b IS NOT TRUE'), { column: 'b', op: 'is distinct from', value: true });
    assert.deepEqual(parseWhere('b is false'), { column: 'b', op: 'is not distinct from', value: false });
    assert.deepEqual(parseWhere('b IS NOT FALSE'), { column: 'b', op: 'is distinct from', value: false });
  });

  test('DATE, TIMESTAMP and TIMESTAMPTZ literals; date and timestamp stay usable as column names', () => {
    assert.deepEqual(parseWhere("d >= DATE '2024-01-02'"), { column: 'd', op: '>=', value: { date: '2024-01-02' } });
    assert.deepEqual(parseWhere("TIMESTAMP '2024-01-02 10:00' < t"), { column: 't', op: '>', value: { timestamp: '2024-01-02 10:00' } });
    assert.deepEqual(parseWhere("t = timestamptz '2024-01-02 10:00:00+02'"), { column: 't', op: '=', value: { timestamptz: '2024-01-02 10:00:00+02' } });
    assert.deepEqual(parseWhere("date = '2024-01-02'"), eq('date', '2024-01-02'));
  });
});

describe('constructs outside the grammar are named where they stand', () => {
  const cases: [string, RegExp][] = [
    ['length(s) > 3', /^--where: function length\(\) is not supported at position 1 \(functions: starts_with, contains, lower, upper, intersects\)$/],
    ['x = 1 AND abs(y) = 2', /function abs\(\) is not supported at position 11/],
    ['x + 1 > 5', /arithmetic \(\+\) is not supported at position 3/],
    ['x * 2 > 5', /arithmetic \(\*\) is not supported at position 3/],
    ["s || 'a' = 'b'", /arithmetic \(\|\|\) is not supported at position 3/],
    ['x::INT = 5', /a cast \(::\) is not supported at position 2/],
    ["x = INTERVAL '1 day'", /a INTERVAL literal is not supported at position 5/],
    ["s GLOB 'a*'", /GLOB is not supported at position 3/],
    ['b IS', /expected NULL, NOT NULL, \[NOT\] TRUE, \[NOT\] FALSE or \[NOT\] DISTINCT FROM after "IS" at position 5/],
    ['lower(s)', /expected a comparison operator .* at position 9, found the end of the expression/],
    ["x = lower(s)", /function lower\(\) as a value is not supported at position 5/],
    ["starts_with(s, 'a') = true", /expected AND, OR or the end of the expression at position 21/],
    ["lower(lower(s)) = 'a'", /a function call inside lower\(\) is not supported at position 7/],
    ["starts_with(s)", /expected "," and argument 2 of starts_with\(\) at position 14/],
    ["starts_with(s, 1)", /expected a string as argument 2 of starts_with\(\) at position 16/],
    ["s LIKE 5", /expected a 'pattern' after "LIKE" at position 8/],
    ["s LIKE 'a' ESCAPE 'ab'", /expected one character in quotes after ESCAPE at position 19/],
    ['x BETWEEN 1 5', /expected AND between the bounds of BETWEEN at position 13/],
    ["d = DATE '2024-13-01'", /expected DATE text at position 10, found "'2024-13-01'" \(DATE '2024-13-01' is not a valid date/],
    ["5 BETWEEN x AND y", /BETWEEN takes the column on its left/],
    ['('.repeat(100_000) + 'x = 1' + ')'.repeat(100_000), /nesting deeper than 1000 NOTs and parentheses is not supported at position 1001/],
    ['NOT '.repeat(100_000) + 'x = 1', /nesting deeper than 1000 NOTs and parentheses is not supported at position 4001/],
  ];
  for (const [text, re] of cases) {
    test(JSON.stringify(text.slice(0, 60)), () => {
      assert.throws(() => parseWhere(text), (e: unknown) => {
        assert.ok(e instanceof WhereSyntaxError);
        assert.match(e.message, re);
        return true;
      });
    });
  }
});

describe('precedence: NOT over AND over OR', () => {
  test('AND binds tighter than OR', () => {
    assert.deepEqual(parseWhere('a = 1 OR b = 2 AND c = 3'), { or: [eq('a', 1), { and: [eq('b', 2), eq('c', 3)] }] });
    assert.deepEqual(parseWhere('a = 1 AND b = 2 OR c = 3'), { or: [{ and: [eq('a', 1), eq('b', 2)] }, eq('c', 3)] });
  });

  test('NOT binds tighter than AND and applies to one predicate', () => {
    assert.deepEqual(parseWhere('NOT a = 1 AND b = 2'), { and: [{ not: eq('a', 1) }, eq('b', 2)] });
    assert.deepEqual(parseWhere('NOT NOT a = 1'), { not: { not: eq('a', 1) } });
    assert.deepEqual(parseWhere('NOT a IN (1)'), { not: { column: 'a', op: 'in', values: [1] } });
    assert.deepEqual(parseWhere('NOT a IS NULL OR b = 1'), { or: [{ not: { column: 'a', op: 'is null' } }, eq('b', 1)] });
  });

  test('chains of one operator are flat', () => {
    assert.deepEqual(parseWhere('a = 1 AND b = 2 AND (c = 3 AND d = 4)'), { and: [eq('a', 1), eq('b', 2), eq('c', 3), eq('d', 4)] });
    assert.deepEqual(parseWhere('a = 1 OR (b = 2 OR c = 3)'), { or: [eq('a', 1), eq('b', 2), eq('c', 3)] });
  });
});

describe('errors name the position and what was expected', () => {
  const cases: [string, RegExp][] = [
    ['price = ', /^--where: expected a value after "=" at position 9, found the end of the expression/],
    ['', /expected a condition at position 1, found the end of the expression/],
    ['   ', /expected a condition at position 4/],
    ['x y', /expected a comparison operator .* after the column at position 3, found "y"/],
    ['a b', /expected a comparison operator .*\[NOT\] IN, \[NOT\] BETWEEN, \[NOT\] LIKE, \[NOT\] ILIKE or IS after the column at position 3, found "b"/],
    ['x = y', /expected a value after "=" at position 5, found "y" \(comparing two columns is not supported/],
    ['1 = 2', /expected a column after "=" at position 5, found "2" \(one side of a comparison must be a column\)/],
    ['1 AND x', /expected a comparison operator \(=, !=, <>, <, <=, >, >=\) after the value at position 3, found "AND"/],
    ['(a = 1', /expected AND, OR or "\)" at position 7, found the end of the expression \(to close the "\(" at position 1\)/],
    ['a = 1)', /expected AND, OR or the end of the expression at position 6, found "\)" \(this "\)" closes nothing\)/],
    ['a = 1 b = 2', /expected AND, OR or the end of the expression at position 7, found "b"/],
    ['()', /expected a condition after "\(" at position 2, found "\)"/],
    ['a = 1 AND', /expected a column name, a value, NOT or "\(" at position 10, found the end/],
    ['a = 1 OR OR b = 1', /expected a column name, a value, NOT or "\(" at position 10, found "OR" \(OR is a keyword/],
    ['NOT', /expected a column name, a value, NOT or "\(" at position 4/],
    ['and = 1', /at position 1, found "and" \(AND is a keyword: write "and" in double quotes/],
    ['x IS 1', /expected NULL, NOT NULL, \[NOT\] TRUE, \[NOT\] FALSE or \[NOT\] DISTINCT FROM after "IS" at position 6, found "1"/],
    ['x IS NOT 1', /expected NULL, TRUE, FALSE or DISTINCT FROM after "IS NOT" at position 10, found "1"/],
    ['x IN 1', /expected "\(" after "IN" at position 6, found "1"/],
    ['x NOT IN 1', /expected "\(" after "NOT IN" at position 10, found "1"/],
    ['x NOT = 1', /expected a comparison operator .* after the column at position 3, found "NOT"/],
    ['x IN ()', /expected a value in the IN list at position 7, found "\)"/],
    ['x IN (1 2)', /expected "," or "\)" in the IN list at position 9, found "2"/],
    ['x IN (1,)', /expected a value after "," at position 9, found "\)"/],
    ['x IN (1', /expected "," or "\)" in the IN list at position 8, found the end/],
    ['x = -', /expected a number after "-" at position 6, found the end/],
    ["x = -'a'", /expected a number after "-" at position 6, found "'a'"/],
    ["s = 'abc", /expected a closing ' at position 9, found the end of the expression \(for the string opened at position 5\)/],
    ['"abc = 1', /expected a closing " at position 9, .*\(for the quoted name opened at position 1\)/],
    ['"" = 1', /expected a column name between the double quotes at position 1, found ""$/],
    ['x = 1x', /expected an operator or space after the number at position 6, found "1x"/],
    ['x = 1.2.3', /expected AND, OR or the end of the expression at position 8, found "\.3"/],
    ['x.', /expected a field name after "\." at position 3, found the end/],
    ['x.1 = 2', /expected a field name after "\." at position 3, found "1"/],
    ['x ! 1', /expected a column, a value, an operator or a parenthesis at position 3, found "!"/],
    ['x = 1; drop table t', /at position 6, found ";"/],
  ];
  for (const [text, re] of cases) {
    test(JSON.stringify(text), () => {
      assert.throws(() => parseWhere(text), (e: unknown) => {
        assert.ok(e instanceof WhereSyntaxError);
        assert.ok(e instanceof InvalidArgumentError && e instanceof ParquetryError);
        assert.equal(e.code, 'INVALID_ARGUMENT');
        assert.match(e.message, re);
        assert.ok(e.position >= 1 && e.position <= text.length + 1);
        return true;
      });
    });
  }

  test('the option name in messages is the caller\'s', () => {
    assert.throws(() => parseWhere('x =', '--filter'), (e: Error) => /^--filter: expected a value/.test(e.message));
  });
});

describe('parseLiteral (bloom-filter --value)', () => {
  test('one literal of the grammar, else undefined', () => {
    assert.deepEqual(parseLiteral('42'), { value: 42 });
    assert.deepEqual(parseLiteral('-42'), { value: -42 });
    assert.deepEqual(parseLiteral('9223372036854775807'), { value: 9223372036854775807n });
    assert.deepEqual(parseLiteral('1.5'), { value: 1.5 });
    assert.deepEqual(parseLiteral(`'it''s'`), { value: "it's" });
    assert.deepEqual(parseLiteral('TRUE'), { value: true });
    assert.deepEqual(parseLiteral('false'), { value: false });
    assert.equal(parseLiteral('Hello'), undefined);
    assert.equal(parseLiteral('two words'), undefined);
    assert.equal(parseLiteral('1 2'), undefined);
    assert.equal(parseLiteral(`'open`), undefined);
    assert.equal(parseLiteral(''), undefined);
  });
});

/**
 * The same text as a DuckDB WHERE clause over a DuckDB-written file selects
 * the same rows as parquetry's filter: in-process for a matrix of
 * expressions, and through the `cat --where` binary for a few.
 */
describe('same rows as DuckDB', () => {
  const TABLE = `SELECT i AS id,
      CASE WHEN i % 7 = 0 THEN NULL ELSE (i % 100)::INTEGER END AS n,
      (i::BIGINT * 1000003 * 1000000000) AS big,
      CASE WHEN i % 11 = 0 THEN NULL ELSE i / 8.0 END::DOUBLE AS d,
      (i * 1.234)::DECIMAL(18,3) AS dec,
      CASE WHEN i % 5 = 0 THEN NULL ELSE 'name' || (i % 37) END AS s,
      CASE WHEN i % 13 = 0 THEN 'it''s' ELSE 'x' END AS q,
      i % 3 = 0 AS flag,
      DATE '2020-01-01' + (i % 400)::INTEGER AS day,
      {'b': i % 10, 'c': 'c' || (i % 4)} AS a,
      (i % 9)::INTEGER AS "my col",
      (i % 6)::INTEGER AS "dot.name",
      (i / 4)::REAL AS r,
      (i % 20 / 10)::REAL AS f
    FROM range(3000) t(i)`;
  const EXPRESSIONS = [
    'n = 5', 'n != 5', 'n <> 5', 'n < 10', 'n <= 10', 'n > 90', 'n >= 90', '5 < n', '95 <= n',
    'n IS NULL', 'n IS NOT NULL', 'n IN (1, 2, 3)', 'n NOT IN (1, 2, 3)', 'NOT n IN (1, 2, 3)',
    'NOT n = 5', 'NOT (n > 5)', 'NOT NOT n > 98',
    "n > 5 AND n < 10 OR s = 'name3'", "n > 5 AND (n < 10 OR s = 'name3')", 'NOT n > 5 AND s IS NULL',
    "n in (1,2) AnD NoT s iS nUlL", 'n < 1.5', 'n = 1.5', 'n > -1', 'n >= +99',
    'big = 1000003000000000', 'big > 1500001500000000000', 'big <= 9007199254740993', 'big IN (2000006000000000, 3000009000000000)',
    'd < 100.5', 'd = 0.125', 'd > 1e2', 'd >= 3.5e2 AND d < 351', 'd IS NULL OR d = 2', 'r = 0.25', 'r < 2.5', 'r = 0.1',
    'dec = 1.234', 'dec > 1000.5', 'dec <= 12.34', 'dec < 1234.567890123456789', 'dec IN (2.468, 3.702, 4)', 'dec != 0',
    "s = 'name3'", "s > 'name2'", "s IN ('name1', 'name22')", "s NOT IN ('name1', 'name22')", "q = 'it''s'", "'it''s' != q",
    'flag = true', 'flag != false', 'NOT flag = TRUE', 'flag = false AND n IS NULL',
    "day >= '2020-06-01'", "day = '2020-01-05' OR day < '2020-01-03'",
    'a.b = 3', "a.c IN ('c1', 'c2') AND a.b > 5", '"my col" = 4', '"dot.name" = 2', '"my col" >= 4 AND "dot.name" < 2 OR a.b = 9',
    "s LIKE 'name1%'", "s NOT ILIKE 'NAME2_'", "lower(q) = 'it''s'", "upper(s) > 'NAME3'", "day BETWEEN DATE '2020-02-01' AND DATE '2020-03-01'",
    "day < TIMESTAMP '2020-01-10 12:00:00'", 'n IS DISTINCT FROM 5', 'n IS NOT DISTINCT FROM NULL', 'n NOT BETWEEN 10 AND 90',
    "starts_with(s, 'name3')", "contains(a.c, '2') AND n IN (1, 2, NULL)", "NOT (n > 5 OR s LIKE '%7')",
  ];

  let dir = '';
  let file = '';
  let duck: import('@duckdb/node-api').DuckDBConnection;
  let instance: import('@duckdb/node-api').DuckDBInstance;
  const sqlString = (s: string) => `'${s.replaceAll("'", "''")}'`;

  before(async () => {
    const { DuckDBInstance } = await import('@duckdb/node-api');
    dir = mkdtempSync(join(tmpdir(), 'parquetry-where-'));
    file = join(dir, 'where.parquet');
    instance = await DuckDBInstance.create(':memory:', { threads: '1' });
    duck = await instance.connect();
    await duck.run(`COPY (${TABLE}) TO ${sqlString(file)} (FORMAT PARQUET, ROW_GROUP_SIZE 1000)`);
  });
  after(() => {
    duck?.closeSync();
    instance?.closeSync();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function duckIds(where: string): Promise<number[]> {
    const r = await duck.runAndReadAll(`SELECT id FROM read_parquet(${sqlString(file)}) WHERE ${where} ORDER BY id`);
    return r.getRows().map((row) => Number(row[0]));
  }

  async function ourIds(where: string): Promise<number[]> {
    const reader = await openParquet(file);
    try {
      const ids: number[] = [];
      for await (const row of reader.rows({ columns: ['id'], filter: parseWhere(where) })) ids.push(Number(row.id));
      return ids.sort((a, b) => a - b);
    } finally {
      await reader.close();
    }
  }

  for (const where of EXPRESSIONS) {
    test(where, async () => {
      const expected = await duckIds(where);
      assert.deepEqual(await ourIds(where), expected);
    });
  }

  // A literal compared with a REAL column is rounded to FLOAT first, as DuckDB casts it: 0.1 finds the float nearest 0.1.
  test('REAL column against a decimal literal', async () => {
    for (const where of ['f = 0.1', 'f <= 0.3', 'f > 0.3', 'f IN (0.1, 1.1)', 'f = 0.30000000000000000001', 'f < 1e39']) {
      assert.deepEqual(await ourIds(where), await duckIds(where), where);
    }
    assert.ok((await duckIds('f = 0.1')).length > 0);
  });

  test('the expressions select neither nothing nor everything, mostly', async () => {
    let trivial = 0;
    for (const where of EXPRESSIONS) {
      const n = (await duckIds(where)).length;
      if (n === 0 || n === 3000) trivial++;
    }
    assert.ok(trivial <= 2, `${trivial} expressions select all rows or none`);
  });

  test('cat --where and head --where, run as a user runs them', async () => {
    for (const where of ["n > 5 AND (n < 10 OR s = 'name3')", 'a.b = 4 AND "dot.name" = 2', 'dec < 1234.567890123456789 AND NOT flag = TRUE', "s LIKE 'name1%' AND day BETWEEN DATE '2020-02-01' AND DATE '2020-06-01'"]) {
      const r = await runWith(['cat', file, '--where', where, '--columns', 'id', '--json']);
      assert.equal(r.code, 0, r.err);
      assert.notEqual(r.out, '', where);
      const ids = r.out.trim().split('\n').map((l) => JSON.parse(l).id as number).sort((a, b) => a - b);
      assert.deepEqual(ids, await duckIds(where), where);
    }
    const head = await runWith(['head', file, '-n', '2', '--where', "s = 'name3'", '--columns', 'id,s']);
    assert.equal(head.code, 0, head.err);
    assert.match(head.out, /^id\s+s\n-+\s+-+\n3\s+name3\n/);
    assert.equal(head.out.trim().split('\n').length, 4);
  });

  test('a syntax error in --where: one line, exit 1, before the file is read', async () => {
    const r = await runWith(['cat', 'no-such-file.parquet', '--where', 'price = ']);
    assert.equal(r.code, 1);
    assert.equal(r.err, `parquetry: --where: expected a value after "=" at position 9, found the end of the expression (a value is a number, a 'string', TRUE, FALSE, NULL or DATE/TIMESTAMP '…')\n`);
    const trevni = await runWith(['cat', '../shared/trevni-corpus/tiny.trv', '--where', 'x = 1']);
    assert.equal(trevni.code, 1);
    assert.equal(trevni.err, 'parquetry: --where is for Parquet files; Trevni files are read whole\n');
    const unknown = await runWith(['cat', file, '--where', 'nope = 1']);
    assert.equal(unknown.code, 1);
    assert.match(unknown.err, /^parquetry: [^\n]*nope[^\n]*\n$/);
  });
});
