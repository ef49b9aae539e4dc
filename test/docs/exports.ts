/** The package's entry points and their exports, by parsing (no type checker), for the tests of the docs. */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

export const ROOT = resolve(import.meta.dirname, '../..');
/** A built file of package.json's `exports` (`./dist/x/y.js`) as its source (`src/x/y.ts`). */
const sourceOf = (built: string) => built.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts');
const exportsMap: Record<string, { node?: { default: string }; default: { default: string } }> = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).exports;
/** package.json `exports`, by specifier (`parquetry`, `parquetry/trevni`, ...): the sources of its Node and portable entry points. */
export const SPECIFIERS: Map<string, { node: string; portable: string }> = new Map(Object.entries(exportsMap).map(([key, c]) => [
  key === '.' ? 'parquetry' : `parquetry/${key.slice(2)}`,
  { node: sourceOf((c.node ?? c.default).default), portable: sourceOf(c.default.default) },
]));
/** Every entry point's source: a subpath's Node entry re-exports its portable one. */
export const ENTRIES = [...new Set([...SPECIFIERS.values()].flatMap((e) => [e.portable, e.node]))];

const sources = new Map<string, ts.SourceFile>();
/** A source file of the repository, by its path from the root, parsed once. */
export function parse(file: string): ts.SourceFile {
  let sf = sources.get(file);
  if (!sf) {
    sf = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
    sources.set(file, sf);
  }
  return sf;
}

/** The file a relative module specifier (`./x.js`, `../y/index.js`) of `from` names. */
export function moduleFile(from: string, specifier: string): string {
  const base = join(dirname(from), specifier.replace(/\.js$/, ''));
  for (const f of [`${base}.ts`, join(base, 'index.ts')]) if (existsSync(join(ROOT, f))) return relative(ROOT, join(ROOT, f));
  throw new Error(`${from}: cannot resolve ${specifier}`);
}

/** Whether a statement carries `export`. */
export function isExported(st: ts.Statement): boolean {
  return ts.canHaveModifiers(st) && (ts.getModifiers(st) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
}

/** The names `file` exports, through `export *` and `export { }` too. */
export function exportedNames(file: string): string[] {
  const names: string[] = [];
  for (const st of parse(file).statements) {
    if (ts.isExportDeclaration(st)) {
      if (!st.exportClause && st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier)) names.push(...exportedNames(moduleFile(file, st.moduleSpecifier.text)));
      else if (st.exportClause && ts.isNamedExports(st.exportClause)) names.push(...st.exportClause.elements.map((e) => e.name.text));
    } else if (isExported(st)) {
      if (ts.isVariableStatement(st)) names.push(...st.declarationList.declarations.flatMap((d) => (ts.isIdentifier(d.name) ? [d.name.text] : [])));
      else if ('name' in st && st.name && ts.isIdentifier(st.name as ts.Node)) names.push((st.name as ts.Identifier).text);
    }
  }
  return [...new Set(names)];
}
