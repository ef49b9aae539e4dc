/**
 * The S3 client without a server: addresses and URL styles, request
 * signing, retries of throttling with bounded backoff, refusals turned into
 * typed errors (a redirect names the region, a 403 the key id and never the
 * secret), explicit ranges only; and the credential chain in Node (the
 * environment, profiles in the shared files, missing files, unsigned).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { objectUrl, parseS3Address } from '../../src/io/s3/address.js';
import { S3Client, type S3Options } from '../../src/io/s3/client.js';
import { s3Source } from '../../src/io/s3/source.js';
import { ObjectStoreError, InvalidArgumentError } from '../../src/errors.js';
import { resolveS3Options } from '../../src/node/s3-credentials.js';

const SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
const CREDS = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: SECRET };

/** A fetch answering from `answers` in turn (the last one repeats), recording each request. */
function stub(answers: (() => Response)[]): { fetch: typeof fetch; calls: { url: string; method: string; headers: Headers }[] } {
  const calls: { url: string; method: string; headers: Headers }[] = [];
  const fetchStub = (async (url: string | URL, init?: RequestInit) => {
    calls.push({ url: String(url), method: init?.method ?? 'GET', headers: new Headers(init?.headers) });
    return answers[Math.min(calls.length - 1, answers.length - 1)]!();
  }) as typeof fetch;
  return { fetch: fetchStub, calls };
}

const xmlError = (status: number, code: string, extra = '') => () => new Response(`<?xml version="1.0"?><Error><Code>${code}</Code><Message>m</Message>${extra}</Error>`, { status });
const fast: S3Options['retry'] = { baseDelayMs: 1, maxDelayMs: 2 };

test('addresses: bucket and key parsed; virtual-hosted URLs on AWS, path style for IPs, localhost, dotted buckets and when forced', () => {
  assert.deepEqual(parseS3Address('s3://b/k/x y.parquet'), { bucket: 'b', key: 'k/x y.parquet' });
  assert.deepEqual(parseS3Address('s3://b'), { bucket: 'b', key: '' });
  assert.throws(() => parseS3Address('s3:///k'), InvalidArgumentError);
  assert.throws(() => parseS3Address('http://b/k'), InvalidArgumentError);
  assert.equal(objectUrl({ region: 'eu-west-1' }, 'b', 'a b/c=1/(x).parquet').toString(), 'https://b.s3.eu-west-1.amazonaws.com/a%20b/c%3D1/%28x%29.parquet');
  assert.equal(objectUrl({ region: 'auto', endpoint: 'https://acct.r2.cloudflarestorage.com' }, 'b', 'k').toString(), 'https://b.acct.r2.cloudflarestorage.com/k');
  assert.equal(objectUrl({ region: 'us-east-1', endpoint: 'http://127.0.0.1:9000' }, 'b', 'k').toString(), 'http://127.0.0.1:9000/b/k');
  assert.equal(objectUrl({ region: 'us-east-1', endpoint: 'http://localhost:9000' }, 'b', 'k').toString(), 'http://localhost:9000/b/k');
  assert.equal(objectUrl({ region: 'us-east-1', endpoint: 'https://minio.example.com', forcePathStyle: true }, 'b', 'k').toString(), 'https://minio.example.com/b/k');
  assert.equal(objectUrl({ region: 'us-east-1' }, 'my.bucket', 'k').toString(), 'https://s3.us-east-1.amazonaws.com/my.bucket/k');
  assert.equal(objectUrl({ region: 'us-east-1' }, 'b', '', { 'list-type': '2', prefix: 'a/' }).toString(), 'https://b.s3.us-east-1.amazonaws.com/?list-type=2&prefix=a%2F');
});

test('requests are signed with SigV4, or unsigned when credentials are null', async () => {
  const s = stub([() => new Response('', { status: 200 })]);
  await new S3Client({ credentials: CREDS, fetch: s.fetch }).request({ bucket: 'b', key: 'k' }, { method: 'GET' });
  assert.match(s.calls[0]!.headers.get('authorization') ?? '', /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/us-east-1\/s3\/aws4_request/);
  await new S3Client({ credentials: null, fetch: s.fetch }).request({ bucket: 'b', key: 'k' }, { method: 'GET' });
  assert.equal(s.calls[1]!.headers.get('authorization'), null);
});

