/**
 * A writer with checkpointEvery 1 killed with SIGKILL at random moments:
 * its temp file recovers to at least every row group it had finished (each
 * followed by its checkpoint), the rows exactly as written, and DuckDB reads
 * the recovered file and agrees. (bench/crash-recover.ts runs the 200 MB version.)
 */
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { BufferSink, ParquetReader } from '../../src/index.js';
import { recoverParquet } from '../../src/parquet/recover/index.js';
import { planRecord } from '../../src/shred/plan.js';
import { checkDuckValues } from '../writer/oracles.js';
import { writeFile } from './fixtures.js';
import { withDuck } from './duck.js';
import { scriptArgs } from '../cli/bin.js';

const oracle = withDuck();

/** Runs the writer, kills it `delayMs` after its first row group; resolves to the row groups it reported done. */
function killedWriter(path: string, delayMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...scriptArgs('./crash-writer.ts', import.meta.url), path, '400'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let done = 0;
    let timer: NodeJS.Timeout | undefined;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (s: string) => {
      for (const line of s.split('\n')) if (line) done = Number(line);
      timer ??= setTimeout(() => child.kill('SIGKILL'), delayMs);
    });
    child.on('error', reject);
    child.on('exit', (_code, signal) => (signal === 'SIGKILL' ? resolve(done) : reject(new Error(`writer ended without being killed (${signal})`))));
  });
}

it('SIGKILL at random moments: recover restores every finished row group, and DuckDB agrees', { timeout: 240_000 }, async () => {
  // Seeded: the moments vary over the run but the test is repeatable.
  let seed = 13;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  for (let k = 0; k < 3; k++) {
    const dir = join(oracle.files.dir, `kill-${k}`);
    const { mkdirSync } = await import('node:fs');
    mkdirSync(dir);
    const done = await killedWriter(join(dir, 'out.parquet'), 50 + Math.floor(random() * 600));
    const temps = readdirSync(dir).filter((n) => n.startsWith('.out.parquet.parquetry-tmp-'));
    assert.equal(temps.length, 1, `kill ${k}: the temp file is where the docs say`);
    const sink = new BufferSink();
    const report = await recoverParquet(readFileSync(join(dir, temps[0]!)), sink);
    assert.equal(report.foundBy, 'checkpoint');
    assert.deepStrictEqual(report.losses, []);
    assert.ok(report.rowGroups! >= done, `kill ${k}: ${report.rowGroups} row groups recovered, ${done} were finished`);
    const out = sink.bytes();
    const rows = await (await ParquetReader.open(out)).readRows();
    const expected = await (await ParquetReader.open(await writeFile({}, rows.length))).readRows();
    assert.deepStrictEqual(rows, expected);
    const path = join(dir, 'recovered.parquet');
    writeFileSync(path, out);
    await checkDuckValues(oracle.duck, path, `kill ${k}`, expected, planRecord((await ParquetReader.open(out)).schema.root));
  }
});
