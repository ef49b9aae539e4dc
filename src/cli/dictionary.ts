/** `parquetry dictionary`: the entries of a column's dictionary pages, row group by row group. */
import { columnDictionaries } from '../parquet/inspect/dictionary.js';
import { canonicalValue } from '../text/canonical.js';
import type { ColumnPath } from '../schema/tree.js';
import { withParquetFile } from './files.js';
import { withOutput } from './output.js';
import { renderValue } from '../text/render.js';

/** Per row group, a heading and the entries, or (`--json`) one JSON object with the entries in canonical JSON. */
export async function dictionaryCommand(file: string, opts: { column: ColumnPath; rowGroup?: number; json?: boolean }): Promise<void> {
  await withParquetFile(file, async (r) => {
    const dicts = await columnDictionaries(r, opts.column, opts.rowGroup === undefined ? undefined : [opts.rowGroup]);
    const kind = r.selectLeaves([opts.column])[0]!.kind;
    await withOutput(async (out) => {
      for (const d of dicts) {
        if (opts.json) {
          const values = d.values.map((v) => canonicalValue(kind, v)).join(',');
          await out.line(`{"rowGroup":${d.rowGroup},"column":${JSON.stringify(d.column)},"dictionary":${d.dictionary},"values":[${values}]}`);
          continue;
        }
        await out.line(`row group ${d.rowGroup}, column ${d.column}: ${d.dictionary ? `${d.values.length} ${d.values.length === 1 ? 'entry' : 'entries'}` : 'no dictionary'}`);
        const width = String(d.values.length - 1).length;
        for (let i = 0; i < d.values.length; i++) await out.line(`  ${String(i).padStart(width)}  ${renderValue(d.values[i])}`);
      }
    });
  });
}
