/**
 * `parquetry view FILE`: serves the viewer page (viewer/, built into
 * viewer/dist) and FILE on 127.0.0.1, at `--port` or a free port, until
 * interrupted; `/` leads to the page showing FILE, and `--open` opens it in
 * a browser.
 * The page reads FILE with Range requests, as it reads any URL; a URL FILE
 * is handed to the page, which reads it from the browser. A dataset (a
 * directory or a glob) is served as its files, under their paths below the
 * dataset's root (so `key=value` directories stay in their URLs), and a
 * list of them the page opens as one table.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InvalidArgumentError, IOError } from '../errors.js';
import type { Source } from '../io/source.js';
import { fileSource } from '../node/file-source.js';
import { isDatasetInput, isUrl, openDatasetInput, tableFileKind } from './files.js';
import { isS3Address } from '../io/s3/address.js';
import { run, type CliIo } from './run-context.js';

/** Two levels up from src/cli/, and from dist/chunks/ where the bundled CLI keeps this module: the package root. */
const PAGE = fileURLToPath(new URL('../../viewer/dist/', import.meta.url));
/** The embedded wasm modules, which the page imports from the package's dist/ rather than carrying copies (scripts/build-viewer.mjs). */
const WASM = fileURLToPath(new URL('../../dist/codecs/wasm/', import.meta.url));
const WASM_PATH = '/dist/codecs/wasm/';

const TYPES: Record<string, string> = { html: 'text/html; charset=utf-8', js: 'text/javascript' };

/** Bytes `start..end` of a `bytes=a-b`, `bytes=a-` or `bytes=-n` header, or null when it asks for none we can give. */
export function parseRange(header: string, size: number): { start: number; end: number } | null {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  const start = m[1] === '' ? Math.max(0, size - Number(m[2])) : Number(m[1]);
  const end = m[1] === '' || m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  return start <= end && start < size ? { start, end } : null;
}

async function serveFile(source: Source, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const size = source.byteLength;
  const headers = { 'Content-Type': 'application/octet-stream', 'Accept-Ranges': 'bytes' };
  const range = req.headers.range === undefined ? undefined : parseRange(req.headers.range, size);
  if (range === null) {
    res.writeHead(416, { ...headers, 'Content-Range': `bytes */${size}` }).end();
    return;
  }
  const { start, end } = range ?? { start: 0, end: size - 1 };
  const length = end - start + 1;
  res.writeHead(range ? 206 : 200, {
    ...headers, 'Content-Length': String(length), ...(range ? { 'Content-Range': `bytes ${start}-${end}/${size}` } : {}),
  });
  res.end(req.method === 'HEAD' || length <= 0 ? undefined : await source.read(start, length));
}

