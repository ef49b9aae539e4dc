/**
 * A `_metadata` summary built by hand for the read-side tests: every part's
 * row groups with `file_path` set, in parquet-java's layout. Test-only: the
 * library's summary writer is `writeSummaryFiles` (issue 14, write side).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { ByteWriter } from '../../src/bytes/writer.js';
import { encodeFileMetaData, type FileMetaData } from '../../src/parquet/metadata/index.js';
import { readFooter } from '../../src/parquet/footer.js';
import { bufferSource } from '../../src/io/source.js';

export async function footerOf(path: string): Promise<FileMetaData> {
  return (await readFooter(bufferSource(readFileSync(path), path))).metadata;
}

/** A Parquet file holding only `metadata` as its footer. */
export function metadataFile(metadata: FileMetaData): Uint8Array {
  const w = new ByteWriter();
  w.bytes(new TextEncoder().encode('PAR1'));
  const start = w.length;
  encodeFileMetaData(metadata, w);
  const len = w.length - start;
  w.u32le(len);
  w.bytes(new TextEncoder().encode('PAR1'));
  return w.finish();
}

/** Writes `dir/_metadata` naming `parts` (paths under dir, or `names` given as file_path as they are). */
export async function writeSummary(out: string, parts: string[], names: string[] = parts.map((p) => relative(out.replace(/\/[^/]*$/, ''), p))): Promise<FileMetaData> {
  const footers = await Promise.all(parts.map(footerOf));
  const rowGroups = footers.flatMap((f, i) => f.rowGroups.map((rg) => ({ ...rg, columns: rg.columns.map((c) => ({ ...c, filePath: names[i]! })) })));
  const summary: FileMetaData = { ...footers[0]!, rowGroups, numRows: rowGroups.reduce((n, g) => n + g.numRows, 0) };
  writeFileSync(out, metadataFile(summary));
  return summary;
}
