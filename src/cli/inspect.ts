/**
 * The commands that show a file: schema, meta, cat and head, for every
 * format `openTable` reads, each FILE opened once as a table. `cat` and
 * `head` read rows through the table; Trevni files print in their own
 * canonical form (CANONICAL.md), and `schema` and `meta` show each
 * format's own structures, through the reader the table reads with.
 * main.ts imports this module only when one of them runs.
 */
import { InvalidArgumentError } from '../errors.js';
import { canonicalRow } from '../text/canonical.js';
import { formatSchema } from '../text/schema-text.js';
import { schemaJson } from '../schema/json.js';
import { closing, isDatasetInput, openDatasetInput, openTableInput, type ReadChecks } from './files.js';
import { formatDatasetDescription } from './dataset.js';
import { describeDataset } from '../dataset/describe.js';
import type { Filter } from '../parquet/filter/expression.js';
import type { Table } from '../table/table.js';
import type { Schema } from '../schema/tree.js';
import { tablePlan } from '../table/plan.js';
import { readerOf } from '../table/reader-of.js';
import { formatMetadata, metadataSummary } from './meta.js';
import { printRecords, withOutput } from './output.js';
import { renderRecord, renderTable } from '../text/render.js';
import { run } from './run-context.js';

// Loaded for the files and options that need them: `meta` on a Parquet file compiles no Trevni, RedElm or filter code.
const redElm = () => import('./redelm.js');
const trevni = () => import('./trevni.js');

/** Runs `fn` on FILE opened as a table (any format, or a dataset), then closes it. */
async function withTable(file: string, fn: (t: Table) => Promise<string>, checks: ReadChecks = {}, dataset: { unionByName?: boolean; filter?: Filter } = {}): Promise<void> {
  await closing(await openTableInput(file, checks, dataset), async (t) => void run().io.stdout.write((await fn(t)) + '\n'));
}

/** The schema in message syntax, or (`--json`, not for Trevni) as our JSON tree (schema/json.ts); RedElm's and Trevni's as their files store them. */
export async function schemaCommand(file: string, opts: { json?: boolean; unionByName?: boolean }): Promise<void> {
  const text = (schema: Schema) => (opts.json ? JSON.stringify(schemaJson(schema.root), null, 2) : formatSchema(schema));
  // A dataset's schema is read from one footer (every footer with --union-by-name); its table would read them all, to count its rows.
  if (await isDatasetInput(file)) return void run().io.stdout.write(text((await openDatasetInput(file, {}, opts.unionByName)).schema) + '\n');
  await withTable(file, async (t) => {
    const r = readerOf(t, 'redelm');
    if (r) return (await redElm()).redElmSchema(r, Boolean(opts.json));
    const trv = readerOf(t, 'trevni');
    if (trv && opts.json) throw new InvalidArgumentError("schema --json is for Parquet files; a Trevni file's schema prints as text");
    return trv ? (await trevni()).trevniSchema(trv) : text(t.schema);
  });
}

export async function metaCommand(file: string, opts: { json?: boolean; unionByName?: boolean }): Promise<void> {
  const json = Boolean(opts.json);
  await withTable(file, async (t) => {
    const ds = readerOf(t, 'dataset');
    if (ds) {
      const s = await describeDataset(ds);
      return json ? JSON.stringify(s, null, 2) : formatDatasetDescription(file, s);
    }
    const parquet = readerOf(t, 'parquet');
    if (parquet) {
      const s = metadataSummary(parquet.file);
      return json ? JSON.stringify(s, null, 2) : formatMetadata(s);
    }
    const r = readerOf(t, 'redelm');
    if (r) return (await redElm()).redElmMeta(r, json);
    const trv = readerOf(t, 'trevni');
    return trv ? (await trevni()).trevniMeta(trv, json) : textMeta(t, json);
  }, {}, { unionByName: opts.unionByName });
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
  const input = await openTableInput(file, { verifyChecksums: opts.verifyChecksums }, { unionByName: opts.unionByName, ...(filter ? { filter } : {}) });
  await closing(input, async (t) => {
    const trv = readerOf(t, 'trevni');
    if (!trv) return printRows(t, opts, filter, table);
    // Trevni files print in their own canonical form (CANONICAL.md), which the table's Parquet mapping is not.
    if (filter) throw new InvalidArgumentError('--where is for Parquet files; Trevni files are read whole');
    // Trevni columns are named by one flat string each.
    const columns = opts.columns?.map((c) => (typeof c === 'string' ? c : c.join('.')));
    return (await trevni()).trevniCat(trv, { ...opts, columns }, table);
  });
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
