/**
 * The first `n` records, read ahead for schema inference, and `next` for
 * the rest: writing the sample first, then the rest, keeps the order.
 */
export async function sampleRecords(records: Iterable<unknown> | AsyncIterable<unknown>, n: number): Promise<{ sample: unknown[]; next(): IteratorResult<unknown> | Promise<IteratorResult<unknown>> }> {
  const iterator = Symbol.asyncIterator in records
    ? (records as AsyncIterable<unknown>)[Symbol.asyncIterator]()
    : (records as Iterable<unknown>)[Symbol.iterator]();
  const sample: unknown[] = [];
  let done = false;
  while (sample.length < n) {
    const r = await iterator.next();
    if (r.done) {
      done = true;
      break;
    }
    sample.push(r.value);
  }
  // The iterator's own next, not an async generator around it: that would cost every record a few promise turns.
  const ended: IteratorResult<unknown> = { done: true, value: undefined };
  return { sample, next: done ? () => ended : () => iterator.next() };
}
