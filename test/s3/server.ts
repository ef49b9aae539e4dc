/**
 * An S3-speaking server for the tests: s3rver on 127.0.0.1 (port 0), in a
 * temp directory, run by s3rver-process.cjs in a child process (see there
 * why, and what it adds to s3rver: a log of every request, and with
 * `emulateUploads` the ListMultipartUploads and AbortMultipartUpload that
 * s3rver 3.7 lacks).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, existsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { spawn } from 'node:child_process';
import { S3Client } from '../../src/io/s3/client.js';
import type { NodeS3Settings } from '../../src/node/index.js';

export interface LoggedRequest {
  method: string;
  bucket: string;
  key: string;
  query: Record<string, string>;
  status: number;
  /** Response body bytes. */
  bytes: number;
  /** Entries (keys and common prefixes) a ListObjectsV2 page gave. */
  listed?: number;
  /** Part uploads the server was handling when this one came (itself included). */
  partsInFlight: number;
}

export interface S3Test {
  endpoint: string;
  dir: string;
  /** Every request so far, read from the server's log. */
  readonly log: LoggedRequest[];
  /** Library settings reaching this server with its one key pair. */
  settings: NodeS3Settings;
  /** The environment a CLI child reaches it with (no ~/.aws read). */
  env: Record<string, string>;
  client: S3Client;
  /** Upload ids with parts on disk for a bucket (with `emulateUploads`, what ListMultipartUploads lists). */
  uploads(bucket: string): { id: string; key: string; parts: number }[];
  close(): Promise<void>;
}

const ACCESS = 'S3RVER';

/** A CORS rule as docs/s3.md asks of a bucket browsers read, for any origin. */
export const BROWSER_CORS = `<CORSConfiguration><CORSRule><AllowedOrigin>*</AllowedOrigin>${['GET', 'HEAD', 'PUT', 'POST', 'DELETE'].map((m) => `<AllowedMethod>${m}</AllowedMethod>`).join('')}<AllowedHeader>*</AllowedHeader>${['Content-Length', 'Content-Range', 'ETag', 'x-amz-bucket-region'].map((h) => `<ExposeHeader>${h}</ExposeHeader>`).join('')}<MaxAgeSeconds>3600</MaxAgeSeconds></CORSRule></CORSConfiguration>`;

/** `cors`: a CORSConfiguration document every bucket gets. */
export async function startS3(buckets: string[], options: { emulateUploads?: boolean; cors?: string } = { emulateUploads: true }): Promise<S3Test> {
  const root = mkdtempSync(join(tmpdir(), 'parquetry-s3-'));
  const dir = join(root, 'data');
  const logFile = join(root, 'requests.jsonl');
  const child = spawn(process.execPath, ['--openssl-legacy-provider', join(import.meta.dirname, 's3rver-process.cjs'), root, JSON.stringify(buckets), options.emulateUploads ? '1' : '0', ...(options.cors ? [options.cors] : [])], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    let text = '';
    child.stdout.on('data', (b: Buffer) => {
      text += b.toString();
      const m = /PORT (\d+)/.exec(text);
      if (m) resolve(Number(m[1]));
    });
    child.on('exit', (code) => reject(new Error(`s3rver exited with ${code}`)));
  });
  const uploadsDir = (bucket: string) => join(dir, bucket, '._S3rver_uploads');
  const endpoint = `http://127.0.0.1:${port}`;
  const settings: NodeS3Settings = { endpoint, region: 'us-east-1', credentials: { accessKeyId: ACCESS, secretAccessKey: ACCESS } };
  return {
    endpoint,
    dir,
    get log() {
      return existsSync(logFile) ? readFileSync(logFile, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as LoggedRequest) : [];
    },
    settings,
    env: { AWS_ACCESS_KEY_ID: ACCESS, AWS_SECRET_ACCESS_KEY: ACCESS, AWS_ENDPOINT_URL_S3: endpoint, AWS_REGION: 'us-east-1', AWS_CONFIG_FILE: join(root, 'no-config'), AWS_SHARED_CREDENTIALS_FILE: join(root, 'no-credentials') },
    client: new S3Client(settings),
    uploads(bucket) {
      const d = uploadsDir(bucket);
      if (!existsSync(d)) return [];
      // A folder without its key file is an upload s3rver is still creating or already removing: not (yet, or any more) an upload.
      return readdirSync(d)
        .filter((id) => existsSync(join(d, id, 'key')))
        .map((id) => ({ id, key: readFileSync(join(d, id, 'key'), 'utf8'), parts: readdirSync(join(d, id)).filter((n) => /^\d+$/.test(n)).length }));
    },
    async close() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Requests in `log` from index `from` on, as `METHOD key?query` lines (for messages). */
export function describeLog(log: LoggedRequest[], from = 0): string {
  return log.slice(from).map((r) => `${r.method} ${r.bucket}/${r.key}${Object.keys(r.query).length ? '?' + new URLSearchParams(r.query).toString() : ''} ${r.status} ${r.bytes}`).join('\n');
}

/** Uploads every file under `dir` to `bucket` under `prefix/`, 16 at a time; gives their paths relative to `dir`. */
export async function uploadDir(s3: S3Test, bucket: string, prefix: string, dir: string): Promise<string[]> {
  const walk = (d: string): string[] => readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? walk(join(d, n)) : [join(d, n)]));
  const files = walk(dir).map((f) => relative(dir, f).split('\\').join('/'));
  for (let i = 0; i < files.length; i += 16) {
    await Promise.all(files.slice(i, i + 16).map((f) => s3.client.request({ bucket, key: `${prefix}/${f}` }, { method: 'PUT', body: readFileSync(join(dir, f)) })));
  }
  return files;
}
