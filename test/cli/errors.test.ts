/**
 * What a user sees when a command stops: the output already produced, the
 * one-line message and the exit status. The output printed before an error
 * is a property of the process (it must reach a pipe or a file before the
 * process exits), so those commands run as a user runs them, as a child
 * process; the rest run in-process through the same `main`.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chmodSync, closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openParquet, writeParquet } from '../../src/node/index.js';
import { run } from './run-cli.js';
import { CLI } from './bin.js';

interface Result {
  code: number | null;
  out: string;
  err: string;
}

/** The command as a child process with stdout a pipe (the test reads it). */
function runChild(...args: string[]): Result {
  const r = spawnSync(process.execPath, [...CLI, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** The command as a child process with stdout redirected to a file, as `> out` does. */
function runToFile(path: string, ...args: string[]): Result {
  const fd = openSync(path, 'w');
  try {
    const r = spawnSync(process.execPath, [...CLI, ...args], { encoding: 'utf8', stdio: ['ignore', fd, 'pipe'] });
    return { code: r.status, out: readFileSync(path, 'utf8'), err: r.stderr };
  } finally {
    closeSync(fd);
  }
}

const lines = (s: string) => s.split('\n').filter(Boolean);

let dir = '';
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'parquetry-cli-errors-'));
});
after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('output printed before an error reaches stdout whole', () => {
  const ROWS = 4000; // per row group: far beyond one 64 KiB write of JSON lines
  let bad = '';

  before(async () => {
    // Three row groups, the last one's first page header overwritten: rows of groups 0 and 1 read, then an error.
    const good = join(dir, 'good.parquet');
    await writeParquet(good, Array.from({ length: 3 * ROWS }, (_, i) => ({ id: i, name: `row number ${i}` })), { rowGroupRows: ROWS, codec: 'UNCOMPRESSED' });
    const reader = await openParquet(good);
    assert.equal(reader.file.metadata.rowGroups.length, 3);
    const md = reader.file.metadata.rowGroups[2]!.columns[0]!.metaData!;
    const start = Number(md.dictionaryPageOffset ?? md.dataPageOffset);
    await reader.close();
    const bytes = new Uint8Array(readFileSync(good));
    bytes.fill(0xff, start, start + 32);
    bad = join(dir, 'bad.parquet');
    writeFileSync(bad, bytes);
  });

  const expectStopped = (r: Result) => {
    assert.equal(r.code, 1, r.err);
    assert.match(r.err, /^parquetry: .*\(file .*bad\.parquet, offset \d+, row group 2, column id, page 0\)\n$/);
  };

  test('cat --json to a pipe and to a file: every row of the good row groups', () => {
    for (const r of [runChild('cat', bad, '--json'), runToFile(join(dir, 'cat.jsonl'), 'cat', bad, '--json')]) {
      expectStopped(r);
      const got = lines(r.out);
      assert.equal(got.length, 2 * ROWS);
      assert.deepEqual(JSON.parse(got.at(-1)!), { id: 2 * ROWS - 1, name: `row number ${2 * ROWS - 1}` });
    }
  });

  test('cat as records, head --json', () => {
    const records = runChild('cat', bad);
    expectStopped(records);
    assert.equal(lines(records.out).filter((l) => l.startsWith('id = ')).length, 2 * ROWS);
    const head = runChild('head', bad, '-n', String(3 * ROWS), '--json');
    expectStopped(head);
    assert.equal(lines(head.out).length, 2 * ROWS);
  });

  test('convert to stdout: the rows converted before the error', () => {
    const r = runChild('convert', bad, '-', '--to', 'jsonl');
    expectStopped(r);
    assert.equal(lines(r.out).length, 2 * ROWS);
    const csv = runToFile(join(dir, 'out.csv'), 'convert', bad, '-', '--to', 'csv');
    expectStopped(csv);
    assert.equal(lines(csv.out).length, 1 + 2 * ROWS);
  });
});

