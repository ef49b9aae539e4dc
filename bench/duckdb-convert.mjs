/**
 * DuckDB's side of bench/convert.ts and bench/textout.ts, a whole process of
 * its own: `node bench/duckdb-convert.mjs IN OUT [CODEC]` runs
 * COPY (SELECT * FROM reader(IN)) TO OUT (FORMAT f) through @duckdb/node-api
 * with DuckDB's default threads. The reader follows IN's extension
 * (read_csv, read_json for .jsonl, the Parquet scan for .parquet), the format
 * OUT's (csv, json for .jsonl, else parquet with COMPRESSION CODEC).
 */
import { DuckDBInstance } from '@duckdb/node-api';

const [input, output, codec = 'SNAPPY'] = process.argv.slice(2);
const quote = (s) => `'${s.replaceAll("'", "''")}'`;
const source = input.endsWith('.jsonl') ? `read_json(${quote(input)})` : input.endsWith('.parquet') ? quote(input) : `read_csv(${quote(input)})`;
const format = output.endsWith('.csv') ? 'FORMAT csv' : output.endsWith('.jsonl') ? 'FORMAT json' : `FORMAT parquet, COMPRESSION ${codec}`;
const db = await DuckDBInstance.create(':memory:');
const conn = await db.connect();
await conn.run(`COPY (SELECT * FROM ${source}) TO ${quote(output)} (${format})`);
conn.closeSync();
