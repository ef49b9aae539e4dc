/**
 * Compression levels of the codecs that have them, apart from codec.ts so
 * a read, which compresses nothing, does not load them.
 */
import { InvalidArgumentError } from '../errors.js';

type LeveledCodec = 'GZIP' | 'BROTLI' | 'ZSTD';

const LEVELS: Record<LeveledCodec, { min: number; max: number; default: number }> = {
  // zlib's own default: 9 takes about twice as long for a percent or two.
  GZIP: { min: 0, max: 9, default: 6 },
  // Arrow's choice for Parquet: 11 is many times slower for a few percent.
  BROTLI: { min: 0, max: 11, default: 8 },
  // zstd's own default; negative levels trade ratio for speed.
  ZSTD: { min: -131072, max: 22, default: 3 },
};

/** Validates `level` against the codec's range and substitutes its default when absent. */
export function compressionLevel(name: LeveledCodec, level: number | undefined): number {
  const { min, max } = LEVELS[name];
  if (level === undefined) return LEVELS[name].default;
  if (!Number.isInteger(level) || level < min || level > max) {
    throw new InvalidArgumentError(`${name} compression level must be an integer from ${min} to ${max}, got ${level}`);
  }
  return level;
}
