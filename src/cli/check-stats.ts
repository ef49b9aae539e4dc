/** `parquetry check-stats`: statistics, page indexes and bloom filters checked against the data; exit 1 when any lies. */
import { checkStatistics } from '../parquet/inspect/check-stats.js';
import { withParquetFile } from './files.js';
import { withOutput } from './output.js';
import { renderTable } from '../text/render.js';
import { run } from './run-context.js';

/** What was checked and the lies (a table), or (`--json`) one JSON object; exit status 1 when anything lies. */
export async function checkStatsCommand(file: string, opts: { columns?: (string | string[])[]; json?: boolean }): Promise<void> {
  await withParquetFile(file, async (reader) => {
    const report = await checkStatistics(reader, { columns: opts.columns });
    await withOutput(async (out) => {
      if (opts.json) {
        await out.line(JSON.stringify(report));
      } else {
        const c = report.checked;
        const n = (k: number, one: string, more: string) => `${k} ${k === 1 ? one : more}`;
        await out.line(`checked: ${n(c.statistics, 'chunk statistics', 'chunk statistics')}, ${n(c['size statistics'], 'size statistics', 'size statistics')}, ${n(c['column index'], 'column index', 'column indexes')}, `
          + `${n(c['offset index'], 'offset index', 'offset indexes')}, ${n(c['bloom filter'], 'bloom filter', 'bloom filters')}`);
        if (report.lies.length === 0) await out.line('no lies found');
        else {
          await out.line(`${report.lies.length} ${report.lies.length === 1 ? 'lie' : 'lies'}:`);
          const names = ['row group', 'column', 'structure', 'page', 'field', 'stored', 'actual'];
          const rows = report.lies.map((l) => ({ ...l, 'row group': String(l.rowGroup), page: l.page === undefined ? '' : String(l.page) }));
          await out.line(renderTable(names, rows, 60).split('\n').map((l) => '  ' + l).join('\n'));
        }
      }
    });
    if (report.lies.length > 0) run().exitCode = 1;
  });
}
