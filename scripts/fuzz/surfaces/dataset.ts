/**
 * `_metadata` datasets. A seed is a folder `ds/` of parts (rows numbered by
 * a unique `id`) with the `_metadata` that summarizes them, beside
 * `outside/secret.parquet` and `ds-evil/x.parquet` (ids below 0) that no
 * read of `ds/` may reach. A case respells a row group's `file_path`
 * (`../`, `%2e%2e`, `%2f`, backslashes, absolute paths and URLs, control
 * characters, the same part under other names, a part that is not there),
 * repeats, drops or swaps row groups, edits `_metadata` fields, or damages
 * or deletes a part; it is read from disk or over HTTP (a server in this
 * process), as a dataset directory, a dataset of its `_metadata`, or a
 * single file (openParquet of the `_metadata`'s path or URL).
 * Invariants: nothing outside `ds/` is opened or requested, no row comes
 * back twice, every row is a part's row.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import fsp from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, posix, resolve, sep } from 'node:path';
import { ByteCursor } from '../../../src/bytes/cursor.js';
import { decodeFileMetaData, type FileMetaData } from '../../../src/parquet/metadata/index.js';
import { BufferSink, defineSchema, field, openDataset, openParquet, openWriter } from '../../../src/node/index.js';
import { summarize, summaryFileBytes } from '../../../src/node/entries/dataset.js';
import { readFooter } from '../../../src/parquet/footer.js';
import { bufferSource } from '../../../src/io/source.js';
import { applyMutation, randomMutation, type Mutation, type Rng } from '../mutate.js';
import { InvariantError, judge } from '../read.js';
import { edit, randomEdit, type FieldEdit } from '../structured.js';
import type { CaseInput, SeedFile, Surface } from '../surface.js';

type DatasetMutation =
  | { kind: 'filePath'; rowGroup: number; column?: number; path: string }
  | { kind: 'rowGroups'; op: 'duplicate' | 'drop' | 'swap'; rowGroup: number; other: number }
  | ({ kind: 'metadataField' } & FieldEdit)
  | { kind: 'part'; part: string; mutation: Mutation | { kind: 'delete' } };

interface DatasetOptions extends Record<string, unknown> {
  access: 'path' | 'url';
  entry: 'directory' | 'metadata' | 'reader';
  badFiles: 'error' | 'skip';
}

const SCHEMA = defineSchema({ id: field.int64().required(), name: field.string(), v: field.double() });

async function part(ids: number[], rowGroupRows: number): Promise<Uint8Array> {
  const sink = new BufferSink();
  const w = await openWriter(sink, SCHEMA, { rowGroupRows });
  for (const id of ids) await w.write({ id: BigInt(id), name: id < 0 ? 'SECRET' : `row ${id}`, v: id / 7 });
  await w.close();
  return sink.bytes();
}

const metaBytes = (m: FileMetaData) => summaryFileBytes(m);

function decodeSummary(b: Uint8Array): FileMetaData {
  const len = new DataView(b.buffer, b.byteOffset, b.length).getUint32(b.length - 8, true);
  return decodeFileMetaData(new ByteCursor(b, b.length - 8 - len, b.length - 8, 0).bytes(len));
}

/** A dataset of 2 to 4 parts (one in a subfolder), their `_metadata`, and the files outside it. */
async function datasetSeed(seed: number, index: number): Promise<SeedFile> {
  let s = (seed * 31 + index * 7 + 3) >>> 0;
  const next = (n: number) => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) % n);
  const files: Record<string, Uint8Array> = {};
  const parts = [];
  let id = 0;
  for (let p = 0, n = 2 + next(3); p < n; p++) {
    const path = p === 1 ? `sub/part-${p}.parquet` : `part-${p}.parquet`;
    const ids = Array.from({ length: 1 + next(12) }, () => id++);
    const bytes = await part(ids, 2 + next(5));
    files[`ds/${path}`] = bytes;
    parts.push({ path, metadata: (await readFooter(bufferSource(bytes))).metadata });
  }
  const meta = metaBytes(summarize(parts).metadata);
  files['ds/_metadata'] = meta;
  files['outside/secret.parquet'] = await part([-1], 10);
  files['ds-evil/x.parquet'] = await part([-2], 10);
  return { name: `writer:dataset:${seed}:${index}`, surface: 'dataset', bytes: meta, files };
}

