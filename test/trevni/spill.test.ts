/**
 * pathSpill: every column of a writer in one file (one descriptor however
 * many columns), each store reading back exactly its own bytes in order;
 * the file gone once every store is disposed; a new writer (column 0) a new file.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pathSpill, type PathSpillIO } from '../../src/trevni/spill.js';
import { bufferSource } from '../../src/io/source.js';
import { BufferSink } from '../../src/io/sink.js';

/** Files in memory, a sink's bytes visible once it is closed (as fileSink renames into place). */
function memoryFiles(): { io: PathSpillIO; files: Map<string, Uint8Array>; opened: string[]; aborted: string[] } {
  const files = new Map<string, Uint8Array>();
  const opened: string[] = [];
  const aborted: string[] = [];
  const io: PathSpillIO = {
    sink: async (path) => {
      opened.push(path);
      const sink = new BufferSink();
      return {
        write: (b) => sink.write(b.slice()),
        close: async () => {
          await sink.close();
          files.set(path, sink.bytes());
        },
        abort: async () => void aborted.push(path),
      };
    },
    source: async (path) => bufferSource(files.get(path)!),
    remove: async (path) => void files.delete(path),
  };
  return { io, files, opened, aborted };
}

async function collect(chunks: AsyncIterable<Uint8Array>): Promise<number[]> {
  const out: number[] = [];
  for await (const c of chunks) out.push(...c);
  return out;
}

test('many columns share one file, each reading back its own bytes in order, and the file goes with the last store', async () => {
  const { io, files, opened } = memoryFiles();
  const spill = pathSpill('/tmp/x', io);
  const columns = 300;
  const stores = [];
  for (let c = 0; c < columns; c++) stores.push(await spill(c));
  assert.equal(opened.length, 1, 'one file for every column');
  // Interleaved writes of different sizes, some concurrent; what each store was given, in order.
  const expected: number[][] = stores.map(() => []);
  for (let round = 0; round < 5; round++) {
    await Promise.all(stores.map((s, c) => {
      const bytes = Uint8Array.from({ length: (c * 7 + round) % 13 }, (_, i) => (c + round + i) & 0xff);
      expected[c]!.push(...bytes);
      return s.write(bytes);
    }));
  }
  for (let c = 0; c < columns; c++) {
    assert.equal(stores[c]!.size, expected[c]!.length);
    assert.deepEqual(await collect(stores[c]!.chunks(1 + (c % 5))), expected[c], `column ${c}`);
  }
  for (const s of stores.slice(1)) await s.dispose();
  assert.equal(files.size, 1, 'kept while a store is left');
  await stores[0]!.dispose();
  await stores[0]!.dispose();
  assert.equal(files.size, 0, 'removed with the last store');
  // The next writer asks for column 0 again: a file of its own.
  await spill(0);
  assert.equal(opened.length, 2);
});

test('stores disposed before anything was read (a failed writer) abort the file', async () => {
  const { io, files, aborted } = memoryFiles();
  const spill = pathSpill('/tmp/y', io);
  const a = await spill(0);
  const b = await spill(1);
  await a.write(new Uint8Array([1, 2]));
  await b.write(new Uint8Array([3]));
  await a.dispose();
  await b.dispose();
  assert.equal(aborted.length, 1);
  assert.equal(files.size, 0);
});
