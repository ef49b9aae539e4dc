/**
 * The code examples of README.md and the guides under docs/, with where each
 * is (page and line), for the tests that parse, type-check and run them.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export const PAGES = ['README.md', ...readdirSync('docs', { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.md') && !f.startsWith('api/'))
  .map((f) => join('docs', f))];

export interface Example {
  /** `page:line` of the opening fence. */
  where: string;
  lang: 'ts' | 'js';
  code: string;
}

/** Every ```ts and ```js block of the pages, in page order. */
export function examples(): Example[] {
  return PAGES.flatMap((page) => {
    const text = readFileSync(page, 'utf8');
    return [...text.matchAll(/^```(ts|js)\n([\s\S]*?)^```$/gm)].map((m) => ({
      where: `${page}:${text.slice(0, m.index).split('\n').length}`,
      lang: m[1] as 'ts' | 'js',
      code: m[2]!,
    }));
  });
}

/**
 * The `@example` blocks of the TSDoc comments under src/, which the API
 * reference shows. They are written as the docs of one export, so they may
 * use the package's exports without importing them, and `reader` (an open
 * `ParquetReader`) and `bytes` (a file's bytes) without making them.
 */
export function tsdocExamples(): Example[] {
  return readdirSync('src', { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts')).sort().flatMap((f) => {
    const file = join('src', f);
    const text = readFileSync(file, 'utf8');
    return [...text.matchAll(/\/\*\*([\s\S]*?)\*\//g)].flatMap((c) => {
      const body = c[1]!.split('\n').map((l) => l.replace(/^\s*\* ?/, '')).join('\n');
      const line = text.slice(0, c.index).split('\n').length;
      return [...body.matchAll(/@example\s*\n```(ts|js)\n([\s\S]*?)```/g)].map((m) => ({ where: `${file}:${line}`, lang: m[1] as 'ts' | 'js', code: m[2]! }));
    });
  });
}
