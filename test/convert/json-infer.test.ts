/**
 * JSON Lines inference against DuckDB's read_json: strings holding dates,
 * timestamps and UUIDs become DATE, TIMESTAMP and UUID where read_json makes
 * them so, and the converted file reads back (through DuckDB) to the rows
 * DuckDB's own conversion of the same input holds. Values are compared
 * normalised: integers by their digits, numbers by their double value,
 * dates and timestamps as ISO text to the microsecond (instants in UTC).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { convert } from '../../src/node/entries/convert.js';
import { openParquet } from '../../src/node/index.js';
import { DuckFiles } from '../reader/helpers.js';

let duck: DuckFiles;
before(async () => {
  duck = await DuckFiles.create();
});
after(() => duck?.close());

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** Records of every kind read_json infers, nested and null, with `variant` choosing among text forms. */
function records(n: number): object[] {
  return Array.from({ length: n }, (_, i) => {
    const day = `20${pad(10 + (i % 15))}-${pad(1 + (i % 12))}-${pad(1 + (i % 28))}`;
    const clock = `${pad(i % 24)}:${pad(i % 60)}:${pad((i * 7) % 60)}`;
    const uuid = `${(i * 2654435761 % 4294967296).toString(16).padStart(8, '0')}-e89b-12d3-a456-${pad(i, 12)}`;
    return {
      id: i,
      big: i % 5 === 0 ? null : (BigInt(i) * 1_000_000_007n).toString(),
      day: i % 7 === 0 ? null : day,
      ts: `${day} ${clock}`,
      // Fractions of one length throughout, as a writer prints them.
      tsf: `${day}T${clock}.${pad((i * 37) % 1000, 3)}Z`,
      tz: `${day}T${clock}Z`,
      uid: i % 9 === 0 ? null : uuid,
      price: i % 4 === 0 ? null : (i * 1.25) % 1000,
      ratio: i / 7,
      name: `n${i}`,
      flag: i % 3 === 0,
      nested: i % 6 === 0 ? null : { when: day, tags: i % 2 ? [uuid, uuid] : [], deep: { at: `${day} ${clock}`, n: i } },
      list: i % 5 === 0 ? [] : [day, null],
    };
  });
}

/** Every column of a query's rows as normalised text, in a stable order. */
async function normalised(query: string): Promise<string[]> {
  const r = await duck.duck.runAndReadAll(`SELECT * FROM (${query})`);
  const names = r.columnNames();
  const norm = (v: unknown): unknown => {
    if (v === null || v === undefined) return null;
    if (typeof v === 'bigint') return v.toString();
    if (typeof v === 'number') return Number.isInteger(v) ? String(v) : Number(v.toPrecision(15));
    if (Array.isArray(v)) return v.map(norm);
    if (typeof v === 'object') {
      const o = v as { toString(): string; entries?: unknown; items?: unknown };
      if ('entries' in o && o.entries && typeof o.entries === 'object' && !Array.isArray(o.entries)) return Object.fromEntries(Object.entries(o.entries as object).map(([k, x]) => [k, norm(x)]));
      if ('items' in o && Array.isArray(o.items)) return o.items.map(norm);
      return String(o);
    }
    return v;
  };
  return r.getRows().map((row) => JSON.stringify(Object.fromEntries(row.map((v, k) => [names[k], norm(v)])))).sort();
}

/** DuckDB's column types of a file, by name. */
async function types(file: string): Promise<Record<string, string>> {
  const r = await duck.duck.runAndReadAll(`DESCRIBE SELECT * FROM '${file}'`);
  return Object.fromEntries(r.getRowObjects().map((x) => [String(x.column_name), String(x.column_type)]));
}

/** A type's class for comparing ours with read_json's: TIMESTAMP WITH TIME ZONE and TIMESTAMP are both timestamps (read_json reads offsets to UTC). */
const kind = (t: string) => t.replace(/TIMESTAMP WITH TIME ZONE|TIMESTAMP_NS/g, 'TIMESTAMP').replace(/BIGINT|INTEGER/g, 'INT');

