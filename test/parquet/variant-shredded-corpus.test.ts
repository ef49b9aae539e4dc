/**
 * parquet-testing's shredded_variant corpus, the `.variant.bin` side: each file
 * (metadata + value) must decode to the variant that cases.json describes in
 * the Java reference's toString form. The Parquet files themselves are checked
 * by the reader's tests against these same decodings.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { CorruptFileError } from '../../src/errors.js';
import { decodeVariantValue, parseVariantMetadata, splitVariantBin } from '../../src/parquet/variant/index.js';

const DIR = '../shared/corpus/parquet-testing/shredded_variant/';

interface Case {
  case_number: number;
  variant_file?: string;
  variant?: string;
  variant_files?: (string | null)[];
  variants?: string;
  error_message?: string;
}

// ---- a parser for Iceberg's Variant#toString, as far as the corpus uses it ----

interface Expected {
  dict: string[];
  value: unknown;
}

class Reader {
  pos = 0;
  constructor(readonly s: string) {}

  eat(t: string): void {
    if (!this.s.startsWith(t, this.pos)) throw new Error(`expected "${t}" at ${this.pos}: ${this.s.slice(this.pos, this.pos + 40)}`);
    this.pos += t.length;
  }

  tryEat(t: string): boolean {
    if (!this.s.startsWith(t, this.pos)) return false;
    this.pos += t.length;
    return true;
  }

  until(stop: string): string {
    const end = this.s.indexOf(stop, this.pos);
    if (end < 0) throw new Error(`no "${stop}" after ${this.pos}`);
    const out = this.s.slice(this.pos, end);
    this.pos = end;
    return out;
  }

  /** `[a, b, ...]` or `{...}` items separated by ", " up to `close`. */
  list<T>(close: string, item: () => T): T[] {
    const out: T[] = [];
    if (this.tryEat(close)) return out;
    do out.push(item());
    while (this.tryEat(', '));
    this.eat(close);
    return out;
  }

  /** `Variant(metadata=VariantMetadata(dict={0 => a, ...}), value=...)` or `null`. */
  variant(): Expected | null {
    if (this.tryEat('null')) return null;
    this.eat('Variant(metadata=VariantMetadata(dict={');
    const dict = this.list('}', () => {
      this.until(' => ');
      this.eat(' => ');
      return this.s.slice(this.pos, (this.pos = Math.min(...[', ', '}'].map((t) => this.s.indexOf(t, this.pos)).filter((i) => i >= 0))));
    });
    this.eat('), value=');
    const value = this.value();
    this.eat(')');
    return { dict, value };
  }

  value(): unknown {
    if (this.tryEat('VariantArray([')) return this.list('])', () => this.value());
    if (this.tryEat('VariantObject(fields={')) {
      const entries = this.list('})', () => {
        const key = this.until(': ');
        this.eat(': ');
        return [key, this.value()] as const;
      });
      return Object.fromEntries(entries);
    }
    this.eat('Variant(type=');
    const type = this.until(', value=');
    this.eat(', value=');
    // Primitive texts in this corpus never contain ')'.
    const raw = this.until(')');
    this.eat(')');
    return primitive(type, raw);
  }
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** The decoder's JS form of a primitive printed as (type, text). */
function primitive(type: string, raw: string): unknown {
  switch (type) {
    case 'NULL': return null;
    case 'BOOLEAN_TRUE': return true;
    case 'BOOLEAN_FALSE': return false;
    case 'INT8': case 'INT16': case 'INT32': return Number(raw);
    case 'INT64': {
      const v = BigInt(raw);
      return v <= MAX_SAFE && v >= -MAX_SAFE ? Number(v) : v;
    }
    case 'FLOAT': return Math.fround(Number(raw));
    case 'DOUBLE': return Number(raw);
    // BigDecimal#toString prints exactly `scale` digits for these values, as the decoder does.
    case 'DECIMAL4': case 'DECIMAL8': case 'DECIMAL16': return raw;
    case 'DATE': case 'TIME': case 'TIMESTAMPNTZ': case 'TIMESTAMPNTZ_NANOS': case 'STRING': case 'UUID': return raw;
    case 'TIMESTAMPTZ': case 'TIMESTAMPTZ_NANOS':
      assert.ok(raw.endsWith('+00:00'), raw);
      return raw.slice(0, -6) + 'Z';
    case 'BINARY': return Uint8Array.from(Buffer.from(raw, 'hex'));
    default: throw new Error(`unknown variant type ${type} in the corpus`);
  }
}

