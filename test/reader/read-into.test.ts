/**
 * `readInto`, the reused-buffer read the Arrow path takes from file sources:
 * the same bytes as `read` from the file alone, through the footer's cached
 * tail, and across it; the same refusals.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withCachedTail } from '../../src/io/source.js';
import { fileSource } from '../../src/node/file-source.js';
import { IOError } from '../../src/errors.js';

const SIZE = 1000;
const TAIL = 700;

async function withFile(fn: (path: string, bytes: Uint8Array) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'read-into-'));
  const bytes = Uint8Array.from({ length: SIZE }, (_, i) => (i * 31 + 7) & 255);
  const path = join(dir, 'f.bin');
  writeFileSync(path, bytes);
  try {
    await fn(path, bytes);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('readInto fills the buffer with the bytes read gives, before, across and inside the cached tail', async () => {
  await withFile(async (path, bytes) => {
    const file = await fileSource(path);
    const reads: [number, number][] = [];
    const counted = { ...file, readInto: (offset: number, into: Uint8Array) => (reads.push([offset, into.length]), file.readInto!(offset, into)) };
    const cached = withCachedTail(counted, bytes.slice(TAIL), TAIL);
    for (const [offset, length] of [[0, 100], [650, 100], [TAIL, 50], [800, 200], [0, SIZE], [SIZE, 0]] as const) {
      reads.length = 0;
      const into = new Uint8Array(length).fill(0xee);
      await cached.readInto!(offset, into);
      assert.deepEqual(into, bytes.subarray(offset, offset + length), `${length} bytes at ${offset}`);
      // Only the bytes before the tail come from the file.
      const fromFile = Math.max(0, Math.min(offset + length, TAIL) - offset);
      assert.deepEqual(reads, fromFile ? [[offset, fromFile]] : [], `file reads for ${length} bytes at ${offset}`);
    }
    await cached.close!();
  });
});

test('readInto refuses what read refuses: past the end, and after close', async () => {
  await withFile(async (path, bytes) => {
    const cached = withCachedTail(await fileSource(path), bytes.slice(TAIL), TAIL);
    await assert.rejects(cached.readInto!(900, new Uint8Array(200)), IOError);
    await assert.rejects(cached.read(900, 200), IOError);
    await cached.close!();
    await assert.rejects(cached.readInto!(0, new Uint8Array(10)), /closed/);
    await assert.rejects(cached.readInto!(800, new Uint8Array(10)), /closed/);
  });
});
