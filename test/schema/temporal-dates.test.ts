/**
 * TIMESTAMP and INT96 values as Dates: the reader computes them from the
 * integers' 32-bit halves where they fit in 2^53, by bigints beyond. Both
 * paths are checked against floor division done in bigints here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { valueReader } from '../../src/schema/convert.js';
import type { TimeUnit } from '../../src/schema/logical.js';

const PER: Record<TimeUnit, bigint> = { MILLIS: 1n, MICROS: 1000n, NANOS: 1_000_000n };

function floorDiv(v: bigint, d: bigint): bigint {
  const q = v / d;
  return v % d !== 0n && v < 0n ? q - 1n : q;
}

function expectDate(ms: bigint): number {
  return new Date(Number(ms)).getTime(); // NaN outside a Date's range, as the reader gives
}

/** Near 0, near +-2^53 (the edge of the number path), and anywhere in int64. */
const int64 = fc.oneof(
  fc.bigInt({ min: -(10n ** 13n), max: 10n ** 13n }),
  fc.bigInt({ min: 2n ** 53n - 5000n, max: 2n ** 53n + 5000n }).map((v) => (v % 2n === 0n ? v : -v)),
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
);

test('TIMESTAMP to Date floors to the millisecond for every int64', () => {
  fc.assert(
    fc.property(fc.array(int64, { minLength: 1, maxLength: 40 }), fc.constantFrom<TimeUnit>('MILLIS', 'MICROS', 'NANOS'), (vs, unit) => {
      const a = BigInt64Array.from(vs);
      const at = valueReader({ kind: 'timestamp', unit, utc: true }, a, { temporal: 'date' });
      const filled = new Array<unknown>(vs.length);
      at.fill!(filled, 0, vs.length);
      vs.forEach((v, i) => {
        const want = expectDate(floorDiv(v, PER[unit]));
        assert.deepEqual([(at(i) as Date).getTime(), (filled[i] as Date).getTime()], [want, want], `${v} ${unit}`);
      });
    }),
    { numRuns: 300 },
  );
});

test('TIMESTAMP to Date at every side of a millisecond boundary, near 0 and near +-2^53', () => {
  // The number path divides in doubles: a quotient just below an integer must not round up to it.
  for (const unit of ['MICROS', 'NANOS'] as const) {
    const per = PER[unit];
    const vs: bigint[] = [];
    for (const centre of [0n, 2n ** 53n, -(2n ** 53n), 1_700_000_000_000n * per]) {
      const base = (centre / per) * per;
      for (let k = -3n; k <= 3n; k++) for (const d of [-1n, 0n, 1n, per / 2n]) vs.push(base + k * per + d);
    }
    const a = BigInt64Array.from(vs);
    const at = valueReader({ kind: 'timestamp', unit, utc: true }, a, { temporal: 'date' });
    const filled = new Array<unknown>(vs.length);
    at.fill!(filled, 0, vs.length);
    vs.forEach((v, i) => {
      const want = expectDate(floorDiv(v, per));
      assert.deepEqual([(at(i) as Date).getTime(), (filled[i] as Date).getTime()], [want, want], `${v} ${unit}`);
    });
  }
});

test('INT96 to Date: nanoseconds of the day and Julian day, in range or not', () => {
  const day = fc.oneof(fc.integer({ min: 2440588 - 200_000, max: 2440588 + 200_000 }), fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }));
  const nanos = fc.oneof(fc.bigInt({ min: 0n, max: 86_400n * 10n ** 9n - 1n }), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }));
  fc.assert(
    fc.property(fc.array(fc.tuple(nanos, day), { minLength: 1, maxLength: 20 }), (vs) => {
      const data = new Uint8Array(12 * vs.length);
      const dv = new DataView(data.buffer);
      const offsets = new Int32Array(vs.length + 1);
      vs.forEach(([n, d], i) => {
        dv.setBigInt64(12 * i, n, true);
        dv.setInt32(12 * i + 8, d, true);
        offsets[i + 1] = 12 * (i + 1);
      });
      const at = valueReader({ kind: 'int96' }, { data, offsets }, { temporal: 'date' });
      vs.forEach(([n, d], i) => {
        // Spark's arithmetic (convert.ts int96Nanos): microseconds wrap in 64 bits.
        const micros = BigInt.asIntN(64, (BigInt(d) - 2440588n) * 86_400_000_000n + n / 1000n);
        const want = expectDate(floorDiv(micros * 1000n + (n % 1000n), 1_000_000n));
        assert.equal((at(i) as Date).getTime(), want, `${n} ${d}`);
      });
    }),
    { numRuns: 300 },
  );
});