test('the bin ends the process with the status main returns: 0, 1, 3 (data lost), as in-process runs report it', async () => {
  const shared = join('..', 'shared', 'fuzz', 't3');
  const runs: [string[], number][] = [
    [['meta', 'examples/fixtures/sample.parquet'], 0],
    [['meta', join(dir, 'no-such.parquet')], 1],
    [['recover', join(shared, 'recover-scan-truncated-576.parquet'), join(dir, 'recovered.parquet'), '--like', join(shared, 'recover-scan-truncated.like.parquet')], 3],
  ];
  for (const [args, status] of runs) {
    const child = runChild(...args);
    assert.equal(child.code, status, child.err);
    const inProcess = await run(...args);
    assert.deepEqual({ code: inProcess.code, out: inProcess.out, err: inProcess.err }, child, args.join(' '));
  }
});

describe('a FILE that cannot be read: one line naming why, exit status 1', () => {
  const COMMANDS = [['schema'], ['meta'], ['cat'], ['head'], ['pages'], ['column-index'], ['bloom-filter', '--column', 'id', '--value', '1']];
  // One command of each way in: the Trevni-or-Parquet ones, those over column chunks, bloom-filter.
  const SOME = [COMMANDS[2]!, COMMANDS[4]!, COMMANDS[6]!];
  const expectOneLine = (r: Result, message: string) => {
    assert.equal(r.err, `parquetry: ${message}\n`);
    assert.equal(r.code, 1);
    assert.equal(r.out, '');
  };

  test('a schema with two siblings of one name (a LIST a and an INT32 a): refused, not printed wrong (exit 70 and a stack trace before)', async () => {
    const file = '../shared/fuzz/hostile/pq-duplicate-names.parquet';
    const message = `the schema has two fields named "a" (file ${file}, offset 67, column a)`;
    for (const args of [['cat', '--json'], ['cat'], ['head', '--json']]) expectOneLine(await run(args[0]!, file, ...args.slice(1)), message);
    const out = join(dir, 'dup.jsonl');
    expectOneLine(await run('convert', file, out), message);
    assert.equal(existsSync(out), false, 'no output written');
  });

  test('a directory: refused by every command that reads one file; schema, meta, cat, head and convert read it as a dataset', async () => {
    for (const [command, ...rest] of COMMANDS.slice(4)) expectOneLine(await run(command!, dir, ...rest), `cannot read ${dir}: it is a directory`);
    const empty = join(dir, 'empty-dataset');
    mkdirSync(empty);
    for (const [command] of COMMANDS.slice(0, 4)) expectOneLine(await run(command!, empty), `no Parquet file in ${empty} (file ${empty})`);
    // convert reads a directory as a dataset too.
    expectOneLine(await run('convert', empty, join(dir, 'x.parquet')), `no Parquet file in ${empty} (file ${empty})`);
    expectOneLine(await run('convert', empty, join(dir, 'x.csv'), '--from', 'parquet'), `no Parquet file in ${empty} (file ${empty})`);
    expectOneLine(await run('convert', empty, join(dir, 'x.parquet'), '--from', 'csv'), `${empty} is a dataset of Parquet files; --from csv does not apply (see 'parquetry convert --help')`);
    assert.equal(existsSync(join(dir, 'x.parquet')) || existsSync(join(dir, 'x.csv')), false, 'no output written');
  });

  test('a missing file, a path through a file, a FIFO', async () => {
    const missing = join(dir, 'no-such.parquet');
    for (const [command, ...rest] of SOME) expectOneLine(await run(command!, missing, ...rest), `cannot read ${missing}: no such file`);
    expectOneLine(await run('convert', join(dir, 'no-such.csv'), join(dir, 'x.parquet')), `cannot read ${join(dir, 'no-such.csv')}: no such file`);
    const file = join(dir, 'plain.txt');
    writeFileSync(file, 'x');
    expectOneLine(await run('cat', join(file, 'x.parquet')), `cannot read ${join(file, 'x.parquet')}: a part of the path is not a directory`);
    // A Parquet file is read at any offset: a FIFO is refused rather than waited on.
    const fifo = join(dir, 'fifo.parquet');
    spawnSync('mkfifo', [fifo]);
    const why = 'not a regular file (Parquet and Trevni files are read at any offset, which a pipe or device does not allow)';
    for (const [command, ...rest] of SOME) expectOneLine(await run(command!, fifo, ...rest), `cannot read ${fifo}: ${why}`);
    expectOneLine(await run('convert', fifo, join(dir, 'x.csv')), `cannot read ${fifo}: ${why}`);
  });

  test('permission denied', { skip: process.getuid?.() === 0 ? 'root reads any file' : false }, async () => {
    const locked = join(dir, 'locked.parquet');
    writeFileSync(locked, 'PAR1');
    chmodSync(locked, 0);
    expectOneLine(await run('cat', locked), `cannot read ${locked}: permission denied`);
    expectOneLine(await run('convert', locked, join(dir, 'x.csv')), `cannot read ${locked}: permission denied`);
  });

  test('convert streams CSV from a FIFO: its first bytes are not taken to look for a Trevni magic', async () => {
    const fifo = join(dir, 'in.csv');
    spawnSync('mkfifo', [fifo]);
    const out = join(dir, 'from-fifo.parquet');
    const r = spawnSync('sh', ['-c', `f=$1 node=$2 out=$3; shift 3; printf 'id,name\\n1,a\\n2,b\\n' > "$f" & exec "$node" "$@" convert "$f" "$out" -q`, 'sh', fifo, process.execPath, out, ...CLI], {
      encoding: 'utf8', timeout: 30_000,
    });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(lines((await run('cat', out, '--json')).out), ['{"id":1,"name":"a"}', '{"id":2,"name":"b"}']);
  });
});

