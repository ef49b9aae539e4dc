// Regenerates examples/fixtures/sample.parquet with DuckDB (a devDependency):
//   node examples/make-sample.mjs
// The sample is written by another implementation on purpose: the README's
// first command reads a file parquetry did not write.
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';

// Beside this script, wherever it is run from.
const out = fileURLToPath(new URL('fixtures/sample.parquet', import.meta.url)).replaceAll("'", "''");

const db = await DuckDBInstance.create(':memory:');
const c = await db.connect();
await c.run(`COPY (
  SELECT i AS id,
         ['apple','banana','cherry','durian','elderberry'][1 + i % 5] AS fruit,
         (i * 1.25)::DOUBLE AS price,
         (i * 7 % 100)::DECIMAL(9,2) AS discount,
         i % 3 = 0 AS in_stock,
         TIMESTAMP '2024-01-01 00:00:00' + INTERVAL (i) HOUR AS updated_at,
         DATE '2024-01-01' + i::INTEGER AS day,
         CASE WHEN i % 4 = 0 THEN NULL ELSE i * 10 END AS nullable_qty,
         list_transform(range(i % 4), x -> x * i) AS tags,
         {'city': ['Oslo','Lima','Pune'][1 + i % 3], 'zip': 1000 + i} AS address,
         MAP {'k' || (i % 2): i} AS attrs
  FROM range(1, 21) t(i)
) TO '${out}' (FORMAT PARQUET, COMPRESSION SNAPPY)`);
