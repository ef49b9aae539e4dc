/**
 * A `_metadata` whose `file_path` tries to leave the dataset's folder, in
 * every spelling the guard (src/io/file-path-guard.ts) knows of: read as a
 * local directory, as a list naming the summary, as the URL of the summary
 * on a server that records every request, and by the single-file reader
 * (openParquet of the path, ParquetReader.open of the URL). Nothing outside
 * the folder may be opened or requested, and the file outside (one SECRET
 * row) never comes back; the spellings a URL parser or a server reads
 * differently from a file system are refused with a typed error naming the
 * summary and its row group, or left out under `badFiles: 'skip'`.
 */
import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { fileSource, openDataset, openParquet, ParquetReader, ParquetryError, UnsupportedError, writeParquet } from '../../src/node/index.js';
import { nodeFileSystem, summarize, summaryFileBytes, type DatasetFileSystem } from '../../src/node/entries/dataset.js';
import type { FileMetaData } from '../../src/parquet/metadata/index.js';
import { footerOf } from './setup.js';
import { staysUnder, useServer } from './http-server.js';

let base = '';
let part: FileMetaData;
let secret: FileMetaData;
const served = useServer(() => base);
const ROWS = [{ id: 1n, name: 'a' }, { id: 2n, name: 'b' }];

before(async () => {
  base = mkdtempSync(join(tmpdir(), 'pq-escape-'));
  for (const d of ['ds/sub', 'outside', 'ds-x']) mkdirSync(join(base, d), { recursive: true });
  part = await writeParquet(join(base, 'ds', 'part-0.parquet'), ROWS);
  secret = await writeParquet(join(base, 'outside', 'secret.parquet'), [{ id: 99n, name: 'SECRET' }]);
  // A sibling whose name starts with the dataset's: a prefix test of containment would let it in.
  await writeParquet(join(base, 'ds-x', 'secret.parquet'), [{ id: 99n, name: 'SECRET' }]);
  assert.deepEqual(await footerOf(join(base, 'ds', 'part-0.parquet')).then((m) => m.numRows), 2);
});
after(() => rmSync(base, { recursive: true, force: true }));

/** Spellings that must be refused: each leads, or may lead once a server decodes it, outside ds/. */
function refused(): string[] {
  const abs = join(base, 'outside', 'secret.parquet');
  return [
    '../outside/secret.parquet', './../outside/secret.parquet', 'sub/../../outside/secret.parquet', '../ds-x/secret.parquet',
    '%2e%2e/outside/secret.parquet', '%2E%2E/outside/secret.parquet', '.%2e/outside/secret.parquet', '%2e./outside/secret.parquet',
    'sub/%2e%2e/%2e%2e/outside/secret.parquet', '%2e%2e%2foutside%2fsecret.parquet', '..%2foutside%2fsecret.parquet', '..%2Foutside/secret.parquet',
    'sub%2f..%2f..%2foutside%2fsecret.parquet', '..%5coutside%5csecret.parquet', 'sub%5C..%5C..%5Coutside/secret.parquet',
    '%252e%252e/outside/secret.parquet', '%25252e%25252E/outside/secret.parquet', '%25%32%65%25%32%65/outside/secret.parquet', 'sub%252f..%252f..%252foutside/secret.parquet',
    '%c0%ae%c0%ae/outside/secret.parquet', '%e0%80%ae%e0%80%ae/outside/secret.parquet',
    '..\\outside\\secret.parquet', 'sub\\..\\..\\outside\\secret.parquet', '\\\\127.0.0.1\\outside\\secret.parquet',
    '.\t./outside/secret.parquet', '.\n./outside/secret.parquet', '\t../outside/secret.parquet', '..\r/outside/secret.parquet', '.%09./outside/secret.parquet', '%00../outside/secret.parquet',
    abs, '/outside/secret.parquet', `//127.0.0.1:${new URL(served.origin).port}/outside/secret.parquet`, `${served.origin}/outside/secret.parquet`,
    `file://${abs}`, 'file:../outside/secret.parquet', 'C:/outside/secret.parquet', 'C:\\outside\\secret.parquet', 'c:secret.parquet', 'http:../outside/secret.parquet',
    'part-0.parquet#/../../outside/secret.parquet', 'part-0.parquet?/../../outside/secret.parquet', '',
  ];
}

