import { test } from 'node:test';
import assert from 'node:assert/strict';
import { incompleteUtf8Tail, invalidUtf8At, isUtf8 } from '../../src/bytes/utf8.js';
import { registerNodeCodecs } from '../../src/node/codecs.js';

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

test('isUtf8, before and after the Node adapter installs node:buffer\'s check, agrees with TextDecoder on every sequence of up to 4 boundary bytes, at every offset of a view', () => {
  const seqs: number[][] = [[]];
  for (let len = 1; len <= 4; len++) {
    for (const s of seqs.filter((x) => x.length === len - 1)) for (const b of BYTES) seqs.push([...s, b]);
  }
  const check = () => {
    for (const s of seqs) {
      const b = Uint8Array.from([0x41, ...s, 0x42]);
      assert.equal(isUtf8(b), valid(b), s.map((x) => x.toString(16)).join(' '));
      // A view past the first byte and short of the last: the check reads the view, not its buffer.
      const inner = b.subarray(1, b.length - 1);
      assert.equal(isUtf8(inner), valid(inner), `view of ${s.map((x) => x.toString(16)).join(' ')}`);
    }
  };
  check();
  registerNodeCodecs();
  check();
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
