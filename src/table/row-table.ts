/// <reference lib="esnext.disposable" preserve="true" />
// (the declarations name Symbol.asyncDispose: an app whose lib stops at ES2022 type-checks them through this)
/**
 * Tables of the formats whose readers assemble rows (Trevni, the draft,
 * RedElm): a Parquet schema tree, rows in its default value forms, and the
 * read options done here where the reader does not take them. Arrow comes
 * through a Parquet file in memory (spool.ts): one mapping for every format.
 */
import type { Table as ArrowTable } from '../arrow/peer.js';
import { projectSchema } from '../schema/project.js';
import { selectLeaves } from '../schema/select.js';
import type { LeafNode, Schema } from '../schema/tree.js';
import { planRecord } from '../shred/plan.js';
import { ARROW_VALUES, countOption, refuseFilter, refuseOptions, rowShaper, shapedBatches, unbatched, VALUE_OPTIONS } from './rows.js';
import { spoolToParquet } from './spool.js';
import type { Table, TableArrowOptions, TableBatchOptions, TableFormatName, TableReadOptions } from './table.js';

type Row = Record<string, unknown>;

/** What the table asks of a format's reader: rows from `offset`, at most `limit`, of the leaves selected (all when undefined; a reader may give more). */
export interface RowSource {
  rows(range: { offset: number; limit: number | undefined; leaves: LeafNode[] | undefined }): AsyncIterable<Row>;
  close(): Promise<void>;
}

export class RowTable<R = Row> implements Table<R> {
  /** `schemaOf`: the tree, or how to make it when first asked (a Trevni file's mapping, kept by its maker, may fail: what reads no rows must not pay it). */
  constructor(
    readonly format: TableFormatName,
    private readonly schemaOf: Schema | (() => Schema),
    readonly numRows: number,
    private readonly source: RowSource,
    private readonly name?: string,
  ) {}

  get schema(): Schema {
    return typeof this.schemaOf === 'function' ? this.schemaOf() : this.schemaOf;
  }

  rows(options: TableReadOptions = {}): AsyncIterableIterator<R> {
    return unbatched(this.rowBatches(options));
  }

  rowBatches(options: TableBatchOptions = {}): AsyncIterableIterator<R[]> {
    // Checked at the call, as the Parquet reader checks its options.
    refuseFilter(options, this.format);
    const leaves = options.columns ? selectLeaves(this.schema, options.columns, this.name !== undefined ? { file: this.name } : {}) : undefined;
    const keep = leaves && new Set(leaves);
    const plan = planRecord(this.schema.root, keep ? (l) => keep.has(l) : undefined);
    const offset = countOption(options.offset, 'offset') ?? 0;
    const limit = countOption(options.limit, 'limit');
    const rows = this.source.rows({ offset, limit, leaves });
    return shapedBatches(rows, options, rowShaper(plan, options, leaves !== undefined), offset) as AsyncIterableIterator<R[]>;
  }

  async toArrow(options: TableArrowOptions = {}): Promise<ArrowTable> {
    refuseFilter(options, this.format);
    refuseOptions(options, VALUE_OPTIONS, this.format, ARROW_VALUES);
    const leaves = selectLeaves(this.schema, options.columns);
    const reader = await spoolToParquet(projectSchema(this.schema, leaves), this.rowBatches(options as TableBatchOptions) as AsyncIterable<Row[]>, this.name);
    try {
      return await reader.toArrow();
    } finally {
      await reader.close();
    }
  }

  close(): Promise<void> {
    return this.source.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}
