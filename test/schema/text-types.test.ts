/** The text classification CSV inference (and JSON strings) use: hand-written scanners checked against the regular expressions they stand for. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { doubleText, integerText } from '../../src/schema/text-types.js';
import { csvCellParser } from '../../src/schema/infer.js';
import { field as f } from '../../src/schema/builder.js';

const DOUBLE_TEXT = /^[+-]?(?:(?:0|[1-9][0-9]*)(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/;

/** Every string of up to `depth` characters of `alphabet`. */
function* strings(alphabet: string, depth: number, prefix = ''): Generator<string> {
  if (depth === 0) return;
  for (const c of alphabet) {
    yield prefix + c;
    yield* strings(alphabet, depth - 1, prefix + c);
  }
}

test('doubleText takes exactly the decimal and exponent texts of the regular expression, read as Number reads them (every string of 5 characters of digits, signs, dots, exponents)', () => {
  let n = 0;
  for (const s of strings('019+-.eE x', 5)) {
    n++;
    const want = DOUBLE_TEXT.test(s) ? Number(s) : undefined;
    assert.equal(doubleText(s), want, JSON.stringify(s));
  }
  assert.ok(n > 100_000);
  for (const s of ['nan', '-Inf', 'infinity']) assert.ok(doubleText(s) !== undefined, s);
});

test('an integer column reads every integer text exactly, at and past the 15 digits read as a number', () => {
  const int64 = csvCellParser(f.int64());
  const int32 = csvCellParser(f.int32());
  for (const s of ['0', '-0', '+5', '007', '999999999999999', '-999999999999999', '1000000000000000', '9007199254740993', '9223372036854775807', '-9223372036854775808']) {
    assert.equal(int64(s), BigInt(s), s);
    assert.equal(int32(s), Number(BigInt(s)), s);
  }
  assert.equal(integerText('007'), undefined, 'inference keeps leading zeros as text');
  assert.throws(() => int64('1.5'), /as an integer/);
});
