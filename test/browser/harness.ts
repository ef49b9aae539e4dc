/**
 * What the browser tests share: the app in ./app.ts bundled as
 * docs/browsers.md says (esbuild, ESM, code splitting, no loader or copy
 * step), pages and files served from 127.0.0.1, headless Chromium, and calls
 * into the app's `parquetry` global.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, type BuildOptions, type Metafile } from 'esbuild';
// @ts-expect-error: a JavaScript module without declarations
import { sourceAliases } from '../../scripts/source-aliases.mjs';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import type { api } from './app.js';

export type Api = typeof api;

export interface Harness {
  origin: string;
  /** The bundle's output directory (its `js/` on the page). */
  out: string;
  metafile: Metafile;
  browser: Browser;
  /** Opens `path` and waits for the app to start. */
  open(path: string): Promise<Page>;
  close(): Promise<void>;
}

/** A page: the script tag's attributes, and response headers. */
export type PageSpec = { script: string; headers?: Record<string, string> };

export const APP = join(import.meta.dirname, 'app.ts');
/** The aliases stand for `npm install parquetry`, pointing the imports at this checkout's portable entry points. */
export const APP_ALIAS: Record<string, string> = sourceAliases(join(import.meta.dirname, '..', '..'));

/**
 * Bundles the app, serves `pages` (`/` is the app as an ES module), the
 * bundle under `/js/` and `files` under `/files/`, and starts Chromium.
 * `more` builds more bundles of it into the same directory (`outfile` a name there).
 */
export async function startHarness(executablePath: string, options: { pages?: Record<string, PageSpec>; files?: Map<string, Uint8Array>; more?: BuildOptions[] } = {}): Promise<Harness> {
  const out = mkdtempSync(join(tmpdir(), 'parquetry-browser-'));
  const { metafile } = await build({ entryPoints: [APP], bundle: true, format: 'esm', splitting: true, outdir: out, alias: APP_ALIAS, metafile: true, logLevel: 'error' });
  for (const b of options.more ?? []) await build({ entryPoints: [APP], bundle: true, alias: APP_ALIAS, logLevel: 'error', ...b, ...(b.outfile ? { outfile: join(out, b.outfile) } : {}) });
  const pages: Record<string, PageSpec> = { '/': { script: 'type="module" src="/js/app.js"' }, ...options.pages };
  const files = options.files ?? new Map<string, Uint8Array>();
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const [, dir, name = ''] = path.split('/');
    const page = pages[path];
    const file = dir === 'files' ? files.get(name) : undefined;
    if (page) {
      res.writeHead(200, { 'Content-Type': 'text/html', ...page.headers }).end(`<!doctype html><meta charset="utf-8"><script ${page.script}></script>`);
    } else if (dir === 'js' && readdirSync(out).includes(name)) {
      res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(readFileSync(join(out, name)));
    } else if (file) {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream' }).end(file);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Root in CI: Chromium's sandbox needs an unprivileged user.
  const browser = await puppeteer.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
  return {
    origin,
    out,
    metafile,
    browser,
    async open(path) {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(origin + path);
      await page.waitForFunction(() => 'parquetry' in globalThis, { timeout: 30_000 }).catch((e: unknown) => {
        throw new Error(`the bundle did not start: ${errors.join('; ') || String(e)}`);
      });
      return page;
    },
    async close() {
      await browser.close();
      server.close();
      rmSync(out, { recursive: true, force: true });
    },
  };
}

/** Calls the app's `method` in the page. */
export function call<K extends keyof Api>(page: Page, method: K, ...args: Parameters<Api[K]>): Promise<Awaited<ReturnType<Api[K]>>> {
  return page.evaluate(
    (m, a) => ((globalThis as unknown as { parquetry: Record<string, (...x: unknown[]) => unknown> }).parquetry[m]!(...a)),
    method,
    args as unknown[],
  ) as Promise<Awaited<ReturnType<Api[K]>>>;
}
