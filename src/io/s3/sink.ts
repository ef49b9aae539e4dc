/**
 * An object written as a `Sink`. Up to one part's bytes (8 MiB by default)
 * go in a single PUT at close; past that, a multipart upload whose parts go
 * up while the writer goes on: one part buffer filling and at most one part
 * in flight, so memory stays at two parts per open object whatever its
 * size. The object appears only when complete; a failure or abort aborts
 * the upload, so no part is left. A process killed mid-upload cannot abort
 * its own, so each write first aborts the uploads it finds for its key.
 */
import { InvalidArgumentError, IOError, ObjectStoreError } from '../../errors.js';
import type { Sink } from '../sink.js';
import { formatS3Address, type S3Address } from './address.js';
import type { S3Client } from './client.js';
import { xmlBlocks, xmlText } from './xml.js';

export const MIN_PART_SIZE = 5 * 1024 * 1024;
export const DEFAULT_PART_SIZE = 8 * 1024 * 1024;
const MAX_PART_SIZE = 5 * 1024 * 1024 * 1024;
/** S3's most parts per upload: at 8 MiB, objects up to 78 GiB. */
const MAX_PARTS = 10_000;

/** How an object is uploaded: the multipart part size. */
export interface S3WriteOptions {
  /** Bytes per multipart part, and the largest object sent by one PUT (default 8 MiB, at least 5 MiB). */
  partSize?: number;
}

/** A sink whose object appears only when `publish` is called after `close` (a dataset's parts, published together at commit). */
export interface StagedS3Sink extends Sink {
  publish(): Promise<void>;
}

export function s3Sink(client: S3Client, address: S3Address, options: S3WriteOptions = {}): Sink {
  return new S3Upload(client, address, options, false);
}

/** Every byte goes through a multipart upload (one part for a small object), completed by `publish`. */
export function stagedS3Sink(client: S3Client, address: S3Address, options: S3WriteOptions = {}): StagedS3Sink {
  return new S3Upload(client, address, options, true);
}

class S3Upload implements StagedS3Sink {
  private readonly name: string;
  private readonly partSize: number;
  private buffer = new Uint8Array(0);
  private used = 0;
  private uploadId: string | undefined;
  private readonly etags: string[] = [];
  private inflight: Promise<void> | undefined;
  private failure: unknown;
  private state: 'open' | 'closed' | 'published' | 'aborted' = 'open';

  constructor(
    private readonly client: S3Client,
    private readonly address: S3Address,
    options: S3WriteOptions,
    private readonly staged: boolean,
  ) {
    this.name = formatS3Address(address);
    this.partSize = options.partSize ?? DEFAULT_PART_SIZE;
    if (!Number.isSafeInteger(this.partSize) || this.partSize < MIN_PART_SIZE || this.partSize > MAX_PART_SIZE) {
      throw new InvalidArgumentError(`partSize must be an integer from ${MIN_PART_SIZE} to ${MAX_PART_SIZE} bytes, got ${options.partSize}`);
    }
    if (address.key === '' || address.key.endsWith('/')) throw new InvalidArgumentError(`cannot write ${this.name}: an object's key cannot be empty or end with /`);
  }

  async write(bytes: Uint8Array): Promise<void> {
    this.checkOpen();
    let at = 0;
    while (at < bytes.length) {
      const n = Math.min(bytes.length - at, this.partSize - this.used);
      this.reserve(this.used + n);
      this.buffer.set(bytes.subarray(at, at + n), this.used);
      this.used += n;
      at += n;
      if (this.used === this.partSize) await this.sendPart();
    }
  }

  async close(): Promise<void> {
    this.checkOpen();
    try {
      if (this.uploadId === undefined && !this.staged) {
        await this.abortStale();
        await this.client.request(this.address, { method: 'PUT', body: this.buffer.subarray(0, this.used) });
        this.state = 'published';
      } else {
        await this.sendPart();
        await this.inflight;
        if (this.failure !== undefined) throw this.failure;
        this.state = 'closed';
        if (!this.staged) await this.publish();
      }
    } catch (e) {
      await this.abort();
      throw e;
    } finally {
      this.buffer = new Uint8Array(0);
    }
  }

  async publish(): Promise<void> {
    if (this.state !== 'closed') throw new IOError(`cannot publish ${this.name}: it is ${this.state === 'open' ? 'not closed yet' : this.state}`, { file: this.name });
    const parts = this.etags.map((etag, i) => `<Part><PartNumber>${i + 1}</PartNumber><ETag>${escapeXml(etag)}</ETag></Part>`).join('');
    try {
      const res = await this.client.request(this.address, {
        method: 'POST',
        query: { uploadId: this.uploadId! },
        headers: { 'Content-Type': 'application/xml' },
        body: `<CompleteMultipartUpload>${parts}</CompleteMultipartUpload>`,
      });
      // S3 may answer 200 and put its error in the body (a completion that failed after the headers went out).
      const xml = await res.text();
      if (/<Error>/.test(xml)) throw new ObjectStoreError(`completing ${this.name} failed: ${xmlText(xml, 'Code')} (${xmlText(xml, 'Message') ?? ''})`, res.status, xmlText(xml, 'Code') ?? 'Error', { file: this.name });
      this.state = 'published';
    } catch (e) {
      await this.abort();
      throw e;
    }
  }

