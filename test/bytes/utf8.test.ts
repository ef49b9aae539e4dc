import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isUtf8 as nodeIsUtf8 } from 'node:buffer';
import { incompleteUtf8Tail, invalidUtf8At, isUtf8, registerUtf8Check } from '../../src/bytes/utf8.js';

const fatal = new TextDecoder('utf-8', { fatal: true });
const valid = (b: Uint8Array) => {
  try {
    fatal.decode(b);
    return true;
  } catch {
    return false;
  }
};
// Every boundary of the UTF-8 tables: ASCII, continuation ranges, lead bytes with narrowed second bytes, never-valid bytes.
const BYTES = [0x00, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff];

test('invalidUtf8At agrees with TextDecoder on every sequence of up to 4 boundary bytes, and points at the first bad one', () => {
  const seqs: number[][] = [[]];
  for (let len = 1; len <= 4; len++) {
    for (const s of seqs.filter((x) => x.length === len - 1)) for (const b of BYTES) seqs.push([...s, b]);
  }
  for (const s of seqs) {
    const b = Uint8Array.from([0x41, ...s, 0x42]);
    const at = invalidUtf8At(b, 0, b.length);
    assert.equal(at < 0, valid(b), s.map((x) => x.toString(16)).join(' '));
    if (at >= 0) {
      assert.ok(valid(b.subarray(0, at)), `before ${at}: ${s.map((x) => x.toString(16)).join(' ')}`);
    }
  }
});

test('incompleteUtf8Tail: the bytes of a character the next chunk may complete', () => {
  const euro = [0xe2, 0x82, 0xac];
  const smile = [0xf0, 0x9f, 0x98, 0x80];
  for (const ch of [euro, smile, [0xc3, 0xa9]]) {
    for (let cut = 0; cut <= ch.length; cut++) {
      const b = Uint8Array.from([0x41, ...ch.slice(0, cut)]);
      assert.equal(incompleteUtf8Tail(b, b.length), cut === ch.length ? 0 : cut, `${ch} cut at ${cut}`);
    }
  }
  assert.equal(incompleteUtf8Tail(Uint8Array.of(0x41, 0x80), 2), 0); // a stray continuation byte: invalid, not incomplete
});

test("isUtf8, portable and with Node's check registered (what the CLI and the Node entry use), agrees with TextDecoder on every sequence of up to 4 boundary bytes and on long random runs", () => {
  const seqs: number[][] = [[]];
  for (let len = 1; len <= 4; len++) {
    for (const s of seqs.filter((x) => x.length === len - 1)) for (const b of BYTES) seqs.push([...s, b]);
  }
  const inputs = seqs.map((s) => Uint8Array.from([0x41, ...s, 0x42]));
  // Long runs of mostly ASCII and valid multi-byte characters, some with one boundary byte set: the native checks go a word or a vector at a time.
  let x = 7;
  const next = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0);
  const text = new TextEncoder().encode('plain ascii, é, ü, 中文, 😀 and more;'.repeat(200));
  for (let i = 0; i < 300; i++) {
    const b = text.slice(next() % 100, text.length - (next() % 100));
    if (i % 2) b[next() % b.length] = BYTES[next() % BYTES.length]!;
    inputs.push(b);
  }
  for (const check of ['portable', 'node'] as const) {
    if (check === 'node') registerUtf8Check(nodeIsUtf8);
    for (const b of inputs) assert.equal(isUtf8(b), valid(b), `${check}: ${b.length} bytes`);
  }
});
