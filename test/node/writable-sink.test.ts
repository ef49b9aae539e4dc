import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { IOError } from '../../src/errors.js';
import { defineSchema, field, openWriter, writableSink } from '../../src/node/index.js';

const MiB = 2 ** 20;

/** A Writable that takes each chunk `delayMs` later, recording the most bytes it ever held buffered. */
function slowStream(highWaterMark: number, delayMs: number) {
  const seen = { peak: 0, bytes: 0 };
  const stream = new Writable({
    highWaterMark,
    write(chunk: Buffer, _enc, cb) {
      seen.bytes += chunk.length;
      setTimeout(cb, delayMs);
    },
  });
  const write = stream.write.bind(stream);
  stream.write = ((chunk: Buffer, ...rest: never[]) => {
    const ok = write(chunk, ...rest);
    seen.peak = Math.max(seen.peak, stream.writableLength);
    return ok;
  }) as typeof stream.write;
  return { stream, seen };
}

test('writableSink waits for a full stream to drain: the stream never holds more than its buffer and one write', async () => {
  const { stream, seen } = slowStream(64 * 1024, 1);
  const sink = writableSink(stream);
  const chunk = new Uint8Array(48 * 1024);
  for (let i = 0; i < 40; i++) await sink.write(chunk);
  await sink.close();
  assert.equal(seen.bytes, 40 * chunk.length);
  assert.ok(seen.peak <= 64 * 1024 + chunk.length, `the stream held ${seen.peak} bytes at once`);
});

test('a writer into a slow stream holds at most a page ahead of it', async () => {
  const { stream, seen } = slowStream(16 * 1024, 0);
  const w = await openWriter(stream, defineSchema({ b: field.binary().required() }), { dictionary: false, codec: 'UNCOMPRESSED', rowGroupSize: 4 * MiB, pageSize: 256 * 1024 });
  const value = new Uint8Array(4096).fill(7);
  for (let i = 0; i < 4096; i++) await w.write({ b: value });
  await w.close();
  assert.ok(seen.bytes > 16 * MiB);
  // A page and its header: 256 KiB of values plus their 4-byte lengths, and the stream's own buffer.
  assert.ok(seen.peak < 16 * 1024 + 300 * 1024, `the stream held ${seen.peak} bytes at once`);
});

test('a stream closed while a write waits for it to drain fails the write with an IOError instead of hanging', async () => {
  const stream = new Writable({ highWaterMark: 16, write() { /* never calls back: the stream stays full */ } });
  const sink = writableSink(stream);
  const pending = sink.write(new Uint8Array(64));
  setImmediate(() => stream.destroy());
  await assert.rejects(pending, (e: unknown) => e instanceof IOError && /closed/.test(e.message));
  await assert.rejects(sink.write(new Uint8Array(1)), IOError);
});

test('a stream that errs while a write waits for it to drain fails the write with an IOError naming the cause', async () => {
  const stream = new Writable({ highWaterMark: 16, write() { /* never calls back */ } });
  const sink = writableSink(stream);
  const pending = sink.write(new Uint8Array(64));
  setImmediate(() => stream.destroy(new Error('connection reset')));
  await assert.rejects(pending, (e: unknown) => e instanceof IOError && /connection reset/.test(e.message));
});

/**
 * A tight `await w.write()` loop into a synchronous Writable never lets the
 * event loop turn. Memory must not depend on it turning: native codec
 * output freed only by a finalizer on a later turn piled up to 1.8 GB here.
 * In a child process, so its peak RSS is the writer's alone.
 */
for (const codec of ['SNAPPY', 'ZSTD'] as const) {
  test(`${codec}: writing 1 GiB into a synchronous Writable in a tight loop stays under 512 MiB RSS`, { timeout: 120_000 }, () => {
    const script = `
      const { Writable } = await import('node:stream');
      const { openWriter, defineSchema, field } = await import(${JSON.stringify(new URL('../../src/node/index.ts', import.meta.url).href)});
      let out = 0;
      const sink = new Writable({ write(chunk, _enc, cb) { out += chunk.length; cb(); } });
      const w = await openWriter(sink, defineSchema({ b: field.binary().required() }), { dictionary: false, codec: '${codec}' });
      const value = new Uint8Array(64 * 1024);
      for (let i = 0; i < value.length; i++) value[i] = (i * 7) & 0x3f;
      const view = new DataView(value.buffer);
      for (let i = 0; i < 16384; i++) {
        view.setUint32(0, i);
        await w.write({ b: value });
      }
      await w.close();
      console.log(JSON.stringify({ out, maxRss: process.resourceUsage().maxRSS * 1024 }));`;
    const r = spawnSync('nice', ['-n', '10', process.execPath, '--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const { out, maxRss } = JSON.parse(r.stdout) as { out: number; maxRss: number };
    assert.ok(out > 1000, 'the file was written');
    assert.ok(maxRss < 512 * MiB, `peak RSS ${(maxRss / MiB).toFixed(0)} MiB`);
  });
}

/**
 * process.stdout is the caller's for the rest of the program: a conversion
 * or writer into it flushes it and leaves it open (ending it shut a pipe, so
 * the next console.log died of EPIPE, and a second conversion into a file
 * waited forever for an end that had already happened).
 */
test('two conversions into process.stdout, then console.log: all of it arrives, to a pipe and to a file', { timeout: 60_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'pq-stdout-'));
  try {
    writeFileSync(join(dir, 'in.csv'), 'id,name\n1,a\n2,b\n');
    const script = `
      const { convert } = await import(${JSON.stringify(new URL('../../src/node/entries/convert.ts', import.meta.url).href)});
      const { BufferSink } = await import(${JSON.stringify(new URL('../../src/node/index.ts', import.meta.url).href)});
      const sink = new BufferSink();
      await convert(${JSON.stringify(join(dir, 'in.csv'))}, sink, { to: 'parquet' });
      await convert(sink.bytes(), process.stdout, { to: 'jsonl' });
      await convert(sink.bytes(), process.stdout, { to: 'csv' });
      console.log('after');`;
    const expected = '{"id":1,"name":"a"}\n{"id":2,"name":"b"}\nid,name\n1,a\n2,b\nafter\n';
    const piped = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
    assert.equal(piped.status, 0, piped.stderr);
    assert.equal(piped.stdout, expected);
    const fd = openSync(join(dir, 'out.txt'), 'w');
    let toFile;
    try {
      toFile = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', stdio: ['ignore', fd, 'pipe'], timeout: 30_000 });
    } finally {
      closeSync(fd);
    }
    assert.equal(toFile.status, 0, toFile.stderr);
    assert.equal(readFileSync(join(dir, 'out.txt'), 'utf8'), expected);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
