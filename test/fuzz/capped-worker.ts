/**
 * A child process for scripts/fuzz/pool.ts that runs one named library call
 * per case on the bytes it is sent, so a test can hold hostile inputs of any
 * format to a memory cap and a hang guard: a heap overflow, a stack overflow
 * or a loop on a claimed count is reported as such, not taken for the
 * test's own failure. Each case reports rows (what the call yielded), or its
 * typed error, or an untyped one, and the report of a salvage call.
 */
import { resetPeak } from '../../scripts/fuzz/pool.js';
import { casePeakMb, RECYCLE_MB } from './case-peak.js';
import { ParquetryError } from '../../src/errors.js';
import { BufferSink } from '../../src/io/sink.js';
import { decodeJavaStream } from '../../src/javaser/decode.js';
import { RedElmReader } from '../../src/redelm/reader.js';
import { TrevniReader } from '../../src/trevni/reader.js';
import { checkTrevni, recoverTrevni } from '../../src/trevni/recover.js';
import { salvage } from '../../src/recover/salvage.js';
import { holdsData } from '../../src/trevni/types.js';

/** `trevni-tail`: the last rows of each root field holding data, read from the row the header's count puts there (a seek through its block). */
export type CappedOp = 'redelm' | 'javaser' | 'trevni-salvage' | 'trevni-check' | 'trevni-recover' | 'trevni-tail';

export interface CappedCase {
  id: number;
  op: CappedOp;
  bytes: Uint8Array;
  /** For `javaser`: the class names the stream may describe. */
  classes?: string[];
}

/** What a case reports (the pool adds nothing: ms and peakMb are measured here). */
export interface CappedOutcome {
  id: number;
  result: 'rows' | 'typed' | 'untyped';
  rows: number;
  error?: string;
  errorClass?: string;
  /** A typed error of the errors.ts safety net: a plain exception (a stack overflow, say) wrapped. */
  wrapped?: boolean;
  /** Salvage calls: the rows the header claims and those the report counts lost. */
  claimed?: number;
  lost?: number;
  ms: number;
  peakMb: number;
}

async function count(it: AsyncIterable<unknown>): Promise<number> {
  let n = 0;
  for await (const _ of it) n++;
  return n;
}

async function run(c: CappedCase): Promise<Omit<CappedOutcome, 'id' | 'ms' | 'peakMb' | 'result'> & { result: 'rows' }> {
  switch (c.op) {
    case 'redelm': {
      const r = await RedElmReader.open(c.bytes);
      return { result: 'rows', rows: await count(r.rows()) };
    }
    case 'javaser':
      decodeJavaStream(c.bytes, { classes: new Set(c.classes) });
      return { result: 'rows', rows: 1 };
    case 'trevni-salvage': {
      const s = await salvage(c.bytes);
      let rows = 0;
      for await (const b of s) rows += b.rows.length;
      return { result: 'rows', rows, claimed: s.report.numRows, lost: s.report.rowsLost };
    }
    case 'trevni-check': {
      const r = await checkTrevni(c.bytes);
      return { result: 'rows', rows: r.rowsRecovered, claimed: r.numRows, lost: r.rowsLost };
    }
    case 'trevni-tail': {
      const r = await TrevniReader.open(c.bytes);
      let rows = 0;
      let failed: unknown;
      // Every field is tried, a typed failure of one not stopping the others; the first is reported.
      for (const root of r.roots.filter((c) => holdsData(r.columns[c]!))) {
        try {
          rows += await count(r.rows({ offset: Math.max(0, r.numRows - 5), columns: [r.columns[root]!.name] }));
        } catch (e) {
          if (!(e instanceof ParquetryError)) throw e;
          failed ??= e;
        }
      }
      if (failed) throw failed;
      return { result: 'rows', rows };
    }
    case 'trevni-recover': {
      const r = await recoverTrevni(c.bytes, new BufferSink());
      return { result: 'rows', rows: r.rowsRecovered, claimed: r.numRows, lost: r.rowsLost };
    }
  }
}

process.on('message', (msg: { type: 'init' } | { type: 'run'; items: CappedCase[] }) => {
  if (msg.type === 'init') return void process.send!({ type: 'ready' });
  void (async () => {
    for (const c of msg.items) {
      resetPeak();
      const t0 = performance.now();
      let outcome: Omit<CappedOutcome, 'id' | 'ms' | 'peakMb'>;
      try {
        outcome = await run(c);
      } catch (e) {
        outcome = e instanceof ParquetryError
          ? { result: 'typed', rows: 0, error: `${e.name}: ${e.message}`, errorClass: e.name, wrapped: e.detail.startsWith('unexpected failure while decoding') }
          : { result: 'untyped', rows: 0, error: `${(e as Error)?.name}: ${(e as Error)?.message}` };
      }
      await new Promise((sent) => process.send!({ type: 'done', outcome: { ...outcome, id: c.id, ms: performance.now() - t0, peakMb: casePeakMb() } }, sent));
      // A process that grew is replaced (the pool respawns on exit 0), so the next case starts small.
      if (process.resourceUsage().maxRSS / 1024 > RECYCLE_MB) process.exit(0);
    }
  })();
});
