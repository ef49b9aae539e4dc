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
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { chromiumPath, skipWithoutChromium } from './chromium.js';
import { BufferSink, defineSchema, field, openParquet, openTable, openWriter, type WriterSchema } from '../../src/node/index.js';
import { TrevniDraftWriter } from '../../src/node/entries/trevni.js';
import { cell } from '../../viewer/src/format.js';
import { clip } from '../../src/text/render.js';
import { ok as cli } from '../cli/run-cli.js';
import { CLI } from '../cli/bin.js';

const DATA = join('..', 'shared', 'corpus', 'parquet-testing', 'data');
const FLAT = join(DATA, 'alltypes_plain.parquet');
/** Five row groups, a page index on every chunk. */
const GROUPS = join(DATA, 'floating_orders_nan_count.parquet');
const NESTED = join(DATA, 'nullable.impala.parquet');
const TREVNI = join('..', 'shared', 'trevni-corpus', 'avro_multiblock_deflate.trv');
/** Three row groups, GzipCodec, nested and repeated fields. */
const REDELM = join('..', 'shared', 'ancestors', 'redelm', 'multi_rowgroup_gzip.redelm');

let browser: Browser;
let out: string;
const servers: ChildProcess[] = [];


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

/** The table's rows in view after scrolling to `row` (or as near as the scroll bar goes), as shown: [file row number, ...cells]. */
async function scrollTo(page: Page, row: number): Promise<string[][]> {
  const top = await page.$eval('#rows', (e, t) => ((e.scrollTop = t), e.scrollTop), row * 24);
  await page.waitForFunction((r) => document.querySelector('#rows')?.getAttribute('data-first') === String(r), { timeout: 30_000 }, Math.floor(top / 24));
  return shownRows(page);
}

function shownRows(page: Page): Promise<string[][]> {
  return page.$$eval('#rows-body tr', (trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.textContent ?? '')));
}

async function checkParquet(file: string): Promise<Page> {
  const meta = JSON.parse(await cli('meta', file, '--json'));
  const page = await open(file);
  assert.equal(await summary(page, 'rows'), String(meta.numRows));
  assert.equal(await summary(page, 'row groups'), String(meta.numRowGroups));
  assert.deepEqual(await page.$$eval('.group', (els) => els.map((e) => (e as HTMLElement).dataset.rows)), meta.rowGroups.map((g: { numRows: number }) => String(g.numRows)));
  const pages = (await cli('pages', file, '--json')).trim().split('\n').map((l) => JSON.parse(l) as { rowGroup: number; column: string; headerSize: number; compressedSize: number });
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

/** The library's rows `first..first+n` of any table, formatted as the table formats them, numbered from `first`. */
async function libraryRows(file: string, first: number, n: number): Promise<string[][]> {
  await using table = await openTable(file);
  const columns = table.schema.root.children.map((c) => c.name);
  const out: string[][] = [];
  for await (const r of table.rows({ offset: first, limit: n, temporal: 'iso' })) out.push([String(first + out.length), ...columns.map((c) => cell(r[c]))]);
  return out;
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
  // The matches found by testing every row here: the # column shows their row numbers in the file.
  const all = await libraryRows(FLAT, 0, 8);
  const reader = await openParquet(FLAT);
  const rows = await reader.readRows();
  await reader.close();
  const expected = all.filter((_, i) => Number(rows[i]!.id) >= 3 && rows[i]!.bool_col === true);
  assert.equal(await page.$eval('#count', (e) => e.getAttribute('data-count')), String(expected.length));
  assert.ok(expected.length > 1 && expected.length < 8);
  assert.notDeepEqual(expected.map((r) => r[0]), expected.map((_, i) => String(i)), 'the matches are not the first rows, so their numbers tell');
  assert.deepEqual(await scrollTo(page, 0), expected);
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
    assert.deepEqual(shown, await libraryRows(GROUPS, Number(shown[0]![0]), shown.length), `scrolled to ${row}`);
  }
  await page.hover('.chunk[data-group="2"] .page');
  const tip = await page.$eval('#tip', (e) => ((e as HTMLElement).hidden ? '' : e.textContent ?? ''));
  const reader = await openParquet(GROUPS);
  const [entry] = (await reader.file.pageIndex(2, reader.schema.leaves[0]!.path))!;
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
  // 2,000,000 rows of 24 px would be 48 million px, past what Chromium lets an element be.
  const file = join(out, 'tall.parquet');
  const n = 2_000_000;
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
    // Only the rows in view are in the page.
    const room = await page.$eval('#rows', (e) => Math.ceil(e.clientHeight / 24) + 1);
    assert.ok(shown.length <= room && shown.length > 10, `${shown.length} rows in the DOM for ${room} in view`);
    assert.deepEqual(shown, await libraryRows(file, first, shown.length));
    if (fraction === 1) assert.equal(shown.at(-1)![0], String(n - 1), 'the last row is reached');
  }
  // Scrolling down within a row group continues the rows already decoded: nothing is fetched again.
  // (Three tenths of the way down, in the second row group: rows not seen yet, so the table reads them rather than its cache.)
  await page.$eval('#rows', (e) => void (e.scrollTop = (e.scrollHeight - e.clientHeight) * 0.3));
  await page.waitForFunction((q) => Math.abs(Number(document.querySelector('#rows')?.getAttribute('data-first')) - q) < 100, { timeout: 30_000 }, n * 0.3);
  const fetched: string[] = [];
  page.on('request', (r) => fetched.push(r.url()));
  for (const step of [1, 2, 10]) {
    const before = await page.$eval('#rows', (e) => e.getAttribute('data-first'));
    await page.$eval('#rows', (e, px) => void (e.scrollTop += px), step * 2400);
    await page.waitForFunction((b) => document.querySelector('#rows')?.getAttribute('data-first') !== b, { timeout: 30_000 }, before);
  }
  const first = Number(await page.$eval('#rows', (e) => e.getAttribute('data-first')));
  assert.ok(first > n * 0.3 + 5_000 && first < 1_000_000, `scrolled on to row ${first}, in the same row group`);
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

