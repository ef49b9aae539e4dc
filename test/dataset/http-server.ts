/**
 * A static file server on 127.0.0.1 for dataset tests: serves a directory
 * with HEAD and Range requests, as a naive server does (the path
 * percent-decoded once and joined to the directory, `..` and all), and
 * records every path requested, so a test can assert that nothing outside
 * a dataset's folder was asked for.
 */
import { after, before } from 'node:test';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';

export interface Served {
  /** `http://127.0.0.1:PORT` */
  origin: string;
  /** Every request's path as sent (`req.url`). */
  requested: string[];
}

/** Serves the directory `dir()` names (read at each request) for the test file's tests. */
export function useServer(dir: () => string): Served {
  const served: Served = { origin: '', requested: [] };
  let server: Server | undefined;
  before(async () => {
    server = createServer((req, res) => {
      const url = req.url ?? '/';
      served.requested.push(url);
      let p: string;
      try {
        p = join(dir(), decodeURIComponent(url.split('?')[0]!));
      } catch {
        res.writeHead(400);
        return res.end();
      }
      if (!existsSync(p) || statSync(p).isDirectory()) {
        res.writeHead(404);
        return res.end();
      }
      const buf = readFileSync(p);
      if (req.method === 'HEAD') {
        res.writeHead(200, { 'content-length': buf.length, 'accept-ranges': 'bytes' });
        return res.end();
      }
      const m = /bytes=(\d+)-(\d+)?/.exec(req.headers.range ?? '');
      if (!m) {
        res.writeHead(200, { 'content-length': buf.length });
        return res.end(buf);
      }
      const a = Number(m[1]);
      const b = m[2] ? Math.min(Number(m[2]), buf.length - 1) : buf.length - 1;
      res.writeHead(206, { 'content-range': `bytes ${a}-${b}/${buf.length}`, 'content-length': b - a + 1 });
      res.end(buf.subarray(a, b + 1));
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    served.origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  after(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));
  return served;
}

/**
 * Whether a requested path stays under `prefix` (`/ds/`) however a server
 * reads it: as sent, and percent-decoded once and twice, with `\` taken as
 * a separator and `.` and `..` folded.
 */
export function staysUnder(prefix: string, requested: string): boolean {
  const forms = [requested.split(/[?#]/)[0]!];
  for (let i = 0; i < 2; i++) {
    try {
      forms.push(decodeURIComponent(forms[forms.length - 1]!));
    } catch {
      break;
    }
  }
  return forms.every((f) => folded(f.replaceAll('\\', '/')).startsWith(prefix));
}

function folded(path: string): string {
  const out: string[] = [];
  for (const seg of path.split('/')) {
    if (seg === '..') out.pop();
    else if (seg !== '.' && seg !== '') out.push(seg);
  }
  return `/${out.join('/')}${path.endsWith('/') ? '/' : ''}`;
}
