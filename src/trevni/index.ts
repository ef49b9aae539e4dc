/** Trevni: the public surface of src/trevni (the lead wires it into src/index.ts and the CLI). */
export { TrevniDraftReader, type TrevniDraftRowsOptions } from './draft/reader.js';
export { TrevniDraftWriter, type TrevniDraftWriterOptions } from './draft/writer.js';
export { openTrevni } from './open.js';
export { TREVNI_V1, TREVNI_V2, type TrevniFormat, type TrevniVersion } from './version.js';
export { TrevniReader, type TrevniOpenOptions, type TrevniRowsOptions, type TrevniColumnRow } from './reader.js';
export { TrevniWriter, DEFAULT_BLOCK_SIZE, type TrevniColumnSpec, type TrevniWriterOptions } from './writer.js';
export { memorySpill, pathSpill, type SpillFactory, type SpillStore, type PathSpillIO } from './spill.js';
export { assembleRow, canonicalRowText, canonicalValue, type ColumnRowData } from './assemble.js';
export { TREVNI_CODECS, TREVNI_CHECKSUMS, registerTrevniCodec, trevniCodec, trevniChecksum, zlibTrevniDeflate, type TrevniCodec, type TrevniCodecName, type TrevniRawCodec, type ZlibRawDeflate } from './codecs.js';
export { AvroTrevniWriter, AVRO_SCHEMA_KEY, avroColumns, avroJson, branchName, parseAvroSchema, readAvro, type AvroSchema, type AvroTrevniWriterOptions } from './avro.js';
export { TREVNI_TYPES, KEY as TREVNI_KEYS, metaGet, metaText, type MetaEntry, type TrevniBlock, type TrevniColumn, type TrevniType, type TrevniValue } from './types.js';
export { checkTrevni, recoverTrevni, type TrevniRecoverOptions } from './recover.js';
