/**
 * `parquetry/arrow`: Arrow schemas turned into Parquet field declarations
 * (docs/arrow.md). Reading into Arrow is the readers' `arrow()`; writing
 * Arrow tables is `ParquetWriter`'s and `writeRecords`'.
 *
 * @module parquetry/arrow
 */
export { schemaFromArrow } from '../arrow/to-schema.js';
