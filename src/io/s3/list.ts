/**
 * ListObjectsV2, page after page: every object under a prefix, with its
 * size; with a `delimiter`, the objects directly under it and the common
 * prefixes (its "subdirectories") instead, so a walk lists one level at a time.
 */
import { IOError } from '../../errors.js';
import { formatS3Address } from './address.js';
import type { S3Client } from './client.js';
import { xmlBlocks, xmlText } from './xml.js';

export interface ListedObject {
  key: string;
  size: number;
}

/** A common prefix of a delimited listing: `prefix` then a name then the delimiter. */
export interface ListedPrefix {
  prefix: string;
}

/** Objects whose keys start with `prefix`, in the store's order; `maxKeys` asks for smaller pages. */
export function listObjects(client: S3Client, bucket: string, prefix: string, options?: { maxKeys?: number }): AsyncGenerator<ListedObject>;
/** With a delimiter: the objects directly under `prefix`, and the common prefixes below it. */
export function listObjects(client: S3Client, bucket: string, prefix: string, options: { maxKeys?: number; delimiter: string }): AsyncGenerator<ListedObject | ListedPrefix>;
export async function* listObjects(client: S3Client, bucket: string, prefix: string, options: { maxKeys?: number; delimiter?: string } = {}): AsyncGenerator<ListedObject | ListedPrefix> {
  const name = formatS3Address({ bucket, key: prefix });
  let token: string | undefined;
  const seen = new Set<string>();
  for (;;) {
    const query: Record<string, string> = { 'list-type': '2', prefix };
    if (options.maxKeys !== undefined) query['max-keys'] = String(options.maxKeys);
    if (options.delimiter !== undefined) query.delimiter = options.delimiter;
    if (token !== undefined) query['continuation-token'] = token;
    const xml = await (await client.request({ bucket, key: '' }, { method: 'GET', query })).text();
    for (const block of xmlBlocks(xml, 'Contents')) {
      const key = xmlText(block, 'Key');
      const size = xmlText(block, 'Size');
      if (key === undefined || size === undefined || !/^\d+$/.test(size)) throw new IOError(`the listing of ${name} has an entry without a key or size`, { file: name });
      yield { key, size: Number(size) };
    }
    if (options.delimiter !== undefined) {
      for (const block of xmlBlocks(xml, 'CommonPrefixes')) {
        const p = xmlText(block, 'Prefix');
        // A common prefix outside the one asked for would lead a walk out of its root.
        if (p === undefined || !p.startsWith(prefix) || !p.endsWith(options.delimiter) || p.length < prefix.length + options.delimiter.length) {
          throw new IOError(`the listing of ${name} has a common prefix ${JSON.stringify(p ?? '')} that is not one below it`, { file: name });
        }
        yield { prefix: p };
      }
    }
    if (xmlText(xml, 'IsTruncated') !== 'true') return;
    token = xmlText(xml, 'NextContinuationToken');
    // A truncated page must say where to go on, and never back to a page already read (a store looping would list forever).
    if (!token || seen.has(token)) throw new IOError(`the listing of ${name} is truncated without a new continuation token`, { file: name });
    seen.add(token);
  }
}
