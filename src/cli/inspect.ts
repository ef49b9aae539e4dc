/**
 * The commands that show a file: schema, meta, cat and head, for every
 * format `openTable` reads (told apart by their magic, else their
 * extension). `cat` and `head` read rows through the table; Trevni files
 * print in their own canonical form (CANONICAL.md), and `schema` and `meta`
 * show each format's own structures. main.ts imports this module only when
 * one of them runs.
 */
import { InvalidArgumentError } from '../errors.js';
import { canonicalRow } from '../text/canonical.js';
import { formatSchema } from '../text/schema-text.js';
import { schemaJson } from '../schema/json.js';
import { closing, isDatasetInput, openDatasetInput, openTableInput, tableFileKind, withParquetFile } from './files.js';
import { formatDatasetDescription } from './dataset.js';
import { describeDataset } from '../dataset/describe.js';
import type { Filter } from '../parquet/filter/expression.js';
import type { Table } from '../table/table.js';
import { tablePlan } from '../table/plan.js';
import { formatMetadata, metadataSummary } from './meta.js';
import { printRecords, withOutput } from './output.js';
import { renderRecord, renderTable } from '../text/render.js';
import { run } from './run-context.js';

// Loaded for the files and options that need them: `meta` on a Parquet file compiles no Trevni, RedElm or filter code.
const TEXT = new Set(['csv', 'tsv', 'jsonl', 'json']);
const redElm = () => import('./redelm.js');
const trevni = () => import('./trevni.js');

/** The schema in message syntax, or (`--json`, Parquet only) as our JSON tree (schema/json.ts). */
export async function schemaCommand(file: string, opts: { json?: boolean; unionByName?: boolean }): Promise<void> {
  if (await isDatasetInput(file)) {
    const ds = await openDatasetInput(file, {}, opts.unionByName);
    run().io.stdout.write((opts.json ? JSON.stringify(schemaJson(ds.schema.root), null, 2) : formatSchema(ds.schema)) + '\n');
    return;
  }
  const kind = await tableFileKind(file);
  if (TEXT.has(kind)) {
    return closing(await openTableInput(file), async (t) => void run().io.stdout.write((opts.json ? JSON.stringify(schemaJson(t.schema.root), null, 2) : formatSchema(t.schema)) + '\n'));
  }
  if (kind === 'redelm') {
    const { withRedElm, redElmSchema } = await redElm();
    return withRedElm(file, async (r) => void run().io.stdout.write(redElmSchema(r, Boolean(opts.json)) + '\n'));
  }
  if (kind === 'trevni') {
    if (opts.json) throw new InvalidArgumentError("schema --json is for Parquet files; a Trevni file's schema prints as text");
    const { withTrevni, trevniSchema } = await trevni();
    return withTrevni(file, async (r) => void run().io.stdout.write(trevniSchema(r) + '\n'));
  }
  await withParquetFile(file, async (r) => {
    run().io.stdout.write((opts.json ? JSON.stringify(schemaJson(r.schema.root), null, 2) : formatSchema(r.schema)) + '\n');
  });
}

export async function metaCommand(file: string, opts: { json?: boolean; unionByName?: boolean }): Promise<void> {
  if (await isDatasetInput(file)) {
    const s = await describeDataset(await openDatasetInput(file, {}, opts.unionByName));
    run().io.stdout.write((opts.json ? JSON.stringify(s, null, 2) : formatDatasetDescription(file, s)) + '\n');
    return;
  }
  const kind = await tableFileKind(file);
  if (TEXT.has(kind)) return closing(await openTableInput(file), async (t) => void run().io.stdout.write(textMeta(t, Boolean(opts.json)) + '\n'));
  if (kind === 'redelm') {
    const { withRedElm, redElmMeta } = await redElm();
    return withRedElm(file, async (r) => void run().io.stdout.write(redElmMeta(r, Boolean(opts.json)) + '\n'));
  }
  if (kind === 'trevni') {
    const { withTrevni, trevniMeta } = await trevni();
    return withTrevni(file, async (r) => void run().io.stdout.write((await trevniMeta(r, Boolean(opts.json))) + '\n'));
  }
  await withParquetFile(file, async (r) => {
    const s = metadataSummary(r);
    run().io.stdout.write((opts.json ? JSON.stringify(s, null, 2) : formatMetadata(s)) + '\n');
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
  const dataset = await isDatasetInput(file);
  if (!dataset && (await tableFileKind(file)) === 'trevni') {
    if (filter) throw new InvalidArgumentError('--where is for Parquet files; Trevni files are read whole');
    // Trevni columns are named by one flat string each.
    const columns = opts.columns?.map((c) => (typeof c === 'string' ? c : c.join('.')));
    const { withTrevni, trevniCat } = await trevni();
    return withTrevni(file, (r) => trevniCat(r, { ...opts, columns }, table), checks);
  }
  const input = await openTableInput(file, checks, { unionByName: opts.unionByName, ...(filter ? { filter } : {}) });
  await closing(input, (t) => printRows(t, opts, filter, table));
}

/** `cat` and `head` of any table but a Trevni file's. */
function printRows(t: Table, opts: CatOptions, filter: Filter | undefined, table: boolean): Promise<void> {
  return withOutput(async (out) => {
    const read = { columns: opts.columns, offset: opts.offset, limit: opts.limit, filter };
    const plan = tablePlan(t, opts.columns);
    if (opts.json) {
      // Canonical JSON lines (CANONICAL.md): the default lossless values, printed exactly.
      for await (const row of t.rows(read)) await out.line(canonicalRow(plan, row));
    } else if (table) {
      const rows: Record<string, unknown>[] = [];
      for await (const row of t.rows({ ...read, temporal: 'iso' })) rows.push(row);
      await out.line(renderTable(plan.fields.map((f) => f.name), rows));
    } else {
      await printRecords(out, t.rows({ ...read, temporal: 'iso' }), renderRecord);
    }
  });
}

/** `meta` of a text input: what its table holds, as read at open. */
function textMeta(t: Table, json: boolean): string {
  const s = { format: t.format, numRows: t.numRows, columns: t.schema.leaves.length };
  return json ? JSON.stringify(s, null, 2) : [`format:   ${s.format}`, `rows:     ${s.numRows}`, `columns:  ${s.columns}`].join('\n');
}
