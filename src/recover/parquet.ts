/** `salvage` of a Parquet file: its row groups found (footer, checkpoint or scan) and read page by page, a batch each. */
import type { Source } from '../io/source.js';
import { openForSalvage } from '../parquet/recover/open.js';
import { emptyReport, finish } from '../parquet/recover/recover.js';
import { salvageRowGroups } from '../parquet/recover/salvage.js';
import { salvaged, type Salvage, type SalvageBatch, type SalvageOptions } from './salvaged.js';

export async function parquetSalvage(source: Source, options: SalvageOptions): Promise<Salvage> {
  const opened = await openForSalvage(source, options);
  const report = emptyReport(opened);
  async function* batches(): AsyncGenerator<SalvageBatch> {
    for await (const g of salvageRowGroups(opened, options)) {
      // A loop, not a spread: a row group may lose more pages than the stack holds arguments.
      for (const l of g.losses) report.losses.push(l);
      yield { rows: g.rows, spans: g.spans, rowGroup: g.rowGroup, losses: g.losses };
    }
    finish(report);
  }
  return salvaged({ format: 'parquet', report, batches: batches(), close: async () => source.close?.() });
}
