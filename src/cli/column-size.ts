/** `parquetry column-size`: bytes and share of the file's column bytes per leaf column, compressed and uncompressed. */
import { columnSizes } from '../parquet/inspect/column-size.js';
import { withParquetFile } from './files.js';
import { size } from './meta.js';
import { withOutput } from './output.js';
import { renderTable } from '../text/render.js';

const percent = (share: number) => `${(share * 100).toFixed(1)}%`;

/** A table of the columns, or (`--json`) one JSON object per column. */
export async function columnSizeCommand(file: string, opts: { json?: boolean }): Promise<void> {
  await withParquetFile(file, (r) => withOutput(async (out) => {
    const sizes = columnSizes(r.metadata, r.schema);
    if (opts.json) {
      for (const s of sizes) await out.line(JSON.stringify(s));
      return;
    }
    const names = ['column', 'compressed', 'share', 'uncompressed', 'share '];
    await out.line(renderTable(names, sizes.map((s) => ({
      column: s.column, compressed: size(s.compressed), share: percent(s.compressedShare), uncompressed: size(s.uncompressed), 'share ': percent(s.uncompressedShare),
    }))));
  }));
}
