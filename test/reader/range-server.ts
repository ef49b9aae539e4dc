/**
 * An HTTP server of files held in memory, answering HEAD and single-range
 * GETs, that records every request: what the tests of how much a read
 * fetches count.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Hit {
  method: string;
  /** The range's first byte; -1 for a HEAD. */
  start: number;
  sent: number;
}

export interface RangeServer {
  /** `http://127.0.0.1:PORT`. */
  base: string;
  /** Every request answered, in order (emptied by the tests between reads). */
  hits: Hit[];
  /** Body bytes sent since `hits` was last emptied. */
  sent(): number;
  close(): Promise<void>;
}

/** Serves `file(url path)` (undefined: 404). */
export async function serveRanges(file: (path: string) => Uint8Array | undefined): Promise<RangeServer> {
  const hits: Hit[] = [];
  const server = createServer((req, res) => {
    const data = file(req.url ?? '');
    if (!data) {
      res.writeHead(404);
      res.end();
      return;
    }
    const hit: Hit = { method: req.method!, start: -1, sent: 0 };
    hits.push(hit);
    if (req.method === 'HEAD') {
      res.writeHead(200, { 'content-length': data.length, 'accept-ranges': 'bytes' });
      res.end();
      return;
    }
    const m = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '')!;
    const start = Number(m[1]);
    const body = data.subarray(start, Number(m[2]) + 1);
    hit.start = start;
    hit.sent = body.length;
    res.writeHead(206, { 'content-length': body.length, 'content-range': `bytes ${start}-${start + body.length - 1}/${data.length}` });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    sent: () => hits.reduce((a, h) => a + h.sent, 0),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
