/** The inspection commands for RedElm files (detected by their magic): schema and meta (cat and head read them as tables). */
import { fileSource } from '../node/file-source.js';
import { RedElmReader, redElmSummary } from '../redelm/index.js';
import { schemaJson } from '../schema/json.js';
import { closing } from './files.js';

/** Opens a RedElm file (closing it again if its footer is bad). */
async function openRedElmFile(path: string): Promise<RedElmReader> {
  const source = await fileSource(path);
  try {
    return await RedElmReader.open(source);
  } catch (e) {
    await source.close?.();
    throw e;
  }
}

export async function withRedElm(path: string, fn: (r: RedElmReader) => Promise<void>): Promise<void> {
  return closing(await openRedElmFile(path), fn);
}

/** The schema as the footer stores it (RedElm's message syntax), or our JSON tree. */
export function redElmSchema(r: RedElmReader, json: boolean): string {
  return json ? JSON.stringify(schemaJson(r.schema.root), null, 2) : r.metadata.schema.trimEnd();
}

export function redElmMeta(r: RedElmReader, json: boolean): string {
  const s = redElmSummary(r);
  if (json) return JSON.stringify(s, null, 2);
  const out = [
    `format:   redelm (${s.footerForm === 'java' ? 'Java-serialized footer' : 'JSON footer'})`,
    `rows:     ${s.numRows}`,
    `groups:   ${s.rowGroups}`,
    `codec:    ${s.codec}`,
    `size:     ${s.fileLength} bytes`,
    `blocks:   ${s.metaDataBlocks.map((b) => `${b.name} (${b.length} bytes)`).join(', ')}`,
  ];
  s.blocks.forEach((b, i) => {
    out.push(`row group ${i}: ${b.records} records, bytes ${b.startIndex}..${b.endIndex}`);
    for (const c of b.columns) out.push(`  ${c.path}: ${c.type.toLowerCase()}, ${c.entries} entries, ${c.compressedSize} / ${c.uncompressedSize} bytes`);
  });
  return out.join('\n');
}