  async abort(): Promise<void> {
    if (this.state === 'published' || this.state === 'aborted') return;
    this.state = 'aborted';
    this.buffer = new Uint8Array(0);
    await this.inflight?.catch(() => undefined);
    // The upload's parts are deleted with it; a refusal here cannot be acted on, and the error that led here matters more.
    if (this.uploadId !== undefined) await this.abortUpload(this.uploadId).catch(() => undefined);
  }

  private checkOpen(): void {
    if (this.state !== 'open') throw new IOError(`cannot write ${this.name}: the upload is ${this.state}`, { file: this.name });
    if (this.failure !== undefined) throw this.failure;
  }

  /**
   * Grows the buffer to hold `n` bytes, doubling up to a part, so a small
   * object never holds a whole part's memory; once parts are going up, each
   * next part's buffer is taken whole (doubling again would leave a part's
   * worth of garbage per part).
   */
  private reserve(n: number): void {
    if (n <= this.buffer.length) return;
    const size = this.uploadId === undefined ? Math.min(this.partSize, Math.max(n, this.buffer.length * 2, 64 * 1024)) : this.partSize;
    const grown = new Uint8Array(size);
    grown.set(this.buffer.subarray(0, this.used));
    this.buffer = grown;
  }

  /** Hands the buffer to an upload of its own, after the part before it has gone (one in flight). */
  private async sendPart(): Promise<void> {
    if (this.uploadId === undefined) {
      await this.abortStale();
      const res = await this.client.request(this.address, { method: 'POST', query: { uploads: '' } });
      const id = xmlText(await res.text(), 'UploadId');
      if (!id) throw new IOError(`starting the upload of ${this.name}: the store gave no upload id`, { file: this.name });
      this.uploadId = id;
    }
    await this.inflight;
    if (this.failure !== undefined) throw this.failure;
    if (this.used === 0 && this.etags.length > 0) return;
    const number = this.etags.length + 1;
    if (number > MAX_PARTS) throw new IOError(`cannot write ${this.name}: more than ${MAX_PARTS} parts of ${this.partSize} bytes (raise partSize)`, { file: this.name });
    const body = this.buffer.subarray(0, this.used);
    this.etags.push('');
    this.buffer = new Uint8Array(0);
    this.used = 0;
    this.inflight = this.client
      .request(this.address, { method: 'PUT', query: { partNumber: String(number), uploadId: this.uploadId }, body })
      .then((res) => {
        const etag = res.headers.get('etag');
        if (!etag) throw new IOError(`uploading part ${number} of ${this.name}: the store gave no ETag`, { file: this.name });
        this.etags[number - 1] = etag;
      })
      .catch((e) => {
        this.failure ??= e;
      });
  }

  private abortUpload(uploadId: string): Promise<unknown> {
    return this.client.request(this.address, { method: 'DELETE', query: { uploadId }, accept: [404] });
  }

  /**
   * Aborts the multipart uploads of this key found before this write starts
   * its own (a killed writer's), as the server lists them: comparing their
   * start with ours would need the client's clock to agree with the
   * server's. A store that cannot list uploads (501), or credentials not
   * allowed to (403: a write-only policy), leave them to the bucket's
   * lifecycle rule; a refused abort likewise.
   */
  private async abortStale(): Promise<void> {
    const { bucket, key } = this.address;
    const query: Record<string, string> = { uploads: '', prefix: key };
    const seen = new Set<string>();
    for (;;) {
      const res = await this.client.request({ bucket, key: '' }, { method: 'GET', query, accept: [403, 501] });
      if (!res.ok) return void (await res.body?.cancel().catch(() => undefined));
      const xml = await res.text();
      for (const upload of xmlBlocks(xml, 'Upload')) {
        const id = xmlText(upload, 'UploadId');
        if (xmlText(upload, 'Key') === key && id) await this.abortUpload(id).catch(() => undefined);
      }
      if (xmlText(xml, 'IsTruncated') !== 'true') return;
      const keyMarker = xmlText(xml, 'NextKeyMarker') ?? '';
      const idMarker = xmlText(xml, 'NextUploadIdMarker') ?? '';
      if (keyMarker !== key || seen.has(idMarker)) return; // past this key's uploads, or a store repeating itself
      seen.add(idMarker);
      Object.assign(query, { 'key-marker': keyMarker, 'upload-id-marker': idMarker });
    }
  }
}

function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
