/**
 * `s3://` addresses in the Node entry points and the CLI: a client from the
 * settings over the environment's (s3-credentials.ts), and the portable S3
 * pieces (io/s3/, dataset/s3-*.ts) put where a path would go. Loaded only
 * when an address is `s3://`.
 */
import { S3Client } from '../io/s3/client.js';
import { parseS3Address } from '../io/s3/address.js';
import { s3Source } from '../io/s3/source.js';
import type { SummaryStore } from '../dataset/summary.js';
import { s3Sink, type S3WriteOptions } from '../io/s3/sink.js';
import { listObjects } from '../io/s3/list.js';
import { s3FileSystem } from '../dataset/s3-file-system.js';
import { isHiddenName, isGlob } from '../dataset/discover.js';
import { joinPath } from '../io/paths.js';
import { inputBytes } from '../convert/input-bytes.js';
import { ParquetFile, type OpenOptions } from '../parquet/file.js';
import { openTableSource } from '../table/open.js';
import type { ConvertInput } from '../convert/run.js';
import type { OpenChunkFile } from '../parquet/file-path.js';
import type { Sink } from '../io/sink.js';
import type { Source } from '../io/source.js';
import type { DatasetFileSystem } from '../dataset/file-system.js';
import { compareUtf8 } from '../bytes/utf8-checks.js';
import { resolveS3Options, type S3Settings } from './s3-credentials.js';


/** What a Node function taking an `s3://` address also takes: where and how to reach the store, and how big upload parts are. */
export type NodeS3Settings = S3Settings & S3WriteOptions;

export async function s3Client(settings: S3Settings = {}): Promise<S3Client> {
  return new S3Client(await resolveS3Options(settings));
}

export async function openS3Source(address: string, settings?: S3Settings): Promise<Source> {
  return s3Source(await s3Client(settings), parseS3Address(address));
}

/** A Parquet object; column chunks in other objects (`file_path`) are read from the same store. */
export async function openS3ParquetFile(address: string, options: OpenOptions, settings?: S3Settings): Promise<ParquetFile> {
  const client = await s3Client(settings);
  const source = await s3Source(client, parseS3Address(address));
  return ParquetFile.fromSource(source, { ...options, openFile: options.openFile ?? s3ChunkFiles(client) });
}

/** The objects a Parquet object's column chunks name (`file_path`), where the reader resolved them. */
export function s3ChunkFiles(client: S3Client): OpenChunkFile {
  return (_, resolved) => s3Source(client, parseS3Address(resolved));
}

export async function s3DestinationSink(address: string, settings: NodeS3Settings = {}): Promise<Sink> {
  return s3Sink(await s3Client(settings), parseS3Address(address), settings.partSize === undefined ? {} : { partSize: settings.partSize });
}

export async function s3DatasetFileSystem(settings?: S3Settings): Promise<DatasetFileSystem> {
  return s3FileSystem(await s3Client(settings));
}

/** Whether an address names a dataset: a prefix (`/` at the end, or objects under it) or a glob, not an object. */
export async function isS3Dataset(address: string, settings?: S3Settings): Promise<boolean> {
  const { key } = parseS3Address(address);
  if (key === '' || key.endsWith('/')) return true;
  const kind = await (await s3DatasetFileSystem(settings)).kind(address);
  return kind === 'directory' || (kind === 'missing' && isGlob(address));
}

/** An object as a conversion's input: CSV and JSON streamed by one GET, the table formats read in ranges. */
export function s3ConvertInput(address: string, settings?: S3Settings): ConvertInput {
  const opened = async () => s3Source(await s3Client(settings), parseS3Address(address));
  return {
    name: address,
    async bytes() {
      const client = await s3Client(settings);
      const res = await client.request(parseS3Address(address), { method: 'GET' });
      const size = res.headers.get('content-length');
      return inputBytes(res.body ?? new Uint8Array(0), address, size !== null && /^\d+$/.test(size) ? Number(size) : undefined);
    },
    table: async (o) => openTableSource(await opened(), { name: address, ...o }),
  };
}

/** An S3 prefix for `writeSummaryFiles`: parts listed by ListObjectsV2, `.`/`_` names left out as in a directory. */
export async function s3SummaryStore(prefix: string, settings?: S3Settings): Promise<SummaryStore> {
  return summaryStore(await s3Client(settings), prefix);
}

export function summaryStore(client: S3Client, prefix: string): SummaryStore {
  const { bucket, key } = parseS3Address(prefix);
  const base = key === '' || key.endsWith('/') ? key : `${key}/`;
  const sizes = new Map<string, number>();
  const name = (path: string) => joinPath(prefix, path);
  return {
    async list() {
      const out: string[] = [];
      for await (const o of listObjects(client, bucket, base)) {
        const rel = o.key.slice(base.length);
        if (rel === '' || rel.endsWith('/') || rel.split('/').some(isHiddenName)) continue;
        sizes.set(rel, o.size);
        out.push(rel);
      }
      return out.sort(compareUtf8);
    },
    open: (part) => s3Source(client, parseS3Address(name(part)), sizes.has(part) ? { byteLength: sizes.get(part)! } : {}),
    create: async (file) => s3Sink(client, parseS3Address(name(file))),
    name,
  };
}
