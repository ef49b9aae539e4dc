/**
 * The viewer page in headless Chromium, served by `parquetry view` as a
 * user runs it: the numbers it shows against `parquetry meta --json` and
 * `parquetry pages --json`, the data table scrolled against the library's
 * rows, a filter's count against the library's filter, hover text with
 * page-index bounds, and a screenshot that is not blank. Trevni (both
 * versions, the wiki draft's dialect too) and RedElm files get the same page.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { chromiumPath, skipWithoutChromium } from './chromium.js';
import { BufferSink, TrevniDraftWriter, TrevniReader, defineSchema, field, openParquet, openRedElm, openTrevni, openWriter, parseWhere } from '../../src/node/index.js';
import { fileSource } from '../../src/node/file-source.js';
import { cell } from '../../viewer/src/format.js';

const DATA = join('..', 'shared', 'corpus', 'parquet-testing', 'data');
const FLAT = join(DATA, 'alltypes_plain.parquet');
/** Five row groups, a page index on every chunk. */
const GROUPS = join(DATA, 'floating_orders_nan_count.parquet');
const NESTED = join(DATA, 'nullable.impala.parquet');
const TREVNI = join('..', 'shared', 'trevni-corpus', 'avro_multiblock_deflate.trv');
/** Three row groups, GzipCodec, nested and repeated fields. */
const REDELM = join('..', 'shared', 'ancestors', 'redelm', 'multi_rowgroup_gzip.redelm');

const CLI = ['--import', 'tsx', 'src/cli/main.ts'];
let browser: Browser;
let out: string;
const servers: ChildProcess[] = [];


