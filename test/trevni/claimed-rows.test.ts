/**
 * Trevni files whose header claims rows their bytes do not hold (issue 21,
 * finding 8): generated instances of versions 2 and 1, claims of 2^24, 2^31
 * and 2^53 - 1 over a few KB, with the column data whole, cut, or missing
 * columns, and with a column whose descriptors agree with the claim (a null
 * column, which holds nothing, and a long column whose block cannot hold
 * the rows it claims). Salvage, check and recover run in a child process
 * under a 512 MiB cap and a hang guard: each ends within seconds, yields no
 * record more than the bytes hold (a row that lost every field holding
 * data is no record), and reports the claimed rows with those it lost.
 * The rows it does give are then compared with the original file's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BufferSink } from '../../src/io/sink.js';
import { MISSING } from '../../src/loss.js';
import { TrevniReader } from '../../src/trevni/reader.js';
import { checkTrevni } from '../../src/trevni/recover.js';
import { salvage } from '../../src/recover/salvage.js';
import { salvagedRows } from '../recover/salvaged.js';
import type { TrevniVersion } from '../../src/trevni/version.js';
import { TrevniWriter, type TrevniColumnSpec } from '../../src/trevni/writer.js';
import { runCases } from '../../scripts/fuzz/pool.js';
import { runCodeFile } from './run-code-file.js';
import type { CappedCase, CappedOutcome } from '../fuzz/capped-worker.js';
import { CLI } from '../cli/bin.js';

const MEMORY_MB = 512;
const SECONDS = 10;
const WORKER = new URL('../fuzz/capped-worker.ts', import.meta.url);
const ROWS = 120;

const COLUMNS: TrevniColumnSpec[] = [
  { name: 'n', type: 'null' },
  { name: 'id', type: 'long' },
  { name: 'name', type: 'string' },
  { name: 'pts', type: 'int', array: true },
  { name: 'pts.x', type: 'double', parent: 'pts' },
  { name: 'tags', type: 'string', array: true },
];

async function ownFile(version: TrevniVersion): Promise<Uint8Array> {
  const sink = new BufferSink();
  const w = await TrevniWriter.open(sink, COLUMNS, { codec: 'deflate', checksum: 'crc32', version, blockSize: 100 });
  for (let r = 0; r < ROWS; r++) {
    const n = r % 3;
    await w.writeRow([null, BigInt(r), `name-${r}`, Array.from({ length: n }, (_, k) => r + k), Array.from({ length: n }, (_, k) => r / 4 + k), Array.from({ length: r % 4 }, (_, k) => `t${k}`)]);
  }
  await w.close();
  return sink.bytes();
}

interface Instance {
  name: string;
  bytes: Uint8Array;
  claim: number;
  original: Uint8Array;
}

function withClaim(bytes: Uint8Array, claim: number): Uint8Array {
  const b = bytes.slice();
  new DataView(b.buffer).setBigInt64(4, BigInt(claim), true);
  return b;
}

/** Generated instances over a file of each version: every claim with the data whole, cut, and columns missing; claims some columns agree with. */
async function instances(): Promise<Instance[]> {
  const out: Instance[] = [];
  for (const version of [2, 1] as const) {
    const original = await ownFile(version);
    const r = await TrevniReader.open(original);
    const col = (name: string) => r.column(name);
    const startsAt = r.headerLength - 8 * r.columns.length; // the column start table ends the header
    for (const claim of [2 ** 24, 2 ** 31, Number.MAX_SAFE_INTEGER]) {
      const v = `v${version}, ${claim} rows claimed`;
      const add = (name: string, bytes: Uint8Array) => out.push({ name: `${v}: ${name}`, bytes, claim, original });
      add('data whole', withClaim(original, claim));
      const firstBlock = (await r.blocks(col('name').index))[0]!;
      add('cut inside a block of name', withClaim(original, claim).subarray(0, firstBlock.offset + 3));
      add('cut inside the descriptors of pts', withClaim(original, claim).subarray(0, col('pts').start + 6));
      add('cut before tags: a column missing', withClaim(original, claim).subarray(0, col('tags').start));
      const missing = withClaim(original, claim);
      new DataView(missing.buffer).setBigInt64(startsAt + 8 * col('name').index, BigInt(original.length + 1000), true);
      add("name's start past the end", missing);
      add('only the header and the file metadata', withClaim(original, claim).subarray(0, startsAt + 8 * r.columns.length));
    }
    for (const claim of [2 ** 24, 2 ** 31 - 1]) {
      const v = `v${version}, ${claim} rows claimed`;
      // A null column of one block whose descriptor claims every row: intact, but it holds nothing.
      const nul = withClaim(original, claim);
      assert.equal((await r.blocks(col('n').index)).length, 1);
      new DataView(nul.buffer).setInt32(col('n').start + 4, claim, true);
      out.push({ name: `${v}: the null column's descriptor agrees`, bytes: nul, claim, original });
      // So does the long column's last block (its earlier blocks keep their rows), which cannot hold them.
      const blocks = await r.blocks(col('id').index);
      const agree = withClaim(nul, claim);
      new DataView(agree.buffer).setInt32(col('id').start + 4 + 12 * (blocks.length - 1), claim - ROWS + blocks.at(-1)!.numRows, true);
      out.push({ name: `${v}: the null and long columns' descriptors agree`, bytes: agree, claim, original });
      // Every column's last block claims the rows the others lack.
      const all = withClaim(original, claim);
      for (const c of r.columns) {
        const bs = await r.blocks(c.index);
        if (c.hasIndexValues) continue;
        new DataView(all.buffer).setInt32(c.start + 4 + 12 * (bs.length - 1), claim - ROWS + bs.at(-1)!.numRows, true);
      }
      out.push({ name: `${v}: every column's descriptors agree`, bytes: all, claim, original });
    }
  }
  return out;
}

