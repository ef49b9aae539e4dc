import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compressedBy, impls, inputs } from './fixtures.js';

for (const { codec, name, impl, compresses } of impls) {
  test(`${codec} (${name}) round trips`, { skip: !compresses && 'no compressor' }, () => {
    for (const [label, data] of inputs) {
      const packed = impl.compress(data);
      assert.deepEqual(impl.decompress(packed, data.length), data, label);
    }
  });
}

// Every decoder reads what every encoder of its codec writes.
for (const reader of impls) {
  for (const writer of impls) {
    if (writer.codec !== reader.codec || writer === reader || !writer.compresses) continue;
    test(`${reader.codec}: ${reader.name} reads ${writer.name}`, () => {
      for (const [label, data] of inputs) {
        assert.deepEqual(reader.impl.decompress(writer.impl.compress(data), data.length), data, label);
      }
    });
  }
}

test('inputs that are views into larger buffers', () => {
  for (const { codec, name, impl, compresses } of impls) {
    const data = inputs[3]![1].subarray(0, 5000);
    const packed = compressedBy(codec, data);
    if (!packed) continue;
    const host = new Uint8Array(packed.length + 20).fill(0xee);
    host.set(packed, 10);
    const view = host.subarray(10, 10 + packed.length);
    assert.deepEqual(impl.decompress(view, data.length), data, `${codec} ${name}`);
    if (compresses) assert.deepEqual(impl.decompress(impl.compress(data.subarray(7, 4000)), 3993), data.slice(7, 4000), `${codec} ${name} compress`);
  }
});
