/**
 * Row groups too large in rows to hold decoded stream: a 166-byte file
 * whose one page defines 2^28 nulls reads in bounded memory (peak RSS of a
 * child process) and a limit decodes only what it asks for. Streamed reads
 * (windows of rows, large pages decoded a window at a time, as `offset`
 * and `limit` use them) give exactly the rows of a whole read.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { BufferSink, defineSchema, field as f, openParquet, ParquetWriter } from '../../src/node/index.js';

const run = promisify(execFile);
const NULLS = '../shared/fuzz/repro/hang-parquet-rle-2p28-nulls.parquet';
const HOSTILE = '../shared/fuzz/hostile/pq-rle-2p28-nulls.parquet';

/**
 * Runs `body` (with `reader` open on `file`) in a child process; returns
 * what it set `out` to, its peak RSS in MiB, and how much of that came
 * after the file was opened.
 */
async function child(file: string, body: string, options = ''): Promise<{ out: string; mib: number; grew: number }> {
  const script = `import { openParquet } from './src/node/index.ts';
const reader = await openParquet(${JSON.stringify(file)}${options ? `, ${options}` : ''});
const opened = process.resourceUsage().maxRSS / 1024;
let out = '';
${body}
const mib = process.resourceUsage().maxRSS / 1024;
console.log(JSON.stringify({ out, mib, grew: mib - opened }));`;
  // The time limit is a hang guard only: each read takes a few seconds at most.
  const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { timeout: 120_000 });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as { out: string; mib: number; grew: number };
}

/** Peak RSS allowed: the child's runtime (tsx included) takes about 100 MiB; the 2^28 levels alone would take 256 MiB. */
const MAX_MIB = 240;

describe('2^28 nulls from one RLE run', () => {
  test('the file says what the test assumes', async () => {
    const reader = await openParquet(NULLS);
    assert.equal(reader.numRows, 2 ** 28);
    assert.equal(reader.file.metadata.rowGroups.length, 1);
  });

  test('rows() with limit 3 returns three nulls without decoding the page', async () => {
    const { out, mib } = await child(NULLS, `for await (const r of reader.rows({ limit: 3 })) out += JSON.stringify(r);`);
    assert.equal(out, '{"a":null}{"a":null}{"a":null}');
    assert.ok(mib < MAX_MIB, `${mib} MiB`);
  });

  test('columns() streams the chunk in batches of bounded size', async () => {
    const { out, mib } = await child(HOSTILE, `let rows = 0, batches = 0, values = 0, biggest = 0;
for await (const b of reader.columns()) {
  if (b.firstRow !== rows) throw new Error('batch starts at ' + b.firstRow + ', expected ' + rows);
  rows += b.rows; batches++; values += b.data.valueCount; biggest = Math.max(biggest, b.data.length);
}
out = [rows, values, batches > 1, biggest <= 2 ** 20].join();`);
    assert.equal(out, `${2 ** 28},0,true,true`);
    assert.ok(mib < MAX_MIB, `${mib} MiB`);
  });

  test('readRows() with an offset and a limit, and rowBatches() over millions of rows, in bounded memory', async () => {
    const { out, mib } = await child(NULLS, `const some = await reader.readRows({ offset: 2 ** 27, limit: 100000 });
let rows = 0;
for await (const b of reader.rowBatches({ batchSize: 10000 })) {
  rows += b.length;
  if (rows >= 2 ** 22) break;
}
out = [some.length, some.every((r) => r.a === null), rows].join();`);
    assert.equal(out, `100000,true,${2 ** 22}`);
    assert.ok(mib < MAX_MIB, `${mib} MiB`);
  });
});

