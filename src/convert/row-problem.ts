/** A writer's or a cell reader's complaint about a row, in a bad row's terms. */
import type { InvalidArgumentError } from '../errors.js';

/** The complaint without the writer's record numbering, and the column it names. */
export function rowProblem(e: InvalidArgumentError): { why: string; column: string | undefined } {
  const column = e.context.column;
  let why = e.detail.replace(/^record \d+: /, '');
  if (column !== undefined) why = why.replace(/^field [^:]*: /, '');
  return { why, column };
}
