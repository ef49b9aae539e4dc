/**
 * The Node file adapters on what a path can be besides a regular file:
 * destinations that are symlinks, FIFOs, sockets, directories or in a missing
 * directory (`fileSink`, through `openWriter`, `writeParquet`, the Trevni
 * writer and `parquetry convert`), sources that are directories or unreadable,
 * and readers used after `close()`. Only FIFOs, symlinks, sockets and
 * directories made under a temporary directory are used, never real devices.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IOError, ParquetryError, defineSchema, field as f, fileSink, fileSource, openParquet, openWriter, writeParquet } from '../../src/node/index.js';
import { TrevniReader, TrevniWriter } from '../../src/node/entries/trevni.js';
import { CLI } from '../cli/bin.js';

let dir = '';
let count = 0;

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'parquetry-node-files-'));
});

after(() => {
  rmSync(dir, { recursive: true, force: true });
});

function newDir(): string {
  const d = join(dir, `t${count++}`);
  mkdirSync(d);
  return d;
}

const schema = defineSchema({ id: f.int64().required(), s: f.string() });
const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ id: BigInt(i), s: `s${i}` }));

async function writeRows(dest: string, n = 250): Promise<void> {
  const w = await openWriter(dest, schema, { rowGroupRows: 100 });
  await w.writeMany(rows(n));
  await w.close();
}

async function readIds(path: string): Promise<bigint[]> {
  const r = await openParquet(path);
  try {
    return (await r.readRows()).map((row) => row.id as bigint);
  } finally {
    await r.close();
  }
}

async function numRows(path: string): Promise<number> {
  const r = await openParquet(path);
  await r.close();
  return r.numRows;
}

/** Starts `cat FIFO` and collects what it reads; `done` fails if nothing closes the pipe within `ms`. */
function catFifo(path: string, ms = 10_000): { done: Promise<Buffer> } {
  const child = spawn('cat', [path], { stdio: ['ignore', 'pipe', 'pipe'] });
  const parts: Buffer[] = [];
  child.stdout.on('data', (b: Buffer) => parts.push(b));
  const done = new Promise<Buffer>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`the reader on the FIFO got no end of file within ${ms} ms (${Buffer.concat(parts).length} bytes)`));
    }, ms);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(Buffer.concat(parts));
      else reject(new Error(`cat exited with ${code}`));
    });
  });
  return { done };
}

function mkfifo(path: string): void {
  execFileSync('mkfifo', [path]);
}

/** What is at `path`, not following a symlink. */
function kind(path: string): string {
  const st = lstatSync(path);
  if (st.isSymbolicLink()) return 'symlink';
  if (st.isFIFO()) return 'fifo';
  if (st.isSocket()) return 'socket';
  if (st.isDirectory()) return 'directory';
  if (st.isFile()) return 'file';
  return 'other';
}

/**
 * Runs `call` (an expression using the Node entry point's exports) in a child
 * process as an unprivileged user (root may read and write anything) and
 * returns what it threw.
 */
function unprivileged(call: string): { io: boolean; message: string; detail: string; file: string } {
  chmodSync(dir, 0o755);
  const script = `
    import { openParquet, openWriter, defineSchema, field, IOError } from ${JSON.stringify(join(process.cwd(), 'src/node/index.ts'))};
    try { ${call}; console.log('{}'); }
    catch (e) { console.log(JSON.stringify({ io: e instanceof IOError, message: e.message, detail: e.detail, file: e.context?.file })); }
  `;
  const asNobody = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', ...asNobody });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout.trim());
}

// ------------------------------------------------------------------ destinations

describe('a destination that is a regular file', () => {
  test('a rewrite keeps the permission bits of the file it replaces; a new file gets the default', async () => {
    const d = newDir();
    const private_ = join(d, 'private.parquet');
    writeFileSync(private_, 'old');
    chmodSync(private_, 0o640);
    await writeRows(private_);
    assert.equal(statSync(private_).mode & 0o777, 0o640);
    assert.deepEqual(await readIds(private_), rows(250).map((r) => r.id));
    const fresh = join(d, 'fresh.parquet');
    await writeRows(fresh);
    assert.equal(statSync(fresh).mode & 0o777, 0o666 & ~process.umask());
  });
});