function cli(...args: string[]): string {
  const r = spawnSync(process.execPath, [...CLI, ...args], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

/** Starts `parquetry view FILE` and resolves to the URL it prints. */
function view(file: string): Promise<string> {
  const child = spawn(process.execPath, [...CLI, 'view', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  servers.push(child);
  return new Promise((resolve, reject) => {
    let text = '';
    child.stdout!.on('data', (b: Buffer) => {
      text += b;
      const m = /^parquetry view: (http:\/\/127\.0\.0\.1:\d+\/\S*)$/m.exec(text);
      if (m) resolve(m[1]!);
    });
    child.stderr!.on('data', (b: Buffer) => (text += b));
    child.on('exit', (code) => reject(new Error(`parquetry view exited with ${code}: ${text}`)));
  });
}

before(async () => {
  if (!chromiumPath) return;
  const built = spawnSync(process.execPath, ['scripts/build-viewer.mjs'], { encoding: 'utf8' });
  assert.equal(built.status, 0, built.stderr);
  out = mkdtempSync(join(tmpdir(), 'parquetry-viewer-'));
  browser = await puppeteer.launch({ executablePath: chromiumPath, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
});

after(async () => {
  await browser?.close();
  // Ctrl-C is how a user stops it.
  for (const s of servers) s.kill('SIGINT');
  if (out) rmSync(out, { recursive: true, force: true });
});

async function open(file: string): Promise<Page> {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(await view(file));
  await page.waitForFunction(() => document.querySelector('#layout > div')?.getAttribute('data-pages') === 'done' || document.querySelector('#status[data-error]'), { timeout: 60_000 });
  const status = await page.$eval('#status', (e) => e.textContent);
  assert.deepEqual(errors, []);
  assert.equal(status, '', `the page says: ${status}`);
  return page;
}

const summary = (page: Page, key: string) => page.$eval(`#summary dd[data-key="${key}"]`, (e) => e.textContent);

interface ShownChunk { group: string; path: string; codec: string; encodings: string; bytes: string; uncompressed: string; pages: number; pageBytes: number }

function chunks(page: Page): Promise<ShownChunk[]> {
  return page.$$eval('.chunk', (els) => els.map((e) => {
    const d = (e as HTMLElement).dataset;
    const pages = Array.from(e.querySelectorAll<HTMLElement>('.page'));
    return {
      group: d.group!, path: d.path!, codec: d.codec!, encodings: d.encodings!, bytes: d.bytes!, uncompressed: d.uncompressed!,
      pages: pages.length, pageBytes: pages.reduce((n, p) => n + Number(p.dataset.bytes), 0),
    };
  }));
}

/** The table's rows in view after scrolling to `row`, as shown: [index, ...cells]. */
async function scrollTo(page: Page, row: number): Promise<string[][]> {
  await page.$eval('#rows', (e, top) => void (e.scrollTop = top), row * 24);
  await page.waitForFunction((r) => document.querySelector('#rows')?.getAttribute('data-first') === String(r), { timeout: 30_000 }, row);
  return page.$$eval('#rows-body tr', (trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.textContent ?? '')));
}

async function checkParquet(file: string): Promise<Page> {
  const meta = JSON.parse(cli('meta', file, '--json'));
  const page = await open(file);
  assert.equal(await summary(page, 'rows'), String(meta.numRows));
  assert.equal(await summary(page, 'row groups'), String(meta.numRowGroups));
  assert.deepEqual(await page.$$eval('.group', (els) => els.map((e) => (e as HTMLElement).dataset.rows)), meta.rowGroups.map((g: { numRows: number }) => String(g.numRows)));
  const pages = cli('pages', file, '--json').trim().split('\n').map((l) => JSON.parse(l) as { rowGroup: number; column: string; headerSize: number; compressedSize: number });
  const shown = await chunks(page);
  const expected = meta.rowGroups.flatMap((g: { index: number; columns: { path: string; codec: string; encodings: string[]; compressedSize: number; uncompressedSize: number }[] }) =>
    g.columns.map((c) => {
      const own = pages.filter((p) => p.rowGroup === g.index && p.column === c.path);
      return {
        group: String(g.index), path: c.path, codec: c.codec, encodings: c.encodings.join(','), bytes: String(c.compressedSize), uncompressed: String(c.uncompressedSize),
        pages: own.length, pageBytes: own.reduce((n, p) => n + p.headerSize + p.compressedSize, 0),
      };
    }));
  assert.deepEqual(shown, expected);
  // Every chunk's pages fill it: their bytes sum to the chunk's.
  for (const c of shown) assert.equal(String(c.pageBytes), c.bytes, `${c.group} ${c.path}`);
  return page;
}

/** The library's rows `from..from+n` (matching `where`, if given), formatted as the table formats them. */
async function libraryRows(file: string, from: number, n: number, where?: string): Promise<string[][]> {
  const reader = await openParquet(file);
  const columns = reader.plan().fields.map((f) => f.name);
  const rows = await reader.readRows({ offset: from, limit: n, temporal: 'iso', filter: where ? parseWhere(where) : undefined });
  await reader.close();
  return rows.map((r, i) => [String(from + i), ...columns.map((c) => cell(r[c]))]);
}

test('a flat file: layout numbers as meta gives them, rows as the library reads them, a filter', { skip: skipWithoutChromium, timeout: 120_000 }, async () => {
  const page = await checkParquet(FLAT);
  const shown = await scrollTo(page, 0);
  assert.deepEqual(shown, await libraryRows(FLAT, 0, shown.length));
  assert.ok(shown.length === 8, `${shown.length} rows shown`);
  const where = 'id >= 3 AND bool_col = true';
  await page.type('#where', where);
  await page.click('#filter button');
  await page.waitForSelector('#count[data-count]', { timeout: 30_000 });
  const reader = await openParquet(FLAT);
  const matching = (await reader.readRows({ filter: parseWhere(where) })).length;
  await reader.close();
  assert.equal(await page.$eval('#count', (e) => e.getAttribute('data-count')), String(matching));
  assert.ok(matching > 0 && matching < 8);
  assert.deepEqual(await scrollTo(page, 0), await libraryRows(FLAT, 0, matching, where));
  // A syntax error is shown, with the position, as the CLI gives it.
  await page.$eval('#where', (e) => void ((e as HTMLInputElement).value = 'id >'));
  await page.click('#filter button');
  await page.waitForSelector('#count[data-error]', { timeout: 30_000 });
  assert.match(await page.$eval('#count', (e) => e.textContent ?? ''), /expected .* at position 5/);
  await page.close();
});

test('row groups with a page index: pages to scale, bounds on hover, the table scrolled across row groups, a screenshot', { skip: skipWithoutChromium, timeout: 120_000 }, async () => {
  const page = await checkParquet(GROUPS);
  for (const row of [0, 23, 35]) {
    const shown = await scrollTo(page, row);
    assert.ok(shown.length > 5, `${shown.length} rows in view`);
    assert.deepEqual(shown, await libraryRows(GROUPS, row, shown.length), `scrolled to ${row}`);
  }
  await page.hover('.chunk[data-group="2"] .page');
  const tip = await page.$eval('#tip', (e) => ((e as HTMLElement).hidden ? '' : e.textContent ?? ''));
  const reader = await openParquet(GROUPS);
  const [entry] = (await reader.pageIndex(2, reader.schema.leaves[0]!.path))!;
  await reader.close();
  assert.match(tip, /page index\nmin: (\S+)\nmax: (\S+)/);
  const [, min, max] = /page index\nmin: (\S+)\nmax: (\S+)/.exec(tip)!;
  assert.deepEqual([min, max], [String(entry!.min), String(entry!.max)]);

  const png = await page.screenshot({ fullPage: true });
  writeFileSync(join(out, 'viewer.png'), png);
  if (process.env.VIEWER_SCREENSHOT) writeFileSync(process.env.VIEWER_SCREENSHOT, png);
  // Decoded by the browser: a rendered page has many colours, a blank one one or two.
  const colours = await page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = img.width;
    canvas.height = img.height;
    const ctx = canvas.getContext('2d')!;
    ctx.drawImage(img, 0, 0);
    const px = ctx.getImageData(0, 0, img.width, img.height).data;
    const seen = new Set<number>();
    for (let i = 0; i < px.length; i += 4) seen.add((px[i]! << 16) | (px[i + 1]! << 8) | px[i + 2]!);
    return seen.size;
  }, Buffer.from(png).toString('base64'));
  assert.ok(colours > 50, `${colours} colours in the screenshot`);
  await page.close();
});

test('a nested file: the schema tree, the layout, structs and lists in the table', { skip: skipWithoutChromium, timeout: 120_000 }, async () => {
  const page = await checkParquet(NESTED);
  const reader = await openParquet(NESTED);
  const names = (node: { name: string; isLeaf: boolean; children?: unknown[] }): string[] =>
    [node.name, ...(node.isLeaf ? [] : (node.children as typeof node[]).flatMap(names))];
  const expected = reader.schema.root.children.flatMap((c) => names(c as never));
  await reader.close();
  assert.deepEqual((await page.$$eval('#schema .name', (els) => els.map((e) => e.textContent))).slice(1), expected);
  const shown = await scrollTo(page, 0);
  assert.deepEqual(shown, await libraryRows(NESTED, 0, shown.length));
  assert.equal(shown.length, 7);
  await page.close();
});

test('more rows than a browser can make pixels for: the scroll bar maps onto them, down to the last row', { skip: skipWithoutChromium, timeout: 120_000 }, async () => {
  // 1,500,000 rows of 24 px would be 36 million px, past what Chromium lets an element be.
  const file = join(out, 'tall.parquet');
  const n = 1_500_000;
  const w = await openWriter(file, defineSchema({ id: field.int64().required(), half: field.double().required() }), { rowGroupRows: 500_000 });
  const id = new BigInt64Array(n);
  const half = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    id[i] = BigInt(i);
    half[i] = i / 2;
  }
  await w.writeColumns({ id, half });
  await w.close();
  const page = await open(file);
  for (const fraction of [0.5, 1]) {
    const before = await page.$eval('#rows', (e) => e.getAttribute('data-first'));
    await page.$eval('#rows', (e, f) => void (e.scrollTop = (e.scrollHeight - e.clientHeight) * f), fraction);
    await page.waitForFunction((b) => document.querySelector('#rows')?.getAttribute('data-first') !== b, { timeout: 30_000 }, before);
    const first = Number(await page.$eval('#rows', (e) => e.getAttribute('data-first')));
    const shown = await page.$$eval('#rows-body tr', (trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.textContent ?? '')));
    assert.ok(Math.abs(first - fraction * n) < 100, `${fraction} of the way down shows row ${first}`);
    assert.deepEqual(shown, await libraryRows(file, first, shown.length));
    if (fraction === 1) assert.equal(shown.at(-1)![0], String(n - 1), 'the last row is reached');
  }
  // Scrolling down within a row group continues the rows already decoded: nothing is fetched again.
  // (A quarter of the way down: rows not seen yet, so the table reads them rather than its cache.)
  await page.$eval('#rows', (e) => void (e.scrollTop = (e.scrollHeight - e.clientHeight) / 4));
  await page.waitForFunction(() => Math.abs(Number(document.querySelector('#rows')?.getAttribute('data-first')) - 375_000) < 100, { timeout: 30_000 });
  const fetched: string[] = [];
  page.on('request', (r) => fetched.push(r.url()));
  for (const step of [1, 2, 10]) {
    const before = await page.$eval('#rows', (e) => e.getAttribute('data-first'));
    await page.$eval('#rows', (e, px) => void (e.scrollTop += px), step * 2400);
    await page.waitForFunction((b) => document.querySelector('#rows')?.getAttribute('data-first') !== b, { timeout: 30_000 }, before);
  }
  const first = Number(await page.$eval('#rows', (e) => e.getAttribute('data-first')));
  assert.ok(first > 380_000 && first < 500_000, `scrolled on to row ${first}, in the same row group`);
  assert.deepEqual(fetched, []);
  await page.close();
});

test('a picked file is read in the page through Blob slices, with nothing requested from the server', { skip: skipWithoutChromium, timeout: 60_000 }, async () => {
  const url = new URL(await view(FLAT));
  const page = await browser.newPage();
  const requests: string[] = [];
  page.on('request', (r) => requests.push(new URL(r.url()).pathname));
  // The page without a file (the bare `/` leads to the served FILE).
  await page.goto(url.origin + '/index.html');
  const input = await page.$('#pick');
  await (input as unknown as { uploadFile(path: string): Promise<void> }).uploadFile(NESTED);
  await page.waitForFunction(() => document.querySelector('#layout > div')?.getAttribute('data-pages') === 'done', { timeout: 30_000 });
  assert.equal(await summary(page, 'file'), 'nullable.impala.parquet');
  assert.equal(await summary(page, 'rows'), '7');
  assert.deepEqual(await scrollTo(page, 0), await libraryRows(NESTED, 0, 7));
  assert.deepEqual(requests.filter((p) => p.startsWith('/file/')), [], 'the served file was not read');
  assert.ok(requests.includes('/index.html'), 'the page itself came from the server');
  await page.close();
});

/** Rows `from..from+n` of a reader whose rows() takes an offset, as the table formats them. */
async function readerRows(rows: AsyncIterable<Record<string, unknown>>, columns: string[], from: number, n: number): Promise<string[][]> {
  const out: string[][] = [];
  for await (const r of rows) {
    if (out.length === n) break;
    out.push([String(from + out.length), ...columns.map((c) => cell(r[c]))]);
  }
  return out;
}

test('a Trevni file: columns and blocks as meta gives them, the table scrolled against the reader', { skip: skipWithoutChromium, timeout: 120_000 }, async () => {
  const meta = JSON.parse(cli('meta', TREVNI, '--json'));
  const page = await open(TREVNI);
  assert.equal(await summary(page, 'format'), 'trevni');
  assert.equal(await summary(page, 'rows'), String(meta.numRows));
  assert.equal(await summary(page, 'columns'), String(meta.columns));
  const shown = await chunks(page);
  assert.deepEqual(shown.map((c) => [c.path, c.codec, c.bytes, c.uncompressed, c.pages]),
    meta.columnChunks.map((c: { name: string; codec: string; compressedSize: number; uncompressedSize: number; blocks: number }) => [c.name, c.codec, String(c.compressedSize), String(c.uncompressedSize), c.blocks]));
  assert.ok(await page.$eval('#where', (e) => (e as HTMLInputElement).disabled));
  const source = await fileSource(TREVNI);
  const reader = await TrevniReader.open(source);
  const columns = reader.roots.map((i) => reader.columns[i]!.name);
  for (const row of [0, 7345]) {
    const rows = await scrollTo(page, row);
    assert.deepEqual(rows, await readerRows(reader.rows({ offset: row }), columns, row, rows.length), `scrolled to ${row}`);
  }
  await source.close?.();
  await page.close();
});

test('a RedElm file: row groups and columns as meta gives them, each column as its three sections, the table across row groups', { skip: skipWithoutChromium, timeout: 120_000 }, async () => {
  const meta = JSON.parse(cli('meta', REDELM, '--json'));
  const page = await open(REDELM);
  assert.equal(await summary(page, 'format'), 'redelm');
  assert.equal(await summary(page, 'rows'), String(meta.numRows));
  assert.equal(await summary(page, 'row groups'), String(meta.rowGroups));
  assert.deepEqual(await page.$$eval('.group', (els) => els.map((e) => (e as HTMLElement).dataset.rows)), meta.blocks.map((b: { records: number }) => String(b.records)));
  const shown = await chunks(page);
  assert.deepEqual(shown.map((c) => [c.group, c.path, c.bytes, c.uncompressed, c.pages, String(c.pageBytes)]),
    meta.blocks.flatMap((b: { columns: { path: string; compressedSize: number; uncompressedSize: number }[] }, g: number) =>
      b.columns.map((c) => [String(g), c.path, String(c.compressedSize), String(c.uncompressedSize), 3, String(c.compressedSize)])));
  assert.ok(await page.$eval('#where', (e) => (e as HTMLInputElement).disabled));
  const reader = await openRedElm(REDELM);
  const columns = reader.plan().fields.map((f) => f.name);
  assert.deepEqual((await page.$$eval('#schema > ul > li > ul > li > .name', (els) => els.map((e) => e.textContent))), reader.schema.root.children.map((c) => c.name));
  // Row 1,500 is in the second row group.
  for (const row of [0, 1500]) {
    const rows = await scrollTo(page, row);
    assert.ok(rows.length > 5, `${rows.length} rows in view`);
    assert.deepEqual(rows, await readerRows(reader.rows({ offset: row }), columns, row, rows.length), `scrolled to ${row}`);
  }
  await reader.close();
  await page.close();
});

test("a Trevni file of the wiki draft's dialect: its leaves' blocks as meta gives them, the Parquet schema, rows in the Parquet form", { skip: skipWithoutChromium, timeout: 120_000 }, async () => {
  const sink = new BufferSink();
  const { schema } = defineSchema({ id: field.int64().required(), tags: field.list(field.string()), where: field.struct({ city: field.string(), zip: field.int32().required() }) });
  const w = await TrevniDraftWriter.open(sink, schema, { codec: 'deflate', checksum: 'crc32', blockSize: 2048 });
  for (let i = 0; i < 600; i++) {
    await w.write({ id: BigInt(i * 1000003), tags: i % 5 === 0 ? null : Array.from({ length: i % 4 }, (_, k) => `t${i}-${k}`), where: i % 7 === 0 ? null : { city: i % 3 ? `c${i}` : null, zip: i } });
  }
  await w.close();
  const file = join(out, 'draft.trv');
  writeFileSync(file, sink.bytes());
  const meta = JSON.parse(cli('meta', file, '--json'));
  assert.equal(meta.dialect, 'dremel');
  const leaves = meta.columnChunks.filter((c: { type: string }) => c.type !== 'null');
  const page = await open(file);
  assert.equal(await summary(page, 'format'), 'trevni (wiki draft, Dremel levels)');
  assert.equal(await summary(page, 'rows'), String(meta.numRows));
  assert.equal(await summary(page, 'columns'), String(leaves.length));
  const shown = await chunks(page);
  assert.deepEqual(shown.map((c) => [c.path, c.codec, c.bytes, c.uncompressed, c.pages]),
    leaves.map((c: { name: string; codec: string; compressedSize: number; uncompressedSize: number; blocks: number }) => [c.name, c.codec, String(c.compressedSize), String(c.uncompressedSize), c.blocks]));
  assert.ok(shown.some((c) => c.pages > 1), 'some leaf has several blocks');
  const reader = await openTrevni(sink.bytes());
  assert.deepEqual(await page.$$eval('#schema .name', (els) => els.map((e) => e.textContent)), ['schema', 'id', 'tags', 'list', 'element', 'where', 'city', 'zip']);
  for (const row of [0, 450]) {
    const rows = await scrollTo(page, row);
    assert.ok(rows.length > 5, `${rows.length} rows in view`);
    assert.deepEqual(rows, await readerRows(reader.rows({ offset: row }), ['id', 'tags', 'where'], row, rows.length), `scrolled to ${row}`);
  }
  await page.close();
});

test('ZSTD and BROTLI files: the page loads their wasm from the package\'s dist/codecs/wasm/, which the viewer does not carry a copy of', { skip: skipWithoutChromium, timeout: 120_000 }, async () => {
  const records = Array.from({ length: 50 }, (_, i) => ({ id: i, name: `name ${i % 7}` }));
  for (const codec of ['ZSTD', 'BROTLI'] as const) {
    const file = join(out, `${codec}.parquet`);
    const sink = new BufferSink();
    const w = await openWriter(sink, defineSchema({ id: field.int64().required(), name: field.string() }), { codec });
    await w.writeMany(records);
    await w.close();
    writeFileSync(file, sink.bytes());
    const page = await checkParquet(file);
    const shown = await scrollTo(page, 0);
    assert.deepEqual(shown, await libraryRows(file, 0, shown.length));
    assert.ok(shown.length > 0);
    await page.close();
  }
});
