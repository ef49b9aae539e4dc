export { MISSING, salvageRowGroups, type Missing, type SalvageOptions, type SalvagedRowGroup, type SalvageInput } from './salvage.js';
export type { Loss } from './chunk-salvage.js';
export { openForSalvage, type OpenedForSalvage, type FoundBy, type SalvageOpenOptions } from './open.js';
export { checkParquet, recoverParquet, type RecoverReport } from './recover.js';
