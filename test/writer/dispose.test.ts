/**
 * `await using` on every format's readers and writers: a reader's scope end
 * closes its source; a writer left open when its scope ends is aborted
 * (nothing at its destination), one closed keeps its file. Parquet's are in
 * unknown-fields.test.ts; these are Trevni's (v2, the Avro shredder, the
 * draft) and RedElm's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bufferSource, defineSchema, field, fileSink, type Source } from '../../src/node/index.js';
import { AvroTrevniWriter, TrevniDraftReader, TrevniDraftWriter, TrevniReader, TrevniWriter } from '../../src/node/entries/trevni.js';
import { RedElmReader, RedElmWriter } from '../../src/node/entries/redelm.js';

const schema = defineSchema({ id: field.int64().required(), name: field.string() });
const avro = { type: 'record', name: 'r', fields: [{ name: 'id', type: 'long' }, { name: 'name', type: 'string' }] };
const record = { id: 1n, name: 'a' };

interface Disposable {
  write(record: Record<string, unknown>): Promise<void>;
  close(): Promise<unknown>;
  [Symbol.asyncDispose](): Promise<void>;
}

const writers: Record<string, { ext: string; open: (path: string) => Promise<Disposable>; read: (source: Source) => Promise<{ numRows: number; [Symbol.asyncDispose](): Promise<void> }> }> = {
  'Trevni (TrevniWriter)': { ext: 'trv', open: async (p) => TrevniWriter.open(await fileSink(p), [{ name: 'id', type: 'long' }, { name: 'name', type: 'string' }]), read: (s) => TrevniReader.open(s) },
  'Trevni (AvroTrevniWriter)': { ext: 'trv', open: async (p) => AvroTrevniWriter.open(await fileSink(p), avro), read: (s) => TrevniReader.open(s) },
  'Trevni draft': { ext: 'trv', open: async (p) => TrevniDraftWriter.open(await fileSink(p), schema.schema), read: (s) => TrevniDraftReader.open(s) },
  RedElm: { ext: 'redelm', open: async (p) => RedElmWriter.open(await fileSink(p), schema.schema), read: (s) => RedElmReader.open(s) },
};

for (const [name, { ext, open, read }] of Object.entries(writers)) {
  test(`${name}: await using aborts an unclosed writer, keeps a closed one's file, and closes a reader`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parquetry-dispose-'));
    try {
      {
        await using w = await open(join(dir, `unfinished.${ext}`));
        await w.write(record);
      }
      assert.deepEqual(readdirSync(dir), [], 'nothing of the unclosed writer is left');
      const path = join(dir, `closed.${ext}`);
      {
        await using w = await open(path);
        await w.write(record);
        await w.close();
      }
      assert.deepEqual(readdirSync(dir), [`closed.${ext}`]);
      let closes = 0;
      const base = bufferSource(readFileSync(path));
      {
        await using reader = await read({ ...base, read: base.read.bind(base), close: async () => void closes++ });
        assert.equal(reader.numRows, 1);
        assert.equal(closes, 0);
      }
      assert.equal(closes, 1, 'the scope end closed the source');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
