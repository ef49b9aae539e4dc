/**
 * Rows one at a time from an iterator of row arrays (`rowBatches`), by a
 * hand-written iterator: an async generator's `yield*` costs several times
 * more per row than serving the current batch.
 */
export function rowsOfBatches<T>(batches: AsyncGenerator<T[]>): AsyncIterableIterator<T> {
  let batch: T[] = [];
  let i = 0;
  const step = async (): Promise<IteratorResult<T>> => {
    while (i >= batch.length) {
      const r = await batches.next();
      if (r.done) return { done: true, value: undefined };
      batch = r.value;
      i = 0;
    }
    return { done: false, value: batch[i++]! };
  };
  // Calls are chained, so overlapping next() calls (not awaited in turn) never refill the batch twice.
  let last: Promise<unknown> = Promise.resolve();
  const it: AsyncIterableIterator<T> = {
    [Symbol.asyncIterator]: () => it,
    next() {
      const p = last.then(step, step);
      last = p;
      return p;
    },
    async return() {
      batch = [];
      i = 0;
      await batches.return(undefined);
      return { done: true, value: undefined };
    },
  };
  return it;
}

/** Every row of the batches in one array, allocated once at its final size (pushing row by row regrew and recopied it). */
export async function collectRows<T>(batches: AsyncIterable<T[]>): Promise<T[]> {
  const held: T[][] = [];
  let total = 0;
  for await (const batch of batches) {
    held.push(batch);
    total += batch.length;
  }
  if (held.length === 1) return held[0]!;
  const out = new Array<T>(total);
  let k = 0;
  for (const batch of held) for (let i = 0; i < batch.length; i++) out[k++] = batch[i]!;
  return out;
}
