/**
 * text-bytes.ts prints dates, timestamps and integers into bytes as
 * temporal-format.ts and String(v) print them: dates for every day of the
 * years 0 to 9999 and past both ends (where it declines, the row path's
 * text is printed instead), timestamps in each unit at random instants and
 * at the ends of each day of that range, integers up to 2^53 either side.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeDate, writeInt, writeTimestamp } from '../../src/convert/text-bytes.js';
import { formatDate, formatTimestamp } from '../../src/schema/temporal-format.js';
import { rng } from '../writer/gen.js';

const decoder = new TextDecoder();
const buf = new Uint8Array(64);
const FOUR_DIGIT_YEAR = /^\d{4}-/;

test('dates: every day from before the year 0 to past 9999, formatDate\'s text or declined outside 0-9999', () => {
  let printed = 0;
  for (let d = -800_000; d <= 3_000_000; d++) {
    const want = formatDate(d);
    for (const quoted of [false, true]) {
      const end = writeDate(buf, 0, d, quoted);
      if (end < 0) {
        assert.ok(!FOUR_DIGIT_YEAR.test(want), `declined ${want}`);
        continue;
      }
      printed++;
      const got = decoder.decode(buf.subarray(0, end));
      if (got !== (quoted ? `"${want}"` : want)) assert.fail(`day ${d}: ${got} for ${want}`);
    }
  }
  assert.ok(printed > 7_000_000, `${printed} printed`);
});

test('timestamps: each unit, random instants and each day\'s ends, formatTimestamp\'s text or declined', () => {
  const next = rng(77);
  const units = [['MILLIS', 1000n], ['MICROS', 1_000_000n], ['NANOS', 1_000_000_000n]] as const;
  let printed = 0;
  for (const [unit, per] of units) {
    const values: bigint[] = [];
    for (let d = -720_000; d <= 2_933_000; d += 997) values.push(BigInt(d) * 86400n * per, BigInt(d) * 86400n * per - 1n);
    for (let i = 0; i < 50_000; i++) values.push(BigInt(Math.floor((next() - 0.5) * 2 ** 53)) * (unit === 'NANOS' ? 1n : per / 1000n));
    for (const v of values.filter((x) => x === BigInt.asIntN(64, x))) {
      const high = Number(BigInt.asIntN(32, v >> 32n));
      const low = Number(BigInt.asIntN(32, v));
      for (const [utc, tail] of [[true, 'Z'], [false, ''], [true, 'Z"']] as const) {
        const want = formatTimestamp(v, unit, utc);
        const end = writeTimestamp(buf, 0, high, low, Number(per), tail);
        if (end < 0) {
          assert.ok(!FOUR_DIGIT_YEAR.test(want) || v > 2n ** 52n || v < -(2n ** 52n), `declined ${want}`);
          continue;
        }
        printed++;
        const got = decoder.decode(buf.subarray(0, end));
        if (got !== (tail.endsWith('"') ? `"${want}"` : want)) assert.fail(`${v} ${unit}: ${got} for ${want}`);
      }
    }
  }
  assert.ok(printed > 100_000, `${printed} printed`);
});

test('integers within 2^53: String(v)', () => {
  const next = rng(5);
  const values = [0, -0, 1, -1, 9, 10, 99, 100, 2 ** 31 - 1, 2 ** 31, -(2 ** 31), 2 ** 53, -(2 ** 53), 2 ** 53 - 1];
  for (let i = 0; i < 100_000; i++) values.push(Math.floor((next() - 0.5) * 2 ** (1 + Math.floor(next() * 54))));
  for (const v of values) {
    const got = decoder.decode(buf.subarray(0, writeInt(buf, 0, v)));
    if (got !== String(v)) assert.fail(`${v}: ${got}`);
  }
});
