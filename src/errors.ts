/**
 * The ParquetryError family. Every failure the library raises on purpose is one
 * of these, so callers can tell a bad file from a bug, and the message names
 * where in the file the problem sits.
 */

/** Where an error happened. Lower layers fill what they know; outer layers add the rest. */
export interface ErrorContext {
  /** File name or URL, when the source has one. */
  file?: string;
  /** Absolute byte offset in the file. */
  offset?: number;
  rowGroup?: number;
  /** Dotted column path, e.g. `a.list.element`. */
  column?: string;
  /** Page index within the column chunk (0 = first page, dictionary page included). */
  page?: number;
}

/** A ParquetryError's code, one per class of failure. */
export type ErrorCode =
  | 'CORRUPT' // the bytes contradict the format or themselves
  | 'UNSUPPORTED' // valid, but a feature this version does not implement (LZO, encryption)
  | 'CHECKSUM' // a stored checksum does not match the data
  | 'INVALID_ARGUMENT' // the caller asked for something impossible
  | 'IO' // the source or sink failed
  | 'LIMIT' // the data is valid but exceeds what this runtime can hold
  | 'DECRYPTION' // an encrypted module failed authentication: wrong key, wrong AAD prefix, or tampered bytes
  | 'MISSING_KEY' // an encrypted module needs a key the caller did not supply
  | 'INCOMPATIBLE'; // files read as one dataset disagree (schemas, partition keys, a summary file and its parts)

function describe(ctx: ErrorContext): string {
  const parts: string[] = [];
  if (ctx.file !== undefined) parts.push(`file ${ctx.file}`);
  if (ctx.offset !== undefined) parts.push(`offset ${ctx.offset}`);
  if (ctx.rowGroup !== undefined) parts.push(`row group ${ctx.rowGroup}`);
  if (ctx.column !== undefined) parts.push(`column ${ctx.column}`);
  if (ctx.page !== undefined) parts.push(`page ${ctx.page}`);
  return parts.length ? ` (${parts.join(', ')})` : '';
}

/**
 * Every error the library raises on purpose: a `code`, and a `context` naming the file, offset, row
 * group, column and page where they apply (docs/errors.md).
 */
export class ParquetryError extends Error {
  readonly code: ErrorCode;
  readonly context: ErrorContext;
  /** The message without the location suffix. */
  readonly detail: string;

  constructor(code: ErrorCode, detail: string, context: ErrorContext = {}, options?: { cause?: unknown }) {
    super(detail + describe(context), options);
    this.code = code;
    this.detail = detail;
    this.context = { ...context };
    this.name = new.target.name;
  }

  /**
   * Adds location facts an inner layer could not know (the row group, say),
   * keeping any the inner layer already set. Mutates and returns this error.
   */
  within(ctx: ErrorContext): this {
    for (const [k, v] of Object.entries(ctx) as [keyof ErrorContext, never][]) {
      if (v !== undefined && this.context[k] === undefined) this.context[k] = v;
    }
    this.message = this.detail + describe(this.context);
    return this;
  }
}

/** The file's bytes are not valid: truncated, inconsistent, or out of range. */
export class CorruptFileError extends ParquetryError {
  constructor(detail: string, context?: ErrorContext, options?: { cause?: unknown }) {
    super('CORRUPT', detail, context, options);
  }
}

/** A valid feature this version cannot handle (LZO, encryption, ...). */
export class UnsupportedError extends ParquetryError {
  constructor(detail: string, context?: ErrorContext) {
    super('UNSUPPORTED', detail, context);
  }
}

/** An option a table of this format cannot honour (`openTable`'s tables say so rather than ignore it). */
export class UnsupportedOptionError extends UnsupportedError {
  constructor(readonly option: string, readonly format: string, why: string, context?: ErrorContext) {
    super(`${option} is not supported for ${format} tables: ${why}`, context);
  }
}

/** A stored checksum does not match the bytes. */
export class ChecksumError extends ParquetryError {
  constructor(detail: string, context?: ErrorContext) {
    super('CHECKSUM', detail, context);
  }
}