/** Spellings that climb nowhere however read, whether refused or not (then missing, or another name inside). */
const HARMLESS = [' ../outside/secret.parquet', '..;/outside/secret.parquet', '．．/outside/secret.parquet', '...//outside/secret.parquet', 'sub/..../outside/secret.parquet'];

/** ds/_metadata: row group 0 in part-0.parquet, row group 1 where `spelling` leads. */
function writeSummary(spelling: string): void {
  writeFileSync(join(base, 'ds', '_metadata'), summaryFileBytes(summarize([{ path: 'part-0.parquet', metadata: part }, { path: spelling, metadata: secret }]).metadata));
}

/** A file system recording the paths it opens. */
function recording(): { fs: DatasetFileSystem; opened: string[] } {
  const inner = nodeFileSystem();
  const opened: string[] = [];
  return { opened, fs: { ...inner, open: (p) => (opened.push(p), inner.open(p)) } };
}

type Outcome = { rows: Record<string, unknown>[]; skipped?: { path: string; reason: string }[] } | { error: unknown };

async function datasetRows(input: string | string[], options: Parameters<typeof openDataset>[1]): Promise<Outcome> {
  try {
    const ds = await openDataset(input, options);
    return { rows: await ds.readRows(), skipped: ds.skipped };
  } catch (error) {
    return { error };
  }
}

async function readerRows(open: () => Promise<ParquetReader>): Promise<Outcome> {
  try {
    const reader = await open();
    try {
      return { rows: await reader.readRows() };
    } finally {
      await reader.close();
    }
  } catch (error) {
    return { error };
  }
}

/** The reads of one spelling: the dataset (directory, list, URL; plain and skipping) and the single-file reader (path, URL). */
async function reads(spelling: string): Promise<{ how: string; outcome: Outcome; skipping: boolean; opened: string[] }[]> {
  writeSummary(spelling);
  const metadata = join(base, 'ds', '_metadata');
  const url = `${served.origin}/ds/_metadata`;
  const out: { how: string; outcome: Outcome; skipping: boolean; opened: string[] }[] = [];
  for (const skipping of [false, true]) {
    const badFiles = skipping ? 'skip' as const : 'error' as const;
    for (const [how, input] of [['directory', join(base, 'ds')], ['list', [metadata]]] as const) {
      const { fs, opened } = recording();
      out.push({ how: `${how}${skipping ? ', skipping' : ''}`, outcome: await datasetRows(typeof input === 'string' ? input : [...input], { fileSystem: fs, badFiles }), skipping, opened });
    }
    out.push({ how: `URL${skipping ? ', skipping' : ''}`, outcome: await datasetRows([url], { badFiles }), skipping, opened: [] });
  }
  const opened: string[] = [];
  out.push({ how: 'openParquet(path)', outcome: await readerRows(() => openParquet(metadata, { openFile: (_, p) => (opened.push(p), fileSource(p)) })), skipping: false, opened });
  out.push({ how: 'openParquet(path), its own opener', outcome: await readerRows(() => openParquet(metadata)), skipping: false, opened: [] });
  out.push({ how: 'ParquetReader.open(URL)', outcome: await readerRows(() => ParquetReader.open(new URL(url))), skipping: false, opened: [] });
  return out;
}

function names(outcome: Outcome): unknown[] {
  return 'rows' in outcome ? outcome.rows.map((r) => r.name) : [];
}

