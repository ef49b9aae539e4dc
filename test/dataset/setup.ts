/** What the dataset tests share: a temporary directory and an in-memory DuckDB for the file, and footers read raw. */
import { after, before } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { readFooter } from '../../src/parquet/footer.js';
import { fileSource } from '../../src/node/file-source.js';
import type { FileMetaData } from '../../src/parquet/metadata/index.js';

/** Registers the hooks; the fields are set once `before` has run. */
export function duckAndTempDir(prefix: string): { root: string; db: DuckDBConnection } {
  const env = {} as { root: string; db: DuckDBConnection };
  let instance: DuckDBInstance | undefined;
  before(async () => {
    env.root = mkdtempSync(join(tmpdir(), prefix));
    instance = await DuckDBInstance.create(':memory:');
    env.db = await instance.connect();
  });
  after(() => {
    env.db?.closeSync();
    instance?.closeSync();
    rmSync(env.root, { recursive: true, force: true });
  });
  return env;
}

/** A file's footer as the reader decodes it. */
export async function footerOf(path: string): Promise<FileMetaData> {
  const source = await fileSource(path);
  try {
    return (await readFooter(source)).metadata;
  } finally {
    await source.close?.();
  }
}