test(`Trevni salvage, check and recover of files claiming rows their bytes lack end within ${SECONDS} s under ${MEMORY_MB} MiB`, { timeout: 600_000 }, async (t) => {
  const list = await instances();
  const t3 = new Uint8Array(readFileSync(join('..', 'shared', 'fuzz', 't3', 'trevni-salvage-16M-claimed-rows.trv')));
  list.push({ name: 't3/trevni-salvage-16M-claimed-rows', bytes: t3, claim: 2 ** 24, original: new Uint8Array() });
  const ops = ['trevni-salvage', 'trevni-check', 'trevni-recover', 'trevni-tail'] as const;
  const cases = list.flatMap((inst, i) => ops.map((op, k): CappedCase => ({ id: i * ops.length + k, op, bytes: inst.bytes })));
  const results = (await runCases(cases, { workers: 2, timeoutMs: 60_000, memoryMb: MEMORY_MB, batch: 6, entry: WORKER })) as (CappedOutcome | { id: number; result: string; error: string })[];
  const bad: string[] = [];
  for (const r of results) {
    const inst = list[Math.floor(r.id / ops.length)]!;
    const op = ops[r.id % ops.length]!;
    const o = r as CappedOutcome;
    // The ordinary reader may refuse such a file, with a typed error; the salvage reads may not.
    const tail = op === 'trevni-tail';
    const problems = [
      o.result !== 'rows' && !(tail && o.result === 'typed') && `${r.result}: ${r.error}`,
      tail && o.result === 'rows' && o.rows > 0 && `${o.rows} rows read past the original's ${ROWS}`,
      o.result === 'rows' && !tail && o.claimed !== inst.claim && `reports ${o.claimed} rows, the header claims ${inst.claim}`,
      // Nothing past the rows the original file holds comes back, and the report counts the rest lost.
      o.result === 'rows' && !tail && o.rows > ROWS && `${o.rows} rows given`,
      o.result === 'rows' && !tail && o.rows + o.lost! !== inst.claim && `${o.rows} recovered + ${o.lost} lost != ${inst.claim}`,
      o.result === 'rows' && !tail && o.lost! < inst.claim - ROWS && `only ${o.lost} rows reported lost`,
      (o.ms ?? 0) > SECONDS * 1000 && `${(o.ms / 1000).toFixed(1)} s`,
      (o.peakMb ?? 0) > MEMORY_MB && `peak ${o.peakMb.toFixed(0)} MiB`,
    ].filter(Boolean);
    t.diagnostic(`${problems.length ? 'FAIL' : 'ok  '} ${op} ${inst.name}: ${o.result === 'rows' ? `${o.rows} rows, ${o.lost} lost` : r.error}, ${(o.ms ?? 0).toFixed(0)} ms, peak ${(o.peakMb ?? 0).toFixed(0)} MiB`);
    if (problems.length) bad.push(`${op} ${inst.name}: ${problems.join('; ')}`);
  }
  assert.equal(results.length, cases.length);
  assert.deepEqual(bad, []);

  // Bounded, so safe to run here: every record given is the original's row, with lost fields MISSING.
  for (const inst of list.filter((i) => i.original.length > 0)) {
    const orig: Record<string, unknown>[] = [];
    for await (const row of (await TrevniReader.open(inst.original)).rows()) orig.push(row);
    for await (const { row, record } of salvagedRows(await salvage(inst.bytes))) {
      assert.ok(row < ROWS, `${inst.name}: row ${row}`);
      const kept = Object.entries(record).filter(([k, v]) => v !== MISSING && k !== 'n');
      assert.ok(kept.length > 0, `${inst.name}: row ${row} kept no field holding data`);
      for (const [k, v] of kept) assert.deepStrictEqual(v, orig[row]![k], `${inst.name}: row ${row}, ${k}`);
    }
  }
});

