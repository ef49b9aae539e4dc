/**
 * The SQL for the tables the interop test has DuckDB write: every type DuckDB
 * can put in a Parquet file, with nulls in every column, extremes, and
 * nesting with nulls and empties at every level.
 */

/** Null on one row in `k` (at a different phase per column, so null patterns differ). */
const nul = (k: number, expr: string, phase = 1) => `CASE WHEN i % ${k} = ${phase % k} THEN NULL ELSE ${expr} END`;

/** Row i takes `extremes[i % k]` when there is one, else `otherwise`: every cycle of k rows starts with the extremes. */
const pick = (k: number, extremes: string[], otherwise: string) =>
  `CASE i % ${k} ${extremes.map((e, j) => `WHEN ${j} THEN ${e}`).join(' ')} ELSE ${otherwise} END`;

/** Columns: [name, SQL expression over i]. */
export const ALL_TYPES_COLUMNS: [string, string][] = [
  ['id', 'i::INTEGER'],
  ['b', nul(7, 'i % 3 = 0')],
  ['i8', nul(11, `(${pick(10, ['-128', '127', '0'], '(i % 200) - 100')})::TINYINT`)],
  ['i16', nul(13, `(${pick(10, ['-32768', '32767'], 'i * 7 % 60000 - 30000')})::SMALLINT`)],
  ['i32', nul(9, `(${pick(10, ['-2147483648', '2147483647'], 'i * 7919 - 20000000')})::INTEGER`)],
  ['i64', nul(8, `(${pick(12, ['-9223372036854775808', '9223372036854775807', '9007199254740991', '9007199254740992', '-9007199254740991', '-9007199254740993'], 'i::BIGINT * 1000000007 - 2000000000000')})::BIGINT`)],
  ['u8', nul(6, `(${pick(10, ['0', '255', '128'], 'i % 256')})::UTINYINT`)],
  ['u16', nul(6, `(${pick(10, ['0', '65535', '32768'], 'i * 13 % 65536')})::USMALLINT`)],
  ['u32', nul(6, `(${pick(10, ['0', '4294967295', '2147483648'], 'i::BIGINT * 858993 % 4294967296')})::UINTEGER`)],
  ['u64', nul(6, `(${pick(10, ['0', '18446744073709551615', '9223372036854775808', '9007199254740993'], 'i::UBIGINT * 3689348814741910')})::UBIGINT`)],
  ['hi', nul(5, `(${pick(5, ['170141183460469231731687303715884105727::HUGEINT', '(-170141183460469231731687303715884105727)::HUGEINT'], 'i::HUGEINT * 1234567890123456789012345')})`)],
  ['uhi', nul(5, `(${pick(5, ['340282366920938463463374607431768211455::UHUGEINT'], 'i::UHUGEINT * 1234567890123456789012345')})`)],
  ['f32', nul(10, `(${pick(14, ["'NaN'::FLOAT", "'Infinity'::FLOAT", "'-Infinity'::FLOAT", '(-0.0)::FLOAT', '3.4028235e38::FLOAT', "'1.4e-45'::FLOAT", '(-1.1754944e-38)::FLOAT'], '(i * 0.1 - 200)::FLOAT')})::FLOAT`)],
  ['f64', nul(10, `(${pick(14, ["'NaN'::DOUBLE", "'Infinity'::DOUBLE", "'-Infinity'::DOUBLE", '(-0.0)::DOUBLE', '1.7976931348623157e308', "'5e-324'::DOUBLE", '0.1', '(-2.2250738585072014e-308)'], 'i / 3 - 700')})::DOUBLE`)],
  ['dec4', nul(7, `(${pick(10, ["'99.99'", "'-99.99'", "'0.01'", "'-0.01'", "'0'"], '(((i * 37) % 19999 - 9999) / 100.0)')})::DECIMAL(4,2)`)],
  ['dec9', nul(7, `(${pick(10, ["'999999.999'", "'-999999.999'", "'0.001'", "'-0.001'"], '(((i::BIGINT * 7919) % 1999999999 - 999999999) / 1000.0)')})::DECIMAL(9,3)`)],
  ['dec9s0', nul(7, `(${pick(10, ["'999999999'", "'-999999999'"], 'i * 7919 - 20000000')})::DECIMAL(9,0)`)],
  ['dec18', nul(7, `(${pick(10, ["'999999999999.999999'", "'-999999999999.999999'", "'0.000001'", "'-0.000001'"], "((i::BIGINT * 1000003 - 2500000000)::VARCHAR || '.' || lpad((i * 7 % 1000000)::VARCHAR, 6, '0'))")})::DECIMAL(18,6)`)],
  ['dec38', nul(7, `(${pick(10, ["'9999999999999999999999999999.9999999999'", "'-9999999999999999999999999999.9999999999'", "'0.0000000001'", "'-0.0000000001'"], "((i - 2500)::VARCHAR || '12345678901234567890123.' || lpad((i::BIGINT * 7919 % 10000000000)::VARCHAR, 10, '0'))")})::DECIMAL(38,10)`)],
  ['dec38s0', nul(7, `(${pick(10, ["'99999999999999999999999999999999999999'", "'-99999999999999999999999999999999999999'"], "(i::VARCHAR || '000000000000000000000000000001')")})::DECIMAL(38,0)`)],
  ['s_lo', nul(5, `['apple', '', 'ünïcødé 😀 ✓', 'quote" back\\\\slash', e'tab\\tnew\\nline', chr(0) || 'nul'][1 + i % 6]`)],
  ['s_hi', nul(9, `'row-' || i || repeat('x', i % 40)`)],
  ['bl', nul(9, `${pick(4, ["''::BLOB", "unhex('00ff80')"], "encode('b' || i)")}`)],
  ['dt', nul(8, `${pick(12, ["DATE '0001-01-01'", "DATE '9999-12-31'", "DATE '1969-12-31'", "DATE '1970-01-01'", "DATE '1600-02-29'", "DATE '2000-02-29'", "DATE '1900-03-01'"], "DATE '1970-01-01' + (i * 37 - 90000)::INTEGER")}`)],
  ['tm', nul(8, `${pick(10, ["TIME '00:00:00'", "TIME '23:59:59.999999'", "TIME '12:00:00.000001'"], "TIME '00:00:00' + to_microseconds((i::BIGINT * 17287001) % 86400000000)")}`)],
  ['tmtz', nul(8, `${pick(10, ["'12:34:56.789+05:30'::TIMETZ", "'23:59:59.999999+00'::TIMETZ", "'00:00:00-08'::TIMETZ"], "(TIME '00:00:00' + to_microseconds((i::BIGINT * 17287001) % 86400000000))::TIMETZ")}`)],
  ['tmns', nul(8, `printf('%02d:%02d:%02d.%09d', i % 24, i * 7 % 60, i * 13 % 60, i::BIGINT * 987654321 % 1000000000)::TIME_NS`)],
  ['ts', nul(8, `${pick(12, ["TIMESTAMP '0001-01-01 00:00:00'", "TIMESTAMP '9999-12-31 23:59:59.999999'", "TIMESTAMP '1969-12-31 23:59:59.999999'", "TIMESTAMP '1969-12-31 23:59:59.000001'", "TIMESTAMP '1970-01-01 00:00:00'", "TIMESTAMP '1899-12-31 23:59:59.5'"], "TIMESTAMP '1970-01-01' + to_microseconds(i::BIGINT * 2500000000017 - 6000000000000000)")}`)],
  ['ts_ms', nul(7, `(${pick(12, ["TIMESTAMP '0001-01-01 00:00:00'", "TIMESTAMP '9999-12-31 23:59:59.999'", "TIMESTAMP '1969-12-31 23:59:59.999'"], "TIMESTAMP '1970-01-01' + to_microseconds(i::BIGINT * 2500000000017 - 6000000000000000)")})::TIMESTAMP_MS`)],
  ['ts_s', nul(7, `(${pick(12, ["TIMESTAMP '0001-01-01 00:00:00'", "TIMESTAMP '9999-12-31 23:59:59'", "TIMESTAMP '1969-12-31 23:59:59'"], "TIMESTAMP '1970-01-01' + to_microseconds(i::BIGINT * 2500000000017 - 6000000000000000)")})::TIMESTAMP_S`)],
  ['ts_ns', nul(7, `make_timestamp_ns(${pick(12, ['-9223372036854775000', '9223372036854775000', '-1', '1'], '(i::BIGINT - 2500) * 3600000000000017 + i * 7')})`)],
  ['tstz', nul(7, `(${pick(12, ["TIMESTAMP '0001-01-01 00:00:00'", "TIMESTAMP '9999-12-31 23:59:59.999999'", "TIMESTAMP '1969-12-31 23:59:59.999999'"], "TIMESTAMP '1970-01-01' + to_microseconds(i::BIGINT * 2500000000017 - 6000000000000000)")})::TIMESTAMPTZ`)],
  ['iv', nul(7, `${pick(10, ["INTERVAL '0 seconds'", 'to_months(2147483647)', 'to_days(2147483647)', 'to_milliseconds(2147483647)'], 'to_months(i % 25) + to_days(i % 40) + to_milliseconds(i::BIGINT * 1001 % 86400000)')}`)],
  ['uu', nul(7, `${pick(10, ["'00000000-0000-0000-0000-000000000000'::UUID", "'ffffffff-ffff-ffff-ffff-ffffffffffff'::UUID", "'80000000-0000-0000-0000-000000000000'::UUID"], "(substr(md5(i::VARCHAR), 1, 8) || '-' || substr(md5(i::VARCHAR), 9, 4) || '-' || substr(md5(i::VARCHAR), 13, 4) || '-' || substr(md5(i::VARCHAR), 17, 4) || '-' || substr(md5(i::VARCHAR), 21, 12))::UUID")}`)],
  ['en', nul(6, `(['red', 'green', 'blue'][1 + i % 3])::ENUM('red', 'green', 'blue')`)],
  ['js', nul(6, `('{"i":' || i || ',"s":"é"}')::JSON`)],
  ['bit', nul(6, `(i::BIGINT % 1024)::BIT`)],
  ['bignum', nul(6, `('12345678901234567890123456789' || i)::BIGNUM`)],
  ['allnull', 'NULL::INTEGER'],
  ['un', nul(5, `CASE WHEN i % 2 = 0 THEN union_value(num := i::INTEGER)::UNION(num INTEGER, str VARCHAR) ELSE union_value(str := 's' || i)::UNION(num INTEGER, str VARCHAR) END`)],
  // Nesting, with nulls and empties at every level.
  ['st', `(CASE WHEN i % 13 = 0 THEN NULL ELSE {'a': ${nul(5, 'i::INTEGER', 0)}, 'b': ${nul(3, "'s' || i", 0)}, 'c': CASE WHEN i % 7 = 0 THEN NULL ELSE {'d': ${nul(4, 'i / 4', 0)}} END} END)::STRUCT(a INTEGER, b VARCHAR, c STRUCT(d DOUBLE))`],
  ['li', `(CASE i % 6 WHEN 0 THEN NULL WHEN 1 THEN [] WHEN 2 THEN [NULL] ELSE list_transform(range(i % 9), x -> CASE WHEN x % 4 = 3 THEN NULL ELSE (x * i)::INTEGER END) END)::INTEGER[]`],
  ['ls', `(CASE i % 5 WHEN 0 THEN NULL WHEN 1 THEN [] ELSE list_transform(range(i % 4), x -> CASE WHEN x = 1 THEN NULL ELSE {'x': CASE WHEN x = 2 THEN NULL ELSE x::INTEGER END, 'y': 'v' || x} END) END)::STRUCT(x INTEGER, y VARCHAR)[]`],
  ['ll', `(CASE i % 5 WHEN 0 THEN NULL ELSE list_transform(range(i % 4), x -> CASE WHEN x = 2 THEN NULL WHEN x = 1 THEN [] ELSE list_transform(range(x + 1), y -> CASE WHEN y = 1 THEN NULL ELSE y * i END) END) END)::BIGINT[][]`],
  ['mp', `(CASE i % 5 WHEN 0 THEN NULL WHEN 1 THEN MAP {} ELSE map_from_entries(list_transform(range(i % 4), x -> {'k': 'k' || x, 'v': CASE WHEN x = 1 THEN NULL ELSE (x * i)::INTEGER END})) END)::MAP(VARCHAR, INTEGER)`],
  ['mpl', `(CASE i % 4 WHEN 0 THEN NULL ELSE map_from_entries(list_transform(range(i % 4), x -> {'k': x::INTEGER, 'v': CASE x WHEN 1 THEN NULL WHEN 2 THEN [] ELSE ['a' || i, NULL] END})) END)::MAP(INTEGER, VARCHAR[])`],
  ['mps', `(CASE i % 4 WHEN 0 THEN NULL ELSE map_from_entries(list_transform(range(i % 3), x -> {'k': 'k' || x, 'v': CASE x WHEN 1 THEN NULL ELSE {'p': CASE WHEN i % 2 = 0 THEN NULL ELSE x::INTEGER END, 'q': 'q' || i} END})) END)::MAP(VARCHAR, STRUCT(p INTEGER, q VARCHAR))`],
  ['stl', `(CASE WHEN i % 9 = 0 THEN NULL ELSE {'tags': CASE i % 4 WHEN 0 THEN NULL WHEN 1 THEN [] ELSE ['t' || i, NULL, 'u'] END, 'n': i::INTEGER} END)::STRUCT(tags VARCHAR[], n INTEGER)`],
  // Never a NULL array: DuckDB writes those with invalid levels (duckdb#24731), tested on their own.
  ['arr3', `[i, NULL, -i]::INTEGER[3]`],
  ['lm', `(CASE i % 4 WHEN 0 THEN NULL WHEN 1 THEN [] ELSE [MAP {'a': i::INTEGER}, NULL, MAP {}] END)::MAP(VARCHAR, INTEGER)[]`],
  ['ldec', `(CASE i % 3 WHEN 0 THEN NULL ELSE [(i / 100.0)::DECIMAL(9,2), NULL, (-i / 7.0)::DECIMAL(9,2)] END)::DECIMAL(9,2)[]`],
  ['lts', `(CASE i % 3 WHEN 0 THEN NULL ELSE [TIMESTAMP '1969-12-31 23:59:59.999999' + to_microseconds(i), NULL] END)::TIMESTAMP[]`],
  ['deep', `(CASE i % 6 WHEN 0 THEN NULL WHEN 1 THEN {'l': NULL} WHEN 2 THEN {'l': []} ELSE {'l': [NULL, {'m': NULL}, {'m': MAP {}}, {'m': MAP {'z': [i::INTEGER, NULL], 'y': NULL, 'x': []}}]} END)::STRUCT(l STRUCT(m MAP(VARCHAR, INTEGER[]))[])`],
];

