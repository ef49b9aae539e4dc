/** Comparing Arrow tables from parquetry with each other and with arrow-rs's. */
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { Type, type DataType, type Field, type Table } from 'apache-arrow';
import { openParquet, type ArrowOptions } from '../../src/node/index.js';
import { DuckFiles, show } from '../reader/helpers.js';

/** Arrow values as plain JSON-able data, the same whichever side built them. */
export function norm(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'number' && Number.isNaN(v)) return 'NaN';
  if (v instanceof Uint8Array) return `0x${Buffer.from(v).toString('hex')}`;
  if (ArrayBuffer.isView(v)) return Array.from(v as unknown as ArrayLike<unknown>, norm);
  if (v instanceof Map) return [...v].map(([k, x]) => [norm(k), norm(x)]);
  const o = v as { toJSON?: () => unknown; [Symbol.iterator]?: unknown; type?: unknown };
  if (typeof o === 'object' && o.type !== undefined && typeof o[Symbol.iterator] === 'function') return [...(o as Iterable<unknown>)].map(norm);
  if (typeof o === 'object' && typeof o.toJSON === 'function') return norm(o.toJSON());
  if (Array.isArray(v)) return v.map(norm);
  if (typeof v === 'object') return Object.fromEntries(Object.entries(v as object).map(([k, x]) => [k, norm(x)]));
  return v;
}

/** A type's text with every Dictionary replaced by its value type (and a decimal's width, which Arrow JS leaves out). */
function plainType(t: DataType): string {
  let s = t.typeId === Type.Decimal ? `${String(t)}x${(t as DataType & { bitWidth: number }).bitWidth}` : String(t);
  for (let prev = ''; prev !== s; ) [prev, s] = [s, s.replace(/Dictionary<Int32, ([A-Za-z0-9]+)>/g, '$1')];
  return s;
}

/**
 * A field as text down to its leaves: every child's name, nullability and
 * field metadata, as well as the type (a Dictionary as its value type).
 * Extension marks are left out: ours (VARIANT, UUID) are newer arrow-rs's,
 * which parquet-wasm's does not set, and parquet-wasm's geoarrow mark is set
 * on some geometry columns only, and on an unknown logical type.
 */
export function fieldShape(f: Field): string {
  const t = f.type as DataType & { dictionary?: DataType };
  const type = t.typeId === Type.Dictionary ? t.dictionary! : t;
  const meta = [...f.metadata].filter(([k]) => !k.startsWith('ARROW:extension:')).sort();
  const children = type.children?.length ? `{${type.children.map((c) => fieldShape(c)).join(', ')}}` : '';
  return `${f.name}${f.nullable ? '?' : ''}: ${children ? String(type).replace(/<.*/s, '') : plainType(type)}${children}${meta.length ? ` ${JSON.stringify(meta)}` : ''}`;
}

export function assertSameTable(ours: Table, theirs: Table, label: string): void {
  assert.equal(ours.numRows, theirs.numRows, `${label}: rows`);
  assert.deepEqual(ours.schema.fields.map((f) => f.name), theirs.schema.fields.map((f) => f.name), `${label}: fields`);
  for (const f of theirs.schema.fields) {
    const mine = ours.schema.fields.find((x) => x.name === f.name)!;
    // An INTERVAL without a stored type: arrow-rs's DayTime drops the months, our MonthDayNano keeps them.
    const departs = fieldShape(mine) !== fieldShape(f) && /Interval<DAY_TIME>/.test(fieldShape(f));
    const expected = departs ? fieldShape(f).replace(/Interval<DAY_TIME>/g, 'Interval<MONTH_DAY_NANO>') : fieldShape(f);
    assert.equal(fieldShape(mine), expected, `${label}: field ${f.name}`);
    if (departs) continue; // compared in its own test
    const a = ours.getChild(f.name)!;
    const b = theirs.getChild(f.name)!;
    for (let i = 0; i < b.length; i++) {
      const x = show(norm(a.get(i)));
      const y = show(norm(b.get(i)));
      if (x !== y) assert.fail(`${label}: ${f.name}[${i}] is ${x}, arrow-rs reads ${y}`);
    }
  }
}


/** A DuckDB file of every type DuckDB writes, nested and null, over three row groups. */
function writeEveryType(duck: DuckFiles): Promise<string> {
  return duck.write('every-type.parquet', `SELECT i, (i % 100)::TINYINT AS ti, (i % 200)::UTINYINT AS uti, i::SMALLINT AS si, i::USMALLINT AS us,
      i::UINTEGER AS ui, i::UBIGINT * 1000000000000 AS ub, ((i % 600) * 1.5)::DECIMAL(4,1) AS d4, (i * 1.25)::DECIMAL(18,2) AS d18,
      (i * -1.125)::DECIMAL(38,3) AS d38, TIMESTAMPTZ '2024-01-01 00:00:00+00' + to_seconds(i) AS tstz, TIMESTAMP '2024-01-01' + to_milliseconds(i) AS ts,
      TIMESTAMP_NS '2024-01-01 00:00:00.123456789' AS tsns, DATE '2024-01-01' + i::INTEGER AS dt, TIME '12:34:56.789' AS tm, md5(i::VARCHAR)::UUID AS u,
      CASE WHEN i % 5 = 0 THEN NULL ELSE 'v' || (i % 3) END AS s, CASE WHEN i % 4 = 0 THEN NULL ELSE [i, NULL, i + 1] END AS l,
      CASE WHEN i % 7 = 0 THEN [] ELSE [[i], NULL, []] END AS ll, {'a': i, 'b': CASE WHEN i % 2 = 0 THEN NULL ELSE 's' END, 'c': [i]} AS st,
      CASE WHEN i % 3 = 0 THEN NULL ELSE MAP {'k' || i: [i]} END AS m, i::FLOAT AS f, i::DOUBLE / 3 AS dd, i % 2 = 0 AS b, ('x' || i)::BLOB AS bl,
      INTERVAL (i) DAY + INTERVAL (i % 13) MONTH AS iv
    FROM range(5000) t(i)`, 'ROW_GROUP_SIZE 2048');
}

/** A file read by parquetry's toArrow (checksums not verified: the corpus has files with bad ones on purpose). */
export async function arrowOf(file: string, options: ArrowOptions = {}): Promise<Table> {
  const reader = await openParquet(file, { verifyChecksums: false });
  try {
    return await reader.toArrow(options);
  } finally {
    await reader.close();
  }
}

/** Registers hooks that give the test file a DuckDB and its every-type file (`fixture.file`), removed after. */
export function everyTypeFixture(): { duck: DuckFiles; file: string } {
  const fixture = {} as { duck: DuckFiles; file: string };
  before(async () => {
    fixture.duck = await DuckFiles.create();
    fixture.file = await writeEveryType(fixture.duck);
  });
  after(() => fixture.duck?.close());
  return fixture;
}
