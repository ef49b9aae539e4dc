import type { ColumnChunk } from '../parquet/metadata/index.js';
import type { ParquetFile } from '../parquet/file.js';
import { decodeStatistics } from '../parquet/statistics.js';
import { formatBytes } from '../text/byte-size.js';
import { jsonable, renderValue } from '../text/render.js';
import { counted } from './output.js';

/** A JSON-friendly summary of a file's footer: what `parquetry meta` prints. */
export function metadataSummary(file: ParquetFile) {
  const m = file.metadata;
  const leaves = file.schema.leaves;
  const chunks = m.rowGroups.flatMap((rg) => rg.columns);
  const having = (has: (c: ColumnChunk) => boolean) => chunks.filter(has).length;
  return {
    file: file.name,
    version: m.version,
    createdBy: m.createdBy,
    numRows: file.numRows,
    footerNumRows: m.numRows,
    numRowGroups: m.rowGroups.length,
    numColumns: leaves.length,
    /** How many column chunks (row groups, for sorting columns) carry each optional structure. */
    structures: {
      chunks: chunks.length,
      columnIndex: having((c) => c.columnIndexOffset !== undefined),
      offsetIndex: having((c) => c.offsetIndexOffset !== undefined),
      bloomFilter: having((c) => c.metaData?.bloomFilterOffset !== undefined),
      sizeStatistics: having((c) => c.metaData?.sizeStatistics !== undefined),
      rowGroups: m.rowGroups.length,
      sortingColumns: m.rowGroups.filter((rg) => rg.sortingColumns !== undefined && rg.sortingColumns.length > 0).length,
    },
    keyValueMetadata: Object.fromEntries((m.keyValueMetadata ?? []).map((kv) => [kv.key, kv.value ?? null])),
    rowGroups: m.rowGroups.map((rg, i) => ({
      index: i,
      numRows: rg.numRows,
      totalByteSize: rg.totalByteSize,
      totalCompressedSize: rg.totalCompressedSize,
      sortingColumns: rg.sortingColumns?.map((sc) => ({ ...sc, path: leaves[sc.columnIdx]?.path.join('.') })),
      columns: rg.columns.map((c, j) => {
        const leaf = leaves[j]!;
        const md = c.metaData;
        return {
          path: leaf.path.join('.'),
          type: leaf.physicalType,
          codec: md?.codec,
          encodings: md?.encodings,
          numValues: md?.numValues,
          compressedSize: md?.totalCompressedSize,
          uncompressedSize: md?.totalUncompressedSize,
          dataPageOffset: md?.dataPageOffset,
          dictionaryPageOffset: md?.dictionaryPageOffset,
          statistics: md?.statistics ? jsonable(decodeStatistics(leaf, md.statistics, { temporal: 'iso' })) : undefined,
          columnIndex: c.columnIndexOffset !== undefined,
          offsetIndex: c.offsetIndexOffset !== undefined,
          bloomFilter: md?.bloomFilterOffset !== undefined,
          bloomFilterLength: md?.bloomFilterLength,
          sizeStatistics: md?.sizeStatistics,
          encrypted: c.cryptoMetadata !== undefined,
        };
      }),
    })),
  };
}

/** A byte count for people, `?` when unknown. */
export function size(n: number | undefined): string {
  return n === undefined ? '?' : formatBytes(n);
}

/** The summary as readable text. */
export function formatMetadata(s: ReturnType<typeof metadataSummary>): string {
  const out: string[] = [];
  out.push(`file:        ${s.file ?? '(buffer)'}`);
  out.push(`created by:  ${s.createdBy ?? '(unknown)'}`);
  out.push(`version:     ${s.version}`);
  out.push(`rows:        ${s.numRows}${s.footerNumRows !== s.numRows ? ` (footer says ${s.footerNumRows})` : ''}`);
  out.push(`row groups:  ${s.numRowGroups}`);
  out.push(`columns:     ${s.numColumns}`);
  const st = s.structures;
  const share = (n: number, of: number, unit: string) => (n === 0 ? 'none' : `${n}/${of} ${unit}`);
  out.push(`indexes:     column index: ${share(st.columnIndex, st.chunks, 'chunks')}; offset index: ${share(st.offsetIndex, st.chunks, 'chunks')}; ` +
    `bloom filter: ${share(st.bloomFilter, st.chunks, 'chunks')}`);
  out.push(`             size statistics: ${share(st.sizeStatistics, st.chunks, 'chunks')}; sorting columns: ${share(st.sortingColumns, st.rowGroups, 'row groups')}`);
  const kv = Object.entries(s.keyValueMetadata);
  if (kv.length) {
    out.push('key-value metadata:');
    for (const [k, v] of kv) out.push(`  ${k}: ${v === null ? '(none)' : v.length > 200 ? v.slice(0, 200) + `… (${v.length} chars)` : v}`);
  }
  for (const rg of s.rowGroups) {
    out.push('');
    out.push(`row group ${rg.index}: ${counted(rg.numRows, 'row')}, ${size(rg.totalByteSize)} uncompressed${rg.totalCompressedSize !== undefined ? `, ${size(rg.totalCompressedSize)} compressed` : ''}`);
    if (rg.sortingColumns?.length) {
      out.push(`  sorted by ${rg.sortingColumns.map((sc) => `${sc.path ?? `column #${sc.columnIdx}`} ${sc.descending ? 'DESC' : 'ASC'} NULLS ${sc.nullsFirst ? 'FIRST' : 'LAST'}`).join(', ')}`);
    }
    for (const c of rg.columns) {
      const extras = [c.columnIndex && 'column index', c.offsetIndex && 'offset index', c.bloomFilter && 'bloom filter', c.sizeStatistics && 'size statistics', c.encrypted && 'encrypted'].filter(Boolean);
      out.push(`  ${c.path}: ${c.type} ${c.codec ?? '?'} [${(c.encodings ?? []).join(',')}] ${c.numValues ?? '?'} values, ${size(c.compressedSize)} / ${size(c.uncompressedSize)}${extras.length ? `; ${extras.join(', ')}` : ''}`);
      const st = c.statistics;
      if (st) {
        const parts: string[] = [];
        if ('min' in st) parts.push(`min ${renderValue(st.min)}`);
        if ('max' in st) parts.push(`max ${renderValue(st.max)}`);
        if (st.nullCount !== undefined) parts.push(`nulls ${st.nullCount}`);
        if (st.distinctCount !== undefined) parts.push(`distinct ${st.distinctCount}`);
        if (parts.length) out.push(`    stats: ${parts.join(', ')}${st.legacy ? ' (legacy min/max)' : ''}`);
      }
    }
  }
  return out.join('\n');
}
