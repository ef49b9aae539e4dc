/**
 * The TypeScript and JavaScript examples of README.md and the guides are
 * programs, not sketches: each parses, and what it imports from
 * 'parquetry' or a subpath ('parquetry/trevni', ...) that entry point exports
 * (in Node, whose entry points are the portable ones plus path functions). Their output is
 * not checked here; the `console` examples' is, in test/cli/readme.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { SPECIFIERS, exportedNames } from './exports.js';

const pages = ['README.md', ...readdirSync('docs', { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.md') && !f.startsWith('api/'))
  .map((f) => join('docs', f))];

test('every ts and js example parses, and imports from parquetry and its subpaths only what they export', () => {
  // Node's entry points: each re-exports its portable one and adds the path functions.
  const exported = new Map([...SPECIFIERS].map(([specifier, { node }]) => [specifier, new Set(exportedNames(node))]));
  const problems: string[] = [];
  let count = 0;
  for (const page of pages) {
    for (const m of readFileSync(page, 'utf8').matchAll(/^```(ts|js)\n([\s\S]*?)^```$/gm)) {
      count++;
      const line = readFileSync(page, 'utf8').slice(0, m.index).split('\n').length;
      const where = `${page}:${line}`;
      const out = ts.transpileModule(m[2]!, { reportDiagnostics: true, fileName: `example.${m[1]}`, compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } });
      for (const d of out.diagnostics ?? []) problems.push(`${where}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
      const sf = ts.createSourceFile('example.ts', m[2]!, ts.ScriptTarget.Latest);
      for (const st of sf.statements) {
        if (!ts.isImportDeclaration(st) || !ts.isStringLiteral(st.moduleSpecifier)) continue;
        const specifier = st.moduleSpecifier.text;
        if (specifier !== 'parquetry' && !specifier.startsWith('parquetry/')) continue;
        const names = exported.get(specifier);
        if (!names) {
          problems.push(`${where}: '${specifier}' is not an entry point of package.json's exports`);
          continue;
        }
        const bindings = st.importClause?.namedBindings;
        if (bindings && ts.isNamedImports(bindings)) {
          for (const el of bindings.elements) {
            const name = (el.propertyName ?? el.name).text;
            if (!names.has(name)) problems.push(`${where}: '${specifier}' does not export ${name}`);
          }
        }
      }
    }
  }
  assert.ok(count >= 20, `${count} examples`);
  assert.deepEqual(problems, []);
});
