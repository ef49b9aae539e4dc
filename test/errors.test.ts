import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CorruptFileError, ParquetryError, withContext, LimitError } from '../src/errors.js';

test('within() adds location facts without overwriting inner ones', () => {
  const e = new CorruptFileError('bad run', { page: 3 });
  e.within({ rowGroup: 1, column: 'a.b', page: 9 });
  assert.equal(e.context.page, 3);
  assert.equal(e.context.rowGroup, 1);
  assert.equal(e.message, 'bad run (row group 1, column a.b, page 3)');
  assert.ok(e instanceof ParquetryError);
  assert.equal(e.code, 'CORRUPT');
});

test('withContext wraps stray exceptions as typed errors', () => {
  assert.throws(() => withContext({ column: 'x' }, () => { throw new TypeError('boom'); }), (e: unknown) =>
    e instanceof CorruptFileError && e.context.column === 'x' && /boom/.test(e.message));
  assert.throws(() => withContext({}, () => { throw new RangeError('Invalid string length'); }), LimitError);
});
