export { MISSING, salvageRowGroups, type Missing, type ParquetSalvageOptions, type SalvagedRowGroup, type SalvageInput } from './salvage.js';
export type { Loss, FoundBy, RecoverReport } from '../../loss.js';
export { openForSalvage, type OpenedForSalvage, type SalvageOpenOptions } from './open.js';
export { checkParquet, recoverParquet } from './recover.js';