test('SlowDown and 503 are retried with backoff, bounded in tries and time', async () => {
  let s = stub([xmlError(503, 'SlowDown'), xmlError(500, 'InternalError'), () => new Response('ok', { status: 200 })]);
  const res = await new S3Client({ credentials: CREDS, fetch: s.fetch, retry: fast }).request({ bucket: 'b', key: 'k' }, { method: 'GET' });
  assert.equal(await res.text(), 'ok');
  assert.equal(s.calls.length, 3);
  s = stub([xmlError(503, 'SlowDown')]);
  const e = await new S3Client({ credentials: CREDS, fetch: s.fetch, retry: { ...fast, attempts: 4 } }).request({ bucket: 'b', key: 'k' }, { method: 'GET' }).catch((x: unknown) => x);
  assert.ok(e instanceof ObjectStoreError);
  assert.equal(e.storeCode, 'SlowDown');
  assert.match(e.message, /gave up after 4 tries/);
  assert.equal(s.calls.length, 4);
  // The time bound: no retry starts once the elapsed time would pass it.
  s = stub([xmlError(503, 'SlowDown')]);
  const started = Date.now();
  await assert.rejects(new S3Client({ credentials: CREDS, fetch: s.fetch, retry: { attempts: 1000, baseDelayMs: 50, maxDelayMs: 50, maxElapsedMs: 300 } }).request({ bucket: 'b', key: 'k' }, { method: 'GET' }), ObjectStoreError);
  assert.ok(Date.now() - started < 2000 && s.calls.length < 100, `${s.calls.length} tries in ${Date.now() - started} ms`);
  // A network failure is retried too; a 404 is not.
  let n = 0;
  const flaky = (async () => {
    if (n++ === 0) throw new TypeError('fetch failed', { cause: new Error('ECONNRESET') });
    return new Response('', { status: 200 });
  }) as unknown as typeof fetch;
  await new S3Client({ credentials: CREDS, fetch: flaky, retry: fast }).request({ bucket: 'b', key: 'k' }, { method: 'GET' });
  assert.equal(n, 2);
  s = stub([xmlError(404, 'NoSuchKey')]);
  await assert.rejects(new S3Client({ credentials: CREDS, fetch: s.fetch, retry: fast }).request({ bucket: 'b', key: 'k' }, { method: 'GET' }), (x: unknown) => x instanceof ObjectStoreError && x.status === 404 && x.storeCode === 'NoSuchKey');
  assert.equal(s.calls.length, 1);
});

