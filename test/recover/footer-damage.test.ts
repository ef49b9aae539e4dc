/**
 * A footer damaged so that it still decodes: zeroed bytes turn a name into
 * another, a varint into 0 (REQUIRED, BOOLEAN, UTF8, PLAIN), a string's
 * length into 0 so its bytes read as fields skipped. Recovery must not
 * believe what such a footer says about the pages' meaning (fuzz seed
 * 20261129 case 165026: a nested field renamed; seed 104 case 11248: a
 * field's name and logical type gone). A sweep over the footers of the
 * fuzz's own recovery files (writer-made, several pages a chunk, nested):
 * bytes zeroed one and two at a time, and each byte's low bit flipped,
 * across the whole footer; recovered with and without `like`. Every row
 * recovered is a row of the original, and whatever did not come back is
 * reported lost.
 */
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { ParquetReader } from '../../src/index.js';
import type { FileMetaData } from '../../src/parquet/metadata/index.js';
import { generatedFile } from '../../scripts/fuzz/generate.js';
import { withFooter, writeFile } from './fixtures.js';
import { judge, recoverRows } from './invariant.js';

/** The recovery surface's files (its seed salt), by campaign seed and index: the two the fuzz found, and others. */
const FILES: [number, number][] = [[104, 7], [20261129, 11], [20261129, 0], [20261129, 3], [107, 6]];
/** Positions swept per file at most (a stride across larger footers). */
const POSITIONS = 100;

function footerSpan(bytes: Uint8Array): { start: number; end: number } {
  const len = new DataView(bytes.buffer, bytes.byteOffset).getUint32(bytes.length - 8, true);
  return { start: bytes.length - 8 - len, end: bytes.length - 8 };
}

describe('recovery through a footer damaged so that it still decodes', () => {
  for (const [seed, index] of FILES) {
    it(`seed ${seed} file ${index}: footer bytes zeroed or flipped give only original rows, losses reported`, { timeout: 240_000 }, async () => {
      const bytes = await generatedFile(seed + 104729, index, 'parquet-small');
      assert.ok(bytes, 'the generator makes the file');
      const original = await (await ParquetReader.open(bytes)).readRows();
      const { start, end } = footerSpan(bytes);
      const step = Math.max(1, Math.ceil((end - start) / POSITIONS));
      const bad: string[] = [];
      let recovered = 0;
      for (let at = start; at < end; at += step) {
        const damage: [string, (b: Uint8Array) => void][] = [
          ['zeroed', (b) => void (b[at] = 0)],
          ['zeroed with the next', (b) => void b.fill(0, at, Math.min(end, at + 2))],
          ['low bit flipped', (b) => void (b[at] ^= 1)],
        ];
        for (const [what, apply] of damage) {
          const damaged = bytes.slice();
          apply(damaged);
          for (const like of [false, true]) {
            const got = await recoverRows(damaged, like ? { like: bytes } : {});
            const v = judge(original, got);
            if (!(got instanceof Error)) recovered++;
            if (v.wrong || v.unreported) bad.push(`byte ${at} ${what}${like ? ' (like)' : ''}: ${v.wrong} wrong rows${v.unreported ? ', loss not reported' : ''}`);
          }
        }
      }
      assert.ok(recovered > 0, 'some damage still recovers');
      assert.deepEqual(bad, []);
    });
  }
});

describe('what a footer states twice, held against itself', () => {
  /** Our nested file of three row groups, its footer edited, recovered with and without `like`: judged, and the report returned. */
  async function edited(edit: (m: FileMetaData) => void) {
    const bytes = await writeFile({}, 3000);
    const reader = await ParquetReader.open(bytes);
    const original = await reader.readRows();
    const { start } = footerSpan(bytes);
    const damaged = withFooter(bytes, edit, reader.file.metadata, start);
    const out = [];
    for (const like of [false, true]) {
      const got = await recoverRows(damaged, like ? { like: bytes } : {});
      assert.deepEqual(judge(original, got), { wrong: 0, unreported: false }, like ? 'with like' : 'without like');
      out.push(got);
    }
    return out;
  }

  it('one row group\'s chunk naming another column: that chunk alone is lost', async () => {
    const [got] = await edited((m) => void (m.rowGroups[1]!.columns[0]!.metaData!.pathInSchema = ['elsewhere']));
    assert.ok(!(got instanceof Error));
    assert.deepEqual(got.report.losses.map((l) => [l.rowGroup, l.column]), [[1, 'id']]);
    assert.match(got.report.losses[0]!.error.message, /contradicts itself/);
  });

  it('a schema name every chunk contradicts: the footer is not believed (its error, or the scan with like)', async () => {
    const [plain, like] = await edited((m) => void (m.schema[1]!.name = 'other'));
    assert.ok(plain instanceof Error && /contradicts itself/.test(plain.message), String(plain));
    assert.ok(!(like instanceof Error) && like.report.foundBy === 'scan' && /contradicts itself/.test(like.report.footerError!.message));
  });

  it('a logical type and converted type that disagree: the footer is not believed', async () => {
    const [plain] = await edited((m) => {
      const e = m.schema.find((x) => x.type !== undefined && x.logicalType !== undefined)!;
      e.convertedType = e.convertedType === 'UTF8' ? 'TIMESTAMP_MILLIS' : 'UTF8';
    });
    assert.ok(plain instanceof Error && /logical type .* and converted type .* disagree/.test(plain.message), String(plain));
  });

  it('two chunks stated to start on one page: both are lost', async () => {
    const [got] = await edited((m) => {
      const [a, b] = [m.rowGroups[0]!.columns[0]!.metaData!, m.rowGroups[0]!.columns[1]!.metaData!];
      Object.assign(b, { dataPageOffset: a.dataPageOffset, dictionaryPageOffset: a.dictionaryPageOffset, totalCompressedSize: a.totalCompressedSize });
    });
    assert.ok(!(got instanceof Error));
    const lost = got.report.losses.filter((l) => /start at its first page/.test(l.error.message)).map((l) => l.rowGroup);
    assert.deepEqual(lost, [0, 0]);
  });
});
