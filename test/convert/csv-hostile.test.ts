/**
 * Malformed CSV: stray quotes in unquoted cells, text after closing quotes,
 * long runs of quotes, quotes never closed. Reading takes time linear in the
 * input (csv-parse rebuilt a field per stray quote: 4 s for 40 KB, minutes
 * for a few hundred), each malformed record is one bad row at its own line,
 * and every good row around them comes back as it was written.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readCsv } from '../../src/entries/convert.js';
import { CsvTokenizer, type CsvToken } from '../../src/convert/csv-tokenizer.js';
import { CLI } from '../cli/bin.js';

async function all<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const r of it) out.push(r);
  return out;
}

/** A deterministic generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
}

/** Malformed records of one line each (in CSV), `size` characters or so, made of stray quotes. */
const HOSTILE: Record<string, (size: number, r: () => number) => string> = {
  // The reproducer's shape: JSON text in an unquoted cell.
  json: (size) => `1,x${'{"a":'.repeat(size / 5)}1${'}'.repeat(size / 5)}`,
  quoteRun: (size) => `2,a${'"'.repeat(size)}`,
  manyCells: (size) => Array.from({ length: size / 4 }, (_, i) => `${i}"x`).join(','),
  afterClosing: (size) => `3,${'"a"b'.repeat(size / 4)}`,
  // Quotes and delimiters at random, but never a quote opening a cell (that would be a quoted cell).
  scattered: (size, r) => `4,y${Array.from({ length: size }, () => (r() < 0.3 ? '"' : r() < 0.1 ? ',y' : 'y')).join('')}`,
};

/** Good rows `id,name` around hostile ones, with the rows expected back and the hostile lines. */
function hostileCsv(kind: string, bytes: number, seed: number): { text: string; good: Array<{ id: bigint; name: string }>; badLines: number[] } {
  const r = random(seed);
  const lines = ['id,name'];
  const good: Array<{ id: bigint; name: string }> = [];
  const badLines: number[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    if (i % 3 === 1) {
      const h = HOSTILE[kind]!(Math.min(20_000, bytes / 4), r);
      lines.push(h);
      badLines.push(lines.length);
      size += h.length;
    } else {
      // A quoted name with a delimiter, a doubled quote and a line break: well-formed quoting around the bad rows.
      const name = `n${i}, "q"\nz`;
      lines.push(`${i},"${name.replaceAll('"', '""')}"`);
      good.push({ id: BigInt(i), name });
      size += 20;
    }
  }
  // Line numbers count the line breaks inside the quoted names.
  let line = 1;
  const starts = lines.map((l) => {
    const at = line;
    line += 1 + (l.match(/\n/g)?.length ?? 0);
    return at;
  });
  return { text: lines.join('\n') + '\n', good, badLines: badLines.map((i) => starts[i - 1]!) };
}

const SIZES = [40_000, 200_000, 800_000];

test('stray quotes of every kind: each malformed record is one bad row at its line, and every good row comes back', { timeout: 120_000 }, async () => {
  for (const kind of Object.keys(HOSTILE)) {
    for (const bytes of SIZES) {
      const { text, good, badLines } = hostileCsv(kind, bytes, bytes);
      const what = `${kind} ${bytes}`;
      const r = await readCsv(text, { types: ['name=string'] });
      assert.deepEqual(await all(r.records), good, what);
      assert.equal(r.bad.count, badLines.length, what);
      assert.deepEqual(r.bad.first.map((b) => b.line), badLines.slice(0, 10), what);
      for (const b of r.bad.first) assert.match(b.reason, /^malformed CSV: Invalid (Opening|Closing) Quote/, what);
      // Strict, the first one stops the read, naming its line.
      await assert.rejects(async () => all((await readCsv(text, { strict: true, types: ['name=string'] })).records), new RegExp(`^InvalidArgumentError: input:${badLines[0]}: malformed CSV`), what);
    }
  }
});

test('a quote never closed, at the start, middle or end of the input: the rows before it, and one bad row where it opens', async () => {
  const rows = 200;
  for (const bytes of SIZES) {
    for (const at of [0, rows / 2, rows - 1]) {
      // What follows the open quote: delimiters, doubled quotes and line breaks, all inside it.
      const lines = Array.from({ length: rows }, (_, i) => (i === at ? `${i},"open ${'x,""\n'.repeat(bytes / 5)}` : `${i},r${i}`));
      const r = await readCsv(`id,name\n${lines.join('\n')}\n`, { types: ['name=string'] });
      assert.deepEqual((await all(r.records)).map((x) => x.id), Array.from({ length: at }, (_, i) => BigInt(i)), `${bytes} ${at}`);
      assert.equal(r.bad.count, 1);
      assert.equal(r.bad.first[0]!.line, at + 2);
      assert.match(r.bad.first[0]!.reason, /Quote Not Closed/);
    }
  }
});

