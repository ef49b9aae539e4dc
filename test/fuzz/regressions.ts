/**
 * Mutants found by the fuzz test, replayed on every run whatever the seed.
 * Each must end in rows or a ParquetryError raised by a real check: not a
 * plain exception caught by the safety net of errors.ts (withContext wraps
 * those as "unexpected failure while decoding", with no where and no why).
 */
import type { Mutation } from '../../scripts/fuzz/mutate.js';

const DATA = '../shared/corpus/parquet-testing/data';

export const REGRESSIONS: { file: string; mutation: Mutation; note: string }[] = [
  {
    file: `${DATA}/nullable.impala.parquet`,
    mutation: { kind: 'flip', at: [[139, 155], [1432, 12]] },
    note: 'a schema group claims more children than the elements left after its nested groups: '
      + 'buildSchema (src/schema/tree.ts) reads elements[next++] past the end, and parseRepetition(undefined) throws a TypeError',
  },
  // A DECIMAL scale of hundreds of millions: formatDecimal (src/schema/convert.ts) pads every value to that many
  // digits, so a 600-byte file allocates gigabytes and V8 aborts the process (found by the structured fuzz, seed 99).
  ...[
    [`${DATA}/int64_decimal.parquet`, ['schema', 1, 'scale'], 149542905],
    [`${DATA}/byte_array_decimal.parquet`, ['schema', 1, 'scale'], 437183110],
    [`${DATA}/fixed_length_decimal.parquet`, ['schema', 1, 'scale'], 142434336],
    [`${DATA}/int32_decimal.parquet`, ['schema', 1, 'scale'], -200000000],
    // DuckDB's sample: the DECIMAL(9,2) "discount" column through its logical type, which wins over the converted type.
    ['examples/fixtures/sample.parquet', ['schema', 4, 'logicalType', 'scale'], 149542905],
  ].map(([file, path, value]) => ({
    file: file as string,
    mutation: { kind: 'footerField', op: 'set', path: path as (string | number)[], value: value as number } as Mutation,
    note: 'DECIMAL scale is never checked (src/schema/logical.ts, DECIMAL in fromLogical and fromConverted): a scale outside 0..precision '
      + 'reaches formatDecimal (src/schema/convert.ts), which builds a string of |scale| digits for every value',
  })),
  {
    // Seed 1125001, case 832220: the first page's header says 736 MB instead of 1 GiB. Within the default maxDecompressedBytes,
    // so the library inflates it, as it must for a valid page that size; memory is bounded by the caller's limit, which
    // the harness sets from its RSS cap (scripts/fuzz/read.ts, limitsFor). Before it did, this case peaked at 528 MiB.
    file: `${DATA}/large_string_map.brotli.parquet`,
    mutation: { kind: 'pageHeaderField', at: 4, op: 'set', path: ['uncompressedPageSize'], value: 736178580 },
    note: 'a page claiming 736 MB decompressed is inflated under the default 1 GiB maxDecompressedBytes: the harness must pass limits its memory cap can hold',
  },
];