test(`a version 2 run code's empty arrays are checked, salvaged and sought in time bounded by the bytes: 2^24..2^31 - 1 rows in ${SECONDS} s under ${MEMORY_MB} MiB`, { timeout: 300_000 }, async (t) => {
  const files: { name: string; bytes: Uint8Array; claim: number }[] = [];
  for (const claim of [2 ** 24, 2 ** 27, 2 ** 31 - 1]) {
    for (const shape of ['empty', 'child', 'nulls'] as const) files.push({ name: `${claim} rows, ${shape}`, bytes: await runCodeFile(claim, shape), claim });
  }
  const ops = ['trevni-check', 'trevni-tail'] as const;
  const cases = files.flatMap((f, i) => ops.map((op, k): CappedCase => ({ id: i * ops.length + k, op, bytes: f.bytes })));
  const results = (await runCases(cases, { workers: 2, timeoutMs: 60_000, memoryMb: MEMORY_MB, batch: 6, entry: WORKER })) as CappedOutcome[];
  const bad: string[] = [];
  for (const o of results) {
    const f = files[Math.floor(o.id / ops.length)]!;
    const op = ops[o.id % ops.length]!;
    // The bytes hold every row the header claims (each an empty array): all of them intact, the last 5 read.
    const problems = [
      o.result !== 'rows' && `${o.result}: ${o.error}`,
      op === 'trevni-check' && (o.claimed !== f.claim || o.rows !== f.claim || o.lost !== 0) && `${o.rows} intact, ${o.lost} lost of ${o.claimed}`,
      op === 'trevni-tail' && o.rows !== 5 && `${o.rows} rows at the tail`,
      (o.ms ?? 0) > SECONDS * 1000 && `${(o.ms / 1000).toFixed(1)} s`,
      (o.peakMb ?? 0) > MEMORY_MB && `peak ${o.peakMb.toFixed(0)} MiB`,
    ].filter(Boolean);
    t.diagnostic(`${problems.length ? 'FAIL' : 'ok  '} ${op} ${f.name}: ${(o.ms ?? 0).toFixed(0)} ms, peak ${(o.peakMb ?? 0).toFixed(0)} MiB`);
    if (problems.length) bad.push(`${op} ${f.name}: ${problems.join('; ')}`);
  }
  assert.equal(results.length, cases.length);
  assert.deepEqual(bad, []);
  // The salvage walk agrees, and its records are the reader's: empty arrays, or one null each.
  for (const f of files.filter((f) => f.claim === 2 ** 31 - 1)) {
    const s = await salvage(f.bytes);
    assert.deepStrictEqual([s.report.numRows, s.report.losses, s.report.fieldsLost], [f.claim, [], []], f.name);
    let n = 0;
    for await (const { record } of salvagedRows(s)) {
      assert.deepStrictEqual(record, { a: f.name.endsWith('nulls') ? [null] : [] }, f.name);
      if (++n === 1000) break;
    }
  }
});