describe('a destination that is a symlink', () => {
  test('the target is replaced (temp file beside the target), the link stays a link', async () => {
    const d = newDir();
    mkdirSync(join(d, 'links'));
    mkdirSync(join(d, 'data'));
    const target = join(d, 'data', 'target.parquet');
    writeFileSync(target, 'old contents');
    const link = join(d, 'links', 'out.parquet');
    symlinkSync('../data/target.parquet', link);

    const w = await openWriter(link, schema, { rowGroupRows: 100 });
    await w.writeMany(rows(250));
    assert.deepEqual(readdirSync(join(d, 'links')), ['out.parquet'], 'no temp file beside the link');
    const beside = readdirSync(join(d, 'data')).filter((n) => n !== 'target.parquet');
    assert.equal(beside.length, 1, `one temp file beside the target: ${beside}`);
    assert.match(beside[0]!, /^\.target\.parquet\.parquetry-tmp-[0-9a-f]+$/);
    assert.equal(readFileSync(target, 'utf8'), 'old contents', 'the target is untouched until close');
    await w.close();

    assert.equal(kind(link), 'symlink');
    assert.equal(readlinkSync(link), '../data/target.parquet');
    assert.deepEqual(readdirSync(join(d, 'data')), ['target.parquet']);
    assert.deepEqual(await readIds(target), rows(250).map((r) => r.id));
  });

  test('a dangling link creates its target; a chain of links is followed to the end', async () => {
    const d = newDir();
    const dangling = join(d, 'dangling.parquet');
    symlinkSync('made.parquet', dangling);
    await writeParquet(dangling, [{ a: 1 }, { a: 2 }]);
    assert.equal(kind(dangling), 'symlink');
    assert.equal(kind(join(d, 'made.parquet')), 'file');
    assert.equal(await numRows(join(d, 'made.parquet')), 2);

    mkdirSync(join(d, 'sub'));
    writeFileSync(join(d, 'sub', 'end.parquet'), '');
    symlinkSync('sub/end.parquet', join(d, 'second'));
    symlinkSync('second', join(d, 'first'));
    await writeRows(join(d, 'first'), 10);
    assert.equal(kind(join(d, 'first')), 'symlink');
    assert.equal(kind(join(d, 'second')), 'symlink');
    assert.deepEqual(await readIds(join(d, 'sub', 'end.parquet')), rows(10).map((r) => r.id));
    assert.deepEqual(readdirSync(join(d, 'sub')), ['end.parquet']);
  });

  test('a link through a linked directory resolves ".." from the real directory', async () => {
    const d = newDir();
    mkdirSync(join(d, 'real', 'inner'), { recursive: true });
    symlinkSync('real/inner', join(d, 'alias'));
    // alias/out -> ../t.parquet means real/t.parquet (the kernel's reading), not d/t.parquet.
    symlinkSync('../t.parquet', join(d, 'real', 'inner', 'out'));
    await writeRows(join(d, 'alias', 'out'), 5);
    assert.ok(existsSync(join(d, 'real', 't.parquet')));
    assert.ok(!existsSync(join(d, 't.parquet')));
    assert.equal(kind(join(d, 'real', 'inner', 'out')), 'symlink');
  });

  test('a link to a directory is refused at open, naming the path given', async () => {
    const d = newDir();
    mkdirSync(join(d, 'target'));
    symlinkSync('target', join(d, 'link'));
    await assert.rejects(openWriter(join(d, 'link'), schema), (e: unknown) => {
      assert.ok(e instanceof IOError, String(e));
      assert.match(e.message, /it is a directory/);
      assert.ok(e.message.includes(join(d, 'link')), e.message);
      return true;
    });
    assert.deepEqual(readdirSync(join(d, 'target')), []);
  });
});

