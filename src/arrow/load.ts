import { UnsupportedError } from '../errors.js';

/** The Arrow JS module, as `import * as arrow from 'apache-arrow'` gives it. */
export type ArrowModule = typeof import('apache-arrow');

let loading: Promise<ArrowModule> | undefined;

/**
 * Loads `apache-arrow` on first use: it is an optional peer dependency, so a
 * program that never asks for Arrow never loads (or needs) it.
 */
export function loadArrow(): Promise<ArrowModule> {
  return (loading ??= import('apache-arrow').catch((e: unknown) => {
    loading = undefined;
    const why = e instanceof Error ? e.message : String(e);
    throw new UnsupportedError(`Arrow output needs the optional peer dependency apache-arrow: npm install apache-arrow (${why})`);
  }) as Promise<ArrowModule>);
}
