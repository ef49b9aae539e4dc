// s3rver in a process of its own, for test/s3/server.ts: node --openssl-legacy-provider s3rver-process.cjs ROOT BUCKETS_JSON EMULATE_UPLOADS
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
'use strict';
const { appendFileSync, existsSync, readdirSync, readFileSync, rmSync, statSync } = require('node:fs');
const { join } = require('node:path');
const S3rver = require('s3rver');

const [root, bucketsJson, emulate] = process.argv.slice(2);
const data = join(root, 'data');
const logFile = join(root, 'requests.jsonl');
const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: data, configureBuckets: JSON.parse(bucketsJson).map((name) => ({ name, configs: [] })) });
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
  } else {
    await next();
  }
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
