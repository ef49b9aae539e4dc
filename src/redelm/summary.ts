/** What `meta` shows of a RedElm file: the footer's facts, per row group and column, with the section sizes the offsets imply. */
import type { RedElmReader } from './reader.js';

/** A RedElm file's format, rows, row groups, size, codec, footer form and metadata blocks. */
export interface RedElmSummary {
  format: 'redelm';
  numRows: number;
  rowGroups: number;
  fileLength: number;
  codec: string;
  /** `java` (the prototype's serialization) or `json` (the design page's form). */
  footerForm: 'java' | 'json';
  footerIndex: number;
  metaDataBlocks: { name: string; offset: number; length: number }[];
  blocks: {
    records: number;
    startIndex: number;
    endIndex: number;
    columns: { path: string; type: string; entries: number; compressedSize: number; uncompressedSize: number }[];
  }[];
}

/** A RedElm file's numbers, as `parquetry meta` prints them. */
export function redElmSummary(r: RedElmReader): RedElmSummary {
  return {
    format: 'redelm',
    numRows: r.numRows,
    rowGroups: r.metadata.blocks.length,
    fileLength: r.fileLength,
    codec: r.codecClassName,
    footerForm: r.footerForm,
    footerIndex: r.footerIndex,
    metaDataBlocks: r.metaDataBlocks.map((b) => ({ name: b.name, offset: b.offset!, length: b.data.length })),
    blocks: r.metadata.blocks.map((b) => ({
      records: b.recordCount,
      startIndex: b.startIndex,
      endIndex: b.endIndex,
      columns: b.columns.map((c) => ({
        path: c.path.join('.'),
        type: c.type,
        entries: c.valueCount,
        compressedSize: c.dataEnd - c.repetitionStart,
        uncompressedSize: c.repetitionUncompressedLength + c.definitionUncompressedLength + c.dataUncompressedLength,
      })),
    })),
  };
}
