/**
 * No command leaves a file open: every FileHandle a command opens is closed
 * when it returns, whether it succeeds or fails (an input that is not the
 * format it claims, a cut file, a destination that cannot be made, an
 * option the format refuses), and a failed write leaves no temporary file.
 * A handle left open is closed by the garbage collector, with a warning,
 * at a time no one controls; here each is named by the stack that opened it.
 * And `recoverParquet`, `recoverTrevni` and `writeParquet` abort the sink
 * they are given when they fail before a writer takes it (the CLI's recover
 * left its output's handle and temporary file behind for an input that did
 * not open; `writeParquet`, for records that threw while sampled).
 */
import { handlesOpened, openHandles } from './open-handles.js';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { writeParquet } from '../../src/node/index.js';
import { recoverParquet } from '../../src/parquet/recover/recover.js';
import { recoverTrevni } from '../../src/trevni/recover.js';
import type { Sink } from '../../src/io/sink.js';
import { writeFile } from '../recover/fixtures.js';
import { TREVNI_CORPUS } from '../trevni/corpus-util.js';
import { REDELM_CORPUS } from '../redelm/corpus-util.js';
import { run } from './run-cli.js';

let dir = '';
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'parquetry-descriptors-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** Inputs of every format, whole and damaged, and paths that are no file. */
async function inputs(): Promise<string[]> {
  const parquet = await writeFile({}, 300);
  const files: Record<string, Uint8Array | string> = {
    'whole.parquet': parquet,
    'cut.parquet': parquet.subarray(0, 300),
    'flipped.parquet': Uint8Array.from(parquet, (b, i) => (i === 200 ? b ^ 0x55 : b)),
    'rows.csv': 'a,b\n1,x\n2,y\n',
    'not-parquet.parquet': 'a,b\n1,x\n',
    'cut.trv': (await import('node:fs')).readFileSync(join(TREVNI_CORPUS, 'avro_primitives.trv')).subarray(0, 40),
  };
  const paths = Object.entries(files).map(([name, bytes]) => {
    writeFileSync(join(dir, name), bytes);
    return join(dir, name);
  });
  return [...paths, join(TREVNI_CORPUS, 'avro_primitives.trv'), join(TREVNI_CORPUS, 'quirk_null_codec_crc32.trv'), join(REDELM_CORPUS, 'paper_gzip.redelm'), join(dir, 'missing.parquet'), dir];
}

const READS = [['schema'], ['meta', '--json'], ['cat'], ['cat', '--where', 'a > 1'], ['cat', '--columns', 'nope'], ['head', '--no-verify-checksums'], ['check'], ['footer'], ['pages'], ['dictionary'], ['column-size'], ['summary']];

test('every command, succeeding or failing, closes every file it opened and leaves no temporary file', async () => {
  const out = join(dir, 'out');
  mkdirSync(out);
  const commands: string[][] = [];
  for (const input of await inputs()) {
    for (const c of READS) commands.push([...c, input]);
    for (const to of ['parquet', 'csv', 'trevni', 'redelm']) commands.push(['convert', input, join(out, `x.${to}`)], ['convert', input, join(dir, 'no-such-dir', `x.${to}`)]);
    commands.push(['recover', input, join(out, 'r.parquet')], ['recover', input, join(out, 'r.trv')], ['recover', input, join(dir, 'no-such-dir', 'r.parquet')]);
  }
  const seen = handlesOpened();
  const codes = new Set<number>();
  for (const args of commands) {
    const r = await run(...args);
    codes.add(r.code);
    const left = openHandles();
    assert.deepEqual(left.map((h) => h.stack), [], `parquetry ${args.join(' ')} (exit ${r.code}: ${r.err.trim()}) left files open`);
  }
  // The tracker saw the commands' files (else this test proves nothing), and both outcomes were tried.
  assert.ok(handlesOpened() - seen > commands.length, `${handlesOpened() - seen} handles opened by ${commands.length} commands`);
  assert.ok(codes.has(0) && [...codes].some((c) => c !== 0), `exit codes ${[...codes]}`);
  assert.deepEqual(readdirSync(out).filter((f) => f.includes('parquetry-tmp')), [], 'temporary files left behind');
});

test('recoverParquet and recoverTrevni abort the sink they are given when the input does not open', async () => {
  for (const recover of [recoverParquet, recoverTrevni]) {
    const calls: string[] = [];
    const sink: Sink = { write: async () => void calls.push('write'), close: async () => void calls.push('close'), abort: async () => void calls.push('abort') };
    await assert.rejects(recover(new TextEncoder().encode('not a file of either format'), sink));
    assert.deepEqual(calls, ['abort'], recover.name);
  }
});

test('writeParquet to a path: records that throw while sampled leave no open file and no temporary file', async () => {
  const target = join(dir, 'write', 'w.parquet');
  mkdirSync(join(dir, 'write'));
  async function* failing() {
    yield { a: 1 };
    throw new Error('the records failed');
  }
  await assert.rejects(writeParquet(target, failing()), /the records failed/);
  assert.deepEqual(openHandles().map((h) => h.stack), []);
  assert.deepEqual(readdirSync(join(dir, 'write')), []);
});

test('view on a port in use closes the file it opened', async () => {
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  try {
    const r = await run('view', '--port', String((taken.address() as AddressInfo).port), join(TREVNI_CORPUS, 'avro_primitives.trv'));
    assert.match(r.err, /is in use/);
    assert.deepEqual(openHandles().map((h) => h.stack), []);
  } finally {
    await new Promise((resolve) => taken.close(resolve));
  }
});