export async function viewCommand(file: string, options: { port?: number; open?: boolean } = {}): Promise<void> {
  // The server's callbacks outlive the command's call: they write to the streams of the run that started it.
  const { io } = run();
  if (!existsSync(PAGE + 'index.html')) {
    throw new IOError(`the viewer page is not built (no ${PAGE}index.html): run npm run build:viewer`);
  }
  const scripts = new Set(readdirSync(PAGE + 'js'));
  const wasmScripts = new Set(existsSync(WASM) ? readdirSync(WASM).filter((f) => f.endsWith('.js')) : []);
  if (isS3Address(file)) throw new InvalidArgumentError(`view serves a local file or a URL the browser reads itself; for ${file}, give a pre-signed https URL of it`);
  const remote = isUrl(file);
  const dataset = !remote && (await isDatasetInput(file)) ? await datasetFiles(file) : undefined;
  if (!remote && !dataset) await tableFileKind(file); // a readable, seekable file, or an error saying why not
  const source = remote || dataset ? undefined : await fileSource(file);
  const filePath = `/file/${encodeURIComponent(basename(file))}`;
  const pageUrl = dataset ? `/?dataset=${encodeURIComponent(DATASET_LIST)}` : `/?url=${encodeURIComponent(remote ? file : filePath)}`;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname;
    const [, dir, name = ''] = path.split('/');
    const serve = async () => {
      if (path === '/' && !url.searchParams.has('url') && !url.searchParams.has('dataset')) {
        // The bare address shows FILE: what --port users type, and what --open opens.
        res.writeHead(302, { Location: pageUrl }).end();
      } else if (path === '/' || path === '/index.html') {
        res.writeHead(200, { 'Content-Type': TYPES.html! }).end(readFileSync(PAGE + 'index.html'));
      } else if (dir === 'js' && scripts.has(name)) {
        res.writeHead(200, { 'Content-Type': TYPES.js! }).end(readFileSync(PAGE + 'js/' + name));
      } else if (path.startsWith(WASM_PATH) && wasmScripts.has(path.slice(WASM_PATH.length))) {
        res.writeHead(200, { 'Content-Type': TYPES.js! }).end(readFileSync(WASM + path.slice(WASM_PATH.length)));
      } else if (source && path === filePath) {
        await serveFile(source, req, res);
      } else if (dataset && path === DATASET_LIST) {
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ name: file, files: [...dataset.files.keys()], size: dataset.size }));
      } else if (dataset?.files.has(path)) {
        const part = await fileSource(dataset.files.get(path)!);
        try {
          await serveFile(part, req, res);
        } finally {
          await part.close?.();
        }
      } else {
        res.writeHead(404).end();
      }
    };
    serve().catch((e: unknown) => {
      io.stderr.write(`parquetry view: ${(e as Error).message}\n`);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', (e: NodeJS.ErrnoException) => {
        reject(e.code === 'EADDRINUSE' ? new IOError(`port ${options.port} on 127.0.0.1 is in use: choose another with --port, or leave it out for a free one`) : e);
      });
      server.listen(options.port ?? 0, '127.0.0.1', resolve);
    });
  } catch (e) {
    // Nothing will be served: the file is closed now, not left to the garbage collector.
    await source?.close?.();
    throw e;
  }
  const { port } = server.address() as AddressInfo;
  const address = `http://127.0.0.1:${port}${pageUrl}`;
  io.stdout.write(`parquetry view: ${address}\n(serving ${file}; Ctrl-C to stop)\n`);
  if (options.open) openBrowser(address, io);
}

/** Where the page finds a served dataset's list of files. */
const DATASET_LIST = '/dataset.json';

/**
 * A dataset's data files as the page asks for them (`/file/` and the path
 * below the root, each segment URL-encoded) to their paths on disk, and
 * their bytes. Only these are served: no request reaches another file.
 */
async function datasetFiles(input: string): Promise<{ files: Map<string, string>; size: number }> {
  const dataset = await openDatasetInput(input);
  // The directory, or a glob's part before its first pattern: partition directories lie below it.
  const segments = input.split(/[\\/]/);
  const literal = segments.findIndex((s) => /[*?[{]/.test(s));
  const root = resolve(literal < 0 ? input : segments.slice(0, literal).join(sep) || '.');
  const files = new Map<string, string>();
  let size = 0;
  for (const f of dataset.files) {
    const path = resolve(f.path);
    const below = relative(root, path).split(sep);
    // `=` stays as it is: the page tells partitions by the `key=value` in its URLs.
    files.set(`/file/${below.map((b) => encodeURIComponent(b).replaceAll('%3D', '=')).join('/')}`, path);
    size += statSync(path).size;
  }
  return { files, size };
}

/**
 * Opens `url` with $BROWSER, else the platform's opener, without waiting for
 * it; a browser that cannot be started is told, and the server goes on.
 */
function openBrowser(url: string, io: CliIo): void {
  const [command, ...args] = io.env.BROWSER
    ? [io.env.BROWSER, url]
    : process.platform === 'darwin' ? ['open', url] : process.platform === 'win32' ? ['cmd', '/c', 'start', '""', url] : ['xdg-open', url];
  const child = spawn(command!, args, { stdio: 'ignore', detached: true });
  child.once('error', (e) => io.stderr.write(`parquetry view: could not open a browser (${command}: ${e.message}); open ${url} yourself\n`));
  child.unref();
}
