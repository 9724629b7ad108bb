// Issue 25: `messenger inbox` goes through the app's reply intake (spool before parse, identity, the
// repeat filter), so a CLI collection killed with SIGKILL loses nothing: 3,000 replies (and 20
// identical "YES" from one phone in one second) at the reference gateway, the CLI killed twice in
// the middle of storing an answer, then run again: every reply is printed once over the runs and
// stored once in its data folder. The old CLI printed each message as it was read, with no spool: a
// kill lost the rest of the answer (the gateway had marked it collected).
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import type { NetworkSimulator } from '../../../gateway/network/simulator.ts';
import { queueReplies, startTestGateway } from '../../support/gateway.ts';

const CHILD = fileURLToPath(new URL('./cli-reply-crash-child.ts', import.meta.url));
const REPLIES = 3_000;
const SAME = 20;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

/** Runs `inbox` in a child; with `killAt`, SIGKILLs it at its kill point. Resolves with its stdout. */
function runInbox(env: Record<string, string>, killAt?: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD, 'inbox'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env, KILL_AT: String(killAt ?? 0) },
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
        if (signal === 'SIGKILL' && out.includes('kill-point')) resolve(out);
        else reject(new Error(`child not killed at its kill point (${code}, ${signal}): ${out} ${err}`));
      } else if (code === 0) resolve(out);
      else reject(new Error(`child exited ${code} ${signal}: ${out} ${err}`));
    });
  });
}

describe('the CLI collecting replies across kill -9', () => {
  it('prints and stores each reply once after two kills mid-collection', { timeout: 240_000 }, async () => {
    const gw = await startTestGateway();
    cleanups.push(() => gw.close());
    const acct = gw.addAccount({ number: '447700900990' });
    queueReplies(gw, '447700900990', REPLIES / 2);
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
    const dir = await mkdtemp(join(tmpdir(), 'messenger-cli-crash-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const env = {
      MESSENGER_URL: gw.url,
      MESSENGER_USERNAME: acct.username,
      MESSENGER_PIN: acct.pin,
      MESSENGER_DATA: dir,
    };

    // Kill points (the n-th store of each run): inside the first answer; in a later one, after the
    // run first stored what the killed one had spooled.
    const outputs: string[] = [];
    for (const killAt of [400, 1_500]) outputs.push(await runInbox(env, killAt));
    outputs.push(await runInbox(env));

    const left = gw.ctx.db
      .prepare('SELECT COUNT(*) AS n FROM inbound_messages WHERE collected = 0')
      .get() as {
      n: number;
    };
    expect(left.n).toBe(0);
    // Printed: each reply once over the three runs, the identical YES twenty times.
    const printed = new Map<string, number>();
    for (const l of outputs.join('').split('\n')) {
      const m = /: (reply \d+|YES)$/.exec(l);
      if (m?.[1]) printed.set(m[1], (printed.get(m[1]) ?? 0) + 1);
    }
    const wrong = [...Array(REPLIES).keys()].filter((i) => printed.get(`reply ${i}`) !== 1);
    expect(wrong).toEqual([]);
    expect(printed.get('YES')).toBe(SAME);
    // Stored: the same, in the CLI's data folder, and nothing left in its spool.
    const db = new DatabaseSync(join(dir, 'messenger.sqlite'), { readOnly: true });
    try {
      const rows = db
        .prepare("SELECT text, COUNT(*) AS n FROM messages WHERE direction = 'in' GROUP BY text")
        .all() as Array<{ text: string; n: number }>;
      const counts = new Map(rows.map((r) => [r.text, r.n]));
      expect([...Array(REPLIES).keys()].filter((i) => counts.get(`reply ${i}`) !== 1)).toEqual([]);
      expect(counts.get('YES')).toBe(SAME);
      expect((db.prepare('SELECT COUNT(*) AS n FROM reply_spool').get() as { n: number }).n).toBe(0);
    } finally {
      db.close();
    }
  });
});