/** `{ROOT}` is the case's folder (an absolute path, or the server's URL), filled in when the case runs. */
const SPELLINGS = [
  '../outside/secret.parquet', '%2e%2e/outside/secret.parquet', '%2E%2E/outside/secret.parquet', '..%2foutside%2fsecret.parquet', '..%2Foutside%2Fsecret.parquet',
  '%2e%2e%2foutside%2fsecret.parquet', '%252e%252e/outside/secret.parquet', '..\\outside\\secret.parquet', '..\\\\outside/secret.parquet', 'sub\\..\\..\\outside\\secret.parquet',
  'sub/../../outside/secret.parquet', './../outside/secret.parquet', '../ds-evil/x.parquet', '../ds/../outside/secret.parquet', '.%2e/outside/secret.parquet',
  '{ROOT}/outside/secret.parquet', '/outside/secret.parquet', '//outside/secret.parquet', 'file://{ROOT}/outside/secret.parquet', 'file:///etc/passwd',
  'http://127.0.0.1:1/outside/secret.parquet', '{ROOT}/ds/part-0.parquet', 'C:\\outside\\secret.parquet', '\\\\server\\share\\x.parquet',
  'part-0.parquet\u0000../../outside/secret.parquet', 'part-0.parquet\n', '\u0001part-0.parquet', 'part-0.parquet%00', '\uff0e\uff0e/outside/secret.parquet',
  './part-0.parquet', 'x/../part-0.parquet', 'part-0.parquet', 'sub/part-1.parquet', './sub/./part-1.parquet', 'sub//part-1.parquet', 'part-0.parquet/',
  'nope.parquet', '', '.', '..', 'sub', '_metadata', 'part-0%2eparquet', 'p%61rt-0.parquet',
];

function applyDataset(f: { files: Record<string, Uint8Array> }, m: DatasetMutation): Record<string, Uint8Array> {
  const files = { ...f.files };
  if (m.kind === 'part') {
    const name = `ds/${m.part}`;
    if (m.mutation.kind === 'delete') delete files[name];
    else if (files[name]) files[name] = applyMutation(files[name]!, m.mutation as Mutation);
    return files;
  }
  try {
    const meta = decodeSummary(files['ds/_metadata']!);
    const groups = meta.rowGroups;
    if (m.kind === 'filePath') {
      const g = groups[m.rowGroup % Math.max(1, groups.length)];
      g?.columns.forEach((c, i) => {
        if (m.column === undefined || m.column === i) c.filePath = m.path;
      });
    } else if (m.kind === 'rowGroups') {
      const i = m.rowGroup % Math.max(1, groups.length);
      const j = m.other % Math.max(1, groups.length);
      if (m.op === 'duplicate' && groups[i]) groups.splice(j, 0, structuredClone(groups[i]!));
      else if (m.op === 'drop') groups.splice(i, 1);
      else if (groups[i] && groups[j]) [groups[i], groups[j]] = [groups[j]!, groups[i]!];
      meta.numRows = groups.reduce((n, g) => n + g.numRows, 0);
    } else edit(meta as unknown as Record<string, unknown>, m);
    files['ds/_metadata'] = metaBytes(meta);
  } catch {
    // A _metadata an earlier mutation broke: left as it is.
  }
  return files;
}

function mutate(rng: Rng, f: SeedFile): DatasetMutation {
  const parts = Object.keys(f.files!).filter((p) => p.startsWith('ds/') && p !== 'ds/_metadata').map((p) => p.slice(3));
  const groups = decodeSummary(f.bytes).rowGroups.length;
  const r = rng.next();
  if (r < 0.45) return { kind: 'filePath', rowGroup: rng.int(groups), ...(rng.next() < 0.2 ? { column: rng.int(3) } : {}), path: rng.pick(SPELLINGS) };
  if (r < 0.65) return { kind: 'rowGroups', op: rng.pick(['duplicate', 'duplicate', 'drop', 'swap'] as const), rowGroup: rng.int(groups), other: rng.int(groups + 1) };
  if (r < 0.8) {
    const e = randomEdit(rng, decodeSummary(f.bytes));
    if (e) return { kind: 'metadataField', ...e };
  }
  const p = rng.pick(parts);
  if (rng.next() < 0.3) return { kind: 'part', part: p, mutation: { kind: 'delete' } };
  const size = f.files![`ds/${p}`]!.length;
  return { kind: 'part', part: p, mutation: randomMutation(rng, { size, footerStart: Math.max(4, size - 300), footerEnd: size - 8, chunkStarts: [4] }) };
}