/** The caller passed an option or value that cannot work. */
export class InvalidArgumentError extends ParquetryError {
  constructor(detail: string, context?: ErrorContext) {
    super('INVALID_ARGUMENT', detail, context);
  }
}

/**
 * A writer's per-column options the schema refutes: they name a column the
 * schema does not have (`encodings` undefined), or a value encoding the
 * column's physical `type` cannot take (`encodings` lists those it can).
 * `option` is the writer option that names the column: `columns`, or
 * `bloomFilters` (a column the schema lacks).
 */
export class ColumnOptionsError extends InvalidArgumentError {
  constructor(detail: string, readonly column: string, readonly type?: string, readonly encodings?: readonly string[], readonly option: 'columns' | 'bloomFilters' = 'columns') {
    super(detail, { column });
  }
}

/** Reading from a source or writing to a sink failed. */
export class IOError extends ParquetryError {
  constructor(detail: string, context?: ErrorContext, options?: { cause?: unknown }) {
    super('IO', detail, context, options);
  }
}

/**
 * An object store (S3 or one speaking its API) refused a request. `storeCode`
 * is the store's own (`AccessDenied`, `NoSuchKey`, `SlowDown`, ...); a 403
 * names the access key id that signed (never its secret), a redirect the
 * region the bucket is in.
 */
export class ObjectStoreError extends IOError {
  constructor(
    detail: string,
    readonly status: number,
    readonly storeCode: string,
    context?: ErrorContext,
    readonly extra: { accessKeyId?: string; region?: string } = {},
  ) {
    super(detail, context);
  }
}

/** Valid data too large for this runtime (a string over V8's limit, a buffer over 2 GiB). */
export class LimitError extends ParquetryError {
  constructor(detail: string, context?: ErrorContext) {
    super('LIMIT', detail, context);
  }
}

/** An encrypted module (footer, column metadata, page header, page, index, bloom filter) failed to decrypt: wrong key or AAD prefix, or tampered bytes. */
export class DecryptionError extends ParquetryError {
  constructor(detail: string, context?: ErrorContext) {
    super('DECRYPTION', detail, context);
  }
}

/** An encrypted part of the file needs a key the reader was not given (the error names the column, or the footer). */
export class MissingKeyError extends ParquetryError {
  /**
   * What was missing, when a decryption option gives it: the footer key of
   * an encrypted footer (`footerKey`) or of a signed plaintext one
   * (`signingKey`), the AAD prefix (`aadPrefix`), or the key of the column
   * in `context.column` (`columnKey`).
   */
  readonly missing?: 'footerKey' | 'signingKey' | 'aadPrefix' | 'columnKey';

  constructor(detail: string, context?: ErrorContext, missing?: MissingKeyError['missing']) {
    super('MISSING_KEY', detail, context);
    if (missing) this.missing = missing;
  }
}

/**
 * Files read together as one dataset that cannot be: two schemas that do not
 * unify, partition keys that differ, a `_metadata` that disagrees with a
 * part. The message names both files.
 */
export class IncompatibleFilesError extends ParquetryError {
  constructor(detail: string, context?: ErrorContext) {
    super('INCOMPATIBLE', detail, context);
  }
}

/**
 * Runs `fn`, and adds `ctx` to any ParquetryError it throws. Any other
 * exception from decoding a file (a RangeError from a typed array, say) is a
 * sign of corrupt input that slipped past a check, so it is wrapped as
 * CorruptFileError rather than let through untyped.
 */
export function withContext<T>(ctx: ErrorContext, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    throw asParquetryError(e, ctx);
  }
}

export function asParquetryError(e: unknown, ctx: ErrorContext): ParquetryError {
  if (e instanceof ParquetryError) return e.within(ctx);
  if (e instanceof RangeError && /Invalid string length|Array buffer allocation failed|Invalid typed array length/.test(e.message)) {
    return new LimitError(e.message, ctx);
  }
  const msg = e instanceof Error ? e.message : String(e);
  return new CorruptFileError(`unexpected failure while decoding: ${msg}`, ctx, { cause: e });
}