function parseOne(s: string): Expected | null {
  const r = new Reader(s);
  const v = r.variant();
  assert.equal(r.pos, s.length, `trailing text in ${s}`);
  return v;
}

function parseMany(s: string): (Expected | null)[] {
  const r = new Reader(s);
  r.eat('[');
  const out = r.list(']', () => r.variant());
  assert.equal(r.pos, s.length);
  return out;
}

function utf8Order(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/** Deep equality (so -0 is not 0) and, for objects, keys in UTF-8 byte order. */
function check(got: unknown, want: unknown, where: string): void {
  assert.deepStrictEqual(got, want, where);
  if (Array.isArray(got)) got.forEach((g, i) => check(g, (want as unknown[])[i], `${where}[${i}]`));
  else if (got !== null && typeof got === 'object' && !(got instanceof Uint8Array)) {
    const keys = Object.keys(got);
    assert.deepEqual(keys, [...keys].sort(utf8Order), `${where}: key order`);
    for (const k of keys) check((got as Record<string, unknown>)[k], (want as Record<string, unknown>)[k], `${where}.${k}`);
  }
}

test('every .variant.bin decodes to the variant cases.json describes', () => {
  const cases = JSON.parse(readFileSync(`${DIR}cases.json`, 'utf8')) as Case[];
  let files = 0;
  let casesWithFiles = 0;
  for (const c of cases) {
    const pairs: [string | null, Expected | null][] = [];
    if (c.variant_file !== undefined) pairs.push([c.variant_file, parseOne(c.variant!)]);
    if (c.variant_files !== undefined) {
      const want = parseMany(c.variants!);
      assert.equal(want.length, c.variant_files.length, `case ${c.case_number}`);
      c.variant_files.forEach((f, i) => pairs.push([f, want[i]!]));
    }
    if (pairs.length > 0) casesWithFiles++;
    for (const [file, want] of pairs) {
      const where = `case ${c.case_number} ${file}`;
      if (file === null) {
        assert.equal(want, null, where);
        continue;
      }
      assert.ok(want, where);
      const { metadata, value } = splitVariantBin(readFileSync(DIR + file));
      const meta = parseVariantMetadata(metadata);
      assert.deepEqual(Array.from({ length: meta.size }, (_, i) => meta.name(i)), want.dict, `${where}: dictionary`);
      check(decodeVariantValue(meta, value), want.value, where);
      files++;
    }
  }
  // 138 cases: 6 are errors without variant files and case 3 is empty; 3 of the rest hold several rows (one of them a null).
  assert.equal(casesWithFiles, 131);
  assert.equal(files, 137);
});

test('splitVariantBin finds the metadata end from its header', () => {
  const bin = Uint8Array.of(0x11, 2, 0, 1, 3, 0x61, 0x62, 0x63, 0x0c, 0x05);
  const { metadata, value } = splitVariantBin(bin);
  assert.deepEqual([...metadata], [0x11, 2, 0, 1, 3, 0x61, 0x62, 0x63]);
  assert.deepEqual([...value], [0x0c, 0x05]);
  assert.equal(value.buffer, bin.buffer);
  assert.throws(() => splitVariantBin(Uint8Array.of(0x01, 0, 0)), (e: unknown) => e instanceof CorruptFileError && /no value bytes/.test(e.message));
  assert.throws(() => splitVariantBin(Uint8Array.of(0x01, 1, 0, 9)), CorruptFileError);
});
