/**
 * RedElm's schema text, as `redelm.parser.MessageTypeParser` reads it and
 * `MessageType.toString()` writes it: `message NAME { REPETITION TYPE NAME; ...
 * REPETITION group NAME { ... } }`, tokens split on space, tab, newline and
 * `;{}`, keywords and type names in any case. The seven types are Dremel's;
 * each maps to a Parquet physical type (`string` is BYTE_ARRAY annotated
 * UTF8), so the schema becomes the tree every other reader here uses.
 */
import { CorruptFileError } from '../errors.js';
import { buildSchema, MAX_SCHEMA_DEPTH, type LeafNode, type SchemaNode, type Schema, type SchemaElementLike } from '../schema/tree.js';
import type { RedElmType } from './metadata.js';

const PHYSICAL: Record<RedElmType, { type: string; convertedType?: string }> = {
  STRING: { type: 'BYTE_ARRAY', convertedType: 'UTF8' },
  BINARY: { type: 'BYTE_ARRAY' },
  INT32: { type: 'INT32' },
  INT64: { type: 'INT64' },
  BOOLEAN: { type: 'BOOLEAN' },
  FLOAT: { type: 'FLOAT' },
  DOUBLE: { type: 'DOUBLE' },
};

const REPETITIONS = new Set(['REQUIRED', 'OPTIONAL', 'REPEATED']);

/** Parses the schema text of a RedElm footer; `offset` locates errors (the metadata block's). */
export function parseRedElmSchema(text: string, offset?: number): Schema {
  const tokens = text.split(/([ ;{}\n\t])/).filter((t) => t !== '' && t !== ' ' && t !== '\n' && t !== '\t');
  let next = 0;
  const fail = (detail: string): never => {
    throw new CorruptFileError(`RedElm schema: ${detail}`, { offset });
  };
  const token = (): string => (next < tokens.length ? tokens[next++]! : fail('unexpected end of schema'));
  const expect = (t: string, what: string): void => {
    const got = token();
    if (got.toLowerCase() !== t) fail(`expected ${what} '${t}', got '${got}'`);
  };
  const elements: SchemaElementLike[] = [];

  function group(el: SchemaElementLike, depth: number): void {
    if (depth > MAX_SCHEMA_DEPTH) fail(`groups nest deeper than ${MAX_SCHEMA_DEPTH} levels`);
    expect('{', 'the start of a group');
    elements.push(el);
    let t: string;
    let n = 0;
    while ((t = token()) !== '}') {
      n++;
      const repetition = t.toUpperCase();
      if (!REPETITIONS.has(repetition)) fail(`expected a repetition (required, optional, repeated), got '${t}'`);
      const type = token();
      const name = token();
      if (type.toLowerCase() === 'group') {
        group({ name, repetitionType: repetition }, depth + 1);
      } else {
        const physical = PHYSICAL[type.toUpperCase() as RedElmType];
        if (physical === undefined) fail(`unknown type '${type}' for field '${name}'`);
        expect(';', 'the end of field');
        elements.push({ name, repetitionType: repetition, ...physical });
      }
    }
    el.numChildren = n;
  }

  expect('message', 'the schema to start with');
  group({ name: token() }, 0);
  return buildSchema(elements);
}

/** `MessageType.toString()`: the text the prototype stores in its footer. */
export function formatRedElmSchema(schema: Schema, typeOf: (leaf: LeafNode) => RedElmType): string {
  const lines = [`message ${schema.root.name || 'schema'} {`];
  const walk = (nodes: SchemaNode[], indent: string): void => {
    for (const n of nodes) {
      const rep = n.repetition.toLowerCase();
      if (n.isLeaf) {
        lines.push(`${indent}${rep} ${typeOf(n).toLowerCase()} ${n.name};`);
      } else {
        lines.push(`${indent}${rep} group ${n.name} {`);
        walk(n.children, indent + '  ');
        lines.push(`${indent}}`);
      }
    }
  };
  walk(schema.root.children, '  ');
  return lines.join('\n') + '\n}\n';
}
