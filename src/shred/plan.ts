import { leavesOf, type GroupNode, type LeafNode, type SchemaNode } from '../schema/tree.js';

/**
 * How to rebuild one field's values from its leaves' levels: the schema with
 * LIST and MAP resolved (including every backward-compatible form of
 * parquet-format's LogicalTypes.md), so assembly never looks at names again.
 *
 * `def` is the definition level at which the field is non-null; a field with
 * `nullable: false` is present whenever its parent is.
 */
export type Plan = LeafPlan | StructPlan | ListPlan | MapPlan | VariantPlan;

interface PlanBase {
  def: number;
  nullable: boolean;
  /** Index (in the plan's leaf list) of the first leaf under this field: its levels speak for the field. */
  first: number;
  /** How many leaves sit under this field (they are consecutive). */
  width: number;
  /** The schema node's path: the column an error about this field names. */
  path: readonly string[];
}

export interface LeafPlan extends PlanBase {
  t: 'leaf';
  leaf: LeafNode;
}

export interface StructPlan extends PlanBase {
  t: 'struct';
  node: SchemaNode;
  fields: { name: string; plan: Plan }[];
}

export interface ListPlan extends PlanBase {
  t: 'list';
  /** The schema node's name (Arrow names a list that is an element by it). */
  name: string;
  /** Definition level at which the list has at least one element. */
  elementDef: number;
  /** Repetition level of the repeated node: an entry with this level continues the list. */
  rep: number;
  element: Plan;
}

export interface MapPlan extends PlanBase {
  t: 'map';
  /** The schema node's name, as for a list. */
  name: string;
  elementDef: number;
  rep: number;
  /** The repeated key/value group, read as a struct. */
  entry: StructPlan;
  keyName: string;
  /** Absent when the key/value group has no value field (then every value is null). */
  valueName?: string;
}

export interface VariantPlan extends PlanBase {
  t: 'variant';
  node: GroupNode;
  /** The variant group read as a struct (metadata, value, typed_value); the variant decoder turns it into a value. */
  parts: StructPlan;
}

export interface RecordPlan {
  fields: { name: string; plan: Plan }[];
  /** The leaves the plan reads, in order; plan `first` indices point into this list. */
  leaves: LeafNode[];
}

/**
 * Plans the record. `keep` projects: fields with no kept leaf under them are
 * left out. LIST and MAP shapes are decided on the full schema first, so a
 * projection never changes how a list's elements are read.
 */
export function planRecord(root: GroupNode, keep: (leaf: LeafNode) => boolean = () => true): RecordPlan {
  const leaves: LeafNode[] = [];

  function leafPlan(node: LeafNode, def: number, nullable: boolean): LeafPlan {
    if (!keep(node)) return { t: 'leaf', leaf: node, def, nullable, first: leaves.length, width: 0, path: node.path };
    leaves.push(node);
    return { t: 'leaf', leaf: node, def, nullable, first: leaves.length - 1, width: 1, path: node.path };
  }

  /** Plans `node` as a value that exists at level `def`; repetition is handled by the caller. */
  function planValue(node: SchemaNode, def: number, nullable: boolean): Plan {
    if (node.isLeaf) return leafPlan(node, def, nullable);
    const start = leaves.length;
    if (node.kind === 'list') {
      const list = planList(node, def, nullable);
      if (list) return list;
    } else if (node.kind === 'map') {
      const map = planMap(node, def, nullable);
      if (map) return map;
    } else if (node.kind === 'variant') {
      // A variant decodes only from all its parts: projecting any part keeps the whole group.
      if (!leavesOf(node).some(keep)) return { t: 'leaf', leaf: leavesOf(node)[0]!, def, nullable, first: start, width: 0, path: node.path } as LeafPlan;
      const outer = keep;
      keep = () => true;
      const parts = planStruct(node, def, nullable, start);
      keep = outer;
      return { t: 'variant', node, parts, def, nullable, first: start, width: leaves.length - start, path: node.path };
    }
    return planStruct(node, def, nullable, start);
  }

  function planStruct(node: GroupNode, def: number, nullable: boolean, start: number): StructPlan {
    const fields = planFields(node);
    return { t: 'struct', node, fields, def, nullable, first: start, width: leaves.length - start, path: node.path };
  }

  /** A child as it appears in its parent: a repeated child not under LIST/MAP is a required list of itself. */
  function planField(node: SchemaNode): Plan {
    if (node.repetition === 'REPEATED') {
      const start = leaves.length;
      const element = planValue(node, node.defLevel, false);
      return { t: 'list', name: node.name, def: node.defLevel - 1, nullable: false, elementDef: node.defLevel, rep: node.repLevel, element, first: start, width: leaves.length - start, path: node.path };
    }
    return planValue(node, node.defLevel, node.repetition === 'OPTIONAL');
  }

  function planList(node: GroupNode, def: number, nullable: boolean): ListPlan | undefined {
    const repeated = node.children.length === 1 ? node.children[0]! : undefined;
    if (!repeated || repeated.repetition !== 'REPEATED') return undefined; // not a valid LIST: read as a struct
    const start = leaves.length;
    let element: Plan;
    if (repeated.isLeaf) {
      element = leafPlan(repeated, repeated.defLevel, false);
    } else if (repeated.children.length > 1 || repeated.name === 'array' || repeated.name === `${node.name}_tuple`) {
      // The repeated group is the element itself (a struct, or a list when it is annotated LIST).
      element = planValue(repeated, repeated.defLevel, false);
    } else {
      element = planField(repeated.children[0]!);
    }
    return { t: 'list', name: node.name, def, nullable, elementDef: repeated.defLevel, rep: repeated.repLevel, element, first: start, width: leaves.length - start, path: node.path };
  }

  function planMap(node: GroupNode, def: number, nullable: boolean): MapPlan | undefined {
    const kv = node.children.length === 1 ? node.children[0]! : undefined;
    if (!kv || kv.repetition !== 'REPEATED' || kv.isLeaf || kv.children.length === 0) return undefined;
    const keyNode = kv.children.find((c) => c.name === 'key') ?? kv.children[0]!;
    const valueNode = kv.children.find((c) => c.name === 'value') ?? (kv.children.length === 2 ? kv.children.find((c) => c !== keyNode) : undefined);
    const start = leaves.length;
    const entry = planStruct(kv, kv.defLevel, false, start);
    return { t: 'map', name: node.name, def, nullable, elementDef: kv.defLevel, rep: kv.repLevel, entry, keyName: keyNode.name, valueName: valueNode?.name, first: start, width: leaves.length - start, path: node.path };
  }

  /** The children of a group, less those projected away (no kept leaf under them). */
  function planFields(node: GroupNode): { name: string; plan: Plan }[] {
    return node.children.map((c) => ({ name: c.name, plan: planField(c) })).filter((f) => f.plan.width > 0);
  }

  return { fields: planFields(root), leaves };
}

/** For each leaf of the plan, whether it lies inside a VARIANT group. */
export function leavesInVariants(plan: RecordPlan): boolean[] {
  const inside = new Array<boolean>(plan.leaves.length).fill(false);
  const walk = (p: Plan): void => {
    switch (p.t) {
      case 'variant':
        inside.fill(true, p.first, p.first + p.width);
        return;
      case 'struct':
        for (const f of p.fields) walk(f.plan);
        return;
      case 'list':
        walk(p.element);
        return;
      case 'map':
        walk(p.entry);
        return;
    }
  };
  for (const f of plan.fields) walk(f.plan);
  return inside;
}
