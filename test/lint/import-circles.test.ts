import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importCircles, importGraph } from './import-graph.ts';

// Issue 27: no import circle anywhere in the sources (protocol/ included), type-only imports too.
describe('import circles', () => {
  it('the sources have none', () => {
    const graph = importGraph(process.cwd());
    expect(graph.size).toBeGreaterThan(200);
    expect(importCircles(graph)).toEqual([]);
  });

  const dir = mkdtempSync(join(tmpdir(), 'circles-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (path: string, text: string): void => {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  };

  it('finds a circle of value imports, of type imports, of re-exports and of dynamic imports', () => {
    write('protocol/a.ts', "import { b } from './b.ts';\nexport const a = b;\n");
    write('protocol/b.ts', "import type { C } from './sub/c.ts';\nexport const b: C = 1;\n");
    write('protocol/sub/c.ts', "export type { A } from '../a.ts';\nexport type C = number;\n");
    write('main/d.ts', "export const d = () => import('./e.ts');\n");
    write('main/e.ts', "import { d } from './d.ts';\nexport const e = d;\n");
    write('main/f.ts', "import { e } from './e.ts';\nexport const f = e;\n");
    const circles = importCircles(importGraph(dir)).map((c) => c.join(' '));
    expect(circles.sort()).toEqual(['main/d.ts main/e.ts', 'protocol/a.ts protocol/b.ts protocol/sub/c.ts']);
  });
});
