/**
 * `openTable` in Node: file paths, directories and globs (datasets), and
 * `s3://` addresses through the AWS settings chain, besides everything the
 * portable `openTable` takes.
 */
import type { Table } from '../table/table.js';
import { datasetOpenOptions, openTable as openPortableTable, openTableSource, type OpenTableOptions, type TableInput } from '../table/open.js';
import { isDatasetPath } from './dataset-path.js';
import { openDataset } from './dataset.js';
import { fileSource } from './file-source.js';
import { localChunkFiles } from './open-parquet.js';
import type { S3Settings } from './s3-credentials.js';
import { isS3Address } from '../io/s3/address.js';
import { datasetTable } from '../table/parquet.js';
import { checkOpenOptions } from '../table/open.js';

/** `s3`: how `s3://` addresses are reached (docs/s3.md); the environment's settings otherwise. */
export type NodeOpenTableOptions = Omit<OpenTableOptions, 's3'> & { s3?: S3Settings };

/**
 * Opens any table: a path, a directory or glob (a dataset), an http(s) URL,
 * an `s3://` object, prefix or glob, bytes, a Blob or a source object; a
 * list of paths or URLs is a dataset. The format is told by the content
 * (Parquet, Trevni, RedElm), else the extension or `format` (CSV, TSV,
 * JSON Lines, JSON).
 *
 * @example
 * ```ts
 * import { openTable } from 'parquetry';
 * await using table = await openTable('events.csv');
 * console.log(table.format, table.numRows);
 * for await (const row of table.rows({ filter: 'amount > 100', columns: ['id', 'amount'] })) console.log(row);
 * ```
 */
export async function openTable<Row = Record<string, unknown>>(input: TableInput | readonly (string | URL)[], options: NodeOpenTableOptions = {}): Promise<Table<Row>> {
  const { s3, ...rest } = options;
  if (Array.isArray(input) || (typeof input === 'string' && await isDatasetPath(input, s3))) {
    checkOpenOptions('dataset', rest);
    const paths = typeof input === 'string' ? input : (input as readonly (string | URL)[]).map(String);
    return datasetTable<Row>(await openDataset(paths, { ...(await datasetOpenOptions(rest)), ...(s3 ? { s3 } : {}) }));
  }
  if (typeof input === 'string' && isS3Address(input)) {
    const source = await (await import('./s3.js')).openS3Source(input, s3);
    return openTableSource<Row>(source, { name: input, ...rest });
  }
  if (typeof input === 'string' && !/^https?:\/\//i.test(input)) {
    return openTableSource<Row>(await fileSource(input), { name: input, ...rest }, localChunkFiles);
  }
  return openPortableTable<Row>(input as TableInput, rest);
}
