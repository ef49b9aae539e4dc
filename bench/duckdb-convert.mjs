/**
 * DuckDB's side of bench/convert.ts, a whole process of its own:
 * `node bench/duckdb-convert.mjs IN OUT CODEC` runs
 * COPY (SELECT * FROM read_csv(IN)) TO OUT (FORMAT parquet, COMPRESSION CODEC)
 * through @duckdb/node-api with DuckDB's default threads.
 */
import { DuckDBInstance } from '@duckdb/node-api';

const [input, output, codec] = process.argv.slice(2);
const quote = (s) => `'${s.replaceAll("'", "''")}'`;
const db = await DuckDBInstance.create(':memory:');
const conn = await db.connect();
await conn.run(`COPY (SELECT * FROM read_csv(${quote(input)})) TO ${quote(output)} (FORMAT parquet, COMPRESSION ${codec})`);
conn.closeSync();
