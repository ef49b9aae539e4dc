// s3rver in a process of its own, for test/s3/server.ts: node --openssl-legacy-provider s3rver-process.cjs ROOT BUCKETS_JSON EMULATE_UPLOADS [CORS_XML]
//
// Its own process because s3rver 3.7 encrypts ListObjectsV2 continuation
// tokens with DES, which OpenSSL 3 refuses without the legacy provider (every
// second page of a listing is a 500 otherwise), and so that CLI children and
// the test's own event loop never hold the server up.
//
// Every request is appended to ROOT/requests.jsonl (method, bucket, key,
// query, status, response bytes, part uploads in flight) before its answer
// goes out. With EMULATE_UPLOADS=1, ListMultipartUploads (`GET
// /bucket?uploads`: 501 in s3rver) and AbortMultipartUpload (`DELETE
// /bucket/key?uploadId=`: 405 in s3rver) are served over s3rver's own upload
// directories (BUCKET/._S3rver_uploads/ID/{key,N}).
//
// A ListObjectsV2 with a delimiter is answered here, after s3rver has
// authenticated it: s3rver 3.7 finds common prefixes only of keys one level
// below the prefix (it never walks deeper directories, so `p/a=1/b=2/x`
// gives no `p/a=1/` under `p/`), and neither counts them toward max-keys
// nor pages them. Each list's entries (keys and common prefixes) are logged
// as `listed`.
'use strict';
const { appendFileSync, existsSync, readdirSync, readFileSync, rmSync, statSync } = require('node:fs');
const { join } = require('node:path');
const crypto = require('node:crypto');
const S3rver = require('s3rver');

const [root, bucketsJson, emulate, cors] = process.argv.slice(2);
const data = join(root, 'data');
const logFile = join(root, 'requests.jsonl');
const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: data, configureBuckets: JSON.parse(bucketsJson).map((name) => ({ name, configs: cors ? [cors] : [] })) });
const uploadsDir = (bucket) => join(data, bucket, '._S3rver_uploads');
const uploads = (bucket) => (existsSync(uploadsDir(bucket)) ? readdirSync(uploadsDir(bucket)).map((id) => ({ id, key: readFileSync(join(uploadsDir(bucket), id, 'key'), 'utf8') })) : []);
const xmlEscape = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
let active = 0;

async function serve(ctx, next, bucket, key, query) {
  if (emulate === '1' && ctx.method === 'GET' && key === '' && 'uploads' in query) {
    const prefix = query.prefix || '';
    const listed = uploads(bucket).filter((u) => u.key.startsWith(prefix));
    ctx.type = 'application/xml';
    ctx.body = `<?xml version="1.0" encoding="UTF-8"?><ListMultipartUploadsResult><Bucket>${bucket}</Bucket><IsTruncated>false</IsTruncated>${listed
      .map((u) => `<Upload><Key>${xmlEscape(u.key)}</Key><UploadId>${u.id}</UploadId><Initiated>${statSync(join(uploadsDir(bucket), u.id)).birthtime.toISOString()}</Initiated></Upload>`)
      .join('')}</ListMultipartUploadsResult>`;
  } else if (emulate === '1' && ctx.method === 'DELETE' && key !== '' && 'uploadId' in query) {
    const d = join(uploadsDir(bucket), String(query.uploadId).replace(/[^0-9a-f]/g, ''));
    if (!existsSync(d)) {
      ctx.status = 404;
      ctx.type = 'application/xml';
      ctx.body = '<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message></Error>';
    } else {
      rmSync(d, { recursive: true, force: true });
      ctx.status = 204;
    }
  } else if (ctx.method === 'GET' && key === '' && query['list-type'] === '2' && query.delimiter) {
    await next();
    if (ctx.status === 200) await delimitedListing(ctx, bucket, query);
  } else {
    await next();
  }
}

