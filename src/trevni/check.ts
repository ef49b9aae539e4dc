/**
 * `check` for Trevni, at block granularity: every block of every column is
 * read (its CRC verified when the file has them, then inflated), a bad one
 * reported with the rows it covers; when the blocks are sound, every row is
 * decoded too, so value damage that no checksum covers is found.
 */
import { ParquetryError } from '../errors.js';
import { TrevniReader, type TrevniInput } from './reader.js';

export interface TrevniLoss {
  column: string;
  /** Block index within the column; absent when the loss was found decoding rows. */
  block?: number;
  bytes?: { start: number; end: number };
  rows: { start: number; end: number };
  error: { name: string; message: string };
}

export interface TrevniCheckReport {
  rows: number;
  blocks: number;
  losses: TrevniLoss[];
  whole: boolean;
}

export async function checkTrevni(input: TrevniInput): Promise<TrevniCheckReport> {
  const reader = await TrevniReader.open(input);
  const losses: TrevniLoss[] = [];
  let blocks = 0;
  try {
    for (const col of reader.columns) {
      let list;
      try {
        list = await reader.blocks(col.index);
      } catch (e) {
        if (!(e instanceof ParquetryError)) throw e;
        losses.push({ column: col.name, rows: { start: 0, end: reader.rowCount }, error: described(e) });
        continue;
      }
      for (let b = 0; b < list.length; b++) {
        const blk = list[b]!;
        blocks++;
        try {
          await reader.readBlock(col.index, b);
        } catch (e) {
          if (!(e instanceof ParquetryError)) throw e;
          losses.push({
            column: col.name, block: b, bytes: { start: blk.offset, end: blk.offset + blk.compressedSize + blk.checksumSize },
            rows: { start: blk.firstRow, end: blk.firstRow + blk.rowCount }, error: described(e),
          });
        }
      }
    }
    if (losses.length === 0) {
      let row = 0;
      try {
        for await (const _ of reader.rows()) row++;
      } catch (e) {
        if (!(e instanceof ParquetryError)) throw e;
        losses.push({ column: e.context.column ?? '', rows: { start: row, end: reader.rowCount }, error: described(e) });
      }
    }
  } finally {
    await reader.close();
  }
  return { rows: reader.rowCount, blocks, losses, whole: losses.length === 0 };
}

function described(e: Error): { name: string; message: string } {
  return { name: e.name, message: e.message };
}
