/// <reference lib="esnext.disposable" preserve="true" />
// (the declarations name Symbol.asyncDispose: an app whose lib stops at ES2022 type-checks them through this)
/**
 * The writer of the Trevni wiki draft's dialect (see reader.ts, block.ts,
 * schema.ts): records of a Dremel schema, shredded by the same shred/ core
 * as the Parquet writer, each leaf's levels and values cut into blocks at
 * record boundaries once its buffer holds `blockSize` bytes (as
 * cutting/trevni cuts its blocks). The file's metadata starts with the
 * marker `trevni.dialect` = `dremel`, which tells a reader this is not a
 * cutting/trevni version 1 file; every column carries its levels explicitly.
 * A block is stored as its checksum (the CRC-32 of the uncompressed block,
 * big-endian, as version 1 stores it) then its compressed bytes: the draft's
 * grammar puts the checksum first; the descriptor's compressed size counts
 * the data only, as in version 1.
 */
import { ByteWriter } from '../../bytes/writer.js';
import { InvalidArgumentError } from '../../errors.js';
import type { Sink } from '../../io/sink.js';
import type { Schema } from '../../schema/tree.js';
import { RecordShredder, type LeafSink, type UnknownFieldRule } from '../../shred/shred.js';
import { planRecord } from '../../shred/plan.js';
import { trevniChecksum, trevniCodec, type TrevniChecksum, type TrevniCodec } from '../codecs.js';
import { DRAFT_KEY, DREMEL_DIALECT } from '../metadata.js';
import { memorySpill, type SpillFactory, type SpillStore } from '../spill.js';
import { KEY, textBytes, type MetaEntry, type TrevniType, type TrevniValue } from '../types.js';
import { ValueWriter } from '../values.js';
import { TREVNI_V1, checkChecksum, checkCodec } from '../version.js';
import { DEFAULT_BLOCK_SIZE, checkValue, discardFile, finishFile, type SpilledBlocks } from '../writer.js';
import { encodeDraftLevels } from './block.js';
import { draftColumns, type DraftColumnSpec } from './schema.js';

/** `TrevniDraftWriter`'s options: codec, checksum, metadata, and what to do with fields the schema lacks. */
export interface TrevniDraftWriterOptions extends UnknownFieldRule {
  /** The file's codec: null (default), deflate or snappy (version 1's). */
  codec?: string;
  /** The file's checksum: null (default) or crc32. */
  checksum?: string;
  /** More file metadata, after the dialect's own keys (trevni.* keys are reserved). */
  metadata?: readonly MetaEntry[];
  /** A leaf closes its block at the first record that starts with this many bytes buffered (default 65536). */
  blockSize?: number;
  /** Where finished blocks wait for close(); in memory by default. */
  spill?: SpillFactory;
}

const NO_LEVELS = new Uint8Array(0);

/** One leaf's current block (levels and values) and its finished blocks. */
class DraftLeafBuffer implements LeafSink, SpilledBlocks {
  // The record being shredded: kept apart until the whole record is good.
  private readonly pendingDef: number[] = [];
  private readonly pendingRep: number[] = [];
  private readonly pendingValues: TrevniValue[] = [];
  // Empty until written, as are values and descriptors: a wide table has many columns and few values.
  private def = NO_LEVELS;
  private rep = NO_LEVELS;
  private count = 0;
  private rows = 0;
  /** Grows to the block size as values come (see ColumnBuffer). */
  private readonly values = new ValueWriter(0);
  readonly descriptors = new ByteWriter(0);
  blockCount = 0;
  dataSize = 0;
  row = 0;

  constructor(
    readonly spec: DraftColumnSpec,
    private readonly codec: TrevniCodec,
    private readonly checksum: TrevniChecksum,
    readonly spill: SpillStore,
    private readonly blockSize: number,
  ) {}

  level(rep: number, def: number): void {
    this.pendingRep.push(rep);
    this.pendingDef.push(def);
  }

  value(rep: number, v: unknown): void {
    this.pendingValues.push(checkValue(this.spec, v, this.row));
    this.pendingRep.push(rep);
    this.pendingDef.push(this.spec.maxDef);
  }

  discard(): void {
    this.pendingDef.length = 0;
    this.pendingRep.length = 0;
    this.pendingValues.length = 0;
  }

  async commit(): Promise<void> {
    if (this.rows > 0 && this.values.size + this.count >= this.blockSize) await this.flush();
    const n = this.pendingDef.length;
    if (this.count + n > this.def.length) {
      const size = Math.max(this.def.length * 2, this.count + n);
      const grow = (a: Uint8Array) => {
        const b = new Uint8Array(size);
        b.set(a.subarray(0, this.count));
        return b;
      };
      this.def = grow(this.def);
      this.rep = grow(this.rep);
    }
    for (let i = 0; i < n; i++) {
      this.def[this.count + i] = this.pendingDef[i]!;
      this.rep[this.count + i] = this.pendingRep[i]!;
    }
    this.count += n;
    for (const v of this.pendingValues) this.values.value(this.spec.type, v);
    this.rows++;
    this.row++;
    this.discard();
  }

  async flush(): Promise<void> {
    if (this.rows === 0) return;
    const w = new ByteWriter(this.values.size + this.count + 16);
    encodeDraftLevels(w, this.def, this.rep, this.count, this.spec.maxDef, this.spec.maxRep);
    w.bytes(this.values.finish());
    const raw = w.finish();
    const sum = this.checksum.compute(raw);
    const stored = this.codec.compress(raw);
    this.descriptors.i32le(this.rows);
    this.descriptors.i32le(raw.length);
    this.descriptors.i32le(stored.length);
    if (sum.length) await this.spill.write(sum);
    await this.spill.write(stored);
    this.dataSize += sum.length + stored.length;
    this.blockCount++;
    this.values.reset();
    this.count = 0;
    this.rows = 0;
  }
}