export function selectColumns(columns: [string, string][], rows: number): string {
  return `SELECT ${columns.map(([n, e]) => `${e} AS "${n}"`).join(',\n  ')}\nFROM range(${rows}) t(i) ORDER BY i`;
}

/** Values at the edges of what Parquet and JS dates can hold: each gets its own file, so one failure does not hide another. */
export const EDGE_COLUMNS: [string, string][] = [
  ['date_bc', `[DATE '0044-03-15 (BC)', DATE '0001-12-31 (BC)', DATE '4713-01-01 (BC)', NULL][1 + i % 4]`],
  ['date_far', `[DATE '5881580-07-10', DATE '5877642-06-25 (BC)', DATE '275760-09-13', DATE '100000-01-01'][1 + i % 4]`],
  ['date_infinity', `['infinity'::DATE, '-infinity'::DATE][1 + i % 2]`],
  ['time_2400', `TIME '24:00:00'`],
  ['ts_bc', `[TIMESTAMP '0044-03-15 (BC) 12:00:00.5', TIMESTAMP '0001-12-31 (BC) 23:59:59.999999', TIMESTAMP '290308-12-22 (BC) 00:00:00'][1 + i % 3]`],
  ['ts_far', `[TIMESTAMP '294247-01-10 04:00:54.775806', TIMESTAMP '100000-01-01 00:00:00'][1 + i % 2]`],
  ['ts_infinity', `['infinity'::TIMESTAMP, '-infinity'::TIMESTAMP][1 + i % 2]`],
  ['tstz_infinity', `['infinity'::TIMESTAMPTZ, '-infinity'::TIMESTAMPTZ][1 + i % 2]`],
  // Parquet's INTERVAL holds milliseconds: DuckDB drops the microsecond (and refuses negative intervals outright).
  ['interval_micros', `INTERVAL '1 second 1 microsecond'`],
  ['long_string', `repeat('é', 100000 + i)`],
  ['big_blob', `repeat(unhex('00ff'), 60000 + i)`],
];

