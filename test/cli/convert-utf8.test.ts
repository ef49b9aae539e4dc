/**
 * Invalid UTF-8 in CSV and JSON inputs is read as U+FFFD and reported once
 * per input through onWarning (line and column), and `parquetry convert`
 * prints it; so are the writer's lone surrogates (JSON escapes like \ud800).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ParquetryWarning } from '../../src/warnings.js';
import type { InputBytes, Item } from '../../src/convert/source.js';
import { readCsv } from '../../src/convert/read-csv.js';
import { readJsonArray, readJsonLines } from '../../src/convert/read-json.js';
import { runWith } from './run-cli.js';

/** An input of these bytes, in chunks of `size` bytes. */
function input(bytes: Uint8Array, size: number): InputBytes {
  const self: InputBytes = {
    name: 'test',
    size: bytes.length,
    bytesRead: 0,
    async *chunks() {
      for (let i = 0; i < bytes.length; i += size) {
        self.bytesRead += Math.min(size, bytes.length - i);
        yield Buffer.from(bytes.subarray(i, i + size));
      }
    },
    async close() {},
  };
  return self;
}

const bytes = (...parts: Array<string | number[]>) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));

type Reader = (i: InputBytes, onWarning: (w: ParquetryWarning) => void) => AsyncGenerator<Item<unknown>>;
const csv: Reader = async function* (i, onWarning) {
  for await (const batch of readCsv(i, { delimiter: ',', skipBad: false, header: true, onWarning })) yield* batch;
};
const jsonl: Reader = async function* (i, onWarning) {
  for await (const batch of readJsonLines(i, { onWarning })) yield* batch;
};
const json: Reader = async function* (i, onWarning) {
  for await (const batch of readJsonArray(i, { onWarning })) yield* batch;
};

async function warningsOf(read: Reader, data: Uint8Array, size: number): Promise<{ warnings: ParquetryWarning[]; texts: string[] }> {
  const warnings: ParquetryWarning[] = [];
  const texts: string[] = [];
  for await (const item of read(input(data, size), (w) => warnings.push(w))) if (item.error === undefined) texts.push(JSON.stringify(item.record));
  return { warnings, texts };
}

// Each input: valid multi-byte text first (split across chunks at every size below), then invalid bytes on `line`, in `column`, then more.
const CASES: Array<[string, Reader, Uint8Array, number, string]> = [
  ['CSV', csv, bytes('a,b\n1,"é€😀"\n2,"x\ny"\n3,ok', [0xff], '\n4,', [0xc3], '\n'), 5, 'b'],
  ['CSV, a sequence cut short', csv, bytes('a,b\n1,é€😀\n2,', [0xe2, 0x82], '\n'), 3, 'b'],
  ['JSON Lines', jsonl, bytes('{"a":"é€😀"}\n{"a":1,"b":"x', [0xed, 0xa0, 0x80], '"}\n{"b":"', [0x80], '"}\n'), 2, 'b'],
  ['JSON Lines, at the very end', jsonl, bytes('{"a":"é€😀"}\n{"z":"', [0xf0, 0x9f, 0x98], '"}'), 2, 'z'],
  ['JSON array', json, bytes('[{"a":"é€😀"},\n{"a":1,\n"c":"', [0xc0, 0xaf], '"},\n{"d":"', [0xfe], '"}]'), 3, 'c'],
];

for (const [name, read, data, line, column] of CASES) {
  test(`${name}: invalid UTF-8 is U+FFFD, reported once with its line and column, in chunks of any size`, async () => {
    for (const size of [1, 2, 3, 5, 7, 64 * 1024]) {
      const { warnings, texts } = await warningsOf(read, data, size);
      assert.deepEqual(warnings.map(({ code, line, column }) => ({ code, line, column })), [{ code: 'INVALID_UTF8', line, column }], `chunks of ${size}`);
      assert.match(warnings[0]!.message, new RegExp(`^line ${line}, column ${column}: .*U\\+FFFD`));
      assert.ok(texts.some((t) => t.includes('\ufffd')), `chunks of ${size}`);
    }
  });
}

test('valid UTF-8 (a literal U+FFFD included), split anywhere, gives no warning', async () => {
  const data = bytes('a,b\n1,"é€😀\ufffd"\n2,"\u{10ffff}"\n');
  for (const size of [1, 2, 3, 4, 5]) assert.deepEqual((await warningsOf(csv, data, size)).warnings, []);
  const lines = bytes('{"a":"é€😀\ufffd"}\n{"b":"\\ud800"}\n');
  for (const size of [1, 2, 3]) assert.deepEqual((await warningsOf(jsonl, lines, size)).warnings, []);
});

test('convert prints each warning once on stderr, with the input line and the column', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'parquetry-utf8-'));
  try {
    const run = async (file: string, data: Uint8Array) => {
      writeFileSync(join(dir, file), data);
      return await runWith(['convert', join(dir, file), join(dir, 'out.parquet')]);
    };
    const c = await run('in.csv', bytes('id,name\n1,ok\n2,bad', [0xff], '\n3,', [0xfe], '\n'));
    assert.equal(c.code, 0, c.err);
    const csvWarnings = c.err.split('\n').filter((l) => l.includes('warning'));
    assert.deepEqual(csvWarnings, [`parquetry: warning: ${join(dir, 'in.csv')}:3: column name: bytes that are not UTF-8 were read as U+FFFD (later ones in this input are not reported)`]);
    const j = await run('in.jsonl', bytes('{"id":1,"s":"ok"}\n{"id":2,"s":"x\\ud800"}\n{"id":3,"t":"', [0xff], '"}\n{"id":4,"s":"\\udfff"}\n'));
    assert.equal(j.code, 0, j.err);
    const jsonWarnings = j.err.split('\n').filter((l) => l.includes('warning')).sort();
    assert.deepEqual(jsonWarnings, [
      `parquetry: warning: ${join(dir, 'in.jsonl')}:2: column s: a string with lone surrogates (a JSON escape such as \\ud800 alone) is written with U+FFFD in their place (later ones in this column are not reported)`,
      `parquetry: warning: ${join(dir, 'in.jsonl')}:3: column t: bytes that are not UTF-8 were read as U+FFFD (later ones in this input are not reported)`,
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
