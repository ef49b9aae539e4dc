/**
 * Recovery's invariant, checked: every row a salvage read or a recovered
 * file gives must be a row of the original, field for field where the field
 * came back (a lost field, MISSING or written as null, matches anything),
 * and no whole row may come back more often than the original holds it.
 */
import { MISSING } from '../../src/node/entries/recover.js';
import { InvariantError } from './read.js';

/** A field value as text that tells apart what the readers give (bigints, bytes, dates, maps, NaN). */
export function valueKey(v: unknown): string {
  return JSON.stringify(v, (_, x) => {
    if (typeof x === 'bigint') return `${x}n`;
    if (typeof x === 'number' && !Number.isFinite(x)) return `${x}`;
    if (x instanceof Uint8Array) return `0x${Buffer.from(x).toString('hex')}`;
    if (x instanceof Map) return { map: [...x] };
    return x;
  }) ?? 'undefined';
}

export class OriginalRows {
  private readonly fields: string[];
  private readonly keys: string[][];
  private readonly whole = new Map<string, number>();
  private readonly byPresent = new Map<string, Set<string>>();

  constructor(rows: readonly Record<string, unknown>[]) {
    this.fields = rows.length ? Object.keys(rows[0]!) : [];
    this.keys = rows.map((r) => this.fields.map((f) => valueKey(r[f])));
    for (const k of this.keys) this.whole.set(k.join('\u0001'), (this.whole.get(k.join('\u0001')) ?? 0) + 1);
  }

  get count(): number {
    return this.keys.length;
  }

  /**
   * Checks rows as they come back (add), and at the end (finish) that no
   * more came back than the original has; `lost(row, field)` says a field
   * was lost there (it then matches any value). `back` counts rows that
   * kept a field.
   */
  checker(what: string, lost: (row: Record<string, unknown>, field: string) => boolean = (r, f) => r[f] === MISSING) {
    const seen = new Map<string, number>();
    let back = 0;
    const fail = (detail: string): never => {
      throw new InvariantError(`${what}: ${detail}`);
    };
    return {
      get back() {
        return back;
      },
      add: (row: Record<string, unknown>) => {
        const present = this.fields.filter((f) => !lost(row, f));
        if (this.count === 0 && Object.keys(row).some((f) => !lost(row, f))) fail('a row came back from an original of none');
        if (!present.length) return;
        const i = back++;
        const key = present.map((f) => valueKey(row[f])).join('\u0001');
        const shown = () => key.replace(/\u0001/g, ' | ').slice(0, 300);
        if (present.length === this.fields.length) {
          const n = (seen.get(key) ?? 0) + 1;
          seen.set(key, n);
          const has = this.whole.get(key) ?? 0;
          if (n > has) fail(`row ${i} ${has ? `comes back ${n} times, the original has it ${has}` : 'is not a row of the original'}: ${shown()}`);
          return;
        }
        const mask = present.join('\u0000');
        let set = this.byPresent.get(mask);
        if (!set) {
          const idx = present.map((f) => this.fields.indexOf(f));
          set = new Set(this.keys.map((k) => idx.map((j) => k[j]).join('\u0001')));
          this.byPresent.set(mask, set);
        }
        if (!set.has(key)) fail(`row ${i} (fields ${present.join(', ')}) matches no row of the original: ${shown()}`);
      },
      finish: () => {
        if (back > this.count) fail(`${back} rows came back, the original has ${this.count}`);
      },
    };
  }
}
