/** Temporary files for a Trevni writer's column blocks, in the system's temporary directory. */
import { tmpdir } from 'node:os';
import { rm } from 'node:fs/promises';
import { pathSpill, type SpillFactory } from '../trevni/spill.js';
import { fileSource } from './file-source.js';
import { fileSink } from './file-sink.js';

export function tempSpill(): SpillFactory {
  return pathSpill(tmpdir(), { sink: fileSink, source: fileSource, remove: (p) => rm(p, { force: true }) });
}