/** A group column: metadata only, no blocks. */
function groupBlocks(spill: SpillStore): SpilledBlocks {
  return { blockCount: 0, descriptors: new ByteWriter(0), dataSize: 0, spill };
}

/** Writes a file of the Trevni wiki draft's Dremel dialect from a Parquet schema: `TrevniDraftWriter.open(sink, schema, options)` (docs/trevni.md). */
export class TrevniDraftWriter {
  private rows = 0;
  private state: 'open' | 'closed' | 'failed' = 'open';
  private readonly shredder: RecordShredder;

  private constructor(
    private readonly sink: Sink,
    private readonly fileMetadata: MetaEntry[],
    private readonly columns: { metadata: MetaEntry[]; blocks: SpilledBlocks }[],
    private readonly leaves: DraftLeafBuffer[],
    schema: Schema,
    rule: UnknownFieldRule,
  ) {
    this.shredder = new RecordShredder(planRecord(schema.root), leaves, rule);
  }

  /** Maps the schema to draft columns (refusing what the dialect cannot hold, naming the column) and loads the codec. */
  static async open(sink: Sink, schema: Schema, options: TrevniDraftWriterOptions = {}): Promise<TrevniDraftWriter> {
    const blockSize = options.blockSize ?? DEFAULT_BLOCK_SIZE;
    if (!Number.isSafeInteger(blockSize) || blockSize < 1 || blockSize > 2 ** 30) throw new InvalidArgumentError(`blockSize must be an integer from 1 to 2^30, got ${blockSize}`);
    const codecName = options.codec ?? 'null';
    const checksumName = options.checksum ?? 'null';
    try {
      checkCodec(TREVNI_V1, codecName);
      checkChecksum(TREVNI_V1, checksumName);
    } catch (e) {
      throw new InvalidArgumentError((e as Error).message);
    }
    const meta: MetaEntry[] = [
      { key: DRAFT_KEY.dialect, value: textBytes(DREMEL_DIALECT) },
      { key: KEY.codec, value: textBytes(codecName) },
      { key: KEY.checksum, value: textBytes(checksumName) },
    ];
    for (const m of options.metadata ?? []) {
      if (m.key.startsWith('trevni.')) throw new InvalidArgumentError(`file metadata key ${m.key} is reserved`);
      if (meta.some((e) => e.key === m.key)) throw new InvalidArgumentError(`duplicate file metadata key ${m.key}`);
      meta.push({ key: m.key, value: m.value.slice() });
    }
    const specs = draftColumns(schema);
    const codec = await trevniCodec(codecName);
    const checksum = trevniChecksum(checksumName);
    const spill = options.spill ?? memorySpill();
    const columns: { metadata: MetaEntry[]; blocks: SpilledBlocks }[] = [];
    const leaves: DraftLeafBuffer[] = new Array(schema.leaves.length);
    try {
      for (let i = 0; i < specs.length; i++) {
        const s = specs[i]!;
        const store = await spill(i);
        if (s.leaf < 0) columns.push({ metadata: s.metadata, blocks: groupBlocks(store) });
        else {
          const leaf = new DraftLeafBuffer(s, codec, checksum, store, blockSize);
          leaves[s.leaf] = leaf;
          columns.push({ metadata: s.metadata, blocks: leaf });
        }
      }
    } catch (e) {
      await Promise.all(columns.map((c) => c.blocks.spill.dispose()));
      throw e;
    }
    return new TrevniDraftWriter(sink, meta, columns, leaves, schema, options);
  }

  /** Records written so far. */
  get numRows(): number {
    return this.rows;
  }

  /** Writes one record (the Parquet writer's JS forms); a record that fails leaves nothing behind. */
  async write(record: Record<string, unknown>): Promise<void> {
    if (this.state !== 'open') throw new InvalidArgumentError(`the Trevni draft writer is ${this.state}`);
    try {
      this.shredder.shred(record);
    } catch (e) {
      for (const l of this.leaves) l.discard();
      throw e instanceof InvalidArgumentError ? new InvalidArgumentError(`record ${this.rows}: ${e.detail}`, e.context) : e;
    }
    try {
      for (const l of this.leaves) await l.commit();
    } catch (e) {
      await this.fail();
      throw e;
    }
    this.rows++;
  }

  /** Writes the file: header, column descriptors, then the blocks. */
  async close(): Promise<void> {
    if (this.state !== 'open') throw new InvalidArgumentError(`the Trevni draft writer is ${this.state}`);
    this.state = 'failed';
    const flush = async () => {
      for (const l of this.leaves) await l.flush();
    };
    await finishFile(this.sink, flush, TREVNI_V1.magic, this.rows, this.fileMetadata, this.columns);
    this.state = 'closed';
  }

  /** Discards everything: the spill stores and the sink's output. */
  async abort(): Promise<void> {
    if (this.state === 'open') await this.fail();
  }

  /** `await using`: a writer left open when its scope ends is aborted, never completed half-written. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.abort();
  }

  private async fail(): Promise<void> {
    this.state = 'failed';
    await discardFile(this.sink, this.columns.map((c) => c.blocks));
  }
}