test('a v2 page claiming 2^24 values in a 1,000-value chunk is refused before anything is sized by that count', async () => {
  // The fuzz case: checksums off, so the page is decoded; 197 MiB of peak RSS before a typed error once.
  const { out, grew } = await child('../shared/fuzz/repro/mem-parquet-page-2p24-values.parquet', `try {
  await reader.readRows();
  out = 'rows';
} catch (e) {
  out = [e.constructor.name, e.context.column, e.context.page].join();
}`, '{ verifyChecksums: false }');
  assert.ok(grew < 32, `peak RSS grew by ${grew} MiB while reading`);
  assert.equal(out, 'CorruptFileError,long_field,1');
});

test('a whole row group of mostly nulls, too dense to decode whole, streams to the same rows', async () => {
  const N = 1_100_000;
  const schema = defineSchema({ a: f.int32(), b: f.list(f.string()), c: f.int64().required() });
  const row = (i: number) => ({ a: i % 100_000 === 7 ? i : null, b: i % 250_000 === 3 ? ['x', null, `y${i}`] : null, c: 5n });
  const sink = new BufferSink();
  const w = await ParquetWriter.open(sink, schema, { pageSize: 1 << 30, pageRowLimit: 1 << 30, pageIndex: false });
  for (let s = 0; s < N; s += 100_000) await w.writeMany(Array.from({ length: Math.min(100_000, N - s) }, (_, k) => row(s + k)));
  await w.close();
  const reader = await openParquet(sink.bytes());
  let at = 0;
  for await (const batch of reader.rowBatches({ batchSize: 50_000 })) {
    for (const r of batch) assert.deepEqual(r, row(at++));
  }
  assert.equal(at, N);
  let batches = 0;
  let values = 0;
  for await (const b of reader.columns({ columns: ['a'] })) {
    batches++;
    values += b.data.valueCount;
  }
  assert.ok(batches > 1, `${batches} batches`);
  assert.equal(values, 11);
});

describe('streamed reads give the rows of a whole read', () => {
  const N = 300_000;
  const schema = defineSchema({
    id: f.int32().required(),
    maybe: f.int64(),
    word: f.string(),
    tags: f.list(f.int32()),
    x: f.double().required(),
  });
  const row = (i: number) => ({
    id: i,
    maybe: i % 3 === 0 ? null : BigInt(i * 7),
    word: i % 5 === 0 ? null : `w${i % 37}`,
    tags: i % 4 === 0 ? null : i % 4 === 1 ? [] : Array.from({ length: i % 6 }, (_, k) => (k % 2 ? null : i + k)),
    x: i / 4,
  });

  for (const pageVersion of [1, 2] as const) {
    test(`one page of ${N} rows per column, page v${pageVersion}: windows inside pages, across runs and lists`, async () => {
      const sink = new BufferSink();
      // One page per chunk, far above the page window; no page index, so offset and limit stream.
      const w = await ParquetWriter.open(sink, schema, { pageVersion, pageSize: 1 << 30, pageRowLimit: 1 << 30, pageIndex: false, codec: 'UNCOMPRESSED' });
      await w.writeMany(Array.from({ length: N }, (_, i) => row(i)));
      await w.close();
      const reader = await openParquet(sink.bytes());
      for (const name of ['id', 'word', 'tags.list.element']) {
        const chunk = reader.file.metadata.rowGroups[0]!.columns.find((c) => c.metaData!.pathInSchema.join('.') === name)!;
        // At most two data pages (a first one may be cut where the dictionary is dropped): at least one holds 150,000 levels.
        const pages = chunk.metaData!.encodingStats!.filter((e) => e.pageType !== 'DICTIONARY_PAGE').reduce((a, e) => a + e.count, 0);
        assert.ok(pages <= 2, `${name}: ${pages} data pages`);
      }
      const all = await reader.readRows();
      assert.equal(all.length, N);
      for (const [offset, limit] of [[0, 3], [1, 65_537], [70_001, 150_000], [299_990, 100], [12_345, 1]]) {
        const got = await reader.readRows({ offset, limit });
        assert.deepEqual(got, all.slice(offset, offset + limit), `offset ${offset}, limit ${limit}`);
      }
    });
  }
});
