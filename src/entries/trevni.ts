/**
 * `parquetry/trevni`: Trevni files of version 2 and 1 and the wiki draft's
 * Dremel dialect, read, written, checked and recovered (docs/trevni.md). In
 * Node, `openTrevni` also opens file paths.
 *
 * @module parquetry/trevni
 */
export { TrevniReader, type TrevniOpenOptions, type TrevniRowsOptions, type TrevniColumnRow } from '../trevni/reader.js';
export { TrevniWriter, type TrevniColumnSpec, type TrevniWriterOptions } from '../trevni/writer.js';
export { AvroTrevniWriter, readAvro, type AvroSchema, type AvroTrevniWriterOptions, type TrevniAvroOptions } from '../trevni/avro.js';
export { TrevniDraftReader, type TrevniDraftRowsOptions } from '../trevni/draft/reader.js';
export { TrevniDraftWriter, type TrevniDraftWriterOptions } from '../trevni/draft/writer.js';
export { openTrevni } from '../trevni/open.js';
export type { TrevniBlock, TrevniColumn } from '../trevni/types.js';
export { checkTrevni, recoverTrevni, type TrevniRecoverOptions } from '../trevni/recover.js';
export { memorySpill, pathSpill, type SpillFactory, type SpillStore, type PathSpillIO } from '../trevni/spill.js';
export type { Loss, RecoverReport } from '../loss.js';
