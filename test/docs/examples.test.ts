/**
 * The TypeScript and JavaScript examples of README.md and the guides are
 * programs, not sketches: each parses, and what it imports from
 * 'parquetry' or a subpath ('parquetry/trevni', ...) that entry point exports
 * (in Node, whose entry points are the portable ones plus path functions).
 * Each TypeScript example is also a whole module that type-checks under
 * `strict` against the package's declarations, alone: it imports and declares
 * every name it uses, so an option renamed or a type narrowed fails here.
 * The TSDoc `@example`s the API reference shows type-check too, with the
 * package's exports imported for them.
 * Their output is not checked here; the `console` examples' is, in
 * test/cli/readme.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { examples, tsdocExamples } from './examples.js';
import { SPECIFIERS, exportedNames } from './exports.js';

const ROOT = resolve(import.meta.dirname, '..', '..');

test('every ts and js example parses, and imports from parquetry and its subpaths only what they export', () => {
  // Node's entry points: each re-exports its portable one and adds the path functions.
  const exported = new Map([...SPECIFIERS].map(([specifier, { node }]) => [specifier, new Set(exportedNames(node))]));
  const problems: string[] = [];
  let count = 0;
  for (const { where, lang, code } of examples()) {
    count++;
    const out = ts.transpileModule(code, { reportDiagnostics: true, fileName: `example.${lang}`, compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } });
    for (const d of out.diagnostics ?? []) problems.push(`${where}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    const sf = ts.createSourceFile('example.ts', code, ts.ScriptTarget.Latest);
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
  assert.ok(count >= 20, `${count} examples`);
  assert.deepEqual(problems, []);
});

/** Imports of every export (the root's first, then each subpath's others) the example does not declare, and `reader` and `bytes`. */
function prelude(code: string): string {
  const own = new Set<string>();
  for (const st of ts.createSourceFile('example.ts', code, ts.ScriptTarget.Latest).statements) {
    const bindings = ts.isImportDeclaration(st) ? st.importClause?.namedBindings : undefined;
    if (bindings && ts.isNamedImports(bindings)) for (const el of bindings.elements) own.add(el.name.text);
    if (ts.isVariableStatement(st)) {
      for (const d of st.declarationList.declarations) {
        if (ts.isIdentifier(d.name)) own.add(d.name.text);
        else if (ts.isObjectBindingPattern(d.name)) for (const el of d.name.elements) if (ts.isIdentifier(el.name)) own.add(el.name.text);
      }
    }
  }
  const lines: string[] = [];
  const taken = new Set(own);
  for (const [specifier, { node }] of SPECIFIERS) {
    const names = exportedNames(node).filter((n) => !taken.has(n));
    for (const n of names) taken.add(n);
    if (names.length) lines.push(`import { ${names.join(', ')} } from '${specifier}';`);
  }
  if (!own.has('reader')) lines.push('declare const reader: ParquetReader;');
  if (!own.has('bytes')) lines.push('declare const bytes: Uint8Array;');
  return lines.join('\n');
}

test('every ts example of the guides, and every TSDoc @example, type-checks on its own as a module (strict), against the Node entry points', { timeout: 300_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'parquetry-examples-'));
  try {
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }');
    // The one package an example imports that is not installed here: its call, typed as parquetry's s3 options take it.
    writeFileSync(join(dir, 'shims.d.ts'), "declare module '@aws-sdk/credential-providers' {\n  export function fromSSO(options: { profile: string }): () => Promise<{ accessKeyId: string; secretAccessKey: string; sessionToken?: string; expiration?: Date }>;\n}\n");
    const files = new Map<string, string>();
    const write = (where: string, code: string) => {
      const file = `${where.replace(/[^\w]+/g, '_')}.ts`;
      writeFileSync(join(dir, file), `${code}export {};\n`);
      files.set(file, where);
    };
    for (const { where, lang, code } of examples()) if (lang === 'ts') write(where, code);
    // TSDoc examples use the exports without importing them: a prelude imports every name they do not make themselves.
    const tsdoc = tsdocExamples();
    for (const { where, code } of tsdoc) write(where, `${prelude(code)}\n${code}`);
    assert.ok(tsdoc.length >= 15, `${tsdoc.length} TSDoc examples`);
    const compilerOptions = {
      target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, skipLibCheck: true,
      lib: ['es2022', 'dom', 'esnext.disposable'], types: ['node'],
      paths: { parquetry: [join(ROOT, 'src', 'node', 'index.ts')], 'parquetry/*': [join(ROOT, 'src', 'node', 'entries', '*.ts')] },
    };
    // The examples' own semantic errors, not the whole program's: src/ is what `npm test` type-checks first
    // (tsconfig.json, the same strictness), and checking it again here was two thirds of this test's CPU.
    const { options, errors: optionErrors } = ts.convertCompilerOptionsFromJson(compilerOptions, dir);
    const program = ts.createProgram({ rootNames: ['shims.d.ts', ...files.keys()].map((f) => join(dir, f)), options });
    const diagnostics = [
      ...optionErrors, ...program.getOptionsDiagnostics(), ...program.getSyntacticDiagnostics(), ...program.getGlobalDiagnostics(),
      ...[...files.keys()].flatMap((f) => program.getSemanticDiagnostics(program.getSourceFile(join(dir, f)))),
    ];
    const text = ts.formatDiagnostics(diagnostics, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => dir, getNewLine: () => '\n' });
    // Errors in the examples, named by page and line; an error inside the package's own source would show as is.
    const errors = text.split('\n').filter((l) => / error TS/.test(l)).map((l) => {
      const [file, rest] = [l.slice(0, l.indexOf('(')), l.slice(l.indexOf('('))];
      return files.has(file) ? `${files.get(file)} ${rest}` : l;
    });
    assert.ok(files.size >= 25, `${files.size} examples`);
    assert.deepEqual(errors, [], text);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

