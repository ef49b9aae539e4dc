/**
 * `parquetry convert --trevni-version 1`: Trevni version 1 output
 * (cutting/trevni's `Trv` 1), from JSON and from every file of the version 1
 * reference corpus; booleans and bzip2, which version 1 lacks, refused
 * before anything is created.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { registerConvert } from '../../src/cli/convert-command.js';
import { TrevniReader } from '../../src/trevni/reader.js';

const V1 = join('..', 'shared', 'ancestors', 'trevni-v1');

let dir = '';
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'parquetry-convert-trevni-v1-'));
});
after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function run(...args: string[]): Promise<void> {
  const program = new Command().exitOverride();
  registerConvert(program);
  await program.parseAsync(['node', 'parquetry', 'convert', '-q', ...args]);
}

function cli(args: string[]): { code: number | null; err: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'convert', ...args], { encoding: 'utf8' });
  return { code: r.status, err: r.stderr };
}

test('JSON Lines to Trevni version 1 and back: the Trv 1 magic, every length written as itself', async () => {
  const input = join(dir, 'in.jsonl');
  const lines = ['{"id":1,"name":"a","tags":[]}', '{"id":2,"name":null,"tags":[]}', '{"id":3,"name":"c","tags":["x"]}'];
  writeFileSync(input, lines.join('\n') + '\n');
  const trv = join(dir, 'out.trv');
  await run(input, trv, '--trevni-version', '1', '--codec', 'null');
  const bytes = new Uint8Array(readFileSync(trv));
  assert.deepEqual([...bytes.subarray(0, 4)], [0x54, 0x72, 0x76, 0x01]);
  const r = await TrevniReader.open(bytes);
  assert.equal(r.format.version, 1);
  // The tags array column: lengths 0, 0, 1 as three one-byte varints (version 2 would write the run code -1 for the two 0s).
  const tags = r.columns.find((c) => c.array && c.name.startsWith('tags') && c.name.endsWith('[]'))!;
  const [block] = await r.blocks(tags.name);
  assert.deepEqual([...(await r.readBlock(tags.name, 0)).subarray(0, 2)], [0, 0]);
  assert.equal(block!.numRows, 3);
  const back = join(dir, 'back.jsonl');
  await run(trv, back);
  assert.deepEqual(readFileSync(back, 'utf8').trim().split('\n'), lines);
});

test('every version 1 reference file converts to version 1 and reads back the same rows', async () => {
  // zero_columns: a Trevni file convert writes from no columns (an Avro record without fields) does not convert back, in either version.
  const files = readdirSync(V1).filter((f) => f.endsWith('.trv') && !f.startsWith('quirk_') && f !== 'zero_columns.trv');
  assert.ok(files.length >= 20);
  for (const f of files) {
    const want = join(dir, `${f}.want.jsonl`);
    const trv = join(dir, `${f}.v1.trv`);
    const got = join(dir, `${f}.got.jsonl`);
    await run(join(V1, f), want);
    await run(join(V1, f), trv, '--trevni-version', '1', '--codec', 'deflate', '--checksum', 'crc32');
    assert.equal((await TrevniReader.open(new Uint8Array(readFileSync(trv)))).format.version, 1, f);
    await run(trv, got);
    assert.equal(readFileSync(got, 'utf8'), readFileSync(want, 'utf8'), f);
  }
});

test('booleans and bzip2 are refused for version 1, naming the column, and nothing is created', () => {
  const input = join(dir, 'bool.jsonl');
  writeFileSync(input, '{"id":1,"ok":true}\n');
  const out = join(dir, 'bool.trv');
  const r = cli([input, out, '--trevni-version', '1']);
  assert.equal(r.code, 1);
  assert.match(r.err, /Trevni version 1 has no boolean type .*column ok/);
  assert.throws(() => readFileSync(out), /ENOENT/);
  const z = cli([input, join(dir, 'z.trv'), '--trevni-version', '1', '--codec', 'bzip2']);
  assert.equal(z.code, 1);
  assert.match(z.err, /must be null, deflate or snappy for Trevni version 1 output/);
  const p = cli([input, join(dir, 'x.parquet'), '--trevni-version', '1']);
  assert.match(p.err, /--trevni-version applies to Trevni output only/);
});
