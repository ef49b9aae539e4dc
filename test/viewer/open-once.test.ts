/**
 * The viewer opens every format once, through `openTable`: its layout
 * (row groups, Trevni blocks, RedElm sections) comes from the reader the
 * table reads through, not from a second open. Every open of these formats
 * reads from the file's first byte (its magic, or a small file's footer
 * with it), so the test counts the reads from offset 0: opening in the
 * viewer makes no more of them than `openTable` alone, which makes at
 * most two.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { convert } from '../../src/node/entries/convert.js';
import { bufferSource, openTable, writeParquet, type Source } from '../../src/node/index.js';
import { openFile } from '../../viewer/src/model.js';

let dir = '';
const files = new Map<string, Uint8Array>();

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'parquetry-open-once-'));
  const parquet = join(dir, 't.parquet');
  await writeParquet(parquet, Array.from({ length: 300 }, (_, i) => ({ id: i, name: `n${i}`, tags: [i, i + 1] })), { rowGroupRows: 100 });
  files.set('parquet', readFileSync(parquet));
  for (const [name, to, options] of [['trevni', 'trevni', {}], ['trevni v1', 'trevni', { trevniVersion: 1 }], ['trevni draft', 'trevni', { trevniVersion: 'draft' }], ['redelm', 'redelm', {}]] as const) {
    const path = join(dir, name.replace(' ', '-'));
    await convert(parquet, path, { to, ...options });
    files.set(name, readFileSync(path));
  }
});

after(() => rmSync(dir, { recursive: true, force: true }));

/** A source over `bytes` counting the reads from its first byte. */
function counting(bytes: Uint8Array): { source: Source; opens: () => number } {
  const inner = bufferSource(bytes, 'input');
  let opens = 0;
  return {
    opens: () => opens,
    source: {
      byteLength: inner.byteLength,
      name: 'input',
      read(offset, length) {
        if (offset === 0) opens++;
        return inner.read(offset, length);
      },
    },
  };
}

test('every format opens once in the viewer: its layout from the table\'s own reader', async () => {
  const reads: Record<string, number> = {};
  const once: Record<string, number> = {};
  for (const [name, bytes] of files) {
    const alone = counting(bytes);
    await (await openTable(alone.source)).close();
    assert.ok(alone.opens() > 0, name);
    once[name] = alone.opens();
    const viewed = counting(bytes);
    const opened = await openFile(viewed.source);
    try {
      reads[name] = viewed.opens();
      assert.ok(opened.groups.length > 0 && opened.groups.every((g) => g.chunks.length > 0), `${name}: a layout`);
      assert.equal(opened.rows, 300, name);
      assert.equal((await opened.read(299, 5)).length, 1, name);
    } finally {
      await opened.table.close();
    }
  }
  assert.deepEqual(reads, once, 'reads from the first byte, by format');
  // openTable itself reads them at most twice: the magic that tells the format, then the header (or a small file's footer, whole);
  // Trevni read its header a second time to choose its reader.
  for (const [name, n] of Object.entries(once)) assert.ok(n <= 2, `${name}: ${n} reads from the first byte`);
});