/** Timestamps as UTC ISO text to the microsecond, and every value as DuckDB's text of it, for comparing columns whatever their type. */
function textOf(columns: Record<string, string>): string {
  return Object.entries(columns).map(([name, t]) => (/^TIMESTAMP/.test(t) ? `strftime("${name}"::TIMESTAMPTZ AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%S.%f') AS "${name}"` : `"${name}"`)).join(', ');
}

test('JSON Lines of dates, timestamps, UUIDs, decimals and nested values: the types read_json infers, and the rows DuckDB converts', async () => {
  const input = join(duck.dir, 'in.jsonl');
  writeFileSync(input, records(600).map((r) => JSON.stringify(r)).join('\n') + '\n');
  const ours = join(duck.dir, 'ours.parquet');
  await convert(input, ours, { from: 'jsonl' });
  const theirs = join(duck.dir, 'theirs.parquet');
  await duck.duck.run(`COPY (SELECT * FROM read_json('${input}')) TO '${theirs}' (FORMAT parquet)`);
  const [a, b] = [await types(ours), await types(theirs)];
  assert.deepEqual(Object.keys(a), Object.keys(b), 'columns in the input order');
  for (const name of Object.keys(b)) assert.equal(kind(a[name]!), kind(b[name]!), `column ${name}: ours ${a[name]}, read_json's ${b[name]}`);
  for (const name of ['day', 'ts', 'tsf', 'tz', 'uid']) assert.match(b[name]!, /DATE|TIMESTAMP|UUID/, `read_json infers ${name}`);
  assert.deepEqual(await normalised(`SELECT ${textOf(a)} FROM '${ours}'`), await normalised(`SELECT ${textOf(b)} FROM '${theirs}'`));
});

test('Parquet to JSON Lines and back keeps dates, timestamps and UUIDs', async () => {
  const src = await duck.write('typed.parquet', `SELECT i AS id, DATE '2024-01-01' + i::INTEGER AS day, TIMESTAMP '2024-01-01 00:00:00' + to_microseconds(i * 1234567) AS ts,
    TIMESTAMPTZ '2024-01-01 00:00:00+00' + to_seconds(i) AS tstz, md5(i::VARCHAR)::UUID AS u FROM range(500) t(i)`);
  const jsonl = join(duck.dir, 'typed.jsonl');
  await convert(src, jsonl, { to: 'jsonl' });
  const back = join(duck.dir, 'back.parquet');
  await convert(jsonl, back, { from: 'jsonl' });
  const reader = await openParquet(back);
  assert.deepEqual(reader.schema.leaves.map((l) => `${l.path.join('.')}:${l.kind.kind}`), ['id:int', 'day:date', 'ts:timestamp', 'tstz:timestamp', 'u:uuid']);
  await reader.close();
  const t = await types(src);
  assert.deepEqual(await normalised(`SELECT ${textOf(t)} FROM '${back}'`), await normalised(`SELECT ${textOf(t)} FROM '${src}'`));
});

test('strings that only some of the time read as dates, and text in quotes that is a number, stay strings', async () => {
  const input = join(duck.dir, 'mixed.jsonl');
  writeFileSync(input, ['{"d":"2024-01-01","n":"12","u":"not-a-uuid"}', '{"d":"soon","n":"13","u":"123e4567-e89b-12d3-a456-426614174000"}'].join('\n'));
  const out = join(duck.dir, 'mixed.parquet');
  await convert(input, out, { from: 'jsonl' });
  const reader = await openParquet(out);
  assert.deepEqual(reader.schema.leaves.map((l) => l.kind.kind), ['string', 'string', 'string']);
  assert.deepEqual(await reader.readRows(), [{ d: '2024-01-01', n: '12', u: 'not-a-uuid' }, { d: 'soon', n: '13', u: '123e4567-e89b-12d3-a456-426614174000' }]);
  await reader.close();
});
