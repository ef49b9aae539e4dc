/**
 * Every public export has a doc comment, so the API reference `npm run docs`
 * builds (TypeDoc, which fails on the same gaps and more) documents it. The
 * exports are those of the package's entry points (package.json `exports`:
 * src/index.ts and src/node/index.ts), followed to their declarations: a
 * wrapper of src/lazy.ts marked `@function` is documented by the function it
 * loads (TypeDoc shows that one's signature and comment), a `lazyClass`
 * wrapper by its own comment (TypeDoc takes a class's comment from the
 * variable). Public methods of exported classes and the methods of exported
 * interfaces need one too, and the main entry points an `@example`.
 * Parsing only, no type checker: it runs in a second or two.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(import.meta.dirname, '../..');
const ENTRIES = ['src/index.ts', 'src/node/index.ts'];
/** The entry points a reader meets first: each needs an `@example`. */
const WITH_EXAMPLE = [
  'openParquet', 'ParquetReader', 'ParquetReader.open', 'ParquetReader.readRows', 'ParquetReader.rows', 'ParquetReader.columns',
  'writeParquet', 'openWriter', 'openDataset', 'convert', 'defineSchema', 'parseWhere',
];

const sources = new Map<string, ts.SourceFile>();
function parse(file: string): ts.SourceFile {
  let sf = sources.get(file);
  if (!sf) {
    sf = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
    sources.set(file, sf);
  }
  return sf;
}

function moduleFile(from: string, specifier: string): string {
  const base = join(dirname(from), specifier.replace(/\.js$/, ''));
  for (const f of [`${base}.ts`, join(base, 'index.ts')]) if (existsSync(join(ROOT, f))) return relative(ROOT, join(ROOT, f));
  throw new Error(`${from}: cannot resolve ${specifier}`);
}

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

function isExported(st: ts.Statement): boolean {
  return ts.canHaveModifiers(st) && (ts.getModifiers(st) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
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

function exportedNames(file: string): string[] {
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

/** `lazyAsync(load, 'name')` and the like: the wrapper's kind, and the module file and export it stands for. */
function lazyTarget(found: Found): { kind: 'function' | 'class'; file: string; name: string } | undefined {
  const init = ts.isVariableDeclaration(found.node) ? found.node.initializer : undefined;
  if (!init || !ts.isCallExpression(init) || !ts.isIdentifier(init.expression)) return undefined;
  const kind = { lazyAsync: 'function', lazyGenerator: 'function', lazyClass: 'class' }[init.expression.text] as 'function' | 'class' | undefined;
  if (!kind) return undefined;
  const [load, nameArg] = init.arguments;
  assert.ok(load && nameArg && ts.isStringLiteral(nameArg), `${found.file}: ${found.name}: a lazy wrapper names its export`);
  return { kind, file: moduleFile(found.file, importedBy(found.file, load)), name: nameArg.text };
}

/** The specifier of the `import()` a loader holds, directly or through a `const m = lazyModule(...)`. */
function importedBy(file: string, load: ts.Node): string {
  if (ts.isIdentifier(load)) {
    const decl = localDeclarations(file, load.text, new Set())[0]?.node;
    assert.ok(decl && ts.isVariableDeclaration(decl) && decl.initializer, `${file}: loader ${load.text}`);
    return importedBy(file, decl.initializer);
  }
  let spec: string | undefined;
  const visit = (n: ts.Node): void => {
    if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword && n.arguments[0] && ts.isStringLiteral(n.arguments[0])) spec = n.arguments[0].text;
    else ts.forEachChild(n, visit);
  };
  visit(load);
  assert.ok(spec, `${file}: a loader without import()`);
  return spec;
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
      // A `lazyClass` wrapper and the type alias of its instances are one class to TypeDoc.
      const wrapped = found.find((f) => lazyTarget(f)?.kind === 'class');
      for (const f of wrapped ? [wrapped] : found) {
        const target = lazyTarget(f);
        const own = docOf(f.node);
        if (target?.kind === 'function') {
          assert.ok(own.tags.includes('function'), `${f.file}: ${name} is a lazy wrapper: mark it @function so TypeDoc shows the real signature`);
          for (const real of declarations(target.file, target.name)) note(name, real.file, docOf(real.node));
          continue;
        }
        if (target?.kind === 'class') assert.ok(own.tags.includes('class'), `${f.file}: ${name} is a lazy class: mark it @class`);
        note(name, f.file, own);
        const cls = target ? declarations(target.file, target.name).find((d) => ts.isClassDeclaration(d.node)) : f;
        if (cls && (ts.isClassDeclaration(cls.node) || ts.isInterfaceDeclaration(cls.node))) {
          for (const m of publicMembers(cls.node)) note(`${name}.${m.name}`, cls.file, docOf(m.node));
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

test('the main entry points have an @example', () => {
  const { docs } = documentation();
  const without = WITH_EXAMPLE.filter((n) => !docs.get(n)?.tags.includes('example'));
  assert.deepEqual(without, []);
});
