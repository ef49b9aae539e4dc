/** ListObjectsV2, page after page: every object under a prefix, with its size. */
import { IOError } from '../../errors.js';
import { formatS3Address } from './address.js';
import type { S3Client } from './client.js';
import { xmlBlocks, xmlText } from './xml.js';

export interface ListedObject {
  key: string;
  size: number;
}

/** Objects whose keys start with `prefix`, in the store's order; `maxKeys` asks for smaller pages. */
export async function* listObjects(client: S3Client, bucket: string, prefix: string, options: { maxKeys?: number } = {}): AsyncGenerator<ListedObject> {
  const name = formatS3Address({ bucket, key: prefix });
  let token: string | undefined;
  const seen = new Set<string>();
  for (;;) {
    const query: Record<string, string> = { 'list-type': '2', prefix };
    if (options.maxKeys !== undefined) query['max-keys'] = String(options.maxKeys);
    if (token !== undefined) query['continuation-token'] = token;
    const xml = await (await client.request({ bucket, key: '' }, { method: 'GET', query })).text();
    for (const block of xmlBlocks(xml, 'Contents')) {
      const key = xmlText(block, 'Key');
      const size = xmlText(block, 'Size');
      if (key === undefined || size === undefined || !/^\d+$/.test(size)) throw new IOError(`the listing of ${name} has an entry without a key or size`, { file: name });
      yield { key, size: Number(size) };
    }
    if (xmlText(xml, 'IsTruncated') !== 'true') return;
    token = xmlText(xml, 'NextContinuationToken');
    // A truncated page must say where to go on, and never back to a page already read (a store looping would list forever).
    if (!token || seen.has(token)) throw new IOError(`the listing of ${name} is truncated without a new continuation token`, { file: name });
    seen.add(token);
  }
}
