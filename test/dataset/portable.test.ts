/**
 * The portable dataset layer over a caller's file system adapter: files
 * named by URLs, held in memory, listed by a glob; Hive partitions from the
 * URLs' paths; pruned files never opened.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BufferSink, bufferSource, canonicalRow, Dataset, writeRecords, type DatasetFileSystem } from '../../src/index.js';

async function parquet(rows: Record<string, unknown>[]): Promise<Uint8Array> {
  const sink = new BufferSink();
  await writeRecords(sink, rows);
  return sink.bytes();
}

test('a glob over URLs in memory: partitions from the URL paths, pruning before opening', async () => {
  const base = 'https://example.com/ds';
  const files = new Map<string, Uint8Array>([
    [`${base}/year=2023/part-0.parquet`, await parquet([{ id: 1 }, { id: 2 }])],
    [`${base}/year=2024/part-0.parquet`, await parquet([{ id: 3 }])],
    [`${base}/year=2024/_SUCCESS`, new Uint8Array()],
    [`${base}/year=2024/notes.txt`, new Uint8Array([1, 2, 3])],
  ]);
  const opened: string[] = [];
  const fs: DatasetFileSystem = {
    kind: async (p) => (files.has(p) ? 'file' : [...files.keys()].some((k) => k.startsWith(`${p}/`)) ? 'directory' : 'missing'),
    async *children(dir) {
      const under = [...files.keys()].filter((k) => k.startsWith(`${dir}/`)).map((k) => k.slice(dir.length + 1));
      const kinds = new Map(under.map((rel) => [rel.split('/')[0]!, rel.includes('/') ? 'directory' as const : 'file' as const]));
      for (const [name, kind] of kinds) yield { name, kind };
    },
    open: async (p) => (opened.push(p), bufferSource(files.get(p)!, p)),
  };
  const ds = await Dataset.open(`${base}/*/*.parquet`, { fileSystem: fs });
  assert.deepEqual(ds.files, [
    { path: `${base}/year=2023/part-0.parquet`, partitions: { year: 2023n } },
    { path: `${base}/year=2024/part-0.parquet`, partitions: { year: 2024n } },
  ]);
  opened.length = 0;
  const plan = ds.plan();
  const rows = (await ds.readRows({ filter: { column: 'year', op: '=', value: 2024 } })).map((r) => canonicalRow(plan, r));
  assert.deepEqual(rows, ['{"id":3,"year":2024}']);
  assert.deepEqual(opened, [`${base}/year=2024/part-0.parquet`]);
  // The directory form skips _SUCCESS and notes.txt.
  const dir = await Dataset.open(base, { fileSystem: fs });
  assert.equal((await dir.fileStats()).reduce((n, f) => n + f.numRows, 0), 3);
  assert.deepEqual(dir.skipped.map((s) => s.path), [`${base}/year=2024/notes.txt`]);
});
