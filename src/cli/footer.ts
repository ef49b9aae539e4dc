/** `parquetry footer`: the raw FileMetaData as JSON (thrift names, i64 as decimal strings, binary as hex). */
import { footerJson } from '../parquet/inspect/footer-json.js';
import { withReader } from './files.js';

/** The footer, indented, or (`--json`) on one line. */
export async function footerCommand(file: string, opts: { json?: boolean }): Promise<void> {
  await withReader(file, async (r) => {
    process.stdout.write(JSON.stringify(footerJson(r.metadata), null, opts.json ? undefined : 2) + '\n');
  });
}
