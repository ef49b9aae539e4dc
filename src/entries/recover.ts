/**
 * `parquetry/recover`: damaged and unfinished files read for what survives
 * (`salvage`, Parquet and Trevni alike), and Parquet files checked and
 * rewritten (docs/recovery.md). Trevni's check and rewrite are in
 * `parquetry/trevni`.
 *
 * @module parquetry/recover
 */
export { salvage, type Salvage, type SalvageBatch, type SalvageOptions } from '../recover/salvage.js';
export { checkParquet, recoverParquet } from '../parquet/recover/recover.js';
export { MISSING, type Missing, type Loss, type FoundBy, type RecoverReport } from '../loss.js';
