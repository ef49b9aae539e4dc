/**
 * What the reader needs to decode column chunks and assemble rows, in one
 * module: reader.ts imports it on the first read of data (`decoding`), so
 * opening a file and reading its footer compile none of it (the page
 * decoders, every encoding, value conversion, the record assembler).
 */
import { valueReader, type ValueOptions } from '../schema/convert.js';
import type { LeafNode } from '../schema/tree.js';
import type { LeafColumn } from '../shred/assemble.js';
import type { ColumnChunkData } from '../shred/column-data.js';

export { RecordAssembler } from '../shred/assemble.js';
export { decodeColumnChunk, LevelBuffers } from './column-chunk.js';
export { readDictionaryPage } from './dictionary-page.js';
export { loadPageEncodings, needsPageEncodings, withPageEncodings } from './page-values.js';

/** Adapts a decoded chunk to what the assembler reads. */
export function leafColumn(leaf: LeafNode, c: ColumnChunkData, options: ValueOptions): LeafColumn {
  // A chunk without nulls has every entry at the maximum level, which null levels say: the assembler then reads no level of it.
  const levels = { def: c.valueCount === c.length ? null : c.def, rep: c.rep, length: c.length, maxDef: leaf.defLevel, valueCount: c.valueCount };
  if (c.indices && c.dictionary) {
    // Convert each dictionary entry once; rows then share the converted values.
    const convert = valueReader(leaf.kind, c.dictionary, options);
    const size = c.indices.length === 0 ? 0 : dictionarySize(c.dictionary);
    const dict = new Array<unknown>(size);
    for (let i = 0; i < size; i++) dict[i] = convert(i);
    const idx = c.indices;
    // The flat fast path indexes the converted dictionary itself; other paths call value().
    return { ...levels, value: (i: number) => dict[idx[i]!], dictionary: dict, indices: idx };
  }
  return { ...levels, value: valueReader(leaf.kind, c.values!, options) };
}

function dictionarySize(v: ColumnChunkData['dictionary']): number {
  if (!v) return 0;
  return 'offsets' in v ? v.offsets.length - 1 : v.length;
}
