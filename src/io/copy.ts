/** Copies bytes of a Source into a Sink in bounded reads: recovery's path for data that checked out whole. */
import type { Sink } from './sink.js';
import type { Source } from './source.js';

/** Bytes copied per read. */
const COPY_BLOCK = 8 << 20;

/** Writes bytes [0, end) of `source` to `sink` (which stays open). */
export async function copySource(source: Source, sink: Sink, end: number): Promise<void> {
  for (let at = 0; at < end; at += COPY_BLOCK) await sink.write(await source.read(at, Math.min(COPY_BLOCK, end - at)));
}
