/**
 * commander, loaded with require. Imported from ESM, its CommonJS build is
 * first scanned by Node for the names it exports (cjs-module-lexer), which
 * made it about half again as slow to load (BENCHMARKS.md, "Startup").
 */
import { createRequire } from 'node:module';

const commander = createRequire(import.meta.url)('commander') as typeof import('commander');

export const { Command, CommanderError, InvalidArgumentError } = commander;
export type Command = import('commander').Command;
export type CommanderError = import('commander').CommanderError;
