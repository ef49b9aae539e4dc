/**
 * The page-header walk (`chunkPages`, `parquetry pages`) over encrypted
 * chunks: each header module decrypted with the keys the reader was given.
 * Checked against what the writers (parquet-java, Arrow C++) stored in the
 * offset index of each chunk: every data page's offset, stored size and
 * first row.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MissingKeyError, openParquet } from '../../src/node/index.js';
import { bufferSource } from '../../src/io/source.js';
import { chunkPages, selectChunks } from '../../src/parquet/inspect/page-headers.js';
import { DATA, FILES, FOOTER, keys } from './encrypted-corpus.js';

const BLOOM = 'encrypt_columns_and_footer_bloom_filter.parquet.encrypted';

for (const f of [...FILES, BLOOM]) {
  test(`the page headers of ${f} decrypt to the pages its offset index locates`, async () => {
    const bytes = new Uint8Array(readFileSync(join(DATA, f)));
    const reader = await openParquet(bytes, { decryption: keys(f) });
    let encrypted = 0;
    for (const c of selectChunks(reader.file)) {
      const walked = await chunkPages(reader.file, bufferSource(bytes), c, 7);
      encrypted += walked.encrypted ? 1 : 0;
      const data = walked.pages.filter((p) => p.type !== 'dictionary');
      const locations = (await reader.file.readOffsetIndex(c.rowGroup, c.leaf.path))!.pageLocations;
      assert.deepEqual(data.map((p) => [p.offset, p.headerSize + p.compressedSize, p.firstRow]), locations.map((l) => [l.offset, l.compressedPageSize, l.firstRowIndex]), `${c.column}`);
      assert.equal(data.reduce((n, p) => n + p.numValues!, 0), c.chunk.metaData!.numValues);
    }
    assert.equal(encrypted, f.startsWith('uniform') ? 8 : 2);
  });
}

test('a chunk whose key was not given is a MissingKeyError naming its column; the others walk', async () => {
  const reader = await openParquet(join(DATA, 'encrypt_columns_plaintext_footer.parquet.encrypted'), { decryption: { footerKey: FOOTER } });
  const source = bufferSource(new Uint8Array(readFileSync(join(DATA, 'encrypt_columns_plaintext_footer.parquet.encrypted'))));
  const [float] = selectChunks(reader.file, ['float_field']);
  await assert.rejects(chunkPages(reader.file, source, float!), (e: unknown) => e instanceof MissingKeyError && e.context.column === 'float_field');
  const [ints] = selectChunks(reader.file, ['int32_field']);
  assert.equal((await chunkPages(reader.file, source, ints!)).pages.length, 2);
});
