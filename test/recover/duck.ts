/** DuckDB for the recovery tests. */
import { after, before } from 'node:test';
import { DuckFiles } from '../reader/helpers.js';
import { Duck } from '../writer/oracles.js';

/** A temp dir and a DuckDB for the tests of a file, set up before them and closed after. */
export function withDuck(): { files: DuckFiles; duck: Duck } {
  const ctx = {} as { files: DuckFiles; duck: Duck };
  before(async () => {
    ctx.files = await DuckFiles.create();
    ctx.duck = await Duck.create();
  });
  after(() => {
    ctx.duck.close();
    ctx.files.close();
  });
  return ctx;
}