describe('a destination that is a FIFO or a socket', () => {
  test('a FIFO is written into: the reader gets the whole file and the FIFO stays a FIFO', { timeout: 30_000 }, async () => {
    const d = newDir();
    const fifo = join(d, 'pipe.parquet');
    mkfifo(fifo);
    const reader = catFifo(fifo);
    await writeRows(fifo, 250);
    const bytes = await reader.done;
    assert.equal(kind(fifo), 'fifo');
    assert.deepEqual(readdirSync(d), ['pipe.parquet'], 'no temp file');
    const r = await openParquet(new Uint8Array(bytes));
    assert.deepEqual((await r.readRows()).map((row) => row.id), rows(250).map((x) => x.id));
  });

  test('a symlink to a FIFO is written into the FIFO', { timeout: 30_000 }, async () => {
    const d = newDir();
    mkfifo(join(d, 'pipe'));
    symlinkSync('pipe', join(d, 'link.parquet'));
    const reader = catFifo(join(d, 'pipe'));
    await writeRows(join(d, 'link.parquet'), 3);
    const bytes = await reader.done;
    assert.equal(kind(join(d, 'link.parquet')), 'symlink');
    assert.equal(kind(join(d, 'pipe')), 'fifo');
    assert.equal((await openParquet(new Uint8Array(bytes))).numRows, 3);
  });

  test('a FIFO whose reader goes away: write() fails with an IOError', { timeout: 30_000 }, async () => {
    const d = newDir();
    const fifo = join(d, 'pipe');
    mkfifo(fifo);
    // A reader that takes one byte and leaves.
    const child = spawn('head', ['-c', '1', fifo], { stdio: ['ignore', 'ignore', 'ignore'] });
    const sink = await fileSink(fifo);
    const chunk = new Uint8Array(1 << 16);
    let failure: unknown;
    try {
      for (let i = 0; i < 1000; i++) await sink.write(chunk);
    } catch (e) {
      failure = e;
    }
    await sink.abort();
    const timer = setTimeout(() => child.kill(), 10_000); // a reader left waiting on the FIFO
    await new Promise((r) => (child.exitCode !== null ? r(undefined) : child.on('close', r)));
    clearTimeout(timer);
    assert.ok(failure instanceof IOError, `${failure}`);
    assert.match((failure as Error).message, new RegExp(`writing ${fifo} failed`));
    assert.equal(kind(fifo), 'fifo');
  });

  test('a socket is refused at open and left in place', async (t) => {
    const d = newDir();
    const path = join(d, 'sock');
    const server: Server = createServer();
    await new Promise<void>((resolve, reject) => server.listen(path, resolve).once('error', reject));
    t.after(() => new Promise<void>((r) => server.close(() => r())));
    await assert.rejects(openWriter(path, schema), (e: unknown) => {
      assert.ok(e instanceof IOError, String(e));
      assert.match(e.message, new RegExp(`^cannot write ${path}: it is a socket`));
      return true;
    });
    assert.equal(kind(path), 'socket');
    assert.deepEqual(readdirSync(d), ['sock']);
  });
});