describe('usage errors: one line pointing to the help, exit status 1', () => {
  const usage = async (args: string[], line: string) => {
    const r = await run(...args);
    assert.equal(r.err, `${line}\n`);
    assert.equal(r.code, 1);
    assert.equal(r.out, '');
  };

  test('unknown option or command, bad or missing value, missing argument', async () => {
    await usage(['cat', 'x.parquet', '--bogus'], "parquetry: unknown option '--bogus' (see 'parquetry cat --help')");
    await usage(['cat', 'x.parquet', '--limt', '3'], "parquetry: unknown option '--limt', did you mean --limit? (see 'parquetry cat --help')");
    await usage(['cat', 'x.parquet', '--limit', 'ten'], "parquetry: option '--limit <n>' argument 'ten' is invalid: must be a non-negative whole number (see 'parquetry cat --help')");
    await usage(['head', 'x.parquet', '-n'], "parquetry: option '-n, --limit <n>' argument missing (see 'parquetry head --help')");
    await usage(['cat'], "parquetry: missing required argument 'file' (see 'parquetry cat --help')");
    await usage(['convert', 'in.csv'], "parquetry: missing required argument 'out' (see 'parquetry convert --help')");
    await usage(['bloom-filter', 'x.parquet', '--column', 'id'], "parquetry: required option '--value <v>' not specified (see 'parquetry bloom-filter --help')");
    await usage(['frobnicate'], "parquetry: unknown command 'frobnicate' (see 'parquetry --help')");
    await usage(['--bogus'], "parquetry: unknown option '--bogus' (see 'parquetry --help')");
  });

  test('option values checked once the command runs: the same form, before any input is read', async () => {
    // in.csv does not exist: the options are refused first.
    await usage(['convert', 'in.csv', 'out.parquet', '--codec', 'lzo'],
      "parquetry: option '--codec <name>' argument 'lzo' is invalid: must be UNCOMPRESSED, SNAPPY, GZIP, BROTLI, ZSTD or LZ4_RAW for Parquet output (see 'parquetry convert --help')");
    await usage(['convert', 'in.csv', 'out.parquet', '--codec', 'snappy', '--compression-level', '3'],
      "parquetry: --compression-level applies to the GZIP, BROTLI and ZSTD codecs only; SNAPPY has no levels (see 'parquetry convert --help')");
    await usage(['convert', 'examples/fixtures/sample.parquet', 'out.csv', '--page-size', '1MiB'],
      "parquetry: --page-size applies to Parquet output only (see 'parquetry convert --help')");
  });

  test('--help prints the help and exits 0; so does --version', async () => {
    const help = await run('convert', '--help');
    assert.equal(help.code, 0);
    assert.match(help.out, /^Usage: parquetry convert \[options\] <in> <out>\n/);
    assert.equal(help.err, '');
    const version = await run('--version');
    assert.equal(version.code, 0);
    assert.match(version.out, /^\d+\.\d+\.\d+\n$/);
  });
});

