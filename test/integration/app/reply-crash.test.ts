// Issue 25, item 1: 20,000 replies (and 100 identical "YES" from one phone in one second) waiting
// at the reference gateway; the app, a real process, is killed with SIGKILL at three points of the
// collection — in the middle of storing an answer, each time — and started again: in the end every
// reply is stored exactly once. The old poller stored an answer while reading it, so a kill lost
// the rest of that answer (the gateway had marked it collected; the spec has no acknowledgement).
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import type { NetworkSimulator } from '../../../gateway/network/simulator.ts';
import { queueReplies, startTestGateway } from '../../support/gateway.ts';

const CHILD = fileURLToPath(new URL('./reply-crash-child.ts', import.meta.url));
const REPLIES = 20_000;
const SAME = 100;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

/** Runs the child; with `killAt`, SIGKILLs it at its kill point. Resolves with its last line. */
function runChild(args: string[], pin: string, killAt?: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, MESSENGER_PIN: pin, KILL_AT: String(killAt ?? 0) },
    });
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('kill-point\n')) child.kill('SIGKILL');
    });
    child.once('exit', (code, signal) => {
      if (killAt !== undefined) {
        if (signal === 'SIGKILL' && out.includes('kill-point')) resolve('killed');
        else reject(new Error(`child not killed at its kill point (${code}, ${signal}): ${out} ${err}`));
      } else if (code === 0) resolve(out.trim().split('\n').at(-1) ?? '');
      else reject(new Error(`child exited ${code} ${signal}: ${out} ${err}`));
    });
  });
}

describe('replies collected across kill -9', () => {
  it(
    `stores each of ${REPLIES.toLocaleString('en-GB')} replies exactly once after three kills mid-collection`,
    { timeout: 300_000 },
    async () => {
      const gw = await startTestGateway();
      cleanups.push(() => gw.close());
      const acct = gw.addAccount({ number: '447700900990' });
      queueReplies(gw, '447700900990', REPLIES / 2);
      // Two identical replies in one second are two replies (item 2), across the kills too.
      const at = new Date('2026-11-27T09:00:00Z');
      for (let i = 0; i < SAME; i++) {
        const r = (gw.ctx.network as NetworkSimulator).injectInbound({
          sendTo: '447700900990',
          replyTo: '447700900123',
          message: 'YES',
          timestamp: at,
          source: 'sandbox',
        });
        expect(r.ok).toBe(true);
      }
      queueReplies(gw, '447700900990', REPLIES / 2, REPLIES / 2);

      const dir = await mkdtemp(join(tmpdir(), 'messenger-reply-crash-'));
      cleanups.push(() => rm(dir, { recursive: true, force: true }));
      const args = [dir, gw.url, acct.username];
      // Kill points (the n-th store of each run): mid-answer of the first page; in the third page
      // after a run that first recovered what the last one left; deep in the collection.
      for (const killAt of [700, 2_500, 9_000]) expect(await runChild(args, acct.pin, killAt)).toBe('killed');
      const last = await runChild(args, acct.pin);
      expect(last).toMatch(/^done \d+$/);

      const left = gw.ctx.db
        .prepare('SELECT COUNT(*) AS n FROM inbound_messages WHERE collected = 0')
        .get() as {
        n: number;
      };
      expect(left.n).toBe(0);
      const db = new DatabaseSync(join(dir, 'messenger.sqlite'), { readOnly: true });
      try {
        const rows = db
          .prepare("SELECT text, COUNT(*) AS n FROM messages WHERE direction = 'in' GROUP BY text")
          .all() as Array<{ text: string; n: number }>;
        const counts = new Map(rows.map((r) => [r.text, r.n]));
        const missing = [];
        const twice = [];
        for (let i = 0; i < REPLIES; i++) {
          const n = counts.get(`reply ${i}`) ?? 0;
          if (n === 0) missing.push(i);
          if (n > 1) twice.push(i);
        }
        expect({ missing: missing.length, twice: twice.length }).toEqual({ missing: 0, twice: 0 });
        expect(counts.get('YES')).toBe(SAME);
        expect(counts.size).toBe(REPLIES + 1);
        const spool = db.prepare('SELECT COUNT(*) AS n FROM reply_spool').get() as { n: number };
        expect(spool.n).toBe(0);
      } finally {
        db.close();
      }
    },
  );
});
