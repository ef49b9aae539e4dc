/** `parquetry size-stats`: SizeStatistics and level histograms per column chunk, and per page from the page index. */
import { sizeStatistics, type ChunkSizeStats, type PageSizeStats } from '../parquet/inspect/size-stats.js';
import type { ColumnPath } from '../schema/tree.js';
import { withParquetFile } from './files.js';
import { withOutput } from './output.js';
import { renderTable } from '../text/render.js';

const histogram = (h: number[] | undefined) => (h ? `[${h.join(', ')}]` : '');

function fields(s: ChunkSizeStats | PageSizeStats): Record<string, string> {
  return {
    'unencoded bytes': s.unencodedByteArrayDataBytes === undefined ? '' : String(s.unencodedByteArrayDataBytes),
    'repetition levels': histogram(s.repetitionLevelHistogram),
    'definition levels': histogram(s.definitionLevelHistogram),
  };
}

export interface SizeStatsOptions {
  column?: ColumnPath[];
  rowGroup?: number;
  json?: boolean;
}

/** A line per column chunk (and a table of its pages when the page index has size fields), or (`--json`) one JSON object per chunk. */
export async function sizeStatsCommand(file: string, opts: SizeStatsOptions): Promise<void> {
  await withParquetFile(file, async (r) => {
    const chunks = await sizeStatistics(r, opts.column, opts.rowGroup === undefined ? undefined : [opts.rowGroup]);
    await withOutput(async (out) => {
      for (const c of chunks) {
        if (opts.json) {
          await out.line(JSON.stringify(c));
          continue;
        }
        const f = fields(c);
        await out.line(`row group ${c.rowGroup}, column ${c.column}: ${c.sizeStatistics ? Object.entries(f).filter(([, v]) => v).map(([k, v]) => `${k} ${v}`).join(', ') || 'size statistics empty' : 'no size statistics'}`);
        if (c.pages) {
          const names = ['page', 'unencoded bytes', 'repetition levels', 'definition levels'];
          const table = renderTable(names, c.pages.map((p) => ({ page: String(p.page), ...fields(p) })), 80);
          await out.line(table.split('\n').map((l) => '  ' + l).join('\n'));
        }
      }
    });
  });
}