describe('messages that say what is wrong in the words of the command line', () => {
  const oneLine = (r: Result, line: string) => {
    assert.equal(r.err, `${line}\n`);
    assert.equal(r.code, 1);
  };

  test('--bloom-filter with an ndv or fpp that is not a number names it', async () => {
    const csv = join(dir, 'bloom.csv');
    writeFileSync(csv, 'user,id\na,1\n');
    const out = join(dir, 'bloom.parquet');
    const bad = async (spec: string, why: string) => oneLine(await run('convert', csv, out, '--bloom-filter', spec),
      `parquetry: option '--bloom-filter <col[:ndv[:fpp]]>' argument '${spec}' is invalid: ${why} (see 'parquetry convert --help')`);
    await bad('user:abc', 'the ndv "abc" is not a positive whole number');
    await bad('user:1e3', 'the ndv "1e3" is not a positive whole number');
    await bad('user:0', 'the ndv "0" is not a positive whole number');
    await bad('user:100:2', 'the fpp "2" is not a number between 0 and 1');
    await bad('user:1:0.1:x', 'must be col[:ndv[:fpp]]');
    // An empty ndv keeps its default.
    assert.equal((await run('convert', csv, out, '--bloom-filter', 'user::0.001', '-q')).code, 0);
    // A column the output lacks, in the option's words (not the library's options.bloomFilters).
    oneLine(await run('convert', csv, out, '--bloom-filter', 'usr', '-q'), "parquetry: --bloom-filter usr: the output has no leaf column usr (a struct's leaves are named as a.b) (see 'parquetry convert --help')");
  });

  test('a count too large for a number names its option', async () => {
    oneLine(await run('head', 'examples/fixtures/sample.parquet', '-n', '99999999999999999999'),
      "parquetry: option '-n, --limit <n>' argument '99999999999999999999' is invalid: must be a whole number from 0 to 9007199254740991 (see 'parquetry head --help')");
    oneLine(await run('cat', 'examples/fixtures/sample.parquet', '--offset', '9007199254740992'),
      "parquetry: option '--offset <n>' argument '9007199254740992' is invalid: must be a whole number from 0 to 9007199254740991 (see 'parquetry cat --help')");
    assert.equal((await run('head', 'examples/fixtures/sample.parquet', '-n', '9007199254740991', '--columns', 'id')).code, 0);
  });

  test('pages, column-index and bloom-filter on a Trevni file say they are for Parquet files', async () => {
    const tiny = '../shared/trevni-corpus/tiny.trv';
    for (const [command, ...rest] of [['pages'], ['column-index'], ['bloom-filter', '--column', 'x', '--value', '1']]) {
      oneLine(await run(command!, tiny, ...rest), `parquetry: ${command} is for Parquet files; ${tiny} is a Trevni file (schema, meta, cat and head read Trevni files)`);
    }
  });

  test('check and recover on a RedElm or text file, and the Parquet-only commands on a text file, name its format', async () => {
    const redelm = '../shared/ancestors/redelm/tiny_gzip.redelm';
    oneLine(await run('check', redelm), `parquetry: check is for Parquet and Trevni files; ${redelm} is a RedElm file (schema, meta, cat and head read RedElm files)`);
    oneLine(await run('recover', redelm, join(dir, 'out.redelm')), `parquetry: recover is for Parquet and Trevni files; ${redelm} is a RedElm file (schema, meta, cat and head read RedElm files)`);
    const csv = join(dir, 'trips.csv');
    writeFileSync(csv, 'id,fare\n1,5\n');
    oneLine(await run('check', csv), `parquetry: check is for Parquet and Trevni files; ${csv} is a CSV file (schema, meta, cat and head read CSV files)`);
    oneLine(await run('recover', csv, join(dir, 'out.csv')), `parquetry: recover is for Parquet and Trevni files; ${csv} is a CSV file (schema, meta, cat and head read CSV files)`);
    const jsonl = join(dir, 'events.jsonl');
    writeFileSync(jsonl, '{"id":1}\n');
    for (const [command, ...rest] of [['pages'], ['footer'], ['bloom-filter', '--column', 'id', '--value', '1']]) {
      oneLine(await run(command!, jsonl, ...rest), `parquetry: ${command} is for Parquet files; ${jsonl} is a JSON Lines file (schema, meta, cat and head read JSON Lines files)`);
    }
  });

  test('schema, meta, cat and head on a file neither its magic nor its extension tells name the way on in command-line terms', async () => {
    const txt = join(dir, 'data.txt');
    writeFileSync(txt, 'a,b\n1,2\n');
    for (const command of ['schema', 'meta', 'cat', 'head']) {
      oneLine(await run(command, txt), `parquetry: cannot tell the format of ${txt}: it is not Parquet, Trevni or RedElm, and has no .csv, .tsv, .jsonl or .json extension (name it so, or convert it with --from FORMAT)`);
    }
  });

  test('a dataset of files of different columns names --union-by-name, not the library\'s unionByName (and leaves paths that hold the word as they are)', async () => {
    const ds = join(dir, 'unionByName');
    mkdirSync(ds);
    await writeParquet(join(ds, 'f1.parquet'), [{ id: 1, a: 'x' }]);
    await writeParquet(join(ds, 'f2.parquet'), [{ id: 2, b: 3 }]);
    oneLine(await run('head', ds), `parquetry: column "a" of ${join(ds, 'f1.parquet')} is not in ${join(ds, 'f2.parquet')} (--union-by-name reads such columns as null) (file ${join(ds, 'f2.parquet')})`);
  });

  test('a directory that is a file: summary FILE and convert into a dataset over a file say it is a file', async () => {
    const file = join(dir, 'one.parquet');
    await writeParquet(file, [{ id: 1, k: 'a' }]);
    oneLine(await run('summary', file), `parquetry: cannot list ${file}: it is a file, not a directory (file ${file})`);
    const taken = join(dir, 'taken.parquet');
    writeFileSync(taken, 'not a directory');
    oneLine(await run('convert', file, taken, '--partition-by', 'k', '-q'), `parquetry: cannot list ${taken}: it is a file, not a directory (file ${taken})`);
  });

  describe('a URL the server does not serve: what the server answered', () => {
    let server: Server;
    let base = '';
    before(async () => {
      const sample = readFileSync('examples/fixtures/sample.parquet');
      server = createServer((req, res) => {
        if (req.url === '/sample.parquet') {
          const range = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
          if (range) {
            res.writeHead(206, { 'content-length': Number(range[2]) - Number(range[1]) + 1 });
            res.end(sample.subarray(Number(range[1]), Number(range[2]) + 1));
          } else {
            res.writeHead(200, { 'content-length': sample.length });
            res.end(req.method === 'HEAD' ? undefined : sample);
          }
        } else if (req.url === '/streamed.parquet') {
          res.writeHead(200, { 'transfer-encoding': 'chunked' });
          res.end();
        } else {
          res.writeHead(404);
          res.end('not here');
        }
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(() => new Promise<void>((resolve) => server.close(() => resolve())));

    test('404 for every command that reads a URL, and convert', async () => {
      const url = `${base}/missing.parquet`;
      const runs = await Promise.all([
        run('cat', url), run('pages', url), run('bloom-filter', url, '--column', 'id', '--value', '1'),
        run('convert', url, join(dir, 'from-url.csv')),
      ]);
      for (const r of runs) oneLine(r, `parquetry: cannot read ${url}: the server answered 404 Not Found`);
      const streamed = `${base}/streamed.parquet`;
      oneLine(await run('meta', streamed),
        `parquetry: cannot read ${streamed}: the server gave no Content-Length (a Parquet file is read in byte ranges, and its footer is found from its size)`);
    });

    test('a URL served with ranges still reads', async () => {
      const [cat, pages] = await Promise.all([
        run('cat', `${base}/sample.parquet`, '--columns', 'id', '--limit', '2', '--json'),
        run('pages', `${base}/sample.parquet`, '--column', 'id', '--json'),
      ]);
      assert.equal(cat.out, '{"id":1}\n{"id":2}\n', cat.err);
      assert.equal(JSON.parse(lines(pages.out)[0]!).type, 'data v1', pages.err);
    });
  });
});
