/**
 * A fuzz child process that misbehaves on purpose, so the fuzz harness can show it catches
 * hangs, crashes, memory blow-ups and untyped errors (reader-fuzz.test.ts).
 * Case ids: 1 hangs, 2 reports an untyped error, 3 exits, 4 runs out of memory; others read fine.
 */
import type { CaseMessage } from './fuzz-worker.js';

const send = (m: unknown) => process.send!(m);
const hoard: unknown[] = [];
process.on('message', (msg: CaseMessage) => {
  send({ type: 'start', id: msg.id });
  switch (msg.id % 5) {
    case 1:
      for (;;) { /* hang */ }
    case 2:
      send({ type: 'done', outcome: { id: msg.id, result: 'untyped', error: 'TypeError: boom', stack: 'TypeError: boom\n    at somewhere' } });
      return;
    case 3:
      process.exit(3);
    case 4:
      for (;;) hoard.push(new Array(1e6).fill({ x: hoard.length }));
    default:
      send({ type: 'done', outcome: { id: msg.id, result: 'rows', rows: msg.bytes.length } });
  }
});
send({ type: 'ready' });
