/** Usage errors: a command line that cannot work as written, told in one line with a pointer to the command's help. */
import { InvalidArgumentError } from '../errors.js';

/** An option or argument that is wrong as given (raised once the command runs; commander catches the rest). */
export class UsageError extends InvalidArgumentError {}

/** `parquetry: <what> (see 'parquetry <command> --help')`, `command` undefined for the program itself. */
export function usageLine(what: string, command: string | undefined): string {
  return `parquetry: ${what} (see 'parquetry${command ? ' ' + command : ''} --help')\n`;
}

/**
 * Commander's error text as one clause: without its `error: ` prefix, a
 * bad value's reason after a colon, a suggestion on the same line.
 */
export function commanderMessage(text: string): string {
  return text
    .trim()
    .replace(/^error: /, '')
    .replace(/ is invalid\. /, ' is invalid: ')
    .replace(/\s*\n\(Did you mean (.*)\?\)$/, ', did you mean $1?');
}
