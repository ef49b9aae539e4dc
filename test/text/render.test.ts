/** The CLI's table and record text: widths over any number of rows. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderTable } from '../../src/text/render.js';

test('a table of more rows than the stack passes arguments (200,000) is aligned to its widest cell', () => {
  const rows = Array.from({ length: 200_000 }, (_, i) => ({ id: i, name: i === 123_456 ? 'the widest' : 'x' }));
  const lines = renderTable(['id', 'name'], rows).split('\n');
  assert.equal(lines.length, rows.length + 2);
  assert.equal(lines[1], '------  ----------');
  assert.equal(lines[2 + 123_456], '123456  the widest');
});
