/**
 * writeDataset against DuckDB (1.5, `read_parquet(..., hive_partitioning =
 * true)`), the reference reader: every dataset written reads back row for
 * row, partition values included (URL-encoded, null, strings that look like
 * null), DuckDB prunes by them, and a failed or killed write leaves the
 * directory as it was.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { defineSchema, field, InvalidArgumentError, openParquet } from '../../src/node/index.js';
import { writeDataset, writeDatasetTo, type DatasetOutput } from '../../src/node/entries/dataset.js';
import { duckAndTempDir, footerOf } from './setup.js';

const env = duckAndTempDir('parquetry-dataset-');

/** Every entry under `dir`, hidden ones included, relative and sorted. */
function tree(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const p = rel ? `${rel}/${e.name}` : e.name;
      out.push(e.isDirectory() ? `${p}/` : p);
      if (e.isDirectory()) walk(p);
    }
  };
  walk('');
  return out.sort();
}

const CITIES = ['a/b', 'x=y', 'sp ace%#?', 'ü€', 'NULL', 'null', '__HIVE_DEFAULT_PARTITION__', null, '', "-_.~!$&'()*+,;@", 'plain'];

interface Rec { id: bigint; year: number; city: string | null; amount: number | null; tags: string[]; s: { a: bigint; b: string } }

function records(n: number): Rec[] {
  return Array.from({ length: n }, (_, i) => ({
    id: BigInt(i), year: 2020 + (i % 3), city: CITIES[i % CITIES.length]!, amount: i % 7 ? i / 4 : null, tags: [`t${i % 5}`], s: { a: BigInt(i), b: `x${i}` },
  }));
}

/** A record as DuckDB's `getRowObjectsJson` gives the row: BIGINTs as decimal text. */
function asDuckJson(r: Rec): Record<string, unknown> {
  return { id: String(r.id), amount: r.amount, tags: r.tags, s: { a: String(r.s.a), b: r.s.b }, city: r.city, year: String(r.year) };
}

