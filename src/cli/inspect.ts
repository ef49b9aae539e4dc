/**
 * The commands that show a file: schema, meta, cat and head, for Parquet,
 * Trevni and RedElm files (told apart by their magic). main.ts imports this module
 * only when one of them runs.
 */
import { InvalidArgumentError } from '../errors.js';
import { canonicalRow } from '../text/canonical.js';
import { formatSchema } from '../text/schema-text.js';
import { schemaJson } from '../schema/json.js';
import { isDatasetInput, openDatasetInput, tableFileKind, withReader } from './files.js';
import { formatDatasetDescription } from './dataset.js';
import { describeDataset } from '../dataset/describe.js';
import type { ReadOptions } from '../parquet/reader.js';
import type { ColumnPath } from '../schema/tree.js';
import type { RecordPlan } from '../shred/plan.js';
import type { Filter } from '../parquet/filter/expression.js';
import { formatMetadata, metadataSummary } from './meta.js';
import { printRecords, withOutput } from './output.js';
import { renderRecord, renderTable } from './render.js';

// Loaded for the files and options that need them: `meta` on a Parquet file compiles no Trevni, RedElm or filter code.
const redElm = () => import('./redelm.js');
const trevni = () => import('./trevni.js');

/** The schema in message syntax, or (`--json`, Parquet only) as our JSON tree (schema/json.ts). */
export async function schemaCommand(file: string, opts: { json?: boolean; unionByName?: boolean }): Promise<void> {
  if (await isDatasetInput(file)) {
    const ds = await openDatasetInput(file, {}, opts.unionByName);
    process.stdout.write((opts.json ? JSON.stringify(schemaJson(ds.schema.root), null, 2) : formatSchema(ds.schema)) + '\n');
    return;
  }
  const kind = await tableFileKind(file);
  if (kind === 'redelm') {
    const { withRedElm, redElmSchema } = await redElm();
    return withRedElm(file, async (r) => void process.stdout.write(redElmSchema(r, Boolean(opts.json)) + '\n'));
  }
  if (kind === 'trevni') {
    if (opts.json) throw new InvalidArgumentError("schema --json is for Parquet files; a Trevni file's schema prints as text");
    const { withTrevni, trevniSchema } = await trevni();
    return withTrevni(file, async (r) => void process.stdout.write(trevniSchema(r) + '\n'));
  }
  await withReader(file, async (r) => {
    process.stdout.write((opts.json ? JSON.stringify(schemaJson(r.schema.root), null, 2) : formatSchema(r.schema)) + '\n');
  });
}

export async function metaCommand(file: string, opts: { json?: boolean; unionByName?: boolean }): Promise<void> {
  if (await isDatasetInput(file)) {
    const s = await describeDataset(await openDatasetInput(file, {}, opts.unionByName));
    process.stdout.write((opts.json ? JSON.stringify(s, null, 2) : formatDatasetDescription(file, s)) + '\n');
    return;
  }
  const kind = await tableFileKind(file);
  if (kind === 'redelm') {
    const { withRedElm, redElmMeta } = await redElm();
    return withRedElm(file, async (r) => void process.stdout.write(redElmMeta(r, Boolean(opts.json)) + '\n'));
  }
  if (kind === 'trevni') {
    const { withTrevni, trevniMeta } = await trevni();
    return withTrevni(file, async (r) => void process.stdout.write((await trevniMeta(r, Boolean(opts.json))) + '\n'));
  }
  await withReader(file, async (r) => {
    const s = metadataSummary(r);
    process.stdout.write((opts.json ? JSON.stringify(s, null, 2) : formatMetadata(s)) + '\n');
  });
}

export interface CatOptions {
  columns?: (string | string[])[];
  offset?: number;
  limit?: number;
  json?: boolean;
  where?: string;
  /** false with --no-verify-checksums. */
  verifyChecksums: boolean;
  /** A dataset's files unified by name (`--union-by-name`). */
  unionByName?: boolean;
}

/** `cat` (records), and `head` (`table`: a table). */
export async function catCommand(file: string, opts: CatOptions, table: boolean): Promise<void> {
  // A bad expression fails before the file is opened.
  const filter = opts.where === undefined ? undefined : (await import('../parquet/filter/where.js')).parseWhere(opts.where);
  const checks = { verifyChecksums: opts.verifyChecksums };
  if (await isDatasetInput(file)) return printRows(await openDatasetInput(file, checks, opts.unionByName, filter), opts, filter, table);
  const kind = await tableFileKind(file);
  if (kind === 'redelm') {
    const { withRedElm, redElmCat } = await redElm();
    return withRedElm(file, (r) => redElmCat(r, opts, table));
  }
  if (kind === 'trevni') {
    if (filter) throw new InvalidArgumentError('--where is for Parquet files; Trevni files are read whole');
    // Trevni columns are named by one flat string each.
    const columns = opts.columns?.map((c) => (typeof c === 'string' ? c : c.join('.')));
    const { withTrevni, trevniCat } = await trevni();
    return withTrevni(file, (r) => trevniCat(r, { ...opts, columns }, table), checks);
  }
  await withReader(file, (reader) => printRows(reader, opts, filter, table), checks);
}

/** What `cat` and `head` read rows from: a Parquet file or a dataset. */
interface RowSource {
  plan(columns?: readonly ColumnPath[]): RecordPlan;
  rows(options: ReadOptions): AsyncIterable<Record<string, unknown>>;
}

function printRows(reader: RowSource, opts: CatOptions, filter: Filter | undefined, table: boolean): Promise<void> {
  return withOutput(async (out) => {
    const read = { columns: opts.columns, offset: opts.offset, limit: opts.limit, filter };
    if (opts.json) {
      // Canonical JSON lines (CANONICAL.md): the default lossless values, printed exactly.
      const plan = reader.plan(opts.columns);
      for await (const row of reader.rows(read)) await out.line(canonicalRow(plan, row));
    } else if (table) {
      const rows: Record<string, unknown>[] = [];
      for await (const row of reader.rows({ ...read, temporal: 'iso' })) rows.push(row);
      const names = reader.plan(opts.columns).fields.map((f) => f.name);
      await out.line(renderTable(names, rows));
    } else {
      await printRecords(out, reader.rows({ ...read, temporal: 'iso' }), renderRecord);
    }
  });
}
