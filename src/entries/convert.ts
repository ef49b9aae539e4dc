/**
 * `parquetry/convert`: conversion between Parquet, Trevni, RedElm, CSV, TSV,
 * JSON Lines and JSON, and CSV and JSON read as records (docs/conversion.md).
 * In Node, `convert` also takes paths and Node streams.
 *
 * @module parquetry/convert
 */
export { convert, type ConvertSource, type ConvertDestination, type ConvertOptions, type ConvertReport, type ConvertProgress, type ConvertFormat, type BadRow } from '../convert/convert.js';
export { readCsv, readJsonLines, readJsonArray, type Records, type TextInput, type ReadRecordsOptions, type CsvReadRecordsOptions } from '../convert/records.js';
