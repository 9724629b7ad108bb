// The import graph of the sources, built from the files themselves, and its circles (issue 27: no
// import circle anywhere, protocol/ included). Written here because eslint-plugin-import's no-cycle
// is not installed, and madge would be a new dependency for about sixty lines: TypeScript's own
// parser (already the typecheck's) reads each file's imports, and Tarjan's algorithm finds every
// strongly connected component of more than one file. Type-only imports count too: a circle of types
// is still two modules that cannot be understood one without the other.
import ts from 'typescript';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** The folders whose files are the app and the gateway (not tests, benches or scripts). */
export const SOURCE_FOLDERS = ['storage', 'protocol', 'domain', 'gateway', 'main', 'preload', 'renderer'];

export interface ImportEdge {
  to: string;
  typeOnly: boolean;
}

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) {
      if (entry !== 'node_modules') sourceFiles(path, out);
    } else if (/\.tsx?$/.test(entry) && !entry.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** Every relative import (static, re-export, dynamic) between the files under `folders` of `root`. */
export function importGraph(root: string, folders = SOURCE_FOLDERS): Map<string, ImportEdge[]> {
  const files = folders.flatMap((f) => (existsSync(join(root, f)) ? sourceFiles(join(root, f)) : []));
  const known = new Set(files);
  const graph = new Map<string, ImportEdge[]>();
  for (const file of files) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
    const edges: ImportEdge[] = [];
    const add = (specifier: string, typeOnly: boolean): void => {
      if (!specifier.startsWith('.')) return;
      const to = resolve(dirname(file), specifier);
      if (known.has(to)) edges.push({ to: relative(root, to), typeOnly });
    };
    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
        const clause = node.importClause;
        const named = clause?.namedBindings;
        const allTypes =
          clause !== undefined &&
          !clause.name &&
          named !== undefined &&
          ts.isNamedImports(named) &&
          named.elements.length > 0 &&
          named.elements.every((e) => e.isTypeOnly);
        add(node.moduleSpecifier.text, clause?.isTypeOnly === true || allTypes);
      } else if (
        ts.isExportDeclaration(node) &&
        node.moduleSpecifier !== undefined &&
        ts.isStringLiteral(node.moduleSpecifier)
      ) {
        add(node.moduleSpecifier.text, node.isTypeOnly);
      } else if (
        ts.isCallExpression(node) &&
        node.expression.kind === ts.SyntaxKind.ImportKeyword &&
        node.arguments[0] !== undefined &&
        ts.isStringLiteral(node.arguments[0])
      ) {
        add(node.arguments[0].text, false);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
    graph.set(relative(root, file), edges);
  }
  return graph;
}

/** The circles of the graph: each strongly connected component of two or more files, sorted. */
export function importCircles(graph: Map<string, ImportEdge[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const strong = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const { to } of graph.get(v) ?? []) {
      if (!index.has(to)) {
        strong(to);
        low.set(v, Math.min(low.get(v)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(v, Math.min(low.get(v)!, index.get(to)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) circles.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) strong(v);
  return circles;
}
