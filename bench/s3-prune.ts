/**
 * Requests and bytes of a dataset query over `s3://` (issue 27): a Hive
 * dataset of DAYS days × REGIONS regions (one object each) written by
 * `writeDataset` to s3rver on 127.0.0.1 (test/s3/server.ts), then queries
 * counted from the server's request log (ListObjectsV2 pages and the
 * entries they gave, HEADs, ranged GETs and the bytes of their answers):
 *
 *   full       openDataset(prefix).rows(): every object
 *   day        openDataset(prefix, { filter }).rows({ filter }), day = D (as
 *              --where): the root's level listed, then day D's subtree (flat:
 *              nothing below it is named by the filter), its objects only
 *   one        day = D AND region = R: the levels on the way to one object
 *   region     region = R: the root's level names no region, so the tree is
 *              listed flat; one object a day read
 *   glob       openDataset(prefix + 'day=D/region=R/*.parquet').rows()
 *   stats      day = D AND id in a 1,000-row range: the day's footers read,
 *              the row groups outside the range left unread
 *
 *   node --import tsx bench/s3-prune.ts [--days 20] [--regions 10] [--rows 4000]
 */
import { parseArgs } from 'node:util';
import { openDataset, type Filter } from '../src/node/index.js';
import { writeDataset } from '../src/node/entries/dataset.js';
import { startS3, type LoggedRequest } from '../test/s3/server.js';

const { values } = parseArgs({ options: { days: { type: 'string', default: '20' }, regions: { type: 'string', default: '10' }, rows: { type: 'string', default: '4000' } } });
const days = Number(values.days);
const regions = Number(values.regions);
const rowsPerFile = Number(values.rows);
const s3 = await startS3(['bench']);
try {
  const day = (d: number) => new Date(Date.UTC(2024, 0, 1 + d)).toISOString().slice(0, 10);
  async function* events() {
    for (let d = 0; d < days; d++) {
      for (let r = 0; r < regions; r++) {
        for (let i = 0; i < rowsPerFile; i++) {
          const id = (d * regions + r) * rowsPerFile + i;
          yield { id, day: day(d), region: r, user: `user-${id % 2000}`, status: [200, 200, 200, 404, 500][id % 5]!, latency: (id % 997) / 10 };
        }
      }
    }
  }
  const started = Date.now();
  const report = await writeDataset('s3://bench/events/', events(), { partitionBy: ['day', 'region'], rowGroupSize: 1 << 20, s3: s3.settings });
  console.log(`wrote ${report.parts.length} parts, ${report.rows} rows in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const d = Math.floor(days / 2);
  const r = Math.floor(regions / 2);
  const lo = (d * regions + r) * rowsPerFile + rowsPerFile / 4;
  const byDay: Filter = { column: 'day', op: '=', value: day(d) };
  const one: Filter = { and: [byDay, { column: 'region', op: '=', value: r }] };
  const byRegion: Filter = { column: 'region', op: '=', value: r };
  const inRange: Filter = { and: [byDay, { column: 'id', op: '>=', value: lo }, { column: 'id', op: '<', value: lo + 1000 }] };
  const filtered = (filter: Filter) => async () => count((await openDataset('s3://bench/events/', { s3: s3.settings, filter })).rows({ filter }));
  const tasks: [string, () => Promise<number>][] = [
    ['full scan: `rows()`', async () => count((await openDataset('s3://bench/events/', { s3: s3.settings })).rows())],
    ['`--where "day = D"`', filtered(byDay)],
    ['`--where "day = D AND region = R"`', filtered(one)],
    ['`--where "region = R"`', filtered(byRegion)],
    ['glob `day=D/region=R/*.parquet`', async () => count((await openDataset(`s3://bench/events/day=${day(d)}/region=${r}/*.parquet`, { s3: s3.settings })).rows())],
    ['`day = D AND id` in 1,000 rows', filtered(inRange)],
  ];
  console.log('| query | rows | LIST | entries listed | HEAD | GET | objects read | bytes received |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const [name, run] of tasks) {
    const from = s3.log.length;
    const rows = await run();
    const log = s3.log.slice(from);
    const is = (q: LoggedRequest, m: string) => q.method === m;
    const lists = log.filter((q) => is(q, 'GET') && q.key === '');
    const gets = log.filter((q) => is(q, 'GET') && q.key !== '');
    const objects = new Set(gets.map((q) => q.key)).size;
    const bytes = log.reduce((n, q) => n + q.bytes, 0);
    const listed = lists.reduce((n, q) => n + (q.listed ?? 0), 0);
    console.log(`| ${name} | ${rows.toLocaleString('en')} | ${lists.length} | ${listed} | ${log.filter((q) => is(q, 'HEAD')).length} | ${gets.length} | ${objects} | ${bytes.toLocaleString('en')} |`);
  }
} finally {
  await s3.close();
}

async function count(rows: AsyncIterable<unknown>): Promise<number> {
  let n = 0;
  for await (const _ of rows) n++;
  return n;
}
