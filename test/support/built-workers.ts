// The worker threads of the built main bundle (out/main/*-worker.js), each driven through one round
// as the app drives it: what test/electron-boot/built-app.test.ts checks of them.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Worker } from 'node:worker_threads';
import type { SandboxReply, SandboxRequest } from '../../main/services/sandbox-host.ts';

/**
 * The sandbox gateway's thread started from the build in a fresh folder (pushed to `dirs`): its
 * started message, its library's HTTP status and size, and its answer to close.
 */
export async function sandboxRound(
  out: string,
  dirs: string[],
): Promise<{
  started: Extract<SandboxReply, { type: 'started' }>;
  status: number;
  items: number;
  closed: SandboxReply;
}> {
  const dir = mkdtempSync(join(tmpdir(), 'messenger-built-sandbox-'));
  dirs.push(dir);
  const worker = new Worker(join(out, 'main/sandbox-worker.js'), { workerData: { dir } });
  const next = <T extends SandboxReply['type']>(type: T) =>
    new Promise<Extract<SandboxReply, { type: T }>>((resolve, reject) => {
      const onMessage = (reply: SandboxReply): void => {
        if (reply.type !== type) return;
        worker.off('message', onMessage);
        resolve(reply as Extract<SandboxReply, { type: T }>);
      };
      worker.on('message', onMessage);
      worker.once('error', reject);
    });
  try {
    const started = await next('started');
    const library = await fetch(`${started.url}/sandbox/library`);
    const items = ((await library.json()) as unknown[]).length;
    const closed = next('closed');
    worker.postMessage({ type: 'close' } satisfies SandboxRequest);
    return { started, status: library.status, items, closed: await closed };
  } finally {
    await worker.terminate();
  }
}

/**
 * The app database's checkpoint thread started from the build on a fresh WAL of 100 pages (folder
 * pushed to `dirs`): whether index.js names it, the first report with every frame copied, and the
 * shared state once it was asked to stop and exited.
 */
export async function checkpointRound(
  out: string,
  dirs: string[],
): Promise<{ named: boolean; copied: { log: number; checkpointed: number }; state: number }> {
  const index = readFileSync(join(out, 'main/index.js'), 'utf8');
  const named = /new URL\(["']\.\/checkpoint-worker\.js["'], import\.meta\.url\)/.test(index);
  const dir = mkdtempSync(join(tmpdir(), 'messenger-built-checkpoint-'));
  dirs.push(dir);
  const file = join(dir, 'app.sqlite');
  const db = new DatabaseSync(file);
  db.exec('PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0; CREATE TABLE t (b BLOB)');
  db.exec(
    'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100) INSERT INTO t SELECT randomblob(4000) FROM n',
  );
  const shared = new SharedArrayBuffer(4);
  const worker = new Worker(join(out, 'main/checkpoint-worker.js'), {
    workerData: { file, busyMs: 5, idleMs: 5, report: true, state: shared },
  });
  try {
    // storage/checkpoint-worker.ts: PASSIVE checkpoints reported as SQLite gives them.
    const copied = await new Promise<{ log: number; checkpointed: number }>((resolve, reject) => {
      worker.on('message', (m: { log?: number; checkpointed?: number }) => {
        if (m.log !== undefined && m.log > 0 && m.checkpointed === m.log)
          resolve(m as { log: number; checkpointed: number });
      });
      worker.once('error', reject);
    });
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.postMessage('stop');
    await exited;
    return { named, copied, state: Atomics.load(new Int32Array(shared), 0) };
  } finally {
    await worker.terminate();
    db.close();
  }
}
