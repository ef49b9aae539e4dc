/** Value options: int64 'number', decimal 'number', temporal 'iso' | 'date', and the lossless defaults. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { canonicalRow } from '../../src/node/entries/inspect.js';
import { openParquet, type ParquetReader } from '../../src/node/index.js';
import { DATA, DuckFiles, SAMPLE, collect, show } from './helpers.js';

describe('on the DuckDB sample', () => {
  let reader: ParquetReader;
  before(async () => {
    reader = await openParquet(SAMPLE);
  });
  after(() => reader.close());

  test('defaults are lossless: bigint, decimal text, raw temporal integers', async () => {
    const [row] = await collect(reader, { limit: 1 });
    assert.equal(row!.id, 1n);
    assert.equal(row!.discount, '7.00');
    assert.equal(row!.updated_at, 1704070800000000n); // 2024-01-01T01:00:00 in microseconds
    assert.equal(row!.day, 19724); // 2024-01-02 in days
    assert.deepEqual(row!.tags, [0n]);
    assert.deepEqual(row!.address, { city: 'Lima', zip: 1001n });
  });

  test("int64: 'number' turns INT64 into numbers, nested ones too", async () => {
    const rows = await collect(reader, { int64: 'number' });
    const def = await collect(reader);
    rows.forEach((r, i) => {
      assert.equal(r.id, Number(def[i]!.id));
      assert.deepEqual(r.tags, (def[i]!.tags as bigint[]).map(Number));
      assert.equal(r.updated_at, Number(def[i]!.updated_at), 'raw timestamps follow int64');
      assert.equal(r.nullable_qty, def[i]!.nullable_qty === null ? null : Number(def[i]!.nullable_qty));
    });
  });

  test("decimal: 'number'", async () => {
    const rows = await collect(reader, { decimal: 'number' });
    const def = await collect(reader);
    rows.forEach((r, i) => assert.equal(r.discount, Number(def[i]!.discount as string)));
    assert.equal(rows[0]!.discount, 7);
  });

  test("temporal: 'iso' gives the canonical text", async () => {
    const rows = await collect(reader, { temporal: 'iso', limit: 2 });
    assert.equal(rows[0]!.updated_at, '2024-01-01T01:00:00.000000');
    assert.equal(rows[0]!.day, '2024-01-02');
    assert.equal(rows[1]!.updated_at, '2024-01-01T02:00:00.000000');
  });

  test("temporal: 'date' gives Dates", async () => {
    const rows = await collect(reader, { temporal: 'date', limit: 2 });
    assert.ok(rows[0]!.updated_at instanceof Date);
    assert.equal((rows[0]!.updated_at as Date).toISOString(), '2024-01-01T01:00:00.000Z');
    assert.ok(rows[0]!.day instanceof Date);
    assert.equal((rows[0]!.day as Date).toISOString(), '2024-01-02T00:00:00.000Z');
  });

  test('options combine', async () => {
    const [row] = await collect(reader, { int64: 'number', decimal: 'number', temporal: 'iso', limit: 1, columns: ['id', 'discount', 'updated_at'] });
    assert.deepEqual(row, { id: 1, discount: 7, updated_at: '2024-01-01T01:00:00.000000' });
  });
});

describe('on DuckDB-written edge values', () => {
  let files: DuckFiles;
  let path = '';
  before(async () => {
    files = await DuckFiles.create();
    path = await files.write('values.parquet', `SELECT * FROM (VALUES
      (0, 9007199254740993::BIGINT, 18446744073709551615::UBIGINT, 12.34::DECIMAL(9,2), DATE '2024-02-29',
       TIMESTAMP '2024-01-02 03:04:05.123456', TIMESTAMP_NS '1969-12-31 23:59:59.999999999', TIMESTAMPTZ '2024-01-02 03:04:05.5+00',
       TIME '12:34:56.789', TIMESTAMP_MS '1969-12-31 23:59:59.999', [TIMESTAMP '1970-01-01 00:00:00.000001', NULL]),
      (1, (-9223372036854775808)::BIGINT, 0::UBIGINT, -0.05::DECIMAL(9,2), DATE '1969-12-31',
       TIMESTAMP '1969-12-31 23:59:59.999999', TIMESTAMP_NS '1970-01-01 00:00:00.000000001', TIMESTAMPTZ '1900-01-01 00:00:00+00',
       TIME '00:00:00', TIMESTAMP_MS '0001-01-01 00:00:00', []::TIMESTAMP[]),
      (2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)
    ) t(id, big, ubig, dec, dt, ts, tsns, tstz, tm, tsms, lts) ORDER BY id`);
  });
  after(() => files.close());

  async function rows(options = {}): Promise<Record<string, unknown>[]> {
    const reader = await openParquet(path);
    try {
      return await collect(reader, options);
    } finally {
      await reader.close();
    }
  }

  test('defaults', async () => {
    const [a, b, c] = await rows();
    assert.equal(a!.big, 9007199254740993n);
    assert.equal(a!.ubig, 18446744073709551615n, 'UINT_64 reads unsigned');
    assert.equal(b!.big, -9223372036854775808n);
    assert.equal(a!.dec, '12.34');
    assert.equal(b!.dec, '-0.05');
    assert.equal(a!.tsns, -1n);
    assert.equal(b!.ts, -1n);
    assert.equal(a!.tm, 45296789000n);
    assert.deepEqual(a!.lts, [1n, null]);
    assert.deepEqual(b!.lts, []);
    for (const [k, v] of Object.entries(c!)) if (k !== 'id') assert.equal(v, null, `${k} is null`);
  });

  test("int64: 'number'", async () => {
    const [a, b] = await rows({ int64: 'number' });
    assert.equal(a!.big, 9007199254740992, 'beyond 2^53 the nearest double');
    assert.equal(a!.ubig, 18446744073709551615, 'UINT_64 max as a number');
    assert.equal(b!.big, -9223372036854775808);
    assert.equal(a!.tsns, -1);
    assert.equal(a!.tm, 45296789000);
    assert.deepEqual(a!.lts, [1, null]);
  });

  test("temporal: 'iso' is the canonical text, nested values too", async () => {
    const [a, b] = await rows({ temporal: 'iso' });
    assert.equal(a!.dt, '2024-02-29');
    assert.equal(b!.dt, '1969-12-31');
    assert.equal(a!.ts, '2024-01-02T03:04:05.123456');
    assert.equal(b!.ts, '1969-12-31T23:59:59.999999');
    assert.equal(a!.tsns, '1969-12-31T23:59:59.999999999');
    assert.equal(b!.tsns, '1970-01-01T00:00:00.000000001');
    assert.equal(a!.tstz, '2024-01-02T03:04:05.500000Z');
    assert.equal(b!.tstz, '1900-01-01T00:00:00.000000Z');
    assert.equal(a!.tm, '12:34:56.789000');
    assert.equal(a!.tsms, '1969-12-31T23:59:59.999');
    assert.equal(b!.tsms, '0001-01-01T00:00:00.000');
    assert.deepEqual(a!.lts, ['1970-01-01T00:00:00.000001', null]);
  });

  test("temporal: 'date' floors to the millisecond, before 1970 too", async () => {
    const [a, b] = await rows({ temporal: 'date' });
    const iso = (v: unknown) => {
      assert.ok(v instanceof Date, `a Date, got ${show(v)}`);
      return v.toISOString();
    };
    assert.equal(iso(a!.dt), '2024-02-29T00:00:00.000Z');
    assert.equal(iso(b!.dt), '1969-12-31T00:00:00.000Z');
    assert.equal(iso(a!.ts), '2024-01-02T03:04:05.123Z');
    assert.equal(iso(b!.ts), '1969-12-31T23:59:59.999Z', '-1 us is in the millisecond before the epoch');
    assert.equal(iso(a!.tsns), '1969-12-31T23:59:59.999Z');
    assert.equal(iso(b!.tsns), '1970-01-01T00:00:00.000Z');
    assert.equal(iso(a!.tstz), '2024-01-02T03:04:05.500Z');
    assert.equal(iso(a!.tsms), '1969-12-31T23:59:59.999Z');
    assert.equal(iso(b!.tsms), '0001-01-01T00:00:00.000Z');
    assert.equal(iso((a!.lts as unknown[])[0]), '1970-01-01T00:00:00.000Z');
    assert.equal(typeof a!.tm, 'bigint', "TIME has no Date form: 'date' leaves it raw");
  });

  test('canonicalRow of default rows does not depend on options passed to other reads', async () => {
    const reader = await openParquet(path);
    try {
      const plan = reader.plan();
      const first = (await collect(reader)).map((r) => canonicalRow(plan, r));
      await collect(reader, { temporal: 'date', int64: 'number', decimal: 'number' });
      assert.deepEqual((await collect(reader)).map((r) => canonicalRow(plan, r)), first);
    } finally {
      await reader.close();
    }
  });
});

describe('INT96 (int96_from_spark.parquet)', () => {
  test("temporal 'iso' is the canonical text, 'date' the millisecond", async () => {
    const reader = await openParquet(join(DATA, 'int96_from_spark.parquet'));
    try {
      const plan = reader.plan();
      const def = await collect(reader);
      const iso = await collect(reader, { temporal: 'iso' });
      const dates = await collect(reader, { temporal: 'date' });
      const name = plan.fields[0]!.name;
      def.forEach((r, i) => {
        const canon = JSON.parse(canonicalRow(plan, r))[name] as string | null;
        assert.equal(iso[i]![name], canon);
        if (r[name] === null) return;
        const nanos = r[name] as bigint;
        const ms = Number((nanos - (((nanos % 1_000_000n) + 1_000_000n) % 1_000_000n)) / 1_000_000n);
        const d = dates[i]![name];
        if (Math.abs(ms) <= 8.64e15) assert.equal((d as Date).getTime(), ms, `row ${i}`);
      });
    } finally {
      await reader.close();
    }
  });
});

describe("decimal: 'number' gives the nearest double", () => {
  // Number(unscaled) / 10 ** scale rounds twice; the nearest double to the exact
  // decimal is Number(text). Below 2^53 unscaled and scale <= 22 both agree.
  let files: DuckFiles;
  before(async () => {
    files = await DuckFiles.create();
  });
  after(() => files.close());

  for (const [p, s] of [[9, 2], [18, 4], [18, 17], [38, 4], [38, 19], [38, 30]] as const) {
    test(`DECIMAL(${p},${s})`, async () => {
      const intDigits = p - s;
      // md5 gives hex: a-f become 0-5, so the text is decimal digits.
      const digits = (salt: string, n: number) => `translate(substr(repeat(md5(i::VARCHAR || '${salt}'), 2), 1, ${n}), 'abcdef', '012345')`;
      const whole = intDigits > 0 ? digits('a', intDigits) : `'0'`;
      const fixed = await files.write(`dec_${p}_${s}.parquet`, `WITH t AS (
          SELECT (CASE WHEN i % 2 = 0 THEN '-' ELSE '' END || ${whole} || '.' || ${digits('b', s)}) AS text FROM range(400) t(i))
        SELECT text, text::DECIMAL(${p},${s}) AS d FROM t`);
      const reader = await openParquet(fixed);
      try {
        const exact = await collect(reader);
        const nums = await collect(reader, { decimal: 'number' });
        const wrong: string[] = [];
        exact.forEach((r, i) => {
          const want = Number(r.d as string);
          if (!Object.is(nums[i]!.d, want)) wrong.push(`${r.d as string} -> ${nums[i]!.d as number}, nearest double ${want}`);
        });
        assert.deepEqual(wrong.slice(0, 5), [], `${wrong.length} of ${exact.length} values are not the nearest double`);
      } finally {
        await reader.close();
      }
    });
  }
});
