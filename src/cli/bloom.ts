/**
 * `parquetry bloom-filter`: for each row group, whether the column chunk has
 * a bloom filter, its size, and whether a value may be in the chunk.
 */
import { InvalidArgumentError } from '../errors.js';
import type { ParquetFile } from '../parquet/file.js';
import type { ColumnPath } from '../schema/tree.js';
import { withOutput } from './output.js';
import { selectChunks } from '../parquet/inspect/page-headers.js';
import { renderTable } from '../text/render.js';
import { parseLiteral } from '../parquet/filter/where.js';

export interface BloomAnswer {
  rowGroup: number;
  column: string;
  bloomFilter: boolean;
  /** Bitset bytes (from the filter's header). */
  numBytes?: number;
  /** Bytes of header and bitset, when the chunk metadata records it (the text output shows this, else the bitset's). */
  length?: number;
  /** Absent without a filter. */
  result?: 'maybe present' | 'definitely absent';
}

/**
 * The value `--value` names: a literal of the `--where` grammar (42, -1.5,
 * 'quoted', true), else the text itself as a string. A literal that is not
 * a string but does not fit a text column is taken as its text too
 * (`--value 42` on a string column probes "42").
 */
export function bloomValue(text: string): { value: unknown; asText?: string } {
  const lit = parseLiteral(text);
  if (!lit) return { value: text };
  return typeof lit.value === 'string' ? { value: lit.value } : { value: lit.value, asText: text.trim() };
}

export async function bloomAnswers(file: ParquetFile, column: ColumnPath, text: string, rowGroup?: number): Promise<BloomAnswer[]> {
  if (file.metadata.rowGroups.length > 0) await file.readBloomFilter(rowGroup ?? 0, column); // an unknown column, a group, a bad row group: fail before any output
  const chunks = selectChunks(file, [column], rowGroup);
  const { value, asText } = bloomValue(text);
  const out: BloomAnswer[] = [];
  for (const c of chunks) {
    const bf = await file.readBloomFilter(c.rowGroup, column);
    const a: BloomAnswer = { rowGroup: c.rowGroup, column: c.column, bloomFilter: bf !== null };
    if (bf) {
      a.numBytes = bf.header.numBytes;
      a.length = c.chunk.metaData?.bloomFilterLength;
      let maybe: boolean;
      try {
        maybe = bf.mightContain(value);
      } catch (e) {
        if (!(e instanceof InvalidArgumentError) || asText === undefined) throw e;
        maybe = bf.mightContain(asText);
      }
      a.result = maybe ? 'maybe present' : 'definitely absent';
    }
    out.push(a);
  }
  return out;
}

export interface BloomOptions {
  column: ColumnPath;
  value: string;
  rowGroup?: number;
  json?: boolean;
}

/** `parquetry bloom-filter`: a table with a row per row group, or (`--json`) one JSON object per row group. */
export async function bloomCommand(file: ParquetFile, opts: BloomOptions): Promise<void> {
  const answers = await bloomAnswers(file, opts.column, opts.value, opts.rowGroup);
  await withOutput(async (out) => {
    if (opts.json) for (const a of answers) await out.line(JSON.stringify(a));
    else {
      const names = ['row group', 'bloom filter', 'bytes', 'answer'];
      await out.line(`column ${answers[0]?.column ?? [opts.column].flat().join('.')}, value ${opts.value}:`);
      const rows = answers.map((a) => Object.fromEntries(names.map((n, i) => [n, [
        String(a.rowGroup), a.bloomFilter ? 'yes' : 'no', a.numBytes === undefined ? '' : String(a.length ?? a.numBytes), a.result ?? 'no filter: may be present',
      ][i]])));
      await out.line(renderTable(names, rows).split('\n').map((l) => '  ' + l).join('\n'));
    }
  });
}
