/**
 * Where a salvage read finds its row groups: the footer, else the last
 * complete checkpoint a checkpointing writer left (checkpoints.ts), else a
 * scan of page headers under a schema the caller gives or takes from a
 * sibling file (scan.ts).
 */
import { CorruptFileError, ParquetryError, withContext } from '../../errors.js';
import { buildSchema, type Schema, type SchemaElementLike } from '../../schema/tree.js';
import { readFooter } from '../footer.js';
import { chunkStart } from '../chunk-locator.js';
import type { FileMetaData } from '../metadata/index.js';
import { inputSource, type ReadInput } from '../../io/source.js';
import { described, type FoundBy } from '../../loss.js';
import { lastCheckpoint } from './checkpoints.js';
import { scanRowGroups } from './scan.js';
import { schemaRefuted } from './footer-claims.js';
import type { CodecName } from '../../codecs/registry.js';
import type { SalvageInput } from './salvage.js';

export interface SalvageOpenOptions {
  /** For a file with neither footer nor checkpoint: its schema (as SchemaElements, root first)... */
  schema?: readonly SchemaElementLike[];
  /** ...and its codec, one for all leaves or by dotted leaf path (default UNCOMPRESSED). */
  codec?: CodecName | Record<string, CodecName>;
  /** Or both from a sibling file written the same way (its schema, and its first row group's codecs). */
  like?: ReadInput;
}

/**
 * A file opened for salvage: how its row groups were found (footer, checkpoint or scan), and,
 * without a usable footer, where what was found ends.
 */
export interface OpenedForSalvage extends SalvageInput {
  foundBy: FoundBy;
  /** Why the footer could not be used, when it could not. */
  footerError?: { name: string; message: string };
  /**
   * Without a footer, or with a footer that counts more rows than its row
   * groups hold: where the row groups found end, and why nothing after was
   * read. The file had more there (its footer at least), so data from this
   * byte on may be lost, how much is unknown.
   */
  lostFrom?: { offset: number; reason: string };
}

/** Opens by the footer, else by the last checkpoint; when neither is there, the footer's error is thrown. */
export async function openForSalvage(input: ReadInput, options: SalvageOpenOptions = {}): Promise<OpenedForSalvage> {
  const source = await inputSource(input);
  let metadata: FileMetaData;
  let schema: Schema;
  try {
    let offset: number;
    ({ metadata, offset } = await readFooter(source));
    schema = withContext({ file: source.name, offset }, () => buildSchema(metadata.schema as SchemaElementLike[]));
    // A footer damaged so that it still decodes can name or type its columns wrongly, and its pages then read as rows never written.
    const refuted = schemaRefuted(schema, metadata);
    if (refuted) throw new CorruptFileError(`the footer contradicts itself: ${refuted}`, { file: source.name, offset });
  } catch (e) {
    if (!(e instanceof ParquetryError)) throw e;
    const chain = await lastCheckpoint(source);
    if (!chain) {
      const known = await knownSchema(options);
      if (!known) throw e;
      const scanned = buildSchema(known.elements);
      const { metadata: found, stop } = await scanRowGroups(source, scanned, known.elements as FileMetaData['schema'], (l) => known.codec(l.path.join('.')));
      return { source, metadata: found, schema: scanned, foundBy: 'scan', footerError: described(e), lostFrom: stop };
    }
    const end = chain.last.end;
    const reason = end < source.byteLength ? 'written after the last complete checkpoint, which alone describes the row groups' : 'the file ends at its last checkpoint';
    return { source, metadata: chain.metadata, schema: withContext({ file: source.name, offset: chain.last.offset }, () => buildSchema(chain.metadata.schema as SchemaElementLike[])), foundBy: 'checkpoint', footerError: described(e), lostFrom: { offset: end, reason } };
  }
  // A footer counting more rows than its row groups hold has lost row groups (zeroed bytes can shorten its list and still decode):
  // what lay past the row groups it describes is not recovered. (A count of 0 is a writer's omission, not damage.)
  const held = metadata.rowGroups.reduce((n, g) => n + g.numRows, 0);
  if (metadata.numRows > held) {
    const reason = `the footer counts ${metadata.numRows} rows but its row groups hold ${held}: row groups are missing from it`;
    return { source, metadata, schema, foundBy: 'footer', lostFrom: { offset: rowGroupsEnd(metadata), reason } };
  }
  return { source, metadata, schema, foundBy: 'footer' };
}

/** The byte after the last column chunk the row groups describe (4, past the magic, when there is none). */
export function rowGroupsEnd(metadata: FileMetaData): number {
  let end = 4;
  for (const g of metadata.rowGroups) {
    for (const c of g.columns) {
      const m = c.metaData;
      if (!m) continue;
      end = Math.max(end, chunkStart(m) + m.totalCompressedSize);
    }
  }
  return end;
}

/** The schema and codecs a scan walks by: given, or a sibling file's. */
async function knownSchema(o: SalvageOpenOptions): Promise<{ elements: readonly SchemaElementLike[]; codec: (path: string) => CodecName } | null> {
  if (o.like !== undefined) {
    const { metadata } = await readFooter(await inputSource(o.like));
    const schema = buildSchema(metadata.schema as SchemaElementLike[]);
    const first = metadata.rowGroups[0];
    const codecs = new Map(schema.leaves.map((l) => [l.path.join('.'), (first?.columns[l.columnIndex]?.metaData?.codec ?? 'UNCOMPRESSED') as CodecName]));
    return { elements: metadata.schema as SchemaElementLike[], codec: (p) => codecs.get(p) ?? 'UNCOMPRESSED' };
  }
  if (o.schema === undefined) return null;
  const c = o.codec ?? 'UNCOMPRESSED';
  return { elements: o.schema, codec: (p) => (typeof c === 'string' ? c : c[p] ?? 'UNCOMPRESSED') };
}
