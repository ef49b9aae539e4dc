/**
 * The fuzz surfaces themselves (scripts/fuzz/surfaces/): each has seeds and
 * makes the same case from the same numbers; an unmutated seed reads to the
 * end without breaking its invariant (so a finding is the library's, not the
 * harness's); a wrong key gives a typed error; and the invariant checks can
 * fail: recovery's row matching refuses a row the original never had, a row
 * twice, and more rows than there were.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SeedSet, seedFiles } from '../../scripts/fuzz/cases.js';
import { applyJavaser, mapStream } from '../../scripts/fuzz/javaser.js';
import { limitsFor } from '../../scripts/fuzz/read.js';
import { OriginalRows } from '../../scripts/fuzz/rows-match.js';
import { SURFACE_NAMES } from '../../scripts/fuzz/surface.js';
import { SURFACES } from '../../scripts/fuzz/surfaces/index.js';
import { MISSING } from '../../src/loss.js';
import { readRedElmFooter, REDELM_BLOCK } from '../../src/redelm/container.js';
import { bufferSource } from '../../src/io/source.js';
import { decodeRedElmMetaData } from '../../src/redelm/metadata.js';
import { ParquetryError } from '../../src/errors.js';

const SEED = 7;
const seeds = new SeedSet(await seedFiles([...SURFACE_NAMES], SEED, 2));

test('every surface has seeds, and a case is the same made twice', async () => {
  assert.deepEqual([...seeds.surfaces].sort(), [...SURFACE_NAMES].sort());
  for (let id = 0; id < 60; id++) {
    const a = await seeds.makeCase(SEED, id);
    const b = await seeds.makeCase(SEED, id);
    assert.deepEqual(a.spec, b.spec);
    // Encryption draws fresh nonces (and the bytes after a cipher mutation follow them); the rest is the same to the byte.
    if (a.spec.format !== 'parquet-encrypted') assert.deepEqual(a.input.bytes, b.input.bytes);
  }
});

test('an unmutated writer-made seed of every surface reads to the end and keeps its invariant', { timeout: 240_000 }, async () => {
  const bad: string[] = [];
  for (const name of SURFACE_NAMES) {
    const surface = SURFACES[name];
    for (const f of seeds.files.filter((x) => x.surface === name && x.name.startsWith('writer:'))) {
      const variants: Record<string, unknown>[] = name === 'parquet-encrypted'
        ? [{ uniform: true, columns: [], plaintextFooter: false, algorithm: 'AES_GCM_V1', storeAadPrefix: true, keys: 'right' }]
        : name === 'parquet-recover' ? [{ mode: 'salvage', like: true, wholeOnly: false }, { mode: 'recover', like: false, wholeOnly: false }]
          : name === 'trevni-recover' ? [{ mode: 'salvage', wholeOnly: false }, { mode: 'salvage', wholeOnly: true }, { mode: 'recover' }]
            : name === 'dataset' ? (['path', 'url'] as const).flatMap((access) => (['directory', 'metadata', 'reader'] as const).map((entry) => ({ access, entry, badFiles: 'error' })))
              : name === 'csv' || name === 'jsonl' || name === 'json' ? [{ to: 'parquet', strict: true }, { to: 'trevni', strict: true }, { to: 'redelm', strict: true }]
                : [{}];
      for (const options of variants) {
        const input = await surface.build(f, [], { verifyChecksums: true, options });
        const o = await surface.run(input, limitsFor(512));
        if (o.result !== 'rows') {
          bad.push(`${name} ${f.name} ${JSON.stringify(options)}: ${o.result} ${o.error}`);
        }
      }
    }
  }
  assert.deepEqual(bad, []);
});

test('encrypted Parquet read with a wrong key ends in a typed error', async () => {
  const f = seeds.files.find((x) => x.surface === 'parquet-encrypted')!;
  const surface = SURFACES['parquet-encrypted'];
  for (const keys of ['wrong-footer', 'none']) {
    const input = await surface.build(f, [], { verifyChecksums: true, options: { uniform: true, columns: [], plaintextFooter: false, algorithm: 'AES_GCM_V1', storeAadPrefix: true, keys } });
    const o = await surface.run(input, limitsFor(512));
    assert.equal(o.result, 'typed', `${keys}: ${o.result} ${o.error}`);
  }
});

test("recovery's row check refuses rows the original never had, rows twice, and more rows than there were", () => {
  const orig = new OriginalRows([{ a: 1n, b: 'x' }, { a: 2n, b: 'y' }]);
  const ok = orig.checker('t');
  ok.add({ a: 1n, b: 'x' });
  ok.add({ a: MISSING, b: 'y' });
  ok.add({ a: MISSING, b: MISSING });
  ok.finish();
  assert.equal(ok.back, 2);
  assert.throws(() => orig.checker('t').add({ a: 1n, b: 'y' }), /not a row of the original/);
  assert.throws(() => orig.checker('t').add({ a: 3n, b: MISSING }), /matches no row/);
  const twice = orig.checker('t');
  twice.add({ a: 2n, b: 'y' });
  assert.throws(() => twice.add({ a: 2n, b: 'y' }), /comes back 2 times/);
  const many = orig.checker('t');
  for (const a of [1n, 2n, 1n]) many.add({ a, b: MISSING });
  assert.throws(() => many.finish(), /3 rows came back, the original has 2/);
});

test('the Java serialization walk finds the RedElm footer stream\'s structure, and a shared object multiplies what it decodes to', async () => {
  const f = seeds.files.find((x) => x.surface === 'redelm' && x.name.endsWith('.redelm'))!;
  const footer = await readRedElmFooter(bufferSource(f.bytes));
  const block = footer.blocks.find((b) => b.name === REDELM_BLOCK)!;
  const map = mapStream(block.data);
  assert.ok(map.items.length > 5 && map.refs.length > 0 && map.descs.length > 3 && map.arrayList !== undefined, JSON.stringify({ items: map.items.length, refs: map.refs.length, descs: map.descs.length }));
  // A column object of a row group, three times where it was once: the decoder sees three columns.
  const meta = decodeRedElmMetaData(block.data, 0, f.bytes.length);
  const column = map.items.find((i) => i.countAt !== undefined && i.handle !== undefined && i.end - i.start > 100)!;
  const tripled = applyJavaser(block.data, { kind: 'javaser', edit: { op: 'multiply', start: column.start, end: column.end, handle: column.handle!, countAt: column.countAt!, times: 3 } });
  const after = (() => {
    try {
      return decodeRedElmMetaData(tripled, 0, f.bytes.length);
    } catch (e) {
      assert.ok(e instanceof ParquetryError, String(e));
      return undefined;
    }
  })();
  if (after) assert.notDeepEqual(after, meta);
});