/** VARIANT values DuckDB shreds and writes. */
export const VARIANT_SQL = `SELECT i::INTEGER AS id, (CASE i % 14
    WHEN 0 THEN NULL
    WHEN 1 THEN 42::VARIANT
    WHEN 2 THEN {'a': [1, 2], 'b': 'x', 'c': 1.5::DOUBLE, 'd': 12.34::DECIMAL(9,2)}::VARIANT
    WHEN 3 THEN ('str' || i)::VARIANT
    WHEN 4 THEN [i, NULL]::VARIANT
    WHEN 5 THEN (DATE '2024-01-02' + i::INTEGER)::VARIANT
    WHEN 6 THEN (TIMESTAMP '2024-01-02 03:04:05.123456' + to_microseconds(i))::VARIANT
    WHEN 7 THEN unhex('ab00')::VARIANT
    WHEN 8 THEN (i % 2 = 0)::VARIANT
    WHEN 9 THEN 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::UUID::VARIANT
    WHEN 10 THEN (i * 1.25)::FLOAT::VARIANT
    WHEN 11 THEN (9007199254740993 + i)::BIGINT::VARIANT
    WHEN 12 THEN (TIMESTAMPTZ '2024-01-02 03:04:05.123456+00' + to_microseconds(i))::VARIANT
    ELSE {'z': i, 'a': {'y': [true, NULL], 'b': 'é'}, 'é': 1, 'e': 2}::VARIANT END) AS v
  FROM range(300) t(i) ORDER BY i`;
