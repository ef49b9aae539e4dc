/**
 * Requests to an S3-compatible store: signed with SigV4 by aws4fetch (a few
 * KB, on `fetch`, so the same code runs in browsers), retried on throttling
 * and server errors with jittered backoff bounded in attempts and time, and
 * refusals turned into `ObjectStoreError`s naming the address, the store's
 * code and what to do, never a secret.
 */
import { InvalidArgumentError, IOError, ObjectStoreError } from '../../errors.js';
import { formatS3Address, objectUrl, type S3Address, type S3Endpoint } from './address.js';
import { xmlText } from './xml.js';

/** An access key pair, with a session token for temporary credentials. */
export interface S3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  /** When temporary credentials expire: the provider is asked again 5 minutes before. */
  expiration?: Date;
}

/** Credentials on demand (SSO, IMDS, web identity: `@aws-sdk/credential-providers` returns such functions). */
export type S3CredentialProvider = () => Promise<S3Credentials> | S3Credentials;

/** How throttled or failed requests are retried: tries, and backoff bounds. */
export interface S3RetryOptions {
  /** Tries of one request in all (default 6). */
  attempts?: number;
  /** The first backoff's upper bound, doubled per retry (default 100 ms). */
  baseDelayMs?: number;
  /** No single backoff waits longer (default 5 s). */
  maxDelayMs?: number;
  /** No retry starts after this long since the first try (default 60 s). */
  maxElapsedMs?: number;
}

/**
 * How an S3 (or S3-compatible) store is reached: region, endpoint, credentials, retries
 * (docs/s3.md).
 */
export interface S3Options {
  /** The bucket's region (default `us-east-1`). */
  region?: string;
  /** An S3-compatible store's endpoint URL; AWS when not given. */
  endpoint?: string;
  /** Path-style URLs (`endpoint/bucket/key`) even for a named endpoint (MinIO without virtual hosts). */
  forcePathStyle?: boolean;
  /** Credentials or a provider of them; `null` sends unsigned requests (public buckets). */
  credentials?: S3Credentials | S3CredentialProvider | null;
  /** A fetch implementation (the global one by default): a wrapper may count or log requests. */
  fetch?: typeof fetch;
  retry?: S3RetryOptions;
}

export interface S3RequestInit {
  method: 'GET' | 'HEAD' | 'PUT' | 'POST' | 'DELETE';
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: Uint8Array | string;
  /** Statuses answered to the caller rather than raised (404 for a probe). */
  accept?: readonly number[];
}

const RETRY_STATUS = new Set([429, 500, 502, 503, 504]);
const RETRY_CODES = new Set(['SlowDown', 'InternalError', 'RequestTimeout', 'ServiceUnavailable', 'RequestTimeTooSkewed']);

export class S3Client {
  readonly endpoint: S3Endpoint;
  private readonly fetchImpl: typeof fetch;
  private readonly signingCache = new Map<string, ArrayBuffer>();
  private cached: { credentials: S3Credentials | null; until: number } | undefined;
  private readonly retry: Required<S3RetryOptions>;

  constructor(private readonly options: S3Options = {}) {
    this.endpoint = { region: options.region ?? 'us-east-1', ...(options.endpoint ? { endpoint: options.endpoint } : {}), forcePathStyle: options.forcePathStyle ?? false };
    const f = options.fetch ?? globalThis.fetch;
    if (!f) throw new InvalidArgumentError('no fetch implementation available for S3 requests');
    // Called bound: a browser's fetch called as a method of another object throws "Illegal invocation".
    this.fetchImpl = (input, init) => f.call(globalThis, input, init);
    this.retry = { attempts: 6, baseDelayMs: 100, maxDelayMs: 5000, maxElapsedMs: 60_000, ...options.retry };
    if (!Number.isSafeInteger(this.retry.attempts) || this.retry.attempts < 1) throw new InvalidArgumentError(`retry.attempts must be a positive integer, got ${this.retry.attempts}`);
  }

  /** The credentials requests are signed with, or null (unsigned). */
  async credentials(): Promise<S3Credentials | null> {
    const c = this.options.credentials;
    if (c === null || c === undefined) return null;
    if (typeof c !== 'function') return c;
    if (this.cached && Date.now() < this.cached.until) return this.cached.credentials;
    const got = await c();
    if (!got || typeof got.accessKeyId !== 'string' || typeof got.secretAccessKey !== 'string') throw new InvalidArgumentError('the S3 credentials provider gave no accessKeyId and secretAccessKey');
    this.cached = { credentials: got, until: got.expiration ? got.expiration.getTime() - 5 * 60_000 : Infinity };
    return got;
  }

