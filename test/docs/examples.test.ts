/**
 * The TypeScript and JavaScript examples of README.md and the guides are
 * programs, not sketches: each parses, and what it imports from
 * 'parquetry' or a subpath ('parquetry/trevni', ...) that entry point exports
 * (in Node, whose entry points are the portable ones plus path functions).
 * Each TypeScript example is also a whole module that type-checks under
 * `strict` against the package's declarations, alone: it imports and declares
 * every name it uses, so an option renamed or a type narrowed fails here.
 * Their output is not checked here; the `console` examples' is, in
 * test/cli/readme.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { SPECIFIERS, exportedNames } from './exports.js';

const ROOT = resolve(import.meta.dirname, '..', '..');

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

test('every ts example type-checks on its own as a module (strict), against the Node entry points', { timeout: 300_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'parquetry-examples-'));
  try {
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }');
    // The one package an example imports that is not installed here: its call, typed as parquetry's s3 options take it.
    writeFileSync(join(dir, 'shims.d.ts'), "declare module '@aws-sdk/credential-providers' {\n  export function fromSSO(options: { profile: string }): () => Promise<{ accessKeyId: string; secretAccessKey: string; sessionToken?: string; expiration?: Date }>;\n}\n");
    const files = new Map<string, string>();
    for (const page of pages) {
      const text = readFileSync(page, 'utf8');
      for (const m of text.matchAll(/^```ts\n([\s\S]*?)^```$/gm)) {
        const where = `${page}:${text.slice(0, m.index).split('\n').length}`;
        const file = `${where.replace(/[^\w]+/g, '_')}.ts`;
        writeFileSync(join(dir, file), `${m[1]}export {};\n`);
        files.set(file, where);
      }
    }
    const compilerOptions = {
      target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, skipLibCheck: true,
      lib: ['es2022', 'dom', 'esnext.disposable'], types: ['node'],
      paths: { parquetry: [join(ROOT, 'src', 'node', 'index.ts')], 'parquetry/*': [join(ROOT, 'src', 'node', 'entries', '*.ts')] },
    };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['shims.d.ts', ...files.keys()] }));
    const r = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir], { cwd: dir, encoding: 'utf8' });
    // Errors in the examples, named by page and line; an error inside the package's own source would show as is.
    const errors = r.stdout.split('\n').filter((l) => / error TS/.test(l)).map((l) => {
      const [file, rest] = [l.slice(0, l.indexOf('(')), l.slice(l.indexOf('('))];
      return files.has(file) ? `${files.get(file)} ${rest}` : l;
    });
    assert.ok(files.size >= 25, `${files.size} examples`);
    assert.deepEqual(errors, [], r.stdout + r.stderr);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

