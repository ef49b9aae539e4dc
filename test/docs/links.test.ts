/**
 * The links between README.md, ARCHITECTURE.md, BENCHMARKS.md and the pages
 * under docs/ lead somewhere: the file exists, and an `#anchor` names one of
 * its headings (as GitHub makes anchors: lowercase, punctuation dropped,
 * spaces to hyphens).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

const pages = ['README.md', 'ARCHITECTURE.md', 'BENCHMARKS.md', ...readdirSync('docs', { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.md') && !f.startsWith('api/'))
  .map((f) => join('docs', f))];

const slug = (heading: string) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');

function anchors(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```$/gm, '');
  return new Set([...text.matchAll(/^#+ (.*)$/gm)].map((m) => slug(m[1]!)));
}

test('every relative link of the docs leads to a file and heading that exist', () => {
  const broken: string[] = [];
  for (const page of pages) {
    const text = readFileSync(page, 'utf8').replace(/^```[\s\S]*?^```$/gm, '');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue;
      const [path, anchor] = target!.split('#') as [string, string | undefined];
      const file = path ? normalize(join(dirname(page), path)) : page;
      if (!existsSync(file)) broken.push(`${page}: ${target} (no such file)`);
      else if (anchor !== undefined && (statSync(file).isDirectory() || !anchors(file).has(anchor))) broken.push(`${page}: ${target} (no such heading)`);
    }
  }
  assert.deepEqual(broken, []);
});