test('a row whose every field holding data is lost is no record: counted lost, not given with MISSING fields', async () => {
  const original = await ownFile(2);
  const r = await TrevniReader.open(original);
  // Cut inside the first block of id: id loses its first block's rows, the other fields are whole but for the columns past the cut.
  const cut = original.subarray(0, (await r.blocks(r.column('id').index))[0]!.offset + 2);
  const report = await checkTrevni(cut);
  assert.equal(report.numRows, ROWS);
  assert.equal(report.rowsRecovered, 0);
  const s = await salvage(cut);
  let n = 0;
  for await (const b of s) n += b.rows.length;
  // Only the null column n is intact, and it holds nothing: no record.
  assert.deepStrictEqual(s.report.fieldsLost!.map((f) => [f.field, f.rows.length]), [['id', 1], ['name', 1], ['pts', 1], ['tags', 1]]);
  assert.equal(n, 0);
  assert.deepStrictEqual([s.report.rowsRecovered, s.report.rowsLost], [0, ROWS]);
});

test('reading only null columns, which hold nothing, yields their rows up to the bound of rows without column data', async () => {
  const original = await ownFile(1);
  const r = await TrevniReader.open(original);
  let n = 0;
  for await (const _ of r.rows({ columns: ['n'] })) n++;
  assert.equal(n, ROWS);
  const claimed = withClaim(original, 2 ** 31 - 1);
  new DataView(claimed.buffer).setInt32(r.column('n').start + 4, 2 ** 31 - 1, true);
  const c = await TrevniReader.open(claimed);
  await assert.rejects(async () => {
    let rows = 0;
    // Past the bound is a failure, not a wait for 2^31 rows.
    for await (const _ of c.rows({ columns: ['n'] })) if (++rows > 1 << 16) throw new Error('rows past the bound');
  }, /the read selects no column data, so nothing backs its 2147483647 rows/);
});

test('the CLI check and recover say the claimed rows were lost, within the hang guard', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'parquetry-claims-'));
  const file = join(dir, 'claims.trv');
  writeFileSync(file, withClaim(await ownFile(1), 2 ** 31));
  for (const input of [file, join('..', 'shared', 'fuzz', 't3', 'trevni-salvage-16M-claimed-rows.trv')]) {
    const claim = input === file ? 2 ** 31 : 2 ** 24;
    const cli = (...args: string[]) => spawnSync(process.execPath, [...CLI, ...args], { encoding: 'utf8', timeout: 60_000 });
    const check = cli('check', input);
    assert.equal(check.status, 1, check.stderr);
    assert.match(check.stdout, new RegExp(`^damaged\\nrows: ${claim}, blocks: \\d+, intact in every field: 0, lost: ${claim}\\n`));
    const recover = cli('recover', input, join(dir, 'out.trv'));
    assert.notEqual(recover.status, null, 'recover ended');
    assert.match(recover.stdout, new RegExp(`^wrote 0 of ${claim} rows to .*\\nrows: ${claim}, blocks: \\d+, intact in every field: 0, lost: ${claim}\\n`));
  }
});