test('the tokenizer gives the same records however the text is cut, line breaks of every kind included', () => {
  const r = random(7);
  const pieces = ['a', 'b', ',', '"', '""', '\n', '\r', '\r\n', ' ', '\t', 'é', '😀'];
  for (let k = 0; k < 3_000; k++) {
    let text = '';
    for (let i = Math.floor(r() * 40); i > 0; i--) text += pieces[Math.floor(r() * pieces.length)];
    for (const relaxQuotes of [false, true]) {
      const whole: CsvToken[] = [];
      const t = new CsvTokenizer({ delimiter: relaxQuotes ? '\t' : ',', relaxQuotes });
      t.feed(text, whole);
      t.finish(whole);
      const cut: CsvToken[] = [];
      const u = new CsvTokenizer({ delimiter: relaxQuotes ? '\t' : ',', relaxQuotes });
      for (let p = 0; p < text.length; ) {
        const q = p + 1 + Math.floor(r() * 4);
        u.feed(text.slice(p, q), cut);
        p = q;
      }
      u.finish(cut);
      assert.deepEqual(cut, whole, JSON.stringify(text));
    }
  }
});

test('the dialect: line breaks, empty lines, quotes in TSV, and lines counted inside quoted cells', () => {
  const tokens = (text: string, delimiter = ','): CsvToken[] => {
    const out: CsvToken[] = [];
    const t = new CsvTokenizer({ delimiter, relaxQuotes: delimiter === '\t' });
    t.feed(text, out);
    t.finish(out);
    return out;
  };
  const cells = (text: string, delimiter = ',') => tokens(text, delimiter).map((t) => t.error ?? t.cells);
  // The first line break outside quotes is the input's; the others are data.
  assert.deepEqual(cells('a,b\nc\rd,e\n'), [['a', 'b'], ['c\rd', 'e']]);
  assert.deepEqual(cells('a,b\r\nc\nd,e\r\n'), [['a', 'b'], ['c\nd', 'e']]);
  assert.deepEqual(cells('a,b\rc,d\re\nf,g\r'), [['a', 'b'], ['c', 'd'], ['e\nf', 'g']]);
  // In a CRLF input a CR that ends the input is its last line break (the LF lost), as DuckDB reads it: not data, nor a line of its own.
  assert.deepEqual(cells('a,b\r\n1,2\r'), [['a', 'b'], ['1', '2']]);
  assert.deepEqual(cells('a,b\r\n1,2\r\n\r'), [['a', 'b'], ['1', '2']]);
  assert.deepEqual(cells('a\r\n1\r\n\r'), [['a'], ['1'], ['']]);
  assert.deepEqual(cells('a,b\r\nc\rd,e\r\n'), [['a', 'b'], ['c\rd', 'e']], 'a CR inside the input is still data');
  // Empty lines are skipped (in a table of more than one column: csv-one-column.test.ts), a line of one empty quoted cell is not; no final line break is needed.
  assert.deepEqual(cells('a,b\n\n\n"",\nc,d'), [['a', 'b'], ['', ''], ['c', 'd']]);
  assert.deepEqual(cells('a,\n,\n'), [['a', ''], ['', '']]);
  // TSV: quotes inside cells and after a closing quote are data; a cell starting with one is still quoted.
  assert.deepEqual(cells('TV\t55" screen\n"ab"c\td\n"t\tb"\tx\n', '\t'), [['TV', '55" screen'], ['"ab"c', 'd'], ['t\tb', 'x']]);
  // Lines: where each record starts and ends, line breaks inside quotes counted.
  assert.deepEqual(tokens('h\r\n"a\r\nb"\r\nc\r\n').map((t) => [t.line, t.error === undefined ? t.last : -1]), [[1, 1], [2, 3], [4, 4]]);
  assert.deepEqual(tokens('h,i\n\n1,"x\n').map((t) => [t.line, t.error]), [[1, undefined], [3, 'Quote Not Closed: the input ends inside the quoted field 2']]);
});

test('the CLI converts a hostile CSV of 800 KB, strict (a typed error) and skipping bad rows, well inside a hang guard', { timeout: 300_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'csv-hostile-'));
  try {
    const input = join(dir, 'in.csv');
    // The reproducer's shape, 20 times its size: one cell of `x{"a":{"a":...`. (csv-parse, busy, ignored SIGTERM: the guard kills.)
    writeFileSync(input, `id,name\n1,x${'{"a":'.repeat(160_000)}1${'}'.repeat(160_000)}\n2,b\n`);
    const cli = (extra: string[]) => spawnSync(process.execPath, [...CLI, 'convert', input, join(dir, 'out.parquet'), ...extra], { encoding: 'utf8', timeout: 120_000, killSignal: 'SIGKILL' });
    const strict = cli([]);
    assert.equal(strict.signal, null, 'the hang guard killed it');
    assert.equal(strict.status, 1, strict.stderr);
    assert.match(strict.stderr, /^parquetry: .*in\.csv:2: malformed CSV: Invalid Opening Quote/);
    const skipping = cli(['--skip-bad-rows']);
    assert.equal(skipping.signal, null, 'the hang guard killed it');
    assert.equal(skipping.status, 0, skipping.stderr);
    assert.match(skipping.stderr, /wrote 1 row .*skipped 1 bad input row/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
