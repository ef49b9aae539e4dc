/**
 * Decoding ahead in a worker thread (src/parquet/decode-ahead.ts): a read of
 * every row of a large file gives the rows it was written with, the same as
 * a read on one thread; a corrupt page fails with the one-thread error after
 * the same rows; a read stopped early closes its thread; a small read starts
 * none; a read whose thread never starts decodes every row group itself.
 * A registered wrapper counts what the thread did, so the tests fail when it
 * did nothing.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineSchema, field as f, openParquet, writeParquet } from '../../src/node/index.js';
import { DECODE_AHEAD_BYTES, DecodeAhead, type StartDecodeThread } from '../../src/parquet/decode-ahead.js';
import { decodeAhead } from '../../src/parquet/chunk-reads.js';
import { startDecodeThread } from '../../src/node/decode-thread.js';

const ROWS = 700_000;
const GROUP = 150_000;
const count = { starts: 0, decoded: 0, closes: 0 };
/** Whether the thread is given to the read at once (its decode waits for the worker's start), or never: the read then decodes every row group from the bytes it fetched. */
let threadReady: 'at once' | 'never' = 'at once';

/** Node's decode thread, counted; the read's DecodeAhead as Node's entry point makes it. */
const counted: StartDecodeThread = async (schema, options) => {
  count.starts++;
  if (threadReady === 'never') return new Promise<never>(() => {});
  // The worker's start can take longer than a read on a loaded machine, and the read would then decode every row group itself.
  const thread = startDecodeThread(schema, options);
  return {
    async decode(buffer, chunks) {
      const data = await (await thread).decode(buffer, chunks);
      if (data) count.decoded++;
      return data;
    },
    close() {
      count.closes++;
      void thread.then((t) => t.close());
    },
  };
};
const nodeMake = decodeAhead.make!;
decodeAhead.make = async (reads, groups, leaves, options) => (options.decodeThread === false || options.offset || options.limit !== undefined ? undefined : DecodeAhead.for(reads, groups, leaves, counted));

/** Row `i`: a number and a double with random bits (so the file stays large uncompressed), a bigint, a string of its own and a shared one, a Date, a boolean, a null every 7th. */
function row(i: number) {
  const x = Math.sin(i) * 1e6;
  return { id: i, x, big: BigInt(i) * 1_000_003n, s: `u-${i}-${(x * 1000) >>> 0}`, cat: `c${i % 13}`, at: new Date(1.6e12 + i * 1013), flag: i % 3 === 0, maybe: i % 7 === 0 ? null : i * 2 };
}

const schema = defineSchema({ id: f.int32().required(), x: f.double().required(), big: f.int64().required(), s: f.string().required(), cat: f.string().required(), at: f.timestamp('MILLIS', { utc: true }).required(), flag: f.boolean().required(), maybe: f.int32() });

let dir: string;
let file: string;
let small: string;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'decode-ahead-'));
  file = join(dir, 'large.parquet');
  small = join(dir, 'small.parquet');
  const rows = function* (n: number) {
    for (let i = 0; i < n; i++) yield row(i);
  };
  await writeParquet(file, rows(ROWS), { schema, codec: 'UNCOMPRESSED', rowGroupRows: GROUP, dictionary: false });
  await writeParquet(small, rows(3 * 1000), { schema, rowGroupRows: 1000 });
});

after(() => rmSync(dir, { recursive: true, force: true }));

async function readAll(path: string, decodeThread = true) {
  const reader = await openParquet(path);
  try {
    return await reader.readRows({ temporal: 'date', decodeThread });
  } finally {
    await reader.close();
  }
}

describe('decode ahead', () => {
  test('the file is large enough to be decoded ahead', () => {
    assert.ok(readFileSync(file).length > DECODE_AHEAD_BYTES);
  });

  test('a read decoded ahead gives the rows written, as one thread does', async () => {
    const before = { ...count };
    const rows = await readAll(file);
    assert.ok(count.decoded - before.decoded >= 2, 'the thread decoded row groups');
    assert.equal(count.closes - before.closes, count.starts - before.starts);
    assert.equal(rows.length, ROWS);
    for (let i = 0; i < ROWS; i += 997) assert.deepEqual(rows[i], row(i));
    assert.deepEqual(rows[ROWS - 1], row(ROWS - 1));
    const one = await readAll(file, false);
    assert.deepEqual(rows, one);
  });

  test('a read whose thread never starts decodes every row group itself, the same rows', async () => {
    threadReady = 'never';
    try {
      const before = count.decoded;
      const rows = await readAll(file);
      assert.equal(count.decoded, before);
      assert.deepEqual(rows, await readAll(file, false));
    } finally {
      threadReady = 'at once';
    }
  });

  test('decodeThread: false starts no thread; a small read starts none', async () => {
    const before = count.starts;
    await readAll(file, false);
    await readAll(small);
    assert.equal(count.starts, before);
  });

  test("Node's own: decodeThread: false decodes on one thread, true ahead, but not with an offset or a limit", async () => {
    const reader = await openParquet(file);
    const groups = reader.file.metadata.rowGroups.map((_, i) => i);
    const leaves = reader.plan().leaves;
    assert.equal(await nodeMake(reader.file.reads, groups, leaves, { decodeThread: false }), undefined);
    assert.equal(await nodeMake(reader.file.reads, groups, leaves, { decodeThread: true, limit: 10 }), undefined, 'a limit reads no row group whole');
    assert.equal(await nodeMake(reader.file.reads, groups, leaves, { decodeThread: true, offset: 10 }), undefined, 'nor does an offset');
    const ahead = await nodeMake(reader.file.reads, groups, leaves, { decodeThread: true });
    assert.ok(ahead);
    const got = await ahead.chunks(0);
    assert.ok(got && 'fetched' in got, 'the first row group is fetched for the read to decode while the thread starts');
    ahead.close();
    await reader.close();
  });

  test('a read stopped early closes its thread', async () => {
    const before = { ...count };
    const reader = await openParquet(file);
    let n = 0;
    for await (const _ of reader.rows({ decodeThread: true })) if (++n === GROUP + 5) break;
    await reader.close();
    assert.equal(count.starts - before.starts, 1);
    assert.equal(count.closes - before.closes, 1);
  });

  test('a corrupt page fails as on one thread, after the same rows', async () => {
    const bytes = readFileSync(file);
    const reader = await openParquet(file);
    const last = reader.file.metadata.rowGroups.at(-1)!.columns[1]!.metaData!;
    await reader.close();
    // A byte inside the last row group's doubles: its page's CRC no longer matches.
    bytes[Number(last.dataPageOffset) + Number(last.totalCompressedSize) - 100]! ^= 0xff;
    const bad = join(dir, 'bad.parquet');
    writeFileSync(bad, bytes);
    const outcome = async (decodeThread: boolean) => {
      const r = await openParquet(bad);
      let rows = 0;
      try {
        for await (const batch of r.rowBatches({ decodeThread })) rows += batch.length;
        return { rows, error: undefined };
      } catch (e) {
        return { rows, error: `${(e as Error).constructor.name}: ${(e as Error).message}` };
      } finally {
        await r.close();
      }
    };
    const before = count.decoded;
    const ahead = await outcome(true);
    assert.ok(count.decoded > before, 'the thread decoded the row groups before the corrupt one');
    assert.deepEqual(ahead, await outcome(false));
    assert.ok(ahead.error, 'the read fails');
    assert.equal(ahead.rows, ROWS - (ROWS % GROUP || GROUP));
  });
});
