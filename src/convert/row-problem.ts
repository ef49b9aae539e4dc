/** A writer's or a cell reader's complaint about a row, in a bad row's terms. */
import { InvalidArgumentError } from '../errors.js';

/** The complaint without the writer's record numbering, and the column it names. */
export function rowProblem(e: InvalidArgumentError): { why: string; column: string | undefined } {
  const column = e.context.column;
  let why = e.detail.replace(/^record \d+: /, '');
  if (column !== undefined) why = why.replace(/^field [^:]*: /, '');
  return { why, column };
}

/** A cell reader whose refusals end with `advice`. */
export function advised<T>(read: (v: T) => unknown, advice: string | undefined): (v: T) => unknown {
  if (advice === undefined) return read;
  return (cell) => {
    try {
      return read(cell);
    } catch (e) {
      if (e instanceof InvalidArgumentError) throw new InvalidArgumentError(`${e.detail} (${advice})`, e.context);
      throw e;
    }
  };
}
