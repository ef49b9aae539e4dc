/** `parquetry scan`: read every page of the file (or of some columns) and report rows, bytes and throughput. */
import { scanFile } from '../parquet/inspect/scan.js';
import { withParquetFile } from './files.js';
import { size } from './meta.js';
import { run } from './run-context.js';

/** The report as lines, or (`--json`) one JSON object with rates added. */
export async function scanCommand(file: string, opts: { columns?: (string | string[])[]; json?: boolean }): Promise<void> {
  await withParquetFile(file, async (r) => {
    const s = await scanFile(r, opts.columns);
    const seconds = Math.max(s.seconds, 1e-6);
    if (opts.json) {
      run().io.stdout.write(JSON.stringify({ ...s, rowsPerSecond: s.rows / seconds, uncompressedBytesPerSecond: s.uncompressedBytes / seconds }) + '\n');
      return;
    }
    run().io.stdout.write([
      `rows:       ${s.rows}`,
      `columns:    ${s.columns} (${s.values} values and nulls)`,
      `bytes:      ${size(s.compressedBytes)} compressed, ${size(s.uncompressedBytes)} uncompressed`,
      `time:       ${s.seconds.toFixed(3)} s`,
      `throughput: ${Math.round(s.rows / seconds)} rows/s, ${size(s.uncompressedBytes / seconds)}/s uncompressed`,
    ].join('\n') + '\n');
  });
}
