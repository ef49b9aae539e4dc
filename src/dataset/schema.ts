/**
 * One schema for many files. By default, as DuckDB's `read_parquet`: the
 * first file's columns, found in every other file by name (order may
 * differ, extra columns are ignored, a missing column is an error naming
 * both files), integers of another width cast to the first file's, each
 * value checked. With `unionByName`, as `union_by_name`: every file's
 * columns in order of first appearance, a column a file lacks read as null,
 * integers widened to a type that holds both. Other differences (a string
 * where the first file has a number, nested fields that differ) are refused
 * naming both files, where DuckDB casts value by value.
 */
import { CorruptFileError, IncompatibleFilesError } from '../errors.js';
import type { SchemaElement } from '../parquet/metadata/index.js';
import type { ColumnPath, LeafNode, Schema } from '../schema/tree.js';
import { findColumn } from '../schema/select.js';

/** A top-level field: its element and those of its descendants, depth-first. */
export interface FieldRun {
  name: string;
  elements: SchemaElement[];
}

/**
 * The top-level fields of a footer's flattened schema. The list is walked
 * with a stack, each element's child count checked against the elements
 * left: a footer whose counts claim more elements than it lists is corrupt,
 * however deep it nests.
 */
export function fieldRuns(elements: readonly SchemaElement[], file?: string): FieldRun[] {
  const out: FieldRun[] = [];
  const corrupt = (why: string) => new CorruptFileError(`the schema ${why}`, file === undefined ? {} : { file });
  let at = 1;
  for (let c = 0; c < (elements[0]?.numChildren ?? 0); c++) {
    const start = at;
    // Children still to be listed, per open group.
    const open: number[] = [1];
    while (open.length) {
      if (open[open.length - 1] === 0) {
        open.pop();
        continue;
      }
      open[open.length - 1]!--;
      const e = elements[at];
      if (!e) throw corrupt(`lists ${elements.length} elements, fewer than its child counts claim`);
      at++;
      if (e.numChildren) open.push(e.numChildren);
    }
    out.push({ name: elements[start]!.name, elements: elements.slice(start, at) });
  }
  return out;
}

export interface IntType {
  bits: 8 | 16 | 32 | 64;
  signed: boolean;
}

/** A plain integer leaf's width and sign (INT32/INT64 with no annotation but INTEGER). */
function intType(e: SchemaElement): IntType | undefined {
  if (e.numChildren !== undefined && e.numChildren > 0) return undefined;
  const lt = e.logicalType;
  if (lt && lt.type !== 'INTEGER') return undefined;
  if (e.type === 'INT64' && !lt && (e.convertedType === undefined || e.convertedType === 'INT_64')) return { bits: 64, signed: true };
  if (e.type === 'INT32' && !lt && e.convertedType === undefined) return { bits: 32, signed: true };
  if (lt?.type === 'INTEGER' && (e.type === 'INT32' || e.type === 'INT64')) return { bits: lt.bitWidth as IntType['bits'], signed: lt.isSigned };
  const conv = /^(U?)INT_(8|16|32|64)$/.exec(e.convertedType ?? '');
  if (conv && (e.type === 'INT32' || e.type === 'INT64')) return { bits: Number(conv[2]) as IntType['bits'], signed: conv[1] === '' };
  return undefined;
}

/** The narrowest integer type holding both, as DuckDB widens (INT32 and UINT32 give BIGINT); none for UINT64 with a signed type. */
function widen(a: IntType, b: IntType): IntType | undefined {
  if (a.signed === b.signed) return { bits: Math.max(a.bits, b.bits) as IntType['bits'], signed: a.signed };
  const [s, u] = a.signed ? [a, b] : [b, a];
  if (s.bits > u.bits) return s;
  return u.bits === 64 ? undefined : { bits: (u.bits * 2) as IntType['bits'], signed: true };
}

function intElement(base: SchemaElement, t: IntType): SchemaElement {
  const { convertedType: _c, logicalType: _l, ...rest } = base;
  return { ...rest, type: t.bits === 64 ? 'INT64' : 'INT32', logicalType: { type: 'INTEGER', bitWidth: t.bits, isSigned: t.signed } };
}

/** Elements with what does not change how values read left out, for comparison. */
function shape(elements: readonly SchemaElement[], skipTopRepetition: boolean): string {
  return JSON.stringify(elements.map((e, i) => [e.name, e.type, e.typeLength, i === 0 && skipTopRepetition ? '' : e.repetitionType, e.numChildren, e.convertedType, e.scale, e.precision, e.logicalType]));
}

