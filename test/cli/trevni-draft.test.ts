/**
 * The inspection commands on a file of the Trevni draft's Dremel dialect:
 * known by its magic and metadata, printed as Parquet files print (schema in
 * message syntax, rows in CANONICAL.md's Parquet form); a cutting/trevni
 * version 1 file of the same magic keeps the Trevni form.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BufferSink } from '../../src/io/sink.js';
import { buildSchema } from '../../src/schema/tree.js';
import { TrevniDraftWriter } from '../../src/trevni/draft/writer.js';
import { run as cli } from './run-cli.js';

let dir = '';
let file = '';
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'parquetry-trevni-draft-'));
  // No extension that could tell anything: the magic and metadata do.
  file = join(dir, 'draft.bin');
  const sink = new BufferSink();
  const schema = buildSchema([
    { name: 'schema', numChildren: 2 },
    { name: 'id', type: 'INT64', repetitionType: 'REQUIRED' },
    { name: 'tags', type: 'BYTE_ARRAY', convertedType: 'UTF8', repetitionType: 'REPEATED' },
  ]);
  const w = await TrevniDraftWriter.open(sink, schema);
  await w.write({ id: 1n, tags: ['a', 'b'] });
  await w.write({ id: 9007199254740993n, tags: [] });
  await w.close();
  writeFileSync(file, sink.bytes());
});
after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});


test('cat --json prints a draft file in the Parquet form; schema in message syntax; meta names the dialect', async () => {
  const cat = await cli('cat', '--json', file);
  assert.equal(cat.code, 0, cat.err);
  // A bare repeated field is a JSON array, [] when empty; an INT64 beyond 2^53 a string.
  assert.equal(cat.out, '{"id":1,"tags":["a","b"]}\n{"id":"9007199254740993","tags":[]}\n');
  const schema = await cli('schema', file);
  assert.equal(schema.out, 'message schema {\n  required int64 id;\n  repeated byte_array tags (STRING);\n}\n');
  const meta = JSON.parse((await cli('meta', '--json', file)).out);
  assert.equal(meta.version, 1);
  assert.equal(meta.dialect, 'dremel');
  // cutting/trevni's version 1 keeps the Trevni form.
  const v1 = await cli('cat', '--json', '../shared/ancestors/trevni-v1/tiny.trv');
  assert.equal(v1.out, '{"x":1,"s":[{"$value":"a","n":-1},{"$value":"bc","n":64}]}\n{"x":-2,"s":[]}\n{"x":300,"s":[{"$value":"é","n":0}]}\n');
});

test('convert --trevni-version draft: to the draft dialect and back, the Parquet schema as it is; types it lacks refused naming the column', async () => {
  const input = join(dir, 'in.jsonl');
  const lines = ['{"id":1,"name":"a","tags":["x","y"],"pos":{"x":0.5,"y":-1}}', '{"id":2,"name":null,"tags":[],"pos":null}'];
  writeFileSync(input, lines.join('\n') + '\n');
  const draft = join(dir, 'out.trv');
  const w = await cli('convert', '-q', input, draft, '--trevni-version', 'draft', '--codec', 'deflate', '--checksum', 'crc32');
  assert.equal(w.code, 0, w.err);
  assert.equal(JSON.parse((await cli('meta', '--json', draft)).out).dialect, 'dremel');
  assert.equal((await cli('cat', '--json', draft)).out, lines.join('\n') + '\n');
  const parquet = join(dir, 'back.parquet');
  assert.equal((await cli('convert', '-q', draft, parquet)).code, 0);
  assert.equal((await cli('cat', '--json', parquet)).out, lines.join('\n') + '\n');
  assert.equal((await cli('schema', parquet)).out, (await cli('schema', draft)).out);
  const bool = join(dir, 'bool.jsonl');
  writeFileSync(bool, '{"ok":true}\n');
  const refused = await cli('convert', bool, join(dir, 'bool.trv'), '--trevni-version', 'draft');
  assert.equal(refused.code, 1);
  assert.match(refused.err, /the Trevni draft dialect has no BOOLEAN column .*\(column ok\)/);
  assert.match((await cli('convert', bool, join(dir, 'x.trv'), '--trevni-version', '3')).err, /must be 1, 2 or draft/);
  assert.match((await cli('convert', bool, join(dir, 'x.trv'), '--trevni-version', 'draft', '--codec', 'bzip2')).err, /must be null, deflate or snappy for Trevni version 1 output/);
});
