/**
 * Files for the filter tests: the corpus files with page indexes or several
 * row groups, and files written here by DuckDB (small row groups, bloom
 * filters on dictionary columns), by parquet-wasm (arrow-rs: small pages with
 * a column index and offset index) and by parquetry's writer (page index and
 * bloom filters). Every written file has an `id` column in row order.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BufferSink, defineSchema, field as f, ParquetWriter, type SourceLike } from '../../src/node/index.js';
import { CORPUS, DuckFiles } from '../reader/helpers.js';

export const ROWS = 6000;

/** Corpus files (paths) with expected rows and a page index or several row groups, that read without error. */
export function corpusFiles(): string[] {
  const manifest = JSON.parse(readFileSync(join(CORPUS, 'manifest.json'), 'utf8')) as {
    files: { path: string; expected: string | null; tags: string[] }[];
  };
  return manifest.files
    .filter((m) => m.expected !== null && (m.tags.includes('page-index') || m.tags.includes('multi-row-group')))
    .filter((m) => !/corrupt|encrypt|bad_data/.test(m.path))
    .map((m) => join(CORPUS, m.path));
}

/** The DuckDB query behind the written files (also the reference for DuckDB's WHERE). */
export const DUCK_QUERY = `
  SELECT i::INTEGER AS id,
    ((i * 7919) % 100003 - 50000)::INTEGER AS i32,
    i::BIGINT * 1000000007 - 5000000000000 AS i64,
    CASE WHEN i % 97 = 0 THEN 'NaN'::DOUBLE WHEN i % 89 = 0 THEN NULL ELSE (i % 1000) / 7.0 END AS dbl,
    'v' || lpad((i % 500)::VARCHAR, 3, '0') AS s,
    CASE WHEN i % 3 = 0 THEN 'é' || (i % 40) WHEN i % 3 = 1 THEN '😀' || (i % 7) ELSE NULL END AS u,
    (((i % 2000) - 1000) / 100)::DECIMAL(10, 2) AS dec,
    DATE '2000-01-01' + (i % 5000)::INTEGER AS dt,
    TIMESTAMP '2020-01-01' + to_seconds(i * 37) AS ts,
    i % 2 = 0 AS b,
    CASE WHEN i % 5 = 0 THEN NULL ELSE i % 13 END AS n,
    {'a': (i % 17)::INTEGER, 'b': 'x' || (i % 3)} AS st,
    CASE WHEN i % 11 = 0 THEN NULL WHEN i % 7 = 0 THEN []::INTEGER[] ELSE [i % 10, (i * 3) % 10, NULL]::INTEGER[] END AS l
  FROM range(${ROWS}) t(i)`;

export interface Written {
  duck: DuckFiles;
  duckdb: string;
  wasm: string;
  own: string;
}

let made: Promise<Written> | undefined;

/** Writes the three files once per test process. */
export function written(): Promise<Written> {
  made ??= (async () => {
    const duck = await DuckFiles.create();
    const duckdb = await duck.write('duck.parquet', DUCK_QUERY, 'ROW_GROUP_SIZE 1000');
    const wasm = join(duck.dir, 'wasm.parquet');
    writeFileSync(wasm, await wasmFile());
    const own = join(duck.dir, 'own.parquet');
    writeFileSync(own, await ownFile());
    return { duck, duckdb, wasm, own };
  })();
  return made;
}

/** The rows parquet-wasm and our writer get: like DUCK_QUERY (JS side). */
export function jsRows(): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = [];
  for (let i = 0; i < ROWS; i++) {
    rows.push({
      id: i,
      i64: BigInt(i) * 1000000007n - 5000000000000n,
      dbl: i % 97 === 0 ? NaN : i % 89 === 0 ? null : (i % 1000) / 7,
      s: 'v' + String(i % 500).padStart(3, '0'),
      n: i % 5 === 0 ? null : i % 13,
      st: { a: i % 17, b: 'x' + (i % 3) },
      l: i % 11 === 0 ? null : i % 7 === 0 ? [] : [i % 10, (i * 3) % 10, null],
      dec: (((i % 2000) - 1000) / 100).toFixed(2),
      dt: 10957 + (i % 5000),
      ts: 1577836800000000n + BigInt(i * 37) * 1000000n,
      b: i % 2 === 0,
      u: i % 3 === 0 ? 'é' + (i % 40) : i % 3 === 1 ? '😀' + (i % 7) : null,
      f16: i % 97 === 0 ? NaN : ((i % 300) - 150) / 4,
    });
  }
  return rows;
}

async function wasmFile(): Promise<Uint8Array> {
  const arrow = await import('apache-arrow');
  const wasm = await import('parquet-wasm');
  const rows = jsRows();
  const col = <T>(k: string): T[] => rows.map((r) => r[k] as T);
  const table = new arrow.Table({
    id: arrow.vectorFromArray(col<number>('id'), new arrow.Int32()),
    i64: arrow.vectorFromArray(col<bigint>('i64'), new arrow.Int64()),
    dbl: arrow.vectorFromArray(col<number | null>('dbl'), new arrow.Float64()),
    s: arrow.vectorFromArray(col<string>('s'), new arrow.Utf8()),
    n: arrow.vectorFromArray(col<number | null>('n'), new arrow.Int32()),
    st: arrow.vectorFromArray(col<{ a: number; b: string }>('st'), new arrow.Struct([new arrow.Field('a', new arrow.Int32(), true), new arrow.Field('b', new arrow.Utf8(), true)])),
    l: arrow.vectorFromArray(col<(number | null)[] | null>('l'), new arrow.List(new arrow.Field('item', new arrow.Int32(), true))),
  });
  const wt = wasm.Table.fromIPCStream(arrow.tableToIPC(table, 'stream'));
  const props = new wasm.WriterPropertiesBuilder()
    .setCompression(wasm.Compression.SNAPPY)
    .setMaxRowGroupSize(2500)
    .setDataPageSizeLimit(256)
    .setWriteBatchSize(50)
    .setDictionaryEnabled(false)
    .build();
  return wasm.writeParquet(wt, props);
}

async function ownFile(): Promise<Uint8Array> {
  const schema = defineSchema({
    id: f.int32().required(),
    i64: f.int64(),
    dbl: f.double(),
    s: f.string(),
    n: f.int32(),
    st: f.struct({ a: f.int32(), b: f.string() }),
    l: f.list(f.int32()),
    dec: f.decimal(10, 2),
    dt: f.date(),
    ts: f.timestamp('MICROS'),
    b: f.boolean(),
    u: f.string(),
    f16: f.float16(),
  });
  const sink = new BufferSink();
  const w = await ParquetWriter.open<unknown>(sink, schema, {
    rowGroupRows: 2000,
    pageRowLimit: 100,
    pageIndex: true,
    bloomFilters: { s: true, i64: true, id: true },
  } as never);
  await w.writeMany(jsRows());
  await w.close();
  return sink.bytes();
}

/** A source that counts the bytes read from it, to see what pruning saves. */
export class CountingSource implements SourceLike {
  bytes = 0;
  constructor(private readonly data: Uint8Array) {}
  get byteLength(): number {
    return this.data.length;
  }
  read(offset: number, length: number): Uint8Array {
    this.bytes += length;
    return this.data.subarray(offset, offset + length);
  }
}
