/**
 * Text outputs of a conversion: CSV (or TSV), JSON Lines and a JSON
 * array, from rows read with `temporal: 'iso'`.
 *
 * Value forms:
 * - CSV: strings as they are (quoted when they hold the delimiter, a quote,
 *   CR or LF; the empty string as `""`, so it reads back apart from null),
 *   numbers and bigints as digits, NaN / Infinity / -Infinity as words,
 *   binary as lowercase hex, nested values as compact JSON (bigints as bare
 *   digits), null as an empty cell (and the empty string, or empty binary, as `""`).
 * - JSON: bigints as numbers when within ±(2^53-1), else strings of digits;
 *   binary as a lowercase hex string; NaN and infinities as strings.
 */
import { hex } from '../schema/convert.js';
import type { CountingSink, RowOutput, TextBatch } from './output.js';

const encoder = new TextEncoder();

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

function jsonNumber(v: number): string {
  if (Number.isFinite(v)) return String(v); // -0 prints 0
  return Number.isNaN(v) ? '"NaN"' : v > 0 ? '"Infinity"' : '"-Infinity"';
}

/**
 * Compact JSON text of a value. `bigDigits`: bigints as bare digits (the CSV
 * form); otherwise as a number when exact, else a string.
 */
export function jsonText(v: unknown, bigDigits: boolean): string {
  switch (typeof v) {
    case 'string': return JSON.stringify(v);
    case 'number': return jsonNumber(v);
    case 'bigint': return bigDigits || (v <= MAX_SAFE && v >= -MAX_SAFE) ? v.toString() : `"${v.toString()}"`;
    case 'boolean': return v ? 'true' : 'false';
    case 'undefined': return 'null';
    case 'object': break;
    default: return 'null';
  }
  if (v === null) return 'null';
  if (v instanceof Uint8Array) return `"${hex(v)}"`;
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? 'null' : `"${v.toISOString()}"`;
  if (Array.isArray(v)) {
    let s = '[';
    for (let i = 0; i < v.length; i++) s += (i ? ',' : '') + jsonText(v[i], bigDigits);
    return s + ']';
  }
  const o = v as Record<string, unknown>;
  let s = '{';
  let first = true;
  for (const k of Object.keys(o)) {
    s += (first ? '' : ',') + JSON.stringify(k) + ':' + jsonText(o[k], bigDigits);
    first = false;
  }
  return s + '}';
}

/** Quotes a CSV cell when it holds the delimiter, a quote, CR or LF (or is empty: `""` is the empty string, not null). */
export function csvQuote(s: string, delimiter: string): string {
  if (s === '') return '""';
  if (s.includes(delimiter) || s.includes('"') || s.includes('\n') || s.includes('\r')) return `"${s.replaceAll('"', '""')}"`;
  return s;
}

/** One value as a CSV cell. */
export function csvCell(v: unknown, delimiter: string): string {
  switch (typeof v) {
    case 'string': return csvQuote(v, delimiter);
    case 'number':
      if (Number.isFinite(v)) return String(v);
      return Number.isNaN(v) ? 'NaN' : v > 0 ? 'Infinity' : '-Infinity';
    case 'bigint': return v.toString();
    case 'boolean': return v ? 'true' : 'false';
    case 'undefined': return '';
  }
  if (v === null) return '';
  if (v instanceof Uint8Array) return v.length ? hex(v) : '""';
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? '' : v.toISOString();
  return csvQuote(jsonText(v, true), delimiter);
}

/**
 * Text gathered into large writes: each piece encoded as it comes into one
 * buffer (joining many small strings and encoding the result cost more than
 * the rows' formatting), handed on as a copy when full. One write is under
 * way while the next text is made (a file's write waits on a thread of
 * the runtime's): each write starts once the one before has ended, and its
 * error comes out of the next write, flush or `settle`.
 */
class TextSink {
  private buf = new Uint8Array(TEXT_BUFFER);
  private used = 0;
  private writing: Promise<void> = Promise.resolve();

  constructor(readonly sink: CountingSink) {}

  private async send(bytes: Uint8Array): Promise<void> {
    await this.writing;
    const write = this.sink.write(bytes);
    write.catch(() => undefined); // met by the next await of `writing`
    this.writing = write;
  }

  /** Waits for the write under way. */
  async settle(): Promise<void> {
    await this.writing;
  }

  async put(s: string): Promise<void> {
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    if (this.used + s.length * 3 > this.buf.length) {
      await this.flush();
      if (s.length * 3 > this.buf.length) this.buf = new Uint8Array(s.length * 3);
    }
    this.used += encoder.encodeInto(s, this.buf.subarray(this.used)).written;
    if (this.used >= TEXT_BUFFER >> 1) await this.flush();
  }

  /** Bytes that are text already: a large piece goes to the sink as it is, after what is gathered. */
  async putBytes(b: Uint8Array): Promise<void> {
    if (b.length >= TEXT_BUFFER >> 1) {
      await this.flush();
      await this.send(b);
      return;
    }
    if (this.used + b.length > this.buf.length) await this.flush();
    this.buf.set(b, this.used);
    this.used += b.length;
    if (this.used >= TEXT_BUFFER >> 1) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.used === 0) return;
    const bytes = this.buf.slice(0, this.used);
    this.used = 0;
    await this.send(bytes);
  }
}

const TEXT_BUFFER = 1 << 20;

export type TextFormat = 'csv' | 'jsonl' | 'json';

export interface TextOutputOptions {
  /** Top-level column names, in order: the CSV header and the cells of a row. */
  columns: string[];
  delimiter: string;
  /** Print the CSV header row (default true). */
  header: boolean;
}

export async function textOutput(format: TextFormat, sink: CountingSink, options: TextOutputOptions): Promise<RowOutput> {
  const out = new TextSink(sink);
  const { columns, delimiter } = options;
  let rows = 0;
  let line: (row: Record<string, unknown>) => string;
  switch (format) {
    case 'csv':
      if (options.header) await out.put(columns.map((c) => csvQuote(c, delimiter)).join(delimiter) + '\n');
      line = (row) => {
        let s = '';
        for (let i = 0; i < columns.length; i++) s += (i ? delimiter : '') + csvCell(row[columns[i]!], delimiter);
        return s + '\n';
      };
      break;
    case 'jsonl':
      line = (row) => jsonText(row, false) + '\n';
      break;
    case 'json':
      line = (row) => (rows === 0 ? '[\n' : ',\n') + jsonText(row, false);
      break;
  }
  return {
    name: sink.name,
    get rows() {
      return rows;
    },
    get bytes() {
      return sink.bytes;
    },
    async write(row) {
      await out.put(line(row));
      rows++;
    },
    // A JSON array's rows need their separators: it takes rows only.
    ...(format === 'json' ? {} : {
      async writeText(batch: TextBatch) {
        await out.putBytes(batch.bytes);
        rows += batch.rows;
      },
    }),
    async close() {
      // A write of the rows' text fails as a write, which the caller aborts.
      await out.settle();
      try {
        if (format === 'json') await out.put(rows === 0 ? '[]\n' : '\n]\n');
        await out.flush();
        await out.settle();
        await sink.close();
      } catch (e) {
        await sink.abort();
        throw e;
      }
      return { rows, bytes: sink.bytes };
    },
    async abort() {
      // On stdout the rows written so far go out whole; a file is discarded anyway.
      if (sink.stdout) await out.flush().then(() => out.settle()).catch(() => undefined);
      else await out.settle().catch(() => undefined);
      await sink.abort();
    },
  };
}