test('no spelling of a file_path leads a read outside the dataset\'s folder, local or over HTTP', async () => {
  const inside = resolve(base, 'ds') + sep;
  for (const spelling of [...refused(), ...HARMLESS]) {
    served.requested.length = 0;
    for (const { how, outcome, opened } of await reads(spelling)) {
      const label = `${JSON.stringify(spelling)}, ${how}`;
      assert.ok(!names(outcome).includes('SECRET'), `${label}: the file outside came back`);
      if ('error' in outcome) assert.ok(outcome.error instanceof ParquetryError, `${label}: untyped ${String(outcome.error)}`);
      for (const p of opened) assert.ok(resolve(p).startsWith(inside), `${label}: opened ${p}`);
    }
    for (const r of served.requested) assert.ok(staysUnder('/ds/', r), `${JSON.stringify(spelling)}: requested ${r}`);
  }
});

test('each spelling that climbs is refused, naming the summary and its row group, or left out when skipping', async () => {
  for (const spelling of refused()) {
    for (const { how, outcome, skipping } of await reads(spelling)) {
      const label = `${JSON.stringify(spelling)}, ${how}`;
      if (!skipping) {
        assert.ok('error' in outcome && outcome.error instanceof UnsupportedError, `${label}: ${'error' in outcome ? String(outcome.error) : `${outcome.rows.length} rows`}`);
        const message = (outcome.error as Error).message;
        assert.match(message, /_metadata/, label);
        assert.match(message, /row group 1\b/, label);
        assert.doesNotMatch(message, /[\t\n\r\0]/, `${label}: the message stays on one line`);
        continue;
      }
      assert.ok('rows' in outcome, `${label}: ${'error' in outcome ? String(outcome.error) : ''}`);
      assert.deepEqual(names(outcome), ['a', 'b'], label);
      assert.equal(outcome.skipped?.length, 1, label);
      assert.match(outcome.skipped![0]!.path, /_metadata$/, label);
    }
  }
});

test('allowOutsideRoot still reads a file_path outside, local and over HTTP; plain spellings inside read as ever', async () => {
  writeSummary('../outside/secret.parquet');
  const url = `${served.origin}/ds/_metadata`;
  for (const input of [join(base, 'ds'), [join(base, 'ds', '_metadata')], [url]]) {
    const ds = await openDataset(input, { allowOutsideRoot: true });
    assert.deepEqual((await ds.readRows()).map((r) => r.name), ['a', 'b', 'SECRET'], String(input));
  }
  for (const open of [() => openParquet(join(base, 'ds', '_metadata'), { allowOutsideRoot: true }), () => ParquetReader.open(new URL(url), { allowOutsideRoot: true })]) {
    const outcome = await readerRows(open);
    assert.deepEqual(names(outcome), ['a', 'b', 'SECRET']);
  }
  // Spellings of part-0.parquet from inside: a summary naming it once reads its rows once, whichever way it is opened.
  for (const spelling of ['part-0.parquet', './part-0.parquet', 'sub/../part-0.parquet', 'sub/./../part-0.parquet', 'sub//../part-0.parquet']) {
    writeFileSync(join(base, 'ds', '_metadata'), summaryFileBytes(summarize([{ path: spelling, metadata: part }]).metadata));
    for (const input of [join(base, 'ds'), [join(base, 'ds', '_metadata')], [url]]) {
      const ds = await openDataset(input);
      assert.deepEqual(await ds.readRows(), ROWS, `${spelling} via ${String(input)}`);
    }
    assert.deepEqual(names(await readerRows(() => openParquet(join(base, 'ds', '_metadata')))), ['a', 'b'], spelling);
    assert.deepEqual(names(await readerRows(() => ParquetReader.open(new URL(url)))), ['a', 'b'], spelling);
  }
});

test('a Hive directory whose name escapes a "/" (k=a%2Fb) is a plain name: a summary naming it reads', async () => {
  const dir = join(base, 'hive');
  mkdirSync(join(dir, 'k=a%2Fb'), { recursive: true });
  const meta = await writeParquet(join(dir, 'k=a%2Fb', 'part-0.parquet'), ROWS);
  writeFileSync(join(dir, '_metadata'), summaryFileBytes(summarize([{ path: 'k=a%2Fb/part-0.parquet', metadata: meta }]).metadata));
  const ds = await openDataset(dir);
  assert.deepEqual((await ds.readRows()).map((r) => [r.name, r.k]), [['a', 'a/b'], ['b', 'a/b']]);
});
