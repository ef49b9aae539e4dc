/**
 * Fuzz worker: reads each mutant it is sent, all the way (every row, printed
 * canonically, and every column batch), and reports how that ended. Runs in a
 * child process (pool.ts) so the parent can time a case out and survive a crash.
 */
import { ParquetryError, canonicalRow, openParquet } from '../../src/node/index.js';

export interface CaseMessage {
  id: number;
  bytes: Uint8Array;
}

export interface Outcome {
  id: number;
  /** 'rows': read to the end; 'typed': a ParquetryError; 'untyped': anything else (a failure). */
  result: 'rows' | 'typed' | 'untyped';
  rows?: number;
  error?: string;
  stack?: string;
  /** For a ParquetryError that wraps a plain exception ("unexpected failure while decoding"): the wrapped one. */
  wrapped?: string;
  ms?: number;
}

async function run(bytes: Uint8Array): Promise<Omit<Outcome, 'id'>> {
  let rows = 0;
  try {
    const reader = await openParquet(bytes);
    const plan = reader.plan();
    for await (const row of reader.rows()) {
      canonicalRow(plan, row);
      rows++;
    }
    for await (const _ of reader.columns()) { /* decode every chunk as column vectors too */ }
    await reader.close();
    return { result: 'rows', rows };
  } catch (e) {
    if (e instanceof ParquetryError) {
      const cause = e.cause;
      // The safety net of errors.ts: a plain exception from decoding, wrapped. (Codec failures are wrapped on purpose, with their own wording.)
      const slipped = e.detail.startsWith('unexpected failure while decoding') || cause instanceof TypeError || cause instanceof ReferenceError;
      const wrapped = slipped ? String((cause as Error)?.stack ?? cause) : undefined;
      return { result: 'typed', rows, error: `${e.name}: ${e.message}`, wrapped };
    }
    const err = e as Error;
    return { result: 'untyped', rows, error: `${err?.name}: ${err?.message}`, stack: String(err?.stack ?? e) };
  }
}

const send = (m: unknown) => process.send!(m);
process.on('message', (msg: CaseMessage) => {
  send({ type: 'start', id: msg.id });
  const t0 = performance.now();
  void run(msg.bytes).then((o) => send({ type: 'done', outcome: { id: msg.id, ...o, ms: performance.now() - t0 } }));
});
send({ type: 'ready' });
