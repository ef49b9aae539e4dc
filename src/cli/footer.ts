/** `parquetry footer`: the raw FileMetaData as JSON (thrift names, i64 as decimal strings, binary as hex). */
import { readFooter } from '../parquet/footer.js';
import { storedFooterJson } from '../parquet/inspect/footer-json.js';
import { openSource } from './files.js';
import { currentDecryption } from './keys.js';
import { run } from './run-context.js';

/**
 * The footer as stored, indented, or (`--json`) on one line. Read alone, not
 * through a reader: a reader joins chunks in other files into one address
 * space (moving their offsets) and needs a schema it can build.
 */
export async function footerCommand(file: string, opts: { json?: boolean }): Promise<void> {
  const source = await openSource(file);
  try {
    const footer = await readFooter(source, currentDecryption());
    run().io.stdout.write(JSON.stringify(storedFooterJson(footer), null, opts.json ? undefined : 2) + '\n');
  } finally {
    await source.close?.();
  }
}