describe('a destination that is a directory or in a missing one', () => {
  test('a directory is refused at open with an IOError saying so; nothing is created in it', async () => {
    const d = newDir();
    const out = join(d, 'outdir');
    mkdirSync(out);
    for (const open of [() => openWriter(out, schema), () => writeParquet(out, [{ a: 1 }]), () => fileSink(out)]) {
      await assert.rejects(open(), (e: unknown) => {
        assert.ok(e instanceof IOError, String(e));
        assert.equal(e.message, `cannot write ${out}: it is a directory (file ${out})`);
        return true;
      });
    }
    assert.deepEqual(readdirSync(d), ['outdir']);
    assert.deepEqual(readdirSync(out), []);
  });

  test('a path in a missing directory names the path given and says the directory does not exist', async () => {
    const d = newDir();
    const out = join(d, 'nodir', 'x.parquet');
    await assert.rejects(openWriter(out, schema), (e: unknown) => {
      assert.ok(e instanceof IOError, String(e));
      assert.equal(e.detail, `cannot write ${out}: directory ${join(d, 'nodir')} does not exist`);
      assert.equal(e.context.file, out);
      return true;
    });
    assert.deepEqual(readdirSync(d), []);
  });

  test('a directory without write permission says so, naming the path given', () => {
    const d = newDir();
    chmodSync(d, 0o555);
    const out = join(d, 'x.parquet');
    const got = unprivileged(`await openWriter(${JSON.stringify(out)}, defineSchema({ a: field.int32() }))`);
    assert.ok(got.io, got.message);
    assert.equal(got.detail, `cannot write ${out}: permission denied (cannot create files in ${d})`);
    assert.equal(got.file, out);
    assert.deepEqual(readdirSync(d), []);
  });

  test('a path under a regular file says that is not a directory', async () => {
    const d = newDir();
    writeFileSync(join(d, 'plain'), '');
    const out = join(d, 'plain', 'x.parquet');
    await assert.rejects(fileSink(out), (e: unknown) => {
      assert.ok(e instanceof IOError, String(e));
      assert.equal(e.detail, `cannot write ${out}: ${join(d, 'plain')} is not a directory`);
      return true;
    });
  });

  test('a dangling link into a missing directory names the link and its target', async () => {
    const d = newDir();
    const link = join(d, 'out.parquet');
    symlinkSync('gone/t.parquet', link);
    await assert.rejects(fileSink(link), (e: unknown) => {
      assert.ok(e instanceof IOError, String(e));
      assert.equal(e.detail, `cannot write ${link} (a link to ${join(d, 'gone', 't.parquet')}): directory ${join(d, 'gone')} does not exist`);
      return true;
    });
    assert.equal(kind(link), 'symlink');
  });
});

describe('other writers on the same sink', () => {
  test('the Trevni writer writes through a symlink and into a FIFO', { timeout: 30_000 }, async () => {
    const d = newDir();
    const columns = [{ name: 'n', type: 'long' as const }];
    const writeTrevni = async (path: string) => {
      const w = await TrevniWriter.open(await fileSink(path), columns);
      for (let i = 0; i < 5; i++) await w.writeRow([BigInt(i)]);
      await w.close();
    };
    writeFileSync(join(d, 'target.trv'), '');
    symlinkSync('target.trv', join(d, 'link.trv'));
    await writeTrevni(join(d, 'link.trv'));
    assert.equal(kind(join(d, 'link.trv')), 'symlink');
    const src = await fileSource(join(d, 'target.trv'));
    assert.equal((await TrevniReader.open(src)).numRows, 5);
    await src.close?.();

    mkfifo(join(d, 'pipe.trv'));
    const reader = catFifo(join(d, 'pipe.trv'));
    await writeTrevni(join(d, 'pipe.trv'));
    const bytes = await reader.done;
    assert.equal((await TrevniReader.open(new Uint8Array(bytes))).numRows, 5);
    assert.equal(kind(join(d, 'pipe.trv')), 'fifo');
  });

  test('parquetry convert writes text and Trevni outputs through a symlink and into a FIFO', { timeout: 60_000 }, async () => {
    const d = newDir();
    const input = join(d, 'in.parquet');
    await writeRows(input, 3);
    const convert = (out: string) => new Promise<{ code: number | null; err: string }>((resolve) => {
      const child = spawn(process.execPath, [...CLI, 'convert', input, out], { stdio: ['ignore', 'ignore', 'pipe'] });
      let err = '';
      child.stderr.on('data', (b: Buffer) => (err += b));
      child.on('close', (code) => resolve({ code, err }));
    });

    writeFileSync(join(d, 'target.csv'), 'old\n');
    symlinkSync('target.csv', join(d, 'out.csv'));
    const r = await convert(join(d, 'out.csv'));
    assert.equal(r.code, 0, r.err);
    assert.equal(kind(join(d, 'out.csv')), 'symlink');
    assert.equal(readFileSync(join(d, 'target.csv'), 'utf8'), 'id,s\n0,s0\n1,s1\n2,s2\n');

    mkfifo(join(d, 'pipe.jsonl'));
    const reader = catFifo(join(d, 'pipe.jsonl'), 30_000);
    const [c, bytes] = await Promise.all([convert(join(d, 'pipe.jsonl')), reader.done]);
    assert.equal(c.code, 0, c.err);
    assert.equal(bytes.toString('utf8').trim().split('\n').length, 3);
    assert.equal(kind(join(d, 'pipe.jsonl')), 'fifo');

    mkdirSync(join(d, 't'));
    writeFileSync(join(d, 't', 'real.trv'), '');
    symlinkSync('t/real.trv', join(d, 'out.trv'));
    const t = await convert(join(d, 'out.trv'));
    assert.equal(t.code, 0, t.err);
    assert.equal(kind(join(d, 'out.trv')), 'symlink');
    const src = await fileSource(join(d, 't', 'real.trv'));
    assert.equal((await TrevniReader.open(src)).numRows, 3);
    await src.close?.();
  });
});

