export type { RecoverReport } from '../../loss.js';
export { checkParquet, recoverParquet } from './recover.js';