/** Every file opened or stat'ed while a case runs (the Node layer's own calls included), by path; every URL fetched. */
let opened: string[] | undefined;
let fetched: string[] | undefined;

function recordFs(): void {
  for (const name of ['open', 'stat', 'readdir', 'realpath', 'lstat'] as const) {
    const original = fsp[name] as (...a: unknown[]) => unknown;
    (fsp as unknown as Record<string, unknown>)[name] = (path: unknown, ...rest: unknown[]) => {
      opened?.push(String(path));
      return original.call(fsp, path, ...rest);
    };
  }
  syncBuiltinESMExports();
  // And every URL fetched, before the request normalises it: another host is outside too.
  const fetch = globalThis.fetch;
  globalThis.fetch = (url, init) => {
    fetched?.push(url instanceof Request ? url.url : String(url));
    return fetch(url, init);
  };
}
recordFs();

/** The HTTP server of this process: every request's path, files served from the current case's folder, Range requests as a static server would. */
let server: Promise<{ port: number }> | undefined;
let serving: { root: string; requests: string[] } | undefined;

function startServer(): Promise<{ port: number }> {
  server ??= new Promise((ready) => {
    const s: Server = createServer((req, res) => {
      const raw = (req.url ?? '/').split('?')[0]!;
      serving?.requests.push(raw);
      let path: string;
      try {
        path = posix.normalize(decodeURIComponent(raw));
      } catch {
        res.writeHead(400);
        return void res.end();
      }
      if (!serving || path.includes('\0')) {
        res.writeHead(404);
        return void res.end();
      }
      fsp.readFile(join(serving.root, path)).then((buf) => {
        const m = /bytes=(\d+)-(\d+)?/.exec(req.headers.range ?? '');
        if (req.method === 'HEAD') {
          res.writeHead(200, { 'content-length': buf.length, 'accept-ranges': 'bytes' });
          return void res.end();
        }
        if (m) {
          const a = Number(m[1]);
          const b = m[2] ? Math.min(Number(m[2]), buf.length - 1) : buf.length - 1;
          res.writeHead(206, { 'content-range': `bytes ${a}-${b}/${buf.length}`, 'content-length': Math.max(0, b - a + 1) });
          return void res.end(buf.subarray(a, b + 1));
        }
        res.writeHead(200, { 'content-length': buf.length });
        res.end(buf);
      }, () => {
        res.writeHead(404);
        res.end();
      });
    });
    s.listen(0, '127.0.0.1', () => ready({ port: (s.address() as { port: number }).port }));
    s.unref();
  });
  return server;
}

/** The case's `_metadata` with `{ROOT}` filled in. */
function rooted(files: Record<string, Uint8Array>, root: string): Record<string, Uint8Array> {
  const b = files['ds/_metadata'];
  if (!b) return files;
  try {
    const meta = decodeSummary(b);
    let changed = false;
    for (const g of meta.rowGroups) for (const c of g.columns) if (c.filePath?.includes('{ROOT}')) [c.filePath, changed] = [c.filePath.replaceAll('{ROOT}', root), true];
    return changed ? { ...files, 'ds/_metadata': metaBytes(meta) } : files;
  } catch {
    return files;
  }
}

const KNOWN_OUTSIDE = (id: bigint) => id < 0n;

