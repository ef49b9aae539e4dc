/**
 * `parquetry/recover`: damaged and unfinished Parquet files checked, read
 * for what survives, and rewritten (docs/recovery.md). Trevni's own are in
 * `parquetry/trevni`.
 *
 * @module parquetry/recover
 */
export {
  salvageRowGroups, openForSalvage, checkParquet, recoverParquet, MISSING,
  type Missing, type SalvageOptions, type SalvagedRowGroup, type SalvageInput, type Loss, type OpenedForSalvage, type FoundBy, type RecoverReport,
} from '../parquet/recover/index.js';
