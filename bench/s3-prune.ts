/**
 * Requests and bytes of a dataset query over `s3://` (issue 27): a Hive
 * dataset of DAYS days × 2 parts written by `writeDataset` to s3rver on
 * 127.0.0.1 (test/s3/server.ts), then one query answered four ways, each
 * counted from the server's request log (ListObjectsV2 pages, HEADs, ranged
 * GETs and the bytes of their answers):
 *
 *   full       openDataset(prefix).rows(): every object
 *   where      openDataset(prefix, { filter }).rows({ filter }), filter day = D
 *              (as --where): the listing of the whole prefix, then the day's
 *              objects only (the schema from the first of them)
 *   glob       openDataset(prefix + 'day=D/**\/*.parquet').rows(): the day's
 *              prefix listed, its objects only
 *   stats      where, and id in a 1,000-row range: the day's footers read,
 *              the row groups outside the range left unread
 *
 *   node --import tsx bench/s3-prune.ts [--days 20] [--rows 20000]
 */
import { parseArgs } from 'node:util';
import { openDataset, writeDataset, type Filter } from '../src/node/index.js';
import { startS3, type LoggedRequest } from '../test/s3/server.js';

const { values } = parseArgs({ options: { days: { type: 'string', default: '20' }, rows: { type: 'string', default: '20000' } } });
const days = Number(values.days);
const rowsPerFile = Number(values.rows);
const s3 = await startS3(['bench']);
try {
  const day = (d: number) => new Date(Date.UTC(2024, 0, 1 + d)).toISOString().slice(0, 10);
  async function* events() {
    for (let d = 0; d < days; d++) {
      for (let i = 0; i < 2 * rowsPerFile; i++) {
        const id = d * 2 * rowsPerFile + i;
        yield { id, day: day(d), user: `user-${id % 2000}`, status: [200, 200, 200, 404, 500][id % 5]!, latency: (id % 997) / 10 };
      }
    }
  }
  const started = Date.now();
  const report = await writeDataset('s3://bench/events/', events(), { partitionBy: ['day'], maxRowsPerFile: rowsPerFile, rowGroupSize: 1 << 20, s3: s3.settings });
  console.log(`wrote ${report.parts.length} parts, ${report.rows} rows in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const target = day(Math.floor(days / 2));
  const lo = Math.floor(days / 2) * 2 * rowsPerFile + rowsPerFile / 2;
  const byDay: Filter = { column: 'day', op: '=', value: target };
  const inRange: Filter = { and: [byDay, { column: 'id', op: '>=', value: lo }, { column: 'id', op: '<', value: lo + 1000 }] };
  const tasks: [string, () => Promise<number>][] = [
    ['full', async () => count((await openDataset('s3://bench/events/', { s3: s3.settings })).rows())],
    ['where', async () => count((await openDataset('s3://bench/events/', { s3: s3.settings, filter: byDay })).rows({ filter: byDay }))],
    ['glob', async () => count((await openDataset(`s3://bench/events/day=${target}/**/*.parquet`, { s3: s3.settings })).rows())],
    ['stats', async () => count((await openDataset('s3://bench/events/', { s3: s3.settings, filter: inRange })).rows({ filter: inRange }))],
  ];
  console.log('| query | rows | LIST | HEAD | GET | objects read | bytes received |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const [name, run] of tasks) {
    const from = s3.log.length;
    const rows = await run();
    const log = s3.log.slice(from);
    const is = (r: LoggedRequest, m: string) => r.method === m;
    const lists = log.filter((r) => is(r, 'GET') && r.key === '').length;
    const gets = log.filter((r) => is(r, 'GET') && r.key !== '');
    const objects = new Set(gets.map((r) => r.key)).size;
    const bytes = log.reduce((n, r) => n + r.bytes, 0);
    console.log(`| ${name} | ${rows.toLocaleString('en')} | ${lists} | ${log.filter((r) => is(r, 'HEAD')).length} | ${gets.length} | ${objects} | ${bytes.toLocaleString('en')} |`);
  }
} finally {
  await s3.close();
}

async function count(rows: AsyncIterable<unknown>): Promise<number> {
  let n = 0;
  for await (const _ of rows) n++;
  return n;
}
