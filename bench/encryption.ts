/**
 * What decryption costs: a full read to rows of a 2,000,000-row flat file
 * that parquetry wrote, encrypted (uniform, AES_GCM_V1) against the same
 * file unencrypted. Runs alternate, so both see the same machine load.
 *
 *   node --import tsx bench/encryption.ts [--runs 5]
 */
import { performance } from 'node:perf_hooks';
import { BufferSink } from '../src/io/sink.js';
import { writeRecords } from '../src/parquet/write/write-records.js';
import { encryptParquet, ParquetReader } from '../src/index.js';

const ROWS = 2_000_000;
const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 5;
const footerKey = new TextEncoder().encode('0123456789012345');

function* records() {
  for (let i = 0; i < ROWS; i++) yield { id: i, big: BigInt(i) * 1000003n, amount: i / 7, category: `cat${i % 100}`, uid: `user-${i}-${(i * 2654435761) % 1000003}`, flag: i % 3 === 0 };
}

const sink = new BufferSink();
await writeRecords(sink, records());
const plain = sink.bytes();
const encrypted = await encryptParquet(plain, { footerKey });

async function readAll(bytes: Uint8Array, decryption?: { footerKey: Uint8Array }): Promise<number> {
  const t = performance.now();
  const r = await ParquetReader.open(bytes, decryption ? { decryption } : {});
  let n = 0;
  for await (const batch of r.rowBatches()) n += batch.length;
  if (n !== ROWS) throw new Error(`read ${n} rows`);
  return performance.now() - t;
}

const times = { plain: [] as number[], encrypted: [] as number[] };
await readAll(plain);
await readAll(encrypted, { footerKey });
for (let i = 0; i < runs; i++) {
  times.plain.push(await readAll(plain));
  times.encrypted.push(await readAll(encrypted, { footerKey }));
}
const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!;
const p = median(times.plain);
const e = median(times.encrypted);
console.log(`file ${(plain.length / 2 ** 20).toFixed(1)} MiB plain, ${(encrypted.length / 2 ** 20).toFixed(1)} MiB encrypted; ${runs} runs each, medians`);
console.log(`plain ${p.toFixed(0)} ms, encrypted ${e.toFixed(0)} ms, overhead ${(((e - p) / p) * 100).toFixed(1)}%`);