async function readCase(input: CaseInput, dir: string, stage: { name: string }): Promise<number> {
  const o = input.options as DatasetOptions;
  const ids = new Set<bigint>();
  const take = (row: Record<string, unknown>) => {
    const id = row.id as bigint;
    if (KNOWN_OUTSIDE(id)) throw new InvariantError(`the row of a file outside the dataset came back (id ${id}, ${String(row.name)})`);
    if (ids.has(id)) throw new InvariantError(`row id ${id} came back twice`);
    ids.add(id);
  };
  let base = dir;
  if (o.access === 'url') base = `http://127.0.0.1:${(await startServer()).port}`;
  const files = rooted(input.files!, base);
  for (const [p, bytes] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), bytes);
  }
  const at = (p: string) => (o.access === 'url' ? `${base}/${p}` : join(dir, p));
  if (o.entry === 'reader') {
    stage.name = `openParquet(${o.access})`;
    const reader = await openParquet(at('ds/_metadata'));
    stage.name = 'rows()';
    for await (const row of reader.rows()) take(row);
    await reader.close();
    return ids.size;
  }
  stage.name = 'openDataset';
  // Over HTTP a dataset is a list of URLs: its _metadata.
  const ds = await openDataset(o.entry === 'directory' && o.access === 'path' ? at('ds') : [at('ds/_metadata')], { badFiles: o.badFiles });
  stage.name = 'dataset rows()';
  for await (const row of ds.rows()) take(row);
  return ids.size;
}

let cases = 0;

/** Case folders a killed child (a hang, a crash) left behind: removed when no process of theirs is alive. */
function sweepLeftovers(): void {
  for (const n of readdirSync(tmpdir())) {
    const pid = /^parquetry-fuzz-ds-(\d+)-/.exec(n)?.[1];
    if (!pid) continue;
    try {
      process.kill(Number(pid), 0);
    } catch {
      rmSync(join(tmpdir(), n), { recursive: true, force: true });
    }
  }
}
sweepLeftovers();

export const datasetSurface: Surface<DatasetMutation> = {
  name: 'dataset',
  ext: 'dataset',
  async seeds(seed, count) {
    return Promise.all(Array.from({ length: Math.max(1, count) }, (_, i) => datasetSeed(seed, i)));
  },
  mutate: (rng, f) => mutate(rng, f),
  options: (rng) => ({
    verifyChecksums: true,
    options: { access: rng.next() < 0.5 ? 'path' : 'url', entry: rng.pick(['directory', 'metadata', 'metadata', 'reader'] as const), badFiles: rng.next() < 0.5 ? 'error' : 'skip' } satisfies DatasetOptions,
  }),
  build: async (f, mutations, o) => ({ format: 'dataset', bytes: f.bytes, verifyChecksums: true, options: o.options, files: mutations.reduce((files, m) => applyDataset({ files }, m), f.files!) }),
  async run(input) {
    const top = mkdtempSync(join(tmpdir(), `parquetry-fuzz-ds-${process.pid}-${cases++}-`));
    const dir = resolve(top);
    const root = join(dir, 'ds');
    opened = [];
    fetched = [];
    serving = { root: dir, requests: [] };
    const stage = { name: '' };
    try {
      const outcome = await judge(stage, () => readCase(input, dir, stage));
      // Reaching outside is a finding however the read ended: an error after the open does not undo it.
      const outside = opened.filter((p) => !p.startsWith('http') && resolve(p) !== root && !resolve(p).startsWith(root + sep) && resolve(p) !== dir);
      const far = serving.requests.filter((u) => {
        try {
          const p = posix.normalize(decodeURIComponent(u));
          // The folder itself (a file_path of "."): inside, though no file.
          return p !== '/ds' && !p.startsWith('/ds/');
        } catch {
          return true;
        }
      });
      const origin = server && `http://127.0.0.1:${(await server).port}`;
      const elsewhere = fetched.filter((u) => {
        try {
          return new URL(u).origin !== origin;
        } catch {
          return true;
        }
      });
      if (outside.length || far.length || elsewhere.length) {
        return { ...outcome, result: 'invariant', error: `InvariantError: read outside the dataset root: ${[...new Set([...outside, ...far, ...elsewhere])].slice(0, 4).join(', ')} (the read ended: ${outcome.result}${outcome.error ? ` ${outcome.error}` : ''})`.slice(0, 600) };
      }
      return outcome;
    } finally {
      opened = undefined;
      fetched = undefined;
      serving = undefined;
      rmSync(top, { recursive: true, force: true });
    }
  },
};