  /** A request, retried while the store says to retry; any other refusal is an `ObjectStoreError`. */
  async request(address: S3Address, init: S3RequestInit): Promise<Response> {
    const started = Date.now();
    const name = formatS3Address(address);
    for (let attempt = 1; ; attempt++) {
      const url = objectUrl(this.endpoint, address.bucket, address.key, init.query);
      const credentials = await this.credentials();
      let res: Response | undefined;
      let failure: unknown;
      try {
        res = await this.fetchImpl(...(await this.signed(url, init, credentials)));
      } catch (e) {
        failure = e;
      }
      if (res && (res.ok || init.accept?.includes(res.status))) return res;
      const code = res ? await storeCode(res, init.method) : undefined;
      const retriable = !res || RETRY_STATUS.has(res.status) || RETRY_CODES.has(code!.code);
      const delay = Math.random() * Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** (attempt - 1));
      if (!retriable || attempt >= this.retry.attempts || Date.now() - started + delay > this.retry.maxElapsedMs) {
        const tries = attempt > 1 ? `; gave up after ${attempt} tries` : '';
        throw res ? storeError(res, code!, init.method, name, credentials, tries) : networkError(failure, init.method, name, tries);
      }
      await new Promise((r) => setTimeout(r, delay));
    }
  }

  private async signed(url: URL, init: S3RequestInit, credentials: S3Credentials | null): Promise<[string, RequestInit]> {
    const headers = { ...init.headers };
    if (!credentials) return [url.toString(), { method: init.method, headers, body: init.body as BodyInit | undefined }];
    // Loaded here, not at import: the root entry point exports the S3 functions, and most programs never sign a request.
    const { AwsV4Signer } = await import('aws4fetch');
    const signer = new AwsV4Signer({
      method: init.method,
      url: url.toString(),
      headers,
      body: init.body as BodyInit | undefined,
      accessKeyId: credentials.accessKeyId,
      secretAccessKey: credentials.secretAccessKey,
      ...(credentials.sessionToken ? { sessionToken: credentials.sessionToken } : {}),
      service: 's3',
      region: this.endpoint.region,
      cache: this.signingCache,
    });
    const s = await signer.sign();
    return [s.url.toString(), { method: s.method, headers: s.headers, body: init.body as BodyInit | undefined }];
  }
}

function networkError(e: unknown, method: string, name: string, tries: string): IOError {
  const cause = (e as { cause?: { message?: string } })?.cause?.message;
  return new IOError(`${method} ${name} failed: ${cause ?? (e as Error)?.message ?? e}${tries}`, { file: name }, { cause: e });
}

interface StoreCode {
  code: string;
  message?: string;
  region?: string;
}

/** The store's code, message and region: from the body's XML when there is one (HEAD answers have none), else the status. */
async function storeCode(res: Response, method: string): Promise<StoreCode> {
  const body = method === 'HEAD' ? '' : await res.text().catch(() => '');
  const region = xmlText(body, 'Region') ?? res.headers.get('x-amz-bucket-region') ?? undefined;
  const message = xmlText(body, 'Message');
  return { code: xmlText(body, 'Code') ?? statusCode(res.status), ...(message ? { message } : {}), ...(region ? { region } : {}) };
}

/** A refusal in one line, with what to do: the credential used for a 403 (its id, never the secret), the bucket's region for a redirect. */
function storeError(res: Response, { code, message, region }: StoreCode, method: string, name: string, credentials: S3Credentials | null, tries: string): ObjectStoreError {
  let hint = '';
  if (res.status === 403) {
    hint = credentials ? ` (signed with access key id ${credentials.accessKeyId})` : ' (an unsigned request: give credentials, or the bucket must be public)';
  } else if (res.status === 301 || code === 'PermanentRedirect' || (code === 'AuthorizationHeaderMalformed' && region)) {
    hint = region ? `: the bucket is in region ${region} (set AWS_REGION=${region}, or the region option)` : ': the bucket is in another region';
  }
  const detail = `${method} ${name}: the store answered ${res.status} ${code}${message ? ` (${message.replace(/\s+/g, ' ').slice(0, 300)})` : ''}${hint}${tries}`;
  return new ObjectStoreError(detail, res.status, code, { file: name }, {
    ...(credentials && res.status === 403 ? { accessKeyId: credentials.accessKeyId } : {}),
    ...(region ? { region } : {}),
  });
}

function statusCode(status: number): string {
  switch (status) {
    case 301:
      return 'PermanentRedirect';
    case 403:
      return 'AccessDenied';
    case 404:
      return 'NotFound';
    case 503:
      return 'SlowDown';
    default:
      return `HTTP${status}`;
  }
}
