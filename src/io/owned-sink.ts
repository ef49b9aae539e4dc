import type { Sink } from './sink.js';

/**
 * `fn(owned)`, writing to `sink` through `owned`, with the sink aborted if
 * `fn` fails and has not closed or aborted it: a function handed a sink
 * owns it from the call, and one that fails before its writer takes the
 * sink (an input that does not open, a sample that throws) must not leave
 * it open (a file sink's descriptor, to the garbage collector, and its
 * temporary file). A writer's own abort counts: the sink is aborted once.
 */
export async function abortingOnFailure<T>(sink: Sink, fn: (owned: Sink) => Promise<T>): Promise<T> {
  let settled = false;
  const owned: Sink = {
    write: (bytes) => sink.write(bytes),
    async close() {
      await sink.close();
      settled = true;
    },
    abort() {
      settled = true;
      return sink.abort();
    },
  };
  try {
    return await fn(owned);
  } catch (e) {
    if (!settled) await sink.abort().catch(() => undefined);
    throw e;
  }
}