/** How a file's field reads into the dataset's: as it is, or its integers cast. */
export type FieldMapping = { present: false } | { present: true; cast?: IntType };

/** The dataset's schema elements (without partition columns) from the files' fields. */
export function unifySchemas(files: readonly { file: string; runs: FieldRun[] }[], unionByName: boolean): SchemaElement[] {
  const first = files[0]!;
  const merged = new Map<string, { run: FieldRun; from: string; optional: boolean; int?: IntType }>();
  for (const r of first.runs) merged.set(r.name, { run: r, from: first.file, optional: r.elements[0]!.repetitionType !== 'REQUIRED', int: intType(r.elements[0]!) });
  if (unionByName) {
    for (const { file, runs } of files.slice(1)) {
      for (const r of runs) {
        const m = merged.get(r.name);
        if (!m) {
          merged.set(r.name, { run: r, from: file, optional: true, int: intType(r.elements[0]!) });
          continue;
        }
        m.optional ||= r.elements[0]!.repetitionType !== 'REQUIRED';
        const ri = intType(r.elements[0]!);
        if (m.int && ri) {
          const w = widen(m.int, ri);
          if (!w) throw mismatch(r.name, m.from, file, 'UINT64 and a signed integer have no common integer type');
          m.int = w;
        } else if (shape(m.run.elements, true) !== shape(r.elements, true)) throw mismatch(r.name, m.from, file);
      }
      for (const m of merged.values()) if (!runs.some((r) => r.name === m.run.name)) m.optional = true;
    }
  }
  const elements: SchemaElement[] = [{ name: 'schema', numChildren: merged.size }];
  for (const m of merged.values()) {
    const [top, ...rest] = m.run.elements;
    const head = m.int ? intElement(top!, m.int) : top!;
    elements.push({ ...head, repetitionType: m.optional ? 'OPTIONAL' : head.repetitionType });
    // A loop, not a spread: a field may have more elements than the stack holds arguments.
    for (const e of rest) elements.push(e);
  }
  return elements;
}

/**
 * How each of the dataset's fields reads from one file, or an error naming
 * both files: a field the file lacks (allowed only under `unionByName`), a
 * type that differs beyond an integer's width.
 */
export function mapFields(dataset: Schema, datasetFrom: string, file: string, runs: FieldRun[], unionByName: boolean): Map<string, FieldMapping> {
  const byName = new Map(runs.map((r) => [r.name, r]));
  const out = new Map<string, FieldMapping>();
  for (const node of dataset.root.children) {
    const r = byName.get(node.name);
    if (!r) {
      if (!unionByName) throw new IncompatibleFilesError(`column "${node.name}" of ${datasetFrom} is not in ${file} (unionByName reads such columns as null)`, { file });
      out.set(node.name, { present: false });
      continue;
    }
    const want = node.element as SchemaElement;
    const wantInt = intType(want);
    const haveInt = intType(r.elements[0]!);
    if (wantInt && haveInt) {
      const same = wantInt.bits === haveInt.bits && wantInt.signed === haveInt.signed;
      out.set(node.name, same ? { present: true } : { present: true, cast: wantInt });
      continue;
    }
    const datasetRun = datasetElements(dataset, node.name);
    if (shape(datasetRun, true) !== shape(r.elements, true)) throw mismatch(node.name, datasetFrom, file);
    out.set(node.name, { present: true });
  }
  return out;
}

function mismatch(name: string, a: string, b: string, why?: string): IncompatibleFilesError {
  return new IncompatibleFilesError(`column "${name}" has one type in ${a} and another in ${b}${why ? `: ${why}` : ''}`, { file: b });
}

/** The flattened elements of a dataset's top-level field. */
function datasetElements(schema: Schema, name: string): SchemaElement[] {
  const out: SchemaElement[] = [];
  const walk = (n: Schema['root']['children'][number]): void => {
    out.push(n.element as SchemaElement);
    if (!n.isLeaf) n.children.forEach(walk);
  };
  walk(schema.root.children.find((c) => c.name === name)!);
  return out;
}

/** The leaf a dotted path (or name array) names in a schema, if any, found as every reader finds a column (a name array exactly). */
export function leafByPath(schema: Schema, column: ColumnPath): LeafNode | undefined {
  const node = findColumn(schema.root, column);
  return node?.isLeaf ? node : undefined;
}

