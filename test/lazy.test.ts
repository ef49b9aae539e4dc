/**
 * The entry points' lazily loaded exports (src/lazy.ts) behave as the real
 * ones: same results, `instanceof` that holds however the instance was made,
 * nothing loaded before it is asked for, a failed load tried again.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { lazyAsync, lazyClass, lazyGenerator, lazyModule } from '../src/lazy.js';
import { BufferSink, openTrevni, ParquetReader, ParquetWriter, readAvro, TrevniDraftReader, TrevniReader, writeRecords } from '../src/index.js';

class Real {
  private constructor(readonly n: number) {}
  static async open(n: number): Promise<Real> {
    return new Real(n);
  }
}

test('a lazy class opens the real class, and instanceof holds for instances made by any wrapper of its module', async () => {
  let loads = 0;
  const mod = lazyModule(async () => {
    loads++;
    return { Real, make: async (n: number) => Real.open(n) };
  });
  const Lazy = lazyClass(mod, 'Real');
  const make = lazyAsync(mod, 'make');
  assert.equal(loads, 0, 'nothing loads before use');
  const made = await make(2);
  assert.ok(made instanceof Lazy, 'an instance from another wrapper of the module');
  const opened = await Lazy.open(3);
  assert.ok(opened instanceof Real && opened instanceof Lazy);
  assert.equal(opened.n, 3);
  assert.ok(!({} instanceof Lazy));
  assert.equal(loads, 1, 'the module loads once');
  assert.throws(() => new (Lazy as unknown as new () => unknown)(), /use Real\.open\(\)/);
});

test('a failed load is tried again on the next call', async () => {
  let attempts = 0;
  const mod = lazyModule(async () => {
    if (++attempts === 1) throw new Error('offline');
    return { twice: async (n: number) => 2 * n };
  });
  const twice = lazyAsync(mod, 'twice');
  await assert.rejects(twice(1), /offline/);
  assert.equal(await twice(4), 8);
});

test('a lazy generator loads its module at the first next(), not at the call', async () => {
  let loads = 0;
  const load = async () => {
    loads++;
    return {
      async *count(n: number) {
        for (let i = 0; i < n; i++) yield i;
      },
    };
  };
  const gen = lazyGenerator(load, 'count');
  const it = gen(3);
  assert.equal(loads, 0);
  const got: number[] = [];
  for await (const v of it) got.push(v);
  assert.deepEqual(got, [0, 1, 2]);
  assert.equal(loads, 1);
});

test('through the entry point: a writer and Trevni readers made by the lazy exports are instances of them', async () => {
  const sink = new BufferSink();
  const w = await ParquetWriter.open(sink, [{ name: 'root', numChildren: 1 }, { name: 'n', type: 'INT32', repetitionType: 'REQUIRED' }]);
  assert.ok(w instanceof ParquetWriter);
  await w.write({ n: 7 });
  await w.close();
  assert.deepEqual(await (await ParquetReader.open(sink.bytes())).readRows(), [{ n: 7 }]);
  const more = new BufferSink();
  await writeRecords(more, [{ a: 1 }]);
  assert.equal((await ParquetReader.open(more.bytes())).numRows, 1);

  const trevni = await openTrevni(readFileSync(join('..', 'shared', 'trevni-corpus', 'avro_arrays.trv')));
  assert.ok(trevni instanceof TrevniReader && !(trevni instanceof TrevniDraftReader));
  const rows: unknown[] = [];
  for await (const r of readAvro(trevni as TrevniReader)) rows.push(r);
  assert.ok(rows.length > 0);
});
