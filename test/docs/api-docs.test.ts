/**
 * Every public export has a doc comment, so the API reference `npm run docs`
 * builds (TypeDoc, which fails on the same gaps and more) documents it. The
 * exports are those of every entry point of package.json's `exports` (the
 * root and each subpath, portable and Node), followed to their declarations.
 * Public methods of exported classes and the methods of exported interfaces
 * need one too, and the main entry points an `@example`.
 * Parsing only, no type checker: it runs in a second or two.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import ts from 'typescript';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENTRIES, ROOT, exportedNames, isExported, moduleFile, parse } from './exports.js';
/** The entry points a reader meets first: each needs an `@example`. */
const WITH_EXAMPLE = [
  'openTable', 'openParquet', 'ParquetReader', 'ParquetReader.open', 'ParquetReader.readRows', 'ParquetReader.rows', 'ParquetReader.columns',
  'writeParquet', 'openWriter', 'openDataset', 'convert', 'defineSchema', 'parseWhere',
];

/** The comment text and tags TypeDoc would read on a declaration. */
function docOf(node: ts.Node): { text: string; tags: string[] } {
  const host = ts.isVariableDeclaration(node) ? node.parent.parent : node;
  const docs = (host as { jsDoc?: ts.JSDoc[] }).jsDoc ?? [];
  const last = docs.at(-1);
  if (!last) return { text: '', tags: [] };
  const text = typeof last.comment === 'string' ? last.comment : (last.comment ?? []).map((c) => c.text).join('');
  return { text: text.trim(), tags: (last.tags ?? []).map((t) => t.tagName.text) };
}

interface Found {
  name: string;
  file: string;
  node: ts.Node;
}

/** Declarations of `name` in `file`, following re-exports and imports. */
function declarations(file: string, name: string, seen = new Set<string>()): Found[] {
  const key = `${file}#${name}`;
  if (seen.has(key)) return [];
  seen.add(key);
  const sf = parse(file);
  const out: Found[] = [];
  for (const st of sf.statements) {
    if (ts.isExportDeclaration(st)) {
      const from = st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier) ? moduleFile(file, st.moduleSpecifier.text) : undefined;
      if (!st.exportClause) {
        if (from && exportedNames(from).includes(name)) out.push(...declarations(from, name, seen));
      } else if (ts.isNamedExports(st.exportClause)) {
        for (const el of st.exportClause.elements) {
          if (el.name.text !== name) continue;
          const local = (el.propertyName ?? el.name).text;
          out.push(...(from ? declarations(from, local, seen) : localDeclarations(file, local, seen)));
        }
      }
    } else if (isExported(st)) {
      out.push(...ownDeclarations(file, st, name));
    }
  }
  return out;
}

/** The declarations of `name` a statement makes, exported or not. */
function ownDeclarations(file: string, st: ts.Statement, name: string): Found[] {
  if (ts.isVariableStatement(st)) {
    return st.declarationList.declarations.filter((d) => ts.isIdentifier(d.name) && d.name.text === name).map((node): Found => ({ name, file, node }));
  }
  if ((ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st) || ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st) || ts.isEnumDeclaration(st)) && st.name?.text === name) {
    return [{ name, file, node: st }];
  }
  return [];
}

/** A name declared or imported in `file` (for `export { a }` without a module). */
function localDeclarations(file: string, name: string, seen: Set<string>): Found[] {
  const sf = parse(file);
  for (const st of sf.statements) {
    if (ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier) && st.importClause?.namedBindings && ts.isNamedImports(st.importClause.namedBindings)) {
      const el = st.importClause.namedBindings.elements.find((e) => e.name.text === name);
      if (el) return declarations(moduleFile(file, st.moduleSpecifier.text), (el.propertyName ?? el.name).text, seen);
    }
  }
  return sf.statements.flatMap((st) => ownDeclarations(file, st, name));
}

function publicMembers(node: ts.ClassDeclaration | ts.InterfaceDeclaration): { name: string; node: ts.Node }[] {
  const out: { name: string; node: ts.Node }[] = [];
  for (const m of node.members) {
    const isMethod = ts.isMethodDeclaration(m) || ts.isGetAccessorDeclaration(m) || ts.isSetAccessorDeclaration(m) || ts.isMethodSignature(m);
    if (!isMethod || !m.name || ts.isPrivateIdentifier(m.name)) continue;
    const mods = ts.canHaveModifiers(m) ? ts.getModifiers(m) ?? [] : [];
    if (mods.some((x) => x.kind === ts.SyntaxKind.PrivateKeyword || x.kind === ts.SyntaxKind.ProtectedKeyword)) continue;
    const name = ts.isIdentifier(m.name) || ts.isStringLiteral(m.name) ? m.name.text : m.name.getText();
    out.push({ name, node: m });
  }
  return out;
}

/** Every documented thing, by the name a reader looks it up by, with its doc (overloads and merged declarations pooled). */
function documentation(): { missing: string[]; docs: Map<string, { text: string; tags: string[] }> } {
  const missing: string[] = [];
  const docs = new Map<string, { text: string; tags: string[] }>();
  const note = (name: string, where: string, doc: { text: string; tags: string[] }) => {
    const had = docs.get(name);
    docs.set(name, had ? { text: had.text || doc.text, tags: [...had.tags, ...doc.tags] } : doc);
    if (!doc.text && !had?.text) missing.push(`${name} (${where})`);
  };
  for (const entry of ENTRIES) {
    for (const name of exportedNames(entry)) {
      const found = declarations(entry, name);
      assert.ok(found.length > 0, `${entry}: no declaration found for ${name}`);
      for (const f of found) {
        note(name, f.file, docOf(f.node));
        if (ts.isClassDeclaration(f.node) || ts.isInterfaceDeclaration(f.node)) {
          for (const m of publicMembers(f.node)) note(`${name}.${m.name}`, f.file, docOf(m.node));
        }
      }
    }
  }
  return { missing: [...new Set(missing)], docs };
}

test('every public export, public method and interface method has a doc comment', () => {
  const { missing } = documentation();
  assert.deepEqual(missing, [], `${missing.length} undocumented:\n${missing.join('\n')}`);
});

test('the API reference (typedoc.json) covers every entry point of package.json\'s exports', () => {
  const { entryPoints } = JSON.parse(readFileSync(join(ROOT, 'typedoc.json'), 'utf8')) as { entryPoints: string[] };
  assert.deepEqual([...entryPoints].sort(), [...ENTRIES].sort());
});

test('the main entry points have an @example', () => {
  const { docs } = documentation();
  const without = WITH_EXAMPLE.filter((n) => !docs.get(n)?.tags.includes('example'));
  assert.deepEqual(without, []);
});