test('a Trevni file: columns and blocks as meta gives them, the table scrolled against openTable', { skip: skipWithoutChromium, timeout: 120_000 }, async () => {
  const meta = JSON.parse(await cli('meta', TREVNI, '--json'));
  const page = await open(TREVNI);
  assert.equal(await summary(page, 'format'), 'trevni');
  assert.equal(await summary(page, 'rows'), String(meta.numRows));
  assert.equal(await summary(page, 'columns'), String(meta.columns));
  const shown = await chunks(page);
  assert.deepEqual(shown.map((c) => [c.path, c.codec, c.bytes, c.uncompressed, c.pages]),
    meta.columnChunks.map((c: { name: string; codec: string; compressedSize: number; uncompressedSize: number; blocks: number }) => [c.name, c.codec, String(c.compressedSize), String(c.uncompressedSize), c.blocks]));
  assert.ok(await page.$eval('#where', (e) => (e as HTMLInputElement).disabled));
  for (const row of [0, 7345]) {
    const rows = await scrollTo(page, row);
    assert.deepEqual(rows, await libraryRows(TREVNI, row, rows.length), `scrolled to ${row}`);
  }
  await page.close();
});

test('a RedElm file: row groups and columns as meta gives them, each column as its three sections, the table across row groups', { skip: skipWithoutChromium, timeout: 120_000 }, async () => {
  const meta = JSON.parse(await cli('meta', REDELM, '--json'));
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
  await using table = await openTable(REDELM);
  assert.deepEqual((await page.$$eval('#schema > ul > li > ul > li > .name', (els) => els.map((e) => e.textContent))), table.schema.root.children.map((c) => c.name));
  // Row 1,500 is in the second row group.
  for (const row of [0, 1500]) {
    const rows = await scrollTo(page, row);
    assert.ok(rows.length > 5, `${rows.length} rows in view`);
    assert.deepEqual(rows, await libraryRows(REDELM, row, rows.length), `scrolled to ${row}`);
  }
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
  const meta = JSON.parse(await cli('meta', file, '--json'));
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
  assert.deepEqual(await page.$$eval('#schema .name', (els) => els.map((e) => e.textContent)), ['schema', 'id', 'tags', 'list', 'element', 'where', 'city', 'zip']);
  for (const row of [0, 450]) {
    const rows = await scrollTo(page, row);
    assert.ok(rows.length > 5, `${rows.length} rows in view`);
    assert.deepEqual(rows, await libraryRows(file, row, rows.length), `scrolled to ${row}`);
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

/** Writes `rows` of `schema` to a file under the test's directory. */
async function writeFile(name: string, schema: WriterSchema, rows: Record<string, unknown>[]): Promise<string> {
  const file = join(out, name);
  const w = await openWriter(file, schema, { rowGroupRows: 64 });
  await w.writeMany(rows);
  await w.close();
  return file;
}

test('the data table fills the window and follows its size; a header edge dragged resizes its column', { skip: skipWithoutChromium, timeout: 120_000 }, async () => {
  const file = await writeFile('wide.parquet', defineSchema({ id: field.int64().required(), name: field.string() }), Array.from({ length: 1000 }, (_, i) => ({ id: BigInt(i), name: `name ${i} `.repeat(i % 9 + 1).trim() })));
  const page = await open(file);
  const box = () => page.$eval('#rows', (e) => {
    const r = e.getBoundingClientRect();
    return { bottom: r.bottom, height: r.height, window: innerHeight, drawn: document.querySelectorAll('#rows-body tr').length };
  });
  const first = await box();
  assert.ok(first.window - first.bottom < 40 && first.height > 400, `the table ends ${first.window - first.bottom} px above the window's bottom, ${first.height} px tall`);
  await page.setViewport({ width: 1280, height: 1400 });
  // The window grows 500 px; the layout above takes a share of it (32vh at most), the table the rest.
  await page.waitForFunction((h) => document.querySelector('#rows')!.getBoundingClientRect().height > h + 300, { timeout: 10_000 }, first.height);
  await page.waitForFunction((d) => document.querySelectorAll('#rows-body tr').length > d + 10, { timeout: 10_000 }, first.drawn);
  const taller = await box();
  assert.ok(taller.window - taller.bottom < 40, `the table ends ${taller.window - taller.bottom} px above the window's bottom`);

  const width = (sel: string) => page.$eval(sel, (e) => e.getBoundingClientRect().width);
  const th = '#rows-head th[data-column="1"]';
  const before = await width(th);
  const edge = await page.$eval(`${th} .grip`, (e) => {
    const r = e.getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
  });
  await page.mouse.move(edge.x, edge.y);
  await page.mouse.down();
  await page.mouse.move(edge.x + 60, edge.y, { steps: 3 });
  await page.mouse.move(edge.x + 120, edge.y, { steps: 3 });
  await page.mouse.up();
  const after = await width(th);
  assert.ok(Math.abs(after - before - 120) <= 1, `the column went from ${before} to ${after} px`);
  assert.ok(Math.abs((await width('#rows-body tr td:nth-child(3)')) - after) <= 1, 'its cells follow');
  // The drag sorted nothing.
  assert.equal(await page.$eval(th, (e) => e.getAttribute('data-sort')), null);
  await page.close();
});

test('the detail panel: a selected cell whole, nested values as a tree that folds, long strings whole, binary as hex; arrow keys move the selection', { skip: skipWithoutChromium, timeout: 120_000 }, async () => {
  const long = Array.from({ length: 400 }, (_, i) => `word${i}`).join(' ');
  const blob = Uint8Array.from({ length: 100 }, (_, i) => (i * 7) & 0xff);
  const schema = defineSchema({
    id: field.int64().required(), text: field.string(), blob: field.binary(),
    item: field.struct({ tags: field.list(field.string()), size: field.int64() }),
  });
  const file = await writeFile('detail.parquet', schema, [
    { id: 0n, text: 'short', blob: Uint8Array.of(1, 2), item: null },
    { id: 1n, text: long, blob, item: { tags: ['a', 'b', 'c'], size: 9007199254740993n } },
  ]);
  const page = await open(file);
  assert.match(await page.$eval('#detail', (e) => e.textContent ?? ''), /Select a cell/);
  const clickCell = (row: number, column: number) => page.click(`#rows-body tr[data-row="${row}"] td:nth-child(${column + 2})`);
  const detail = () => page.$eval('#detail', (e) => ({ row: e.getAttribute('data-row'), column: e.getAttribute('data-column'), title: e.querySelector('h3')?.textContent }));

  await clickCell(1, 1);
  assert.deepEqual(await detail(), { row: '1', column: 'text', title: 'text · row 1' });
  assert.equal(await page.$eval('#detail pre.string', (e) => e.textContent), long, 'the whole string');
  // The cell cuts it short: the panel is where it is read.
  assert.ok(await page.$eval('#rows-body tr[data-row="1"] td:nth-child(3)', (e) => e.scrollWidth > e.clientWidth));

  await page.keyboard.press('ArrowRight');
  assert.equal((await detail()).column, 'blob');
  const hex = await page.$eval('#detail pre.hex', (e) => e.textContent ?? '');
  const bytes = hex.split('\n').flatMap((line) => line.slice(10).split(' ').map((h) => parseInt(h, 16)));
  assert.deepEqual(bytes, Array.from(blob), 'every byte, in hex');

  await page.keyboard.press('ArrowRight');
  assert.equal((await detail()).column, 'item');
  const tree = await page.$eval('#detail', (e) => ({
    summaries: Array.from(e.querySelectorAll('summary'), (s) => s.textContent),
    leaves: Array.from(e.querySelectorAll('.leaf'), (l) => l.textContent),
  }));
  assert.deepEqual(tree, { summaries: ['struct {2}', 'tags: list [3]'], leaves: ['0: a', '1: b', '2: c', 'size: 9007199254740993'] });
  // A branch folds.
  await page.click('#detail details details > summary');
  assert.equal(await page.$eval('#detail details details', (e) => (e as HTMLDetailsElement).open), false);

  await page.focus('#rows');
  await page.keyboard.press('ArrowUp');
  assert.deepEqual(await detail(), { row: '0', column: 'item', title: 'item · row 0' });
  assert.equal(await page.$eval('#detail .leaf', (e) => e.textContent), 'null');
  assert.equal(await page.$$eval('#rows-body td.selected', (els) => els.length), 1);
  await page.close();
});

/** `head`'s table cut into its cells by the widths of its dashes line. */
function headCells(text: string): string[][] {
  const lines = text.replace(/\n$/, '').split('\n');
  const widths = lines[1]!.split('  ').map((d) => d.length);
  return lines.filter((_, i) => i !== 1).map((line) => {
    let at = 0;
    return widths.map((w) => {
      const cellText = line.slice(at, at + w).trimEnd();
      at += w + 2;
      return cellText;
    });
  });
}

test("cells read as `parquetry head` prints them, cell by cell, for the corpus's files", { skip: skipWithoutChromium, timeout: 300_000 }, async () => {
  const files = [
    'alltypes_plain.parquet', 'nullable.impala.parquet', 'int96_from_spark.parquet', 'byte_array_decimal.parquet', 'fixed_length_decimal.parquet',
    'int64_decimal.parquet', 'nested_lists.snappy.parquet', 'nested_maps.snappy.parquet', 'null_list.parquet', 'list_columns.parquet',
    'binary.parquet', 'float16_nonzeros_and_nans.parquet', 'nested_structs.rust.parquet', 'datapage_v2.snappy.parquet',
  ].map((f) => join(DATA, f));
  // One server; each file picked on its page, as a user picks one (no server per file).
  const origin = new URL(await view(FLAT)).origin;
  const all = [...files, REDELM];
  for (const file of all) {
    const page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    await page.goto(origin + '/index.html');
    await (await page.$('#pick') as unknown as { uploadFile(path: string): Promise<void> }).uploadFile(file);
    await page.waitForFunction(() => document.querySelector('#layout > div')?.getAttribute('data-pages') === 'done', { timeout: 60_000 });
    const shown = await scrollTo(page, 0);
    const columns = await page.$$eval('#rows-head th .title', (els) => els.slice(1).map((e) => e.textContent ?? ''));
    const head = headCells(await cli('head', file, '-n', '40')).slice(0, shown.length + 1);
    assert.deepEqual([columns, ...shown.map((r) => r.slice(1))].map((r) => r.map((c) => clip(c, 40))), head, file);
    await page.close();
  }
});

test('sorting a column: the rows in view at once, then the whole file in the background, in the order of DuckDB ORDER BY', { skip: skipWithoutChromium, timeout: 300_000 }, async () => {
  const n = 300;
  const words = ['pear', 'apple', 'Äpfel', 'zebra', '😀 smile', '\uffef last BMP', 'apple', ''];
  const schema = defineSchema({
    id: field.int64().required(), word: field.string(), x: field.double(), k: field.int32(), day: field.date(), price: field.decimal(9, 2),
  });
  const rows = Array.from({ length: n }, (_, i) => ({
    id: BigInt(i),
    word: i % 11 === 0 ? null : words[(i * 5) % words.length]! + (i % 3 === 0 ? '' : String(i % 4)),
    x: i % 13 === 0 ? null : i % 17 === 0 ? NaN : ((i * 37) % 101) / 7 - 5,
    k: i % 7 === 0 ? null : ((i * 31) % 23) - 11,
    day: i % 9 === 0 ? null : 18000 + ((i * 13) % 40) - 20,
    price: i % 10 === 0 ? null : `${((i * 53) % 2001) - 1000}.${String(i % 100).padStart(2, '0')}`,
  }));
  const file = await writeFile('sort.parquet', schema, rows);
  const page = await open(file);
  await page.setViewport({ width: 1280, height: 2400 });
  const texts = await libraryRows(file, 0, n);
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const duck = await (await DuckDBInstance.create(':memory:')).connect();
  for (const [column, descending] of [['word', false], ['x', false], ['k', true], ['day', false], ['price', false], ['price', true]] as const) {
    const index = ['id', 'word', 'x', 'k', 'day', 'price'].indexOf(column);
    const th = `#rows-head th[data-column="${index}"]`;
    await page.click(th);
    if (descending) await page.click(th);
    // The first click sorts the rows in view at once.
    await page.waitForFunction((sel) => document.querySelector(sel)?.getAttribute('data-sort') === 'file', { timeout: 60_000 }, th);
    assert.match(await page.$eval('#sort-status', (e) => e.textContent ?? ''), new RegExp(`sorted the file by ${column}`));
    const seen: string[][] = [];
    for (let row = 0; seen.length < n; ) {
      const shown = await scrollTo(page, row);
      const firstShown = Number(await page.$eval('#rows', (e) => e.getAttribute('data-first')));
      seen.splice(firstShown, shown.length, ...shown);
      row = firstShown + shown.length;
      if (shown.length === 0) break;
    }
    assert.equal(seen.length, n);
    const reader = await duck.runAndReadAll(`SELECT id FROM read_parquet('${file}') ORDER BY ${column}${descending ? ' DESC' : ''}`);
    const duckIds = reader.getRows().map((r) => Number(r[0] as bigint));
    // Ties may come in any order from DuckDB: the keys in order, and the rows as a set.
    assert.deepEqual(seen.map((r) => r[index + 1]), duckIds.map((id) => texts[id]![index + 1]), `${column}${descending ? ' desc' : ''}: the keys in order`);
    assert.deepEqual(seen.map((r) => r[0]).sort(), texts.map((r) => r[0]).sort(), 'every row once');
    // Rows keep their cells: each shown row is its file row.
    for (const r of seen) assert.deepEqual(r, texts[Number(r[0])]);
    if (!descending) await page.click(th); // to descending, and on
    await page.click(th); // back to file order
    assert.equal(await page.$eval(th, (e) => e.getAttribute('data-sort')), null);
  }
  duck.closeSync();
  await page.close();
});

test('a whole-file sort shows its progress and can be cancelled; the rows in view are sorted meanwhile', { skip: skipWithoutChromium, timeout: 120_000 }, async () => {
  const n = 600_000;
  const file = join(out, 'sort-big.parquet');
  const w = await openWriter(file, defineSchema({ id: field.int64().required(), v: field.double().required() }), { rowGroupRows: 200_000 });
  const id = new BigInt64Array(n);
  const v = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    id[i] = BigInt(i);
    v[i] = Math.sin(i);
  }
  await w.writeColumns({ id, v });
  await w.close();
  const page = await open(file);
  await page.click('#rows-head th[data-column="1"]');
  assert.equal(await page.$eval('#rows-head th[data-column="1"]', (e) => e.getAttribute('data-sort')), 'window');
  const inView = (await shownRows(page)).map((r) => Number(r[2]));
  assert.deepEqual(inView, [...inView].sort((a, b) => a - b), 'the rows in view, sorted at once');
  await page.waitForFunction(() => Number(document.querySelector('#sort-status')?.getAttribute('data-progress')) > 0, { timeout: 60_000 });
  // The page answers while it sorts.
  const answered = await page.evaluate(() => new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 10)));
  assert.ok(answered);
  await page.click('#sort-cancel');
  await page.waitForFunction(() => document.querySelector('#sort-status')?.getAttribute('data-state') === 'cancelled', { timeout: 30_000 });
  assert.equal(await page.$eval('#rows-head th[data-column="1"]', (e) => e.getAttribute('data-sort')), 'window');
  await page.close();
});