async function duckRows(dir: string, where = ''): Promise<Record<string, unknown>[]> {
  const sql = `SELECT id, amount, tags, s, city, year FROM read_parquet('${dir}/**/*.parquet', hive_partitioning = true,
    hive_types = {'year': BIGINT, 'city': VARCHAR}) ${where} ORDER BY id`;
  return (await env.db.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[];
}

/** DuckDB's "Scanning Files: k/n" for a query: how many files its partition filter kept. */
async function scannedFiles(dir: string, where: string): Promise<[number, number]> {
  const plan = (await env.db.runAndReadAll(`EXPLAIN ANALYZE SELECT id FROM read_parquet('${dir}/**/*.parquet', hive_partitioning = true,
    hive_types = {'year': BIGINT, 'city': VARCHAR}) ${where}`)).getRows().map((r) => String(r[1])).join('\n');
  const m = /Scanning Files:[\s│]*(\d+)\/(\d+)/.exec(plan);
  assert.ok(m, plan);
  return [Number(m[1]), Number(m[2])];
}

describe('writeDataset', () => {
  test('partitioned by year and city: DuckDB reads every row, with the partition values, and prunes by them', async () => {
    const dir = join(env.root, 'by-city');
    const input = records(1000);
    const report = await writeDataset(dir, input, { partitionBy: ['year', 'city'], maxRowsPerFile: 12, maxOpenFiles: 40 });
    assert.equal(report.rows, 1000);
    const files = tree(dir).filter((p) => !p.endsWith('/'));
    assert.deepEqual(files, report.parts.map((p) => p.path).sort(), 'only the parts: nothing staged or temporary is left');
    for (const f of files) assert.match(f, /^year=202[012]\/city=[A-Za-z0-9%._~-]*\/part-\d+\.parquet$/);
    // The partition columns are left out of the files; no part passes maxRowsPerFile.
    for (const part of report.parts) {
      const reader = await openParquet(join(dir, part.path));
      assert.deepEqual(reader.schema.leaves.map((l) => l.path.join('.')), ['id', 'amount', 'tags.list.element', 's.a', 's.b']);
      assert.ok(reader.numRows <= 12 && reader.numRows === part.rows);
      await reader.close();
    }
    assert.deepEqual(await duckRows(dir), input.map(asDuckJson));
    // Pruning on URL-encoded values, on null, and on a string that reads as null unless encoded.
    for (const [where, city] of [[`WHERE city = 'a/b'`, 'a/b'], [`WHERE city IS NULL`, null], [`WHERE city = 'NULL'`, 'NULL'], [`WHERE city = 'sp ace%#?' AND year = 2021`, 'sp ace%#?']] as const) {
      const expected = input.filter((r) => r.city === city && (!where.includes('2021') || r.year === 2021));
      assert.deepEqual(await duckRows(dir, where), expected.map(asDuckJson), where);
      const [scanned, total] = await scannedFiles(dir, where);
      assert.equal(total, files.length);
      assert.equal(scanned, report.parts.filter((p) => partRowsMatch(p.path, city) && (!where.includes('2021') || p.path.startsWith('year=2021/'))).length, where);
    }
  });

  test('random datasets (partition types and values, part sizes, open parts, order): DuckDB reads each back row for row', async () => {
    let seed = 20261125;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
    const pool = ['a', 'Z', '0', ' ', '/', '=', '%', '?', '#', '&', "'", '"', '\\', '.', '-', '_', '~', 'é', '€', '日', '😀', '\t', '+', ':', '*', ','];
    const text = () => Array.from({ length: 1 + Math.floor(rnd() * 5) }, () => pick(pool)).join('');
    const kinds: Record<string, { duck: string; values: () => unknown[] }> = {
      text: { duck: 'VARCHAR', values: () => [text(), text(), text(), null] }, int: { duck: 'BIGINT', values: () => [-3, 0, 7, 2024, null] }, bool: { duck: 'BOOLEAN', values: () => [true, false, null] },
    };
    for (let t = 0; t < 8; t++) {
      const cols = Array.from({ length: 1 + Math.floor(rnd() * 2) }, (_, k) => ({ name: `p${k}`, kind: pick(['text', 'int', 'bool'] as const) }));
      const domains = cols.map((c) => kinds[c.kind].values());
      const input = Array.from({ length: 100 + Math.floor(rnd() * 200) }, (_, i) => {
        const r: Record<string, unknown> = { id: BigInt(i), x: rnd() < 0.2 ? null : i / 8, s: rnd() < 0.2 ? null : text() };
        cols.forEach((c, k) => (r[c.name] = pick(domains[k]!)));
        return r;
      });
      if (rnd() < 0.5) input.sort((a, b) => String(a.p0).localeCompare(String(b.p0)));
      const options = { partitionBy: cols.map((c) => c.name), maxOpenFiles: 2 + Math.floor(rnd() * 6), ...(rnd() < 0.5 ? { maxRowsPerFile: 10 + Math.floor(rnd() * 90) } : {}) };
      const dir = join(env.root, `random-${t}`);
      await writeDataset(dir, input, options);
      const types = cols.map((c) => `'${c.name}': ${kinds[c.kind].duck}`).join(', ');
      const got = (await env.db.runAndReadAll(`SELECT id, x, s, ${cols.map((c) => c.name).join(', ')} FROM read_parquet('${dir}/**/*.parquet', hive_partitioning = true, hive_types = {${types}}) ORDER BY id`)).getRowObjectsJson();
      const expected = [...input].sort((a, b) => Number(a.id) - Number(b.id)).map((r) => ({ id: String(r.id), x: r.x, s: r.s, ...Object.fromEntries(cols.map((c) => [c.name, c.kind === 'int' && r[c.name] !== null ? String(r[c.name]) : r[c.name]])) }));
      assert.deepEqual(got, expected, `case ${t}: ${JSON.stringify({ cols, options, domains })}`);
    }
  });

  test('directory names are the ones DuckDB gives the same values (COPY ... PARTITION_BY)', async () => {
    const dir = join(env.root, 'names');
    const duckDir = join(env.root, 'names-duck');
    // 'NULL' and '__HIVE_DEFAULT_PARTITION__' left out: DuckDB writes them as is, and reads them back as null.
    const values = CITIES.filter((c) => c !== 'NULL' && c !== 'null' && c !== '__HIVE_DEFAULT_PARTITION__');
    await writeDataset(dir, values.map((city, i) => ({ city, i })), { partitionBy: ['city'] });
    const list = values.map((v) => (v === null ? 'NULL' : `'${v.replaceAll("'", "''")}'`)).join(', ');
    await env.db.run(`COPY (SELECT unnest([${list}]::VARCHAR[]) AS city, 1 AS i) TO '${duckDir}' (FORMAT parquet, PARTITION_BY (city))`);
    const dirs = (d: string) => readdirSync(d).sort();
    assert.deepEqual(dirs(dir), dirs(duckDir));
  });

  test('maxBytesPerFile closes a part once its bytes reach it', async () => {
    const dir = join(env.root, 'bytes');
    const input = records(20000);
    const maxBytes = 64 * 1024;
    const report = await writeDataset(dir, input, { maxBytesPerFile: maxBytes, rowGroupSize: 16 * 1024, codec: 'UNCOMPRESSED', pageIndex: false });
    assert.ok(report.parts.length > 3, `${report.parts.length} parts`);
    for (const part of report.parts.slice(0, -1)) {
      const size = statSync(join(dir, part.path)).size;
      // Closed once written and buffered bytes (the open page estimated) reach the limit: near it, the footer on top.
      assert.ok(size >= maxBytes * 0.75 && size < maxBytes + 16 * 1024, `${part.path}: ${size} bytes`);
    }
    assert.equal((await env.db.runAndReadAll(`SELECT count(*)::INTEGER FROM read_parquet('${dir}/*.parquet')`)).getRows()[0]![0], 20000);
  });

  test('with more partitions than maxOpenFiles, the least recently used part is closed and its partition starts a new one', async () => {
    const dir = join(env.root, 'lru');
    const input = Array.from({ length: 150 }, (_, i) => ({ id: BigInt(i), k: i % 10, v: `v${i}` }));
    const report = await writeDataset(dir, input, { partitionBy: ['k'], maxOpenFiles: 3 });
    // Round-robin over 10 partitions with 3 open: every record finds its part closed.
    assert.equal(report.parts.length, 150);
    const rows = (await env.db.runAndReadAll(`SELECT id, k, v FROM read_parquet('${dir}/**/*.parquet', hive_partitioning = true) ORDER BY id`)).getRowObjectsJson();
    assert.deepEqual(rows, input.map((r) => ({ id: String(r.id), k: String(r.k), v: r.v })));
    // Sorted by the partition column, the same rows make one part per partition.
    const sorted = await writeDataset(join(env.root, 'lru-sorted'), [...input].sort((a, b) => a.k - b.k), { partitionBy: ['k'], maxOpenFiles: 3 });
    assert.equal(sorted.parts.length, 10);
  });

  test('append adds parts numbered past the existing ones and refreshes _metadata; without it a directory with files is refused', async () => {
    const dir = join(env.root, 'append');
    await writeDataset(dir, records(30), { partitionBy: ['year'], writeSummary: true });
    await assert.rejects(writeDataset(dir, records(3), { partitionBy: ['year'] }), (e: unknown) => e instanceof InvalidArgumentError && /already holds files/.test(e.message));
    const more = records(60).slice(30);
    const report = await writeDataset(dir, more, { partitionBy: ['year'], append: true });
    assert.deepEqual(report.parts.map((p) => p.path).sort(), ['year=2020/part-1.parquet', 'year=2021/part-1.parquet', 'year=2022/part-1.parquet']);
    assert.equal(report.summaryFiles.length, 2, 'the old _metadata would hide the new parts');
    const summary = await footerOf(join(dir, '_metadata'));
    assert.equal(summary.numRows, 60);
    assert.equal(new Set(summary.rowGroups.map((rg) => rg.columns[0]!.filePath)).size, 6);
  });

  test('an append whose parts the _metadata cannot take (another schema) is refused before they are published; the dataset is left as it was', async () => {
    const dir = join(env.root, 'append-other-schema');
    await writeDataset(dir, records(12), { partitionBy: ['year', 'city'], writeSummary: true });
    const before = tree(dir);
    const rowsBefore = await duckRows(dir);
    await assert.rejects(writeDataset(dir, [{ id: 1n, year: 2021, city: 'c', other: 'x' }], { partitionBy: ['year', 'city'], append: true }), /different schemas/);
    assert.deepEqual(tree(dir), before, 'no part left that _metadata does not name');
    assert.deepEqual(await duckRows(dir), rowsBefore);
  });

  test('a record that does not fit fails the write, named by its place in the input; the dataset is left as it was', async () => {
    const dir = join(env.root, 'bad-record');
    await writeDataset(dir, records(40), { partitionBy: ['year', 'city'] });
    const before = tree(dir);
    const rowsBefore = await duckRows(dir);
    const schema = defineSchema({ id: field.int64().required(), year: field.int32(), v: field.string() });
    const input = [...Array.from({ length: 500 }, (_, i) => ({ id: BigInt(i), year: 2020 + (i % 3), v: `v${i}` })), { id: 'not a number', year: 2021, v: 'x' }];
    await assert.rejects(writeDataset(dir, input, { partitionBy: ['year'], schema, append: true, maxRowsPerFile: 50 }), (e: unknown) => {
      assert.ok(e instanceof InvalidArgumentError);
      assert.match(e.message, /^record 500 \(for year=2021\/part-\d+\.parquet\): /);
      return true;
    });
    assert.deepEqual(tree(dir), before, 'no part, staged file, temp file or new directory is left');
    assert.deepEqual(await duckRows(dir), rowsBefore);
  });

  test('an input that throws midway leaves nothing, new partition directories included', async () => {
    const dir = join(env.root, 'throws');
    await writeDataset(dir, records(40), { partitionBy: ['year'] });
    const before = tree(dir);
    async function* failing() {
      for (let i = 0; i < 100; i++) yield { id: BigInt(i), year: 1990 + (i % 7), city: 'c', amount: 1, tags: [], s: { a: 1n, b: '' } };
      throw new Error('the source went away');
    }
    await assert.rejects(writeDataset(dir, failing(), { partitionBy: ['year', 'city'], append: true, maxRowsPerFile: 20, maxOpenFiles: 2, sampleSize: 10 }), /the source went away/);
    assert.deepEqual(tree(dir), before);
  });

  test('options that cannot make a readable dataset are refused before anything is written', async () => {
    const dir = join(env.root, 'refused');
    const input = [{ id: 1n, _x: 1, y: { z: 1 }, w: 2 }];
    const cases: [object, RegExp][] = [
      [{ partitionBy: ['_x'] }, /partition column _x would name directories starting with _, which dataset readers skip/],
      [{ partitionBy: ['nope'] }, /partition column nope is not a top-level field/],
      [{ partitionBy: ['y'] }, /partition column y is a group/],
      [{ partitionBy: ['w', 'w'] }, /names a column twice/],
      [{ fileName: 'part.parquet' }, /fileName must contain \{i\}/],
      [{ fileName: 'a/{i}.parquet' }, /must be a plain file name/],
      [{ maxRowsPerFile: 0 }, /maxRowsPerFile must be a positive integer/],
    ];
    for (const [options, message] of cases) {
      await assert.rejects(writeDataset(dir, input, options), (e: unknown) => e instanceof InvalidArgumentError && message.test(e.message), JSON.stringify(options));
    }
    assert.throws(() => readdirSync(dir), /ENOENT/);
  });

  test('no more than maxOpenFiles parts are open at once, however many partitions the input has', async () => {
    let open = 0;
    let peak = 0;
    const output: DatasetOutput = {
      exists: async () => false,
      create: async () => {
        peak = Math.max(peak, ++open);
        return { write: async () => undefined, close: async () => void open--, abort: async () => void open-- };
      },
      commit: async () => undefined,
      discard: async () => undefined,
    };
    const input = Array.from({ length: 3000 }, (_, i) => ({ id: BigInt(i), k: (i * 7919) % 200 }));
    const report = await writeDatasetTo(output, input, { partitionBy: ['k'], maxOpenFiles: 4 });
    assert.equal(peak, 4);
    assert.equal(open, 0);
    assert.equal(report.rows, 3000);
    assert.equal(new Set(report.parts.map((p) => p.path.split('/')[0])).size, 200);
  });

  test('Date partition values: a UTC midnight is a date DuckDB reads as DATE, other instants ISO timestamps', async () => {
    const dir = join(env.root, 'dates');
    const day = (d: number) => new Date(Date.UTC(2024, 0, 1 + d));
    const input = Array.from({ length: 40 }, (_, i) => ({ id: BigInt(i), day: day(i % 4), ts: new Date(Date.UTC(2024, 0, 1, i % 3, 30, 15, 250)) }));
    await writeDataset(dir, input, { partitionBy: ['day', 'ts'] });
    const got = (await env.db.runAndReadAll(`SELECT id, typeof(day) AS t, day::VARCHAR AS day, epoch_ms(ts::TIMESTAMP)::VARCHAR AS ts FROM read_parquet('${dir}/**/*.parquet', hive_partitioning = true) ORDER BY id`)).getRowObjectsJson();
    assert.deepEqual(got, input.map((r) => ({ id: String(r.id), t: 'DATE', day: r.day.toISOString().slice(0, 10), ts: String(r.ts.getTime()) })));
  });

  test('a sink that fails aborts every open part and discards the staged ones', async () => {
    const events: string[] = [];
    let writes = 0;
    const output: DatasetOutput = {
      exists: async () => false,
      create: async (path) => {
        events.push(`create ${path}`);
        return {
          write: async () => {
            if (++writes === 40) throw new Error('disk full');
          },
          close: async () => void events.push(`close ${path}`),
          abort: async () => void events.push(`abort ${path}`),
        };
      },
      commit: async () => void events.push('commit'),
      discard: async () => void events.push('discard'),
    };
    const input = Array.from({ length: 5000 }, (_, i) => ({ id: BigInt(i), k: i % 4 }));
    await assert.rejects(writeDatasetTo(output, input, { partitionBy: ['k'], rowGroupRows: 100, maxRowsPerFile: 1000 }), /disk full/);
    assert.ok(!events.includes('commit'));
    assert.equal(events.at(-1), 'discard');
    const created = events.filter((e) => e.startsWith('create ')).map((e) => e.slice(7));
    for (const path of created) assert.ok(events.includes(`close ${path}`) || events.includes(`abort ${path}`), `${path} finished or aborted`);
  });

  test('a killed writer leaves no visible part: DuckDB reads the dataset as it was', async () => {
    const dir = join(env.root, 'killed');
    await writeDataset(dir, records(40), { partitionBy: ['year', 'city'] });
    const visible = () => tree(dir).filter((p) => !p.endsWith('/') && !p.split('/').at(-1)!.startsWith('.'));
    const visibleBefore = visible();
    const rowsBefore = await duckRows(dir);
    // A child writes with small parts, then waits forever for its next record; it is killed once parts are staged.
    const script = `
      import { writeDataset } from './src/node/entries/dataset.js';
      async function* rows() {
        for (let i = 0; i < 3000; i++) yield { id: BigInt(i), year: 2020 + (i % 3), city: 'k', amount: 1, tags: [], s: { a: 1n, b: '' } };
        process.stdout.write('waiting\\n');
        await new Promise(() => setInterval(() => {}, 1000));
      }
      await writeDataset(${JSON.stringify(dir)}, rows(), { partitionBy: ['year', 'city'], append: true, maxRowsPerFile: 100 });`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => d.toString().includes('waiting') && resolve());
      child.on('exit', (code) => reject(new Error(`the writer ended (${code}) before it was killed`)));
    });
    const staged = tree(dir).filter((p) => /parquetry-pending/.test(p));
    assert.ok(staged.length >= 20, `parts were staged: ${staged.length}`);
    child.removeAllListeners('exit');
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    assert.deepEqual(await duckRows(dir), rowsBefore);
    assert.deepEqual(visible(), visibleBefore, 'only the old parts are visible');
  });
});

/** Whether a part's directory is the partition of `city` (decoded as DuckDB decodes it). */
function partRowsMatch(path: string, city: string | null): boolean {
  const name = path.split('/')[1]!.slice('city='.length);
  return city === null ? name === '__HIVE_DEFAULT_PARTITION__' : name !== '__HIVE_DEFAULT_PARTITION__' && decodeURIComponent(name) === city;
}