test('a redirect names the bucket\'s region; a 403 names the key id, never the secret', async () => {
  let s = stub([xmlError(301, 'PermanentRedirect', '<Region>eu-central-1</Region><Endpoint>b.s3.eu-central-1.amazonaws.com</Endpoint>')]);
  let e = await new S3Client({ credentials: CREDS, fetch: s.fetch }).request({ bucket: 'b', key: 'k' }, { method: 'GET' }).catch((x: unknown) => x);
  assert.ok(e instanceof ObjectStoreError);
  assert.equal(e.storeCode, 'PermanentRedirect');
  assert.equal(e.extra.region, 'eu-central-1');
  assert.match(e.message, /region eu-central-1 \(set AWS_REGION=eu-central-1/);
  // A HEAD has no body: the region comes from the x-amz-bucket-region header.
  s = stub([() => new Response(null, { status: 301, headers: { 'x-amz-bucket-region': 'ap-south-1' } })]);
  e = await new S3Client({ credentials: CREDS, fetch: s.fetch }).request({ bucket: 'b', key: 'k' }, { method: 'HEAD' }).catch((x: unknown) => x);
  assert.ok(e instanceof ObjectStoreError && /region ap-south-1/.test(e.message), String(e));
  s = stub([xmlError(403, 'SignatureDoesNotMatch')]);
  e = await new S3Client({ credentials: CREDS, fetch: s.fetch }).request({ bucket: 'b', key: 'k' }, { method: 'GET' }).catch((x: unknown) => x);
  assert.ok(e instanceof ObjectStoreError);
  assert.equal(e.storeCode, 'SignatureDoesNotMatch');
  assert.equal(e.extra.accessKeyId, 'AKIDEXAMPLE');
  assert.ok(!e.message.includes(SECRET) && !JSON.stringify(e).includes(SECRET) && !String(e.stack).includes(SECRET));
});

test('reads ask for explicit byte ranges only (no suffix range), the size from HEAD or from the caller', async () => {
  const s = stub([() => new Response(null, { status: 200, headers: { 'content-length': '100' } }), () => new Response(new Uint8Array(10), { status: 206, headers: { 'content-range': 'bytes 90-99/100' } })]);
  const source = await s3Source(new S3Client({ credentials: CREDS, fetch: s.fetch }), { bucket: 'b', key: 'k' });
  assert.equal(source.byteLength, 100);
  await source.read(90, 10);
  assert.deepEqual(s.calls.map((c) => [c.method, c.headers.get('range')]), [['HEAD', null], ['GET', 'bytes=90-99']]);
  // A server answering the whole object to a range is refused unless that is what was asked.
  const whole = stub([() => new Response(new Uint8Array(100), { status: 200 })]);
  const given = await s3Source(new S3Client({ credentials: CREDS, fetch: whole.fetch }), { bucket: 'b', key: 'k' }, { byteLength: 100 });
  await assert.rejects(given.read(0, 10), /gave status 200/);
  assert.equal(whole.calls.length, 1, 'no HEAD when the size is given');
});

test('credentials: the environment, then the profile in the shared files; missing files are no error; unsigned on request', async () => {
  const home = mkdtempSync(join(tmpdir(), 'parquetry-aws-'));
  const none = { env: {}, home };
  // Nothing anywhere: options resolve, and the first signed request says what is missing.
  const bare = await resolveS3Options({}, none);
  assert.equal(typeof bare.credentials, 'function');
  assert.throws(() => (bare.credentials as () => unknown)(), /no S3 credentials found.*--no-sign-request/);
  const env = { AWS_ACCESS_KEY_ID: 'AKIAENV', AWS_SECRET_ACCESS_KEY: 'envsecret', AWS_SESSION_TOKEN: 'tok', AWS_DEFAULT_REGION: 'eu-west-3', AWS_ENDPOINT_URL: 'http://127.0.0.1:9000', AWS_S3_FORCE_PATH_STYLE: 'true' };
  assert.deepEqual(await resolveS3Options({}, { env, home }), {
    region: 'eu-west-3', endpoint: 'http://127.0.0.1:9000', forcePathStyle: true, credentials: { accessKeyId: 'AKIAENV', secretAccessKey: 'envsecret', sessionToken: 'tok' },
  });
  // AWS_ENDPOINT_URL_S3 over AWS_ENDPOINT_URL, AWS_REGION over AWS_DEFAULT_REGION.
  const o = await resolveS3Options({}, { env: { ...env, AWS_ENDPOINT_URL_S3: 'https://s3.example', AWS_REGION: 'us-west-2' }, home });
  assert.deepEqual([o.endpoint, o.region], ['https://s3.example', 'us-west-2']);
  const credentials = join(home, 'creds');
  const config = join(home, 'config');
  writeFileSync(credentials, '[default]\naws_access_key_id = AKIADEFAULT\naws_secret_access_key = d\n\n[work]\naws_access_key_id=AKIAWORK\naws_secret_access_key=w\n');
  writeFileSync(config, '[profile work]\nregion = ca-central-1\nendpoint_url = https://r2.example\ns3 =\n  addressing_style = path\n[profile sso]\nsso_session = corp\n');
  const files = { AWS_SHARED_CREDENTIALS_FILE: credentials, AWS_CONFIG_FILE: config };
  assert.deepEqual((await resolveS3Options({}, { env: files, home })).credentials, { accessKeyId: 'AKIADEFAULT', secretAccessKey: 'd' });
  const work = await resolveS3Options({}, { env: { ...files, AWS_PROFILE: 'work' }, home });
  assert.deepEqual([work.credentials, work.region, work.endpoint], [{ accessKeyId: 'AKIAWORK', secretAccessKey: 'w' }, 'ca-central-1', 'https://r2.example']);
  // ~/.aws/credentials by default.
  const dotAws = join(home, '.aws');
  (await import('node:fs')).mkdirSync(dotAws);
  writeFileSync(join(dotAws, 'credentials'), '[default]\naws_access_key_id=AKIAHOME\naws_secret_access_key=h\n');
  assert.deepEqual((await resolveS3Options({}, none)).credentials, { accessKeyId: 'AKIAHOME', secretAccessKey: 'h' });
  await assert.rejects(resolveS3Options({}, { env: { ...files, AWS_PROFILE: 'nope' }, home }), /AWS profile nope is in neither/);
  const sso = await resolveS3Options({}, { env: { ...files, AWS_PROFILE: 'sso' }, home });
  assert.throws(() => (sso.credentials as () => unknown)(), /through sso_session.*credentials option/);
  assert.equal((await resolveS3Options({ signRequest: false }, { env, home })).credentials, null);
  const provider = async () => CREDS;
  assert.equal((await resolveS3Options({ credentials: provider }, { env, home })).credentials, provider);
});

test('a sink retries a failed part, completes with every part in order, and writes on when the store will not list uploads (403, 501)', async () => {
  const parts = new Map<number, number>();
  const puts: string[] = [];
  let failedOnce = false;
  const store = (async (url: string | URL, init?: RequestInit) => {
    const u = new URL(String(url));
    const method = init?.method ?? 'GET';
    if (method === 'GET' && u.searchParams.has('uploads')) return new Response('<Error><Code>AccessDenied</Code></Error>', { status: 403 });
    if (method === 'POST' && u.searchParams.has('uploads')) return new Response('<InitiateMultipartUploadResult><UploadId>u1</UploadId></InitiateMultipartUploadResult>');
    if (method === 'PUT' && u.searchParams.has('partNumber')) {
      const n = Number(u.searchParams.get('partNumber'));
      puts.push(`part ${n}`);
      if (n === 2 && !failedOnce) {
        failedOnce = true;
        return new Response('<Error><Code>SlowDown</Code></Error>', { status: 503 });
      }
      parts.set(n, (init!.body as Uint8Array).length);
      return new Response('', { headers: { etag: `"e${n}"` } });
    }
    if (method === 'POST' && u.searchParams.has('uploadId')) {
      const body = String(init!.body);
      assert.equal(body, '<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>&quot;e1&quot;</ETag></Part><Part><PartNumber>2</PartNumber><ETag>&quot;e2&quot;</ETag></Part><Part><PartNumber>3</PartNumber><ETag>&quot;e3&quot;</ETag></Part></CompleteMultipartUpload>');
      return new Response('<CompleteMultipartUploadResult/>');
    }
    if (method === 'PUT') {
      puts.push('object');
      return new Response('');
    }
    throw new Error(`unexpected ${method} ${u}`);
  }) as typeof fetch;
  const { s3Sink, MIN_PART_SIZE } = await import('../../src/io/s3/sink.js');
  const client = new S3Client({ credentials: CREDS, fetch: store, retry: fast });
  const sink = s3Sink(client, { bucket: 'b', key: 'k' }, { partSize: MIN_PART_SIZE });
  const chunk = new Uint8Array(1024 * 1024);
  for (let i = 0; i < 11; i++) await sink.write(chunk);
  await sink.close();
  assert.deepEqual([...parts.entries()].sort((a, b) => a[0] - b[0]), [[1, MIN_PART_SIZE], [2, MIN_PART_SIZE], [3, 1024 * 1024]]);
  assert.deepEqual(puts, ['part 1', 'part 2', 'part 2', 'part 3']);
  // Small: one PUT, the uploads listing refused as not implemented.
  const small = s3Sink(new S3Client({ credentials: CREDS, fetch: (async (url: string | URL, init?: RequestInit) => (init?.method === 'GET' ? new Response('', { status: 501 }) : (puts.push('small'), new Response('')))) as typeof fetch }), { bucket: 'b', key: 'k' });
  await small.write(chunk);
  await small.close();
  assert.equal(puts.at(-1), 'small');
});
