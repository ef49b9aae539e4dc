/**
 * `s3://bucket/key` addresses, and the HTTP URL a request for one goes to:
 * virtual-hosted style (`bucket.host/key`) on AWS and named endpoints,
 * path style (`host/bucket/key`) for an endpoint that is an IP address or
 * `localhost`, a bucket name with dots (TLS wildcards cover one label), or
 * when forced.
 */
import { InvalidArgumentError } from '../../errors.js';

export interface S3Address {
  bucket: string;
  /** The object's key, or a prefix (may be '' or end with `/`). */
  key: string;
}

const SCHEME = /^s3:\/\//i;

export function isS3Address(path: string): boolean {
  return SCHEME.test(path);
}

export function parseS3Address(address: string): S3Address {
  if (!isS3Address(address)) throw new InvalidArgumentError(`${address} is not an s3:// address`);
  const rest = address.slice(5);
  const slash = rest.indexOf('/');
  const bucket = slash < 0 ? rest : rest.slice(0, slash);
  // S3's bucket rules, loosely: other stores (R2, MinIO) accept a little more, none accept these characters.
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,254}$/.test(bucket)) throw new InvalidArgumentError(`${address}: "${bucket}" is not a bucket name`);
  return { bucket, key: slash < 0 ? '' : rest.slice(slash + 1) };
}

export function formatS3Address({ bucket, key }: S3Address): string {
  return `s3://${bucket}/${key}`;
}

/** Where requests go. */
export interface S3Endpoint {
  region: string;
  /** An S3-compatible store's endpoint (`http://127.0.0.1:9000`, `https://ACCOUNT.r2.cloudflarestorage.com`); AWS by default. */
  endpoint?: string;
  forcePathStyle?: boolean;
}

function encodeKey(key: string): string {
  return key
    .split('/')
    .map((s) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`))
    .join('/');
}

function pathStyleHost(host: string): boolean {
  const name = host.replace(/:\d+$/, '');
  return name === 'localhost' || /^\d{1,3}(\.\d{1,3}){3}$/.test(name) || name.startsWith('[');
}

/** The URL of an object (or of the bucket, for key ''), with `query` appended. */
export function objectUrl(ep: S3Endpoint, bucket: string, key: string, query: Record<string, string> = {}): URL {
  const base = new URL(ep.endpoint ?? `https://s3.${ep.region}.amazonaws.com`);
  if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new InvalidArgumentError(`endpoint ${ep.endpoint} is not an http(s) URL`);
  const pathStyle = ep.forcePathStyle || pathStyleHost(base.host) || bucket.includes('.');
  const basePath = base.pathname.replace(/\/+$/, '');
  const url = pathStyle ? new URL(`${base.protocol}//${base.host}${basePath}/${bucket}/${encodeKey(key)}`) : new URL(`${base.protocol}//${bucket}.${base.host}${basePath}/${encodeKey(key)}`);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  return url;
}
