/**
 * Layers point one way. The order is ARCHITECTURE.md's "Layers" table (its
 * first column, lowest layer first); a file may import from its own layer and
 * the ones listed before it. Imports that still point up, waiting for a
 * refactor, are the "Layer debt" list under that table: the test fails on an
 * upward import not listed there, and on a listed one that is gone, so the
 * list stays the truth. File-level import cycles fail outright.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(import.meta.dirname, '..');
const architecture = readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8');

/** The text of one `## ` section of ARCHITECTURE.md. */
function section(title: string): string {
  const start = architecture.indexOf(`\n## ${title}\n`);
  assert.ok(start >= 0, `ARCHITECTURE.md has a "## ${title}" section`);
  const end = architecture.indexOf('\n## ', start + 1);
  return architecture.slice(start, end < 0 ? undefined : end);
}

const layers = [...section('Layers').matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1].replace(/\/$/, ''));
const debt = new Set([...section('Layer debt').matchAll(/^- `([^`]+)` → `([^`]+)`/gm)].map((m) => `${m[1]} → ${m[2]}`));

/** The table row a file belongs to: the longest listed folder holding it. */
function layerOf(file: string): number {
  let best = -1;
  layers.forEach((layer, i) => {
    if ((file === layer || file.startsWith(`${layer}/`)) && (best < 0 || layer.length > layers[best].length)) best = i;
  });
  return best;
}

/** Relative module specifiers a file imports: static, re-exported, type-only and dynamic. */
function specifiers(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, false);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      out.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      out.push(node.arguments[0].text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      out.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out.filter((s) => s.startsWith('.'));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => join(dir, f))
    .filter((f) => !f.startsWith('src/codecs/wasm/'));
}

const files = [...sourceFiles('src'), ...sourceFiles('viewer/src')];
const graph = new Map<string, string[]>(
  files.map((file) => [file, specifiers(file).map((s) => relative(ROOT, resolve(ROOT, dirname(file), s)).replace(/\.js$/, '.ts'))]),
);

test('every source file belongs to a layer of the table', () => {
  assert.ok(layers.length > 20, 'the Layers table was found');
  assert.ok(files.length > 100);
  assert.deepEqual(files.filter((f) => layerOf(f) < 0), []);
});

test('no file imports from a layer listed after its own, beyond the listed debt', () => {
  const upward: string[] = [];
  for (const [file, targets] of graph) {
    for (const target of targets) {
      if (graph.has(target) && layerOf(target) > layerOf(file)) upward.push(`${file} → ${target}`);
    }
  }
  assert.deepEqual(upward.filter((e) => !debt.has(e)), [], 'upward imports not in ARCHITECTURE.md\'s "Layer debt"');
  assert.deepEqual([...debt].filter((e) => !upward.includes(e)), [], '"Layer debt" entries that no longer exist: remove them');
});

test('no import cycle between files', () => {
  // Tarjan's strongly connected components, iterative over an explicit stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  let next = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: Array<[string, number]> = [[start, 0]];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length) {
      const frame = work[work.length - 1];
      const [v, i] = frame;
      const edges = (graph.get(v) ?? []).filter((w) => graph.has(w));
      if (i < edges.length) {
        frame[1]++;
        const w = edges[i];
        if (!index.has(w)) {
          index.set(w, next);
          low.set(w, next++);
          stack.push(w);
          onStack.add(w);
          work.push([w, 0]);
        } else if (onStack.has(w)) {
          low.set(v, Math.min(low.get(v)!, index.get(w)!));
        }
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent)!, low.get(v)!));
      }
      if (low.get(v) === index.get(v)) {
        const component: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          component.push(w);
        } while (w !== v);
        if (component.length > 1) cycles.push(component.sort());
      }
    }
  }
  assert.deepEqual(cycles, []);
});