// s3rver's continuation tokens (DES under its fixed key; its controller deciphers every token before this code sees the request).
const TOKEN_KEY = Buffer.alloc(8, 'S3RVER', 'utf8');
function cipherToken(text) {
  const iv = crypto.randomBytes(8);
  iv[0] = (iv[0] & 0b11) | 0b11010100;
  const cipher = crypto.createCipheriv('des', TOKEN_KEY, iv);
  return Buffer.concat([iv, cipher.update(text, 'utf8'), cipher.final()]).toString('base64');
}
function decipherToken(token) {
  const buf = Buffer.from(token, 'base64');
  const decipher = crypto.createDecipheriv('des', TOKEN_KEY, buf.subarray(0, 8));
  return Buffer.concat([decipher.update(buf.subarray(8)), decipher.final()]).toString('utf8');
}

/** ListObjectsV2 with a delimiter as S3 answers it: keys and common prefixes in key order, max-keys of them a page. */
async function delimitedListing(ctx, bucket, query) {
  const prefix = query.prefix || '';
  const delimiter = query.delimiter;
  const maxKeys = Math.min(1000, Number(query['max-keys'] || 1000));
  const after = query['continuation-token'] ? /^[\w.-]+\/[\w.-]+\/(.+)$/s.exec(decipherToken(query['continuation-token']))?.[1] ?? '' : query['start-after'] || '';
  const { objects } = await ctx.store.listObjects(bucket, { prefix, maxKeys: Infinity });
  const entries = [];
  for (const o of objects.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))) {
    const at = o.key.slice(prefix.length).indexOf(delimiter);
    const entry = at < 0 ? { key: o.key, size: o.size } : { prefix: o.key.slice(0, prefix.length + at + delimiter.length) };
    const name = entry.key ?? entry.prefix;
    if (name <= after || (entries.length > 0 && (entries[entries.length - 1].prefix ?? '') === name)) continue;
    entries.push(entry);
  }
  const page = entries.slice(0, maxKeys);
  const truncated = entries.length > page.length;
  const last = page[page.length - 1];
  ctx.type = 'application/xml';
  ctx.body = `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://doc.s3.amazonaws.com/2006-03-01/"><Name>${bucket}</Name><Prefix>${xmlEscape(prefix)}</Prefix><KeyCount>${page.length}</KeyCount><MaxKeys>${maxKeys}</MaxKeys><Delimiter>${xmlEscape(delimiter)}</Delimiter><IsTruncated>${truncated}</IsTruncated>${
    truncated ? `<NextContinuationToken>${xmlEscape(cipherToken(`us-east-1/${bucket}/${last.key ?? last.prefix}`))}</NextContinuationToken>` : ''}${
    page.filter((e) => e.key !== undefined).map((e) => `<Contents><Key>${xmlEscape(e.key)}</Key><Size>${e.size}</Size></Contents>`).join('')}${
    page.filter((e) => e.prefix !== undefined).map((e) => `<CommonPrefixes><Prefix>${xmlEscape(e.prefix)}</Prefix></CommonPrefixes>`).join('')}</ListBucketResult>`;
}

// Koa composes its middleware when the server starts: this one, first, sees every request.
server.middleware.unshift(async (ctx, next) => {
  const [, bucket = '', ...rest] = decodeURIComponent(ctx.path).split('/');
  const key = rest.join('/');
  const query = { ...ctx.query };
  const part = ctx.method === 'PUT' && 'partNumber' in query;
  if (part) active++;
  const entry = { method: ctx.method, bucket, key, query, status: 0, bytes: 0, partsInFlight: active };
  try {
    await serve(ctx, next, bucket, key, query);
    entry.status = ctx.status;
    entry.bytes = Number(ctx.response.length || 0);
    if (query['list-type'] === '2' && typeof ctx.body === 'string') entry.listed = (ctx.body.match(/<Contents>|<CommonPrefixes>/g) || []).length;
  } catch (e) {
    entry.status = e.status || 500;
    throw e;
  } finally {
    if (part) active--;
    appendFileSync(logFile, JSON.stringify(entry) + '\n');
  }
});

server.run().then((address) => process.stdout.write(`PORT ${address.port}\n`));
process.on('SIGTERM', () => server.close().then(() => process.exit(0)));