test('chunk labels too long for their box end in an ellipsis, and hovering shows them whole', { skip: skipWithoutChromium, timeout: 120_000 }, async () => {
  const page = await open(NESTED);
  const cut = await page.$$eval('.chunk .label', (els) => els.map((e, i) => ({ i, text: e.textContent, cut: e.scrollWidth > e.clientWidth, overflow: getComputedStyle(e).textOverflow })));
  const label = cut.find((c) => c.cut);
  assert.ok(label, 'some label is longer than its box');
  assert.ok(cut.every((c) => c.overflow === 'ellipsis'));
  const labels = await page.$$('.chunk .label');
  await labels[label.i]!.hover();
  const tip = await page.$eval('#tip', (e) => ((e as HTMLElement).hidden ? '' : e.textContent ?? ''));
  assert.ok(tip.startsWith(label.text!), `the tip begins with the label: ${tip.split('\n')[0]}`);
  await page.close();
});

test('a dataset directory opens as one table, its partition columns shown', { skip: skipWithoutChromium, timeout: 120_000 }, async () => {
  const dir = join(out, 'dataset');
  const schema = defineSchema({ id: field.int64().required(), name: field.string() });
  for (const [year, from] of [[2023, 0], [2024, 40]] as const) {
    mkdirSync(join(dir, `year=${year}`), { recursive: true });
    const w = await openWriter(join(dir, `year=${year}`, 'part-0.parquet'), schema);
    await w.writeMany(Array.from({ length: 40 }, (_, i) => ({ id: BigInt(from + i), name: `n${from + i}` })));
    await w.close();
  }
  const page = await open(dir);
  assert.equal(await summary(page, 'format'), 'dataset');
  assert.equal(await summary(page, 'rows'), '80');
  assert.equal(await summary(page, 'files'), '2');
  const columns = await page.$$eval('#rows-head th .title', (els) => els.map((e) => e.textContent));
  assert.deepEqual(columns, ['#', 'id', 'name', 'year']);
  for (const row of [0, 50]) {
    const shown = await scrollTo(page, row);
    assert.ok(shown.length > 5);
    assert.deepEqual(shown, await libraryRows(dir, Number(await page.$eval('#rows', (e) => e.getAttribute('data-first'))), shown.length));
  }
  // A filter on the partition column: file row numbers of the dataset.
  await page.type('#where', 'year = 2024 AND id < 45');
  await page.click('#filter button');
  await page.waitForSelector('#count[data-count]', { timeout: 30_000 });
  assert.deepEqual((await scrollTo(page, 0)).map((r) => r[0]), ['40', '41', '42', '43', '44']);
  await page.close();
});
