/** What `schema` and `meta` show of a RedElm file, from the reader its table reads with (cat and head read it as a table). */
import { redElmSummary, type RedElmReader } from '../redelm/index.js';
import { schemaJson } from '../schema/json.js';

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
