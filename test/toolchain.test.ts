import { describe, expect, it } from 'vitest';

describe('toolchain', () => {
  it('runs on the Node major that Electron 45 bundles (node@24 from devDependencies)', () => {
    expect(process.versions.node.startsWith('24.')).toBe(true);
  });

  it('has node:sqlite with FTS5, which the gateway and the app store rely on', async () => {
    const { DatabaseSync } = await import('node:sqlite');
    const db = new DatabaseSync(':memory:');
    db.exec("CREATE VIRTUAL TABLE t USING fts5(body); INSERT INTO t VALUES ('hello world')");
    const row = db.prepare("SELECT count(*) AS n FROM t WHERE t MATCH 'hello'").get() as { n: number };
    expect(row.n).toBe(1);
    db.close();
  });
});
