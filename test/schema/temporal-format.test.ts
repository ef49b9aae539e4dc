import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatDate, formatTime, formatTimestamp } from '../../src/schema/temporal-format.js';

test('dates agree with Date.toISOString across the whole Date range', () => {
  for (const days of [0, 1, -1, 59, 60, 365, 10957, 11016, -719528, -719529, 2932896, 2932897, -100_000_000, 100_000_000]) {
    const iso = new Date(days * 86400000).toISOString();
    assert.equal(formatDate(days), iso.slice(0, iso.indexOf('T')), `day ${days}`);
  }
});

test('timestamps in all units, negative values and UTC flag', () => {
  assert.equal(formatTimestamp(0n, 'MILLIS', true), '1970-01-01T00:00:00.000Z');
  assert.equal(formatTimestamp(-1n, 'MICROS', false), '1969-12-31T23:59:59.999999');
  assert.equal(formatTimestamp(1704141296123456000n, 'NANOS', true), '2024-01-01T20:34:56.123456000Z');
  assert.equal(formatTimestamp(9089380393200000000n * 1000n, 'NANOS', true), '+290000-12-30T23:00:00.000000000Z');
  for (const ms of [0, 1, -1, 1e12, -1e12, 253402300799999, -62167219200001]) {
    assert.equal(formatTimestamp(BigInt(ms), 'MILLIS', true), new Date(ms).toISOString());
  }
});

test('times of day', () => {
  assert.equal(formatTime(0, 'MILLIS'), '00:00:00.000');
  assert.equal(formatTime(86399999, 'MILLIS'), '23:59:59.999');
  assert.equal(formatTime(3723000004n, 'MICROS'), '01:02:03.000004');
  assert.equal(formatTime(1n, 'NANOS'), '00:00:00.000000001');
});
