import { afterEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openAppStore } from '../../../main/store/app-store.ts';
import { CRASH_REASON } from '../../../main/store/outbox-journal.ts';

const CHILD = fileURLToPath(new URL('./crash-child.ts', import.meta.url));
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

/** Run the child until it reports its ids, then kill -9 it. */
interface Ids {
  jobId: number;
  first: number;
  second: number;
  third: number;
}

function crashMidSend(file: string): Promise<Ids> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD, file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) {
        child.kill('SIGKILL');
        child.once('exit', (_code, signal) => {
          if (signal !== 'SIGKILL') reject(new Error(`child was not killed: ${signal}`));
          else resolve(JSON.parse(line) as Ids);
        });
      }
    });
    child.once('exit', (code) => {
      if (!out.includes('\n')) reject(new Error(`child exited (${code}) before the crash point: ${err}`));
    });
  });
}

describe('outbox journal across a crash', () => {
  it('turns the batch killed mid-send into unknown, stores a held answer, keeps answered ones, sends nothing again by itself', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'messenger-crash-'));
    dirs.push(dir);
    const file = join(dir, 'app.sqlite');
    const ids = await crashMidSend(file);

    const store = openAppStore(file, { defaultCountry: 'GB' });
    try {
      // Before recovery the journal shows exactly what the killed process committed: the second
      // batch answered (its answer held), the third requested.
      expect(store.outbox.batch(ids.second)?.state).toBe('sending');
      expect(store.outbox.batch(ids.third)?.state).toBe('sending');

      const recovered = store.outbox.recoverAfterCrash();
      expect(recovered.map((b) => [b.id, b.state, b.reason])).toEqual([[ids.third, 'unknown', CRASH_REASON]]);
      expect(recovered[0]?.recipients).toHaveLength(350);
      expect(store.outbox.recipientsOfBatch(ids.third).every((r) => r.status === 'unknown')).toBe(true);

      // Issue 15: the answer held for the second batch is stored as answered, not lost as unknown.
      expect(store.outbox.batch(ids.second)?.state).toBe('accepted');
      const second = store.outbox.recipientsOfBatch(ids.second);
      expect(second.every((r) => r.status === 'accepted')).toBe(true);
      expect(second[1]?.messageIdentifier).toBe('ID2-1');

      // The answered batch keeps its results; the never-claimed batch is still pending (it was never requested).
      expect(store.outbox.batch(ids.first)?.state).toBe('accepted');
      const counts = store.outbox.job(ids.jobId)?.counts;
      expect(counts).toMatchObject({ accepted: 700, unknown: 350, pending: 250, sending: 0 });
      expect(store.outbox.nextBatch()?.seq).toBe(4);
      expect(store.outbox.unknownBatches().map((b) => b.id)).toEqual([ids.third]);

      // Recovery is idempotent, and the unknown batch can never be claimed again.
      expect(store.outbox.recoverAfterCrash()).toEqual([]);
      expect(() => store.outbox.markSending(ids.third)).toThrow(/is 'unknown'/);

      // Only the user's choice sends to those recipients again, as a new job.
      const resend = store.outbox.resendToRecipients(ids.jobId, recovered[0]?.recipients ?? []);
      expect(resend).toMatchObject({ resendOf: ids.jobId, recipientCount: 350 });
    } finally {
      store.close();
    }
  });
});
