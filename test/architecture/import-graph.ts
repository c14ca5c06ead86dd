import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';

/** One import or export-from of a source file, resolved to a file under the walked root. */
export interface ImportEdge {
  from: string;
  to: string;
  /** `import type`, `export type`, or every named binding marked `type`: gone after compiling. */
  typeOnly: boolean;
}

/**
 * Every relative import of every `.ts` file under `root` (or only under its `folders`), paths
 * relative to `root`, type imports included.
 */
export function importEdges(root: string, folders: readonly string[] = ['']): ImportEdge[] {
  return folders.flatMap((folder) => sourceFiles(root, folder)).flatMap((file) => {
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
    const edges: ImportEdge[] = [];
    const add = (specifier: ts.Expression | undefined, typeOnly: boolean) => {
      if (!specifier || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.')) return;
      const resolved = path.posix.join(path.posix.dirname(file), specifier.text).replace(/\.js$/, '.ts');
      edges.push({ from: file, to: resolved, typeOnly });
    };
    const visit = (node: ts.Node) => {
      if (ts.isImportDeclaration(node)) add(node.moduleSpecifier, isTypeOnlyImport(node));
      else if (ts.isExportDeclaration(node)) add(node.moduleSpecifier, node.isTypeOnly || allTypeOnly(node.exportClause));
      else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node.arguments[0], false);
      else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal as ts.Expression, true);
      ts.forEachChild(node, visit);
    };
    visit(source);
    return edges;
  });
}

function isTypeOnlyImport(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return false; // a bare `import './x.js'` runs the module
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  return allTypeOnly(clause.namedBindings);
}

function allTypeOnly(bindings: ts.NamedImportBindings | ts.NamedExportBindings | undefined): boolean {
  if (!bindings || (!ts.isNamedImports(bindings) && !ts.isNamedExports(bindings))) return false;
  return bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
}

function sourceFiles(root: string, dir = ''): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return sourceFiles(root, rel);
    return entry.name.endsWith('.ts') ? [rel] : [];
  });
}

/**
 * The import cycles: one shortest cycle per strongly connected component with more than one
 * file (or a file importing itself), each as a path that starts and ends at the same file.
 */
export function importCycles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  return components(next)
    .filter((c) => c.length > 1 || (next.get(c[0] ?? '') ?? []).includes(c[0] ?? ''))
    .map((c) => shortestCycle(next, new Set(c), [...c].sort()[0] ?? ''));
}

/** Tarjan's strongly connected components. */
function components(next: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const strong = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v) ?? 0);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    for (let w = stack.pop(); w !== undefined; w = stack.pop()) {
      onStack.delete(w);
      component.push(w);
      if (w === v) break;
    }
    found.push(component);
  };
  for (const v of next.keys()) if (!index.has(v)) strong(v);
  return found;
}

/** Breadth-first from `start` back to itself, inside one component. */
function shortestCycle(next: ReadonlyMap<string, readonly string[]>, inside: ReadonlySet<string>, start: string): string[] {
  const parent = new Map<string, string>();
  const queue = [start];
  for (let v = queue.shift(); v !== undefined; v = queue.shift()) {
    for (const w of next.get(v) ?? []) {
      if (!inside.has(w)) continue;
      if (w === start) {
        const cycle = [v];
        for (let p = parent.get(v); p !== undefined; p = parent.get(p)) cycle.unshift(p);
        return [...cycle, start];
      }
      if (!parent.has(w) && w !== start) {
        parent.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}