// ------------------------------------------------------------------ sources

describe('sources that cannot be read', () => {
  test('a directory is an IOError naming the path, for Parquet and Trevni', async () => {
    const d = newDir();
    for (const open of [() => openParquet(d), () => fileSource(d).then((s) => TrevniReader.open(s))]) {
      await assert.rejects(open(), (e: unknown) => {
        assert.ok(e instanceof IOError, `${(e as Error)?.constructor?.name}: ${e}`);
        assert.equal(e.detail, `cannot read ${d}: it is a directory`);
        assert.equal(e.context.file, d);
        return true;
      });
    }
  });

  test('a missing file is an IOError naming the path', async () => {
    const path = join(newDir(), 'missing.parquet');
    await assert.rejects(openParquet(path), (e: unknown) => {
      assert.ok(e instanceof IOError, String(e));
      assert.equal(e.detail, `cannot read ${path}: no such file`);
      assert.equal(e.context.file, path);
      return true;
    });
  });

  test('a file without read permission is an IOError naming the path', async () => {
    const d = newDir();
    const path = join(d, 'secret.parquet');
    await writeRows(path, 1);
    chmodSync(path, 0o000);
    chmodSync(d, 0o755);
    const got = unprivileged(`await openParquet(${JSON.stringify(path)})`);
    assert.ok(got.io, got.message);
    assert.equal(got.file, path);
    assert.match(got.message, new RegExp(`^cannot read ${path}: permission denied`));
  });
});

describe('a reader used after close()', () => {
  test('Parquet: reading after close() is an IOError saying the reader is closed', async () => {
    const path = join(newDir(), 'r.parquet');
    await writeRows(path, 10);
    const r = await openParquet(path);
    await r.close();
    await assert.rejects(r.readRows(), (e: unknown) => {
      assert.ok(e instanceof ParquetryError, `${(e as Error)?.constructor?.name}: ${e}`);
      assert.ok(e instanceof IOError, String(e));
      assert.equal(e.detail, 'cannot read: the reader is closed');
      assert.equal(e.context.file, path);
      return true;
    });
    await r.close(); // a second close is harmless
  });

  test('Trevni: reading after close() is an IOError saying the reader is closed', async () => {
    const path = join(newDir(), 'r.trv');
    const w = await TrevniWriter.open(await fileSink(path), [{ name: 'n', type: 'long' }]);
    for (let i = 0; i < 10; i++) await w.writeRow([BigInt(i)]);
    await w.close();
    const r = await TrevniReader.open(await fileSource(path));
    await r.close();
    await assert.rejects(async () => {
      for await (const row of r.rows()) void row;
    }, (e: unknown) => {
      assert.ok(e instanceof IOError, `${(e as Error)?.constructor?.name}: ${e}`);
      assert.equal(e.detail, 'cannot read: the reader is closed');
      assert.equal(e.context.file, path);
      return true;
    });
  });
});
