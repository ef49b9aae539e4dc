/**
 * RedElm files: the prototype's own files (../shared/ancestors/redelm) and
 * the writer's, mutated in the Java serialization of their `RedElm` block
 * (javaser.ts), in the decoded metadata re-encoded in its form (offsets,
 * counts, types, paths, schema text, codec), or in bytes aimed at the
 * container and the sections; read with openRedElm and rows() to the end.
 */
import { join } from 'node:path';
import { ByteCursor } from '../../../src/bytes/cursor.js';
import { openRedElm } from '../../../src/node/index.js';
import { encodeRedElmFooter, REDELM_BLOCK, type MetaDataBlock } from '../../../src/redelm/container.js';
import { decodeRedElmMetaData, encodeRedElmMetaData, type RedElmMetaData } from '../../../src/redelm/metadata.js';
import { decodeModifiedUtf8 } from '../../../src/javaser/modified-utf8.js';
import { corpusFiles, writerSeeds } from '../seeds.js';
import { generatedFile } from '../generate.js';
import { applyJavaser, mapStream, randomJavaserMutation, type JavaserMutation, type StreamMap } from '../javaser.js';
import { applyMutation, randomMutation, type FileMap, type Mutation } from '../mutate.js';
import { drain, judge } from '../read.js';
import { edit, randomEdit, type FieldEdit } from '../structured.js';
import type { SeedFile, Surface } from '../surface.js';

type RedElmMeta = { kind: 'redelmMeta' } & FieldEdit;
type RedElmMutation = Mutation | JavaserMutation | RedElmMeta;

interface Container {
  footerIndex: number;
  blocks: MetaDataBlock[];
}

/** The container's footer, parsed leniently (undefined when it does not parse). */
function container(b: Uint8Array): Container | undefined {
  try {
    const tail = new ByteCursor(b, b.length - 16, b.length, 0);
    const footerIndex = Number(tail.i64be());
    const c = new ByteCursor(b, footerIndex, b.length - 16, 0);
    c.i32be();
    const count = c.u8();
    const blocks: MetaDataBlock[] = [];
    for (let i = 0; i < count; i++) {
      const name = decodeModifiedUtf8(c.bytes(c.u16be()), 0);
      blocks.push({ name, data: c.bytes(c.i32be()).slice() });
    }
    return { footerIndex, blocks };
  } catch {
    return undefined;
  }
}

/** The file with its `RedElm` block's bytes replaced (the footer rewritten, everything before it unchanged). */
function withBlock(b: Uint8Array, change: (data: Uint8Array, dataBytes: number) => Uint8Array): Uint8Array {
  const c = container(b);
  const block = c?.blocks.find((x) => x.name === REDELM_BLOCK);
  if (!c || !block) return b.slice();
  block.data = change(block.data, c.footerIndex - 8);
  const footer = encodeRedElmFooter(c.footerIndex, c.blocks);
  const out = new Uint8Array(c.footerIndex + footer.length);
  out.set(b.subarray(0, c.footerIndex), 0);
  out.set(footer, c.footerIndex);
  return out;
}

function applyRedElm(b: Uint8Array, m: RedElmMutation): Uint8Array {
  if (m.kind === 'javaser') return withBlock(b, (data) => applyJavaser(data, m as JavaserMutation));
  if (m.kind !== 'redelmMeta') return applyMutation(b, m as Mutation);
  // The data area bounds what the metadata decodes to, as the reader's does: the file's length let a
  // footer of references expand to millions of columns, re-encoded unshared (the harness ran out of heap).
  return withBlock(b, (data, dataBytes) => {
    try {
      const form = data[0] === 0x7b ? 'json' : 'java';
      const meta = decodeRedElmMetaData(data, 0, dataBytes) as unknown as Record<string, unknown>;
      edit(meta, m as RedElmMeta);
      return encodeRedElmMetaData(meta as unknown as RedElmMetaData, form);
    } catch {
      return data;
    }
  });
}

interface Prepared {
  map: FileMap;
  stream?: StreamMap;
  meta?: RedElmMetaData;
}

function prepare(f: SeedFile): Prepared {
  const c = container(f.bytes);
  const block = c?.blocks.find((x) => x.name === REDELM_BLOCK);
  let meta: RedElmMetaData | undefined;
  try {
    meta = block && decodeRedElmMetaData(block.data, 0, c!.footerIndex - 8);
  } catch {
    // A corpus file's metadata that does not decode: its stream and bytes are still fair game.
  }
  const starts = meta?.blocks.flatMap((g) => g.columns.flatMap((col) => [col.repetitionStart, col.definitionStart, col.dataStart])) ?? [];
  return {
    map: { size: f.bytes.length, footerStart: c?.footerIndex ?? 0, footerEnd: f.bytes.length, chunkStarts: starts.filter((s) => s >= 0 && s < f.bytes.length) },
    stream: block && block.data[0] === 0xac ? mapStream(block.data) : undefined,
    meta,
  };
}

export const redelmSurface: Surface<RedElmMutation> = {
  name: 'redelm',
  ext: 'redelm',
  async seeds(seed, count) {
    const corpus = corpusFiles([join('..', 'shared', 'ancestors', 'redelm')], '.redelm', 512 * 1024).map((f): SeedFile => ({ ...f, surface: 'redelm' }));
    return [...corpus, ...(await writerSeeds('redelm', seed, count, (i) => generatedFile(seed, i, 'redelm')))];
  },
  prepare,
  mutate(rng, f, prepared) {
    const p = prepared as Prepared;
    const r = rng.next();
    if (r < 0.45 && p.stream) {
      const m = randomJavaserMutation(rng, p.stream);
      if (m) return m;
    }
    if (r < 0.7 && p.meta) {
      const e = randomEdit(rng, p.meta);
      if (e) return { kind: 'redelmMeta', ...e };
    }
    return randomMutation(rng, p.map);
  },
  // RedElm stores no checksums.
  options: () => ({ verifyChecksums: true }),
  build: async (f, mutations) => ({ format: 'redelm', bytes: mutations.reduce(applyRedElm, f.bytes), verifyChecksums: true }),
  run(input, limits) {
    const stage = { name: 'openRedElm' };
    return judge(stage, async () => {
      const reader = await openRedElm(input.bytes, { maxDecompressedBytes: limits.maxDecompressedBytes });
      stage.name = 'rows()';
      const rows = await drain(reader.rows());
      await reader.close();
      return rows;
    });
  },
};
