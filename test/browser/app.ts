/**
 * The app the browser test bundles, as a user's would be: it imports
 * 'parquetry' and nothing else, and is bundled exactly as docs/browsers.md
 * says. It exposes what the test drives through puppeteer.
 */
import { BufferSink, Dataset, ParquetReader, ParquetWriter, canonicalRow, convert, openS3Source, readCsv, s3DatasetFileSystem, writeRecords, type CodecName, type Filter } from 'parquetry';

/** Canonical JSON rows of a Parquet file, as Node's `parquetry cat --json` prints them. */
async function rows(bytes: Uint8Array): Promise<string[]> {
  return readerRows(await ParquetReader.open(bytes));
}

async function readerRows(reader: ParquetReader): Promise<string[]> {
  const plan = reader.plan();
  const out: string[] = [];
  for await (const row of reader.rows()) out.push(canonicalRow(plan, row));
  await reader.close();
  return out;
}

async function fetched(url: string): Promise<Uint8Array> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

function base64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

async function written(codec: CodecName, records: unknown[], bloom: string[]): Promise<Uint8Array> {
  const sink = new BufferSink();
  await writeRecords(sink, records, { codec, bloomFilters: Object.fromEntries(bloom.map((c) => [c, true])) });
  return sink.bytes();
}

async function failure(work: () => Promise<unknown>): Promise<{ name: string; message: string } | null> {
  try {
    await work();
    return null;
  } catch (e) {
    return { name: e instanceof Error ? e.name : typeof e, message: e instanceof Error ? e.message : String(e) };
  }
}

/** A Web ReadableStream of `bytes`, in chunks of `size` bytes (cut mid-line and mid-character). */
function streamOf(bytes: Uint8Array, size: number): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(c) {
      if (at >= bytes.length) return c.close();
      c.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
}

/** Where an S3 server is, and the key pair the app hands the library through its `credentials` provider (null: unsigned, a public bucket). */
interface S3Place {
  endpoint: string;
  region: string;
  key: { accessKeyId: string; secretAccessKey: string } | null;
}

function s3Options(place: S3Place) {
  const { key } = place;
  return { endpoint: place.endpoint, region: place.region, credentials: key === null ? null : async () => key };
}

export const api = {
  /** The rows of the Parquet file at `url`. */
  read: async (url: string) => rows(await fetched(url)),

  /** Writes `records` with `codec` (and bloom filters on `bloom` columns), and returns the file and the rows read back from it here. */
  async write(codec: CodecName, records: unknown[], bloom: string[] = []) {
    const bytes = await written(codec, records, bloom);
    return { file: base64(bytes), rows: await rows(bytes) };
  },

  /** How reading the file at `url` fails: the error's class and message, or null if it reads. */
  readFailure: async (url: string) => failure(async () => rows(await fetched(url))),

  /**
   * The CSV at `url` streamed into Parquet bytes here, twice: through
   * readCsv and a ParquetWriter, and through convert; each file's rows read back.
   */
  async csv(url: string, chunk: number) {
    const bytes = await fetched(url);
    const { schema, records } = await readCsv(streamOf(bytes, chunk));
    const sink = new BufferSink();
    const writer = await ParquetWriter.open(sink, schema);
    for await (const r of records) await writer.write(r);
    await writer.close();
    const converted = new BufferSink();
    const report = await convert(streamOf(bytes, chunk), converted, { from: 'csv', to: 'parquet' });
    return { readCsv: await rows(sink.bytes()), convert: await rows(converted.bytes()), numRows: report.numRows, badRows: report.badRows };
  },

  /** The rows of an `s3://` object, read with ranged GETs the library signs in the page. */
  s3Object: async (address: string, place: S3Place) => readerRows(await ParquetReader.open(await openS3Source(address, s3Options(place)))),

  /** The rows of an object at a (pre-signed) URL of the given size: no S3 code, Range requests alone. */
  s3Url: async (url: string, byteLength: number) => readerRows(await ParquetReader.open(new URL(url), { byteLength })),

  /** A dataset under an `s3://` prefix, listed and read in the page, with the filter given at open and read. */
  async s3Dataset(prefix: string, place: S3Place, filter?: Filter) {
    const ds = await Dataset.open(prefix, { fileSystem: await s3DatasetFileSystem(s3Options(place)), ...(filter ? { filter } : {}) });
    const plan = ds.plan();
    const out: string[] = [];
    for await (const row of ds.rows(filter ? { filter } : {})) out.push(canonicalRow(plan, row));
    return { files: ds.files.length, rows: out };
  },

  /** How reading an `s3://` object fails: the error's class and message, or null if it reads. */
  s3Failure: async (address: string, place: S3Place) => failure(async () => readerRows(await ParquetReader.open(await openS3Source(address, s3Options(place))))),

  /** How writing fails, or null if it works. */
  writeFailure: async (codec: CodecName, records: unknown[], bloom: string[] = []) => failure(() => written(codec, records, bloom)),
};

(globalThis as { parquetry?: typeof api }).parquetry = api;
