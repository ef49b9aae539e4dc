/**
 * A fuzz child process that misbehaves on purpose, so the fuzz harness can show it catches
 * hangs, crashes, memory blow-ups (V8 heap, and native memory the heap limit does not see)
 * and untyped errors (reader-fuzz.test.ts). Case ids modulo 6: 1 hangs, 2 reports an
 * untyped error, 3 exits, 4 fills the heap, 5 holds native memory; others read fine.
 */
import type { WorkItem } from '../../scripts/fuzz/worker.js';

const send = (m: unknown) => new Promise((sent) => process.send!(m, sent));
const hoard: unknown[] = [];
process.on('message', async (msg: { type: 'init' } | { type: 'run'; items: WorkItem[] }) => {
  if (msg.type === 'init') return void send({ type: 'ready' });
  for (const { id } of msg.items) {
    switch (id % 6) {
      case 1:
        for (;;) { /* hang */ }
      case 2:
        await send({ type: 'done', outcome: { id, result: 'untyped', rows: 0, error: 'TypeError: boom', stack: 'TypeError: boom\n    at somewhere', ms: 0, peakMb: 0 } });
        break;
      case 3:
        process.exit(3);
      case 4:
        for (;;) hoard.push(new Array(1e6).fill({ x: hoard.length }));
      case 5:
        // Outside the V8 heap: only RSS shows it. Touched, so the pages are resident.
        for (;;) hoard.push(Buffer.alloc(64 << 20, 1));
      default:
        await send({ type: 'done', outcome: { id, result: 'rows', rows: id, ms: 0, peakMb: 0 } });
    }
  }
});
