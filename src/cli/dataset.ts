/** `meta DIR|GLOB`: a dataset's summary (src/dataset/describe.ts) as text. */
import type { DatasetDescription } from '../dataset/describe.js';
import { size } from './meta.js';
import { counted } from './output.js';

export function formatDatasetDescription(input: string, s: DatasetDescription): string {
  const out: string[] = [];
  out.push(`dataset:     ${input}`);
  if (s.metadataFile) out.push(`planned from: ${s.metadataFile}`);
  out.push(`files:       ${s.files}`);
  out.push(`rows:        ${s.numRows}`);
  out.push(`row groups:  ${s.rowGroups}`);
  out.push(`bytes:       ${size(s.compressedBytes)} compressed, ${size(s.uncompressedBytes)} uncompressed (column chunks)`);
  if (s.partitions.length) {
    out.push('partitions:');
    for (const p of s.partitions) {
      const more = p.distinct > p.values.length ? `, … (${p.distinct} values)` : '';
      out.push(`  ${p.name} ${p.type}: ${p.values.join(', ')}${more}${p.nulls ? `; null in ${p.nulls} files` : ''}`);
    }
  }
  if (s.skipped.length) {
    out.push('skipped:');
    for (const k of s.skipped) out.push(`  ${k.path}: ${k.reason}`);
  }
  out.push('');
  for (const f of s.perFile) out.push(`${f.path}: ${counted(f.numRows, 'row')}, ${counted(f.rowGroups, 'row group')}, ${size(f.compressedBytes)}`);
  return out.join('\n');
}
