/**
 * The SQL forms of the Filter object API (between, like/ilike with escape,
 * starts_with/contains, transform, is [not] distinct from, typed temporal
 * literals): what they select on a small file, and the typed errors for
 * what does not apply, naming the column. The same forms as `--where` text
 * are compared with DuckDB in sql-matrix.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BufferSink, defineSchema, field as f, InvalidArgumentError, openWriter, ParquetReader, type Filter } from '../../src/node/index.js';

const WORDS = ['Apple', 'apple', 'a%b', 'a_b', 'ab', 'Straße', null, 'ΣΟΦΟΣ', '😀x'];

async function file(): Promise<ParquetReader> {
  const sink = new BufferSink();
  const w = await openWriter(sink, defineSchema({ id: f.int32().required(), s: f.string(), d: f.date(), t: f.timestamp('NANOS'), tags: f.list(f.string()) }));
  await w.writeMany(WORDS.map((s, id) => ({ id, s, d: 19_000 + id, t: BigInt(id) * 86_400_000_000_000n + 1n, tags: s === null ? null : [s, 'x'] })));
  await w.close();
  return ParquetReader.open(sink.bytes());
}

const ids = async (r: ParquetReader, filter: Filter): Promise<number[]> => (await r.readRows({ columns: ['id'], filter })).map((row) => row.id as number);

test('each form selects what SQL says', async () => {
  const r = await file();
  const cases: [Filter, number[]][] = [
    [{ column: 's', op: 'like', value: 'a%' }, [1, 2, 3, 4]],
    [{ column: 's', op: 'like', value: 'a!%b', escape: '!' }, [2]],
    [{ column: 's', op: 'not like', value: 'a_b' }, [0, 1, 4, 5, 7, 8]],
    [{ column: 's', op: 'ilike', value: 'APP%' }, [0, 1]],
    [{ column: 's', op: 'not ilike', value: 'σοφοσ' }, [0, 1, 2, 3, 4, 5, 8]],
    [{ column: 's', op: 'like', value: '_x' }, [8]],
    [{ column: 's', op: 'like', value: null }, []],
    [{ column: 's', op: 'starts_with', value: 'Str' }, [5]],
    [{ column: 's', op: 'contains', value: '_' }, [3]],
    [{ column: 's', op: '=', value: 'STRAẞE', transform: 'upper' }, [5]],
    [{ column: 's', op: 'in', values: ['apple', null], transform: 'lower' }, [0, 1]],
    [{ column: 's', op: 'not in', values: ['apple', null], transform: 'lower' }, []],
    [{ column: 's', op: 'between', low: 'a', high: 'ab' }, [2, 3, 4]],
    [{ column: 's', op: 'not between', low: 'a', high: 'ab' }, [0, 1, 5, 7, 8]],
    [{ column: 's', op: 'is distinct from', value: 'ab' }, [0, 1, 2, 3, 5, 6, 7, 8]],
    [{ column: 's', op: 'is not distinct from', value: null }, [6]],
    [{ column: 'd', op: '>=', value: { date: '2022-01-14' } }, [6, 7, 8]],
    [{ column: 't', op: '>', value: { date: '1970-01-08' } }, [7, 8]],
    [{ column: 't', op: '<=', value: { timestamp: '1970-01-02 00:00:00.000000' } }, [0]],
    [{ column: 't', op: '=', value: { timestamptz: '1970-01-03 02:00:00+02' } }, []],
    [{ column: 'tags.list.element', op: 'like', value: '%ß%' }, [5]],
  ];
  for (const [filter, want] of cases) assert.deepEqual(await ids(r, filter), want, JSON.stringify(filter));
});

test('what does not apply is an InvalidArgumentError naming the column', async () => {
  const r = await file();
  const cases: [Filter, RegExp][] = [
    [{ column: 'id', op: 'like', value: '1%' }, /LIKE takes a text column; id is not one/],
    [{ column: 'd', op: '=', value: 'x', transform: 'lower' }, /lower\(\) takes a text column; d is not one/],
    [{ column: 's', op: '=', value: 'x', transform: 'title' as 'lower' }, /unknown filter transform "title"/],
    [{ column: 's', op: 'like', value: 5 as unknown as string }, /filter "like" on column s takes a string, got number/],
    [{ column: 's', op: 'like', value: 'a', escape: '!!' }, /a LIKE escape must be one character/],
    [{ column: 's', op: 'like', value: 'a!', escape: '!' }, /ends with its escape character/],
    [{ column: 's', op: '=', value: { date: '2024-01-01' } }, /column s \(a DATE literal compares with DATE and TIMESTAMP columns only\)/],
    [{ column: 'id', op: '<', value: { timestamp: '2024-01-01' } }, /column id \(a TIMESTAMP literal compares with DATE and TIMESTAMP columns only\)/],
    [{ column: 'd', op: '<', value: { date: '2024-02-30' } }, /DATE '2024-02-30' is not a valid date/],
    [{ column: 's', op: 'between', low: 'a' } as unknown as Filter, /filter "between" on column s needs a "high"/],
  ];
  for (const [filter, re] of cases) {
    await assert.rejects(ids(r, filter), (e: unknown) => e instanceof InvalidArgumentError && re.test(e.message), JSON.stringify(filter));
  }
});

test('prefix patterns against truncated bounds lose no row (chunk statistics and page index cut to 4 bytes)', async () => {
  const sink = new BufferSink();
  const w = await openWriter(sink, defineSchema({ id: f.int32().required(), s: f.string() }), {
    statisticsTruncateLength: 4, columnIndexTruncateLength: 4, pageRowLimit: 50, rowGroupRows: 200, dictionary: false,
  });
  const long = 'é'.repeat(30);
  const values = Array.from({ length: 1000 }, (_, i) => (i < 500 ? `${long}${String(i).padStart(4, '0')}` : `${long}\uffff${i}😀`));
  await w.writeMany(values.map((s, id) => ({ id, s })));
  await w.close();
  const r = await ParquetReader.open(sink.bytes());
  for (const [prefix, escape] of [[`${long}02`], [`${long}\uffff7`], [`${long}\uffff`], [long.slice(0, 3)], [`${long}0499`], [`${long}1`], ['é!%', '!']] as const) {
    const filters: Filter[] = [
      { column: 's', op: 'like', value: `${prefix}%`, ...(escape ? { escape } : {}) },
      { column: 's', op: 'starts_with', value: prefix.replace('!', '') },
    ];
    const want = values.flatMap((v, i) => (v.startsWith(prefix.replace('!', '')) ? [i] : []));
    for (const filter of filters) assert.deepEqual(await ids(r, filter), want, JSON.stringify(filter));
    assert.deepEqual(await ids(r, { not: filters[0]! }), values.flatMap((_, i) => (want.includes(i) ? [] : [i])));
  }
});
