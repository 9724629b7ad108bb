// library.list against the real reference gateway: the local sandbox's public library (the same
// numbers GET /sandbox/library lists) plus the account's own uploads, and, for any other gateway,
// the numbers it returned as LibraryNumber to this app — then a library ringtone sent by number.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Jimp } from 'jimp';
import { afterEach, describe, expect, it } from 'vitest';
import { createMessengerApp } from '../../../main/services/app.ts';
import type { MessengerApp } from '../../../main/services/app.ts';
import type { LibraryItem, OutboxJob } from '../../../preload/api.ts';
import { bytesToHex } from '../../../protocol/smart/bytes.ts';
import { startTestGateway } from '../../support/gateway.ts';
import { jobFinished as finished } from '../../support/app.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function app(extra: Partial<Parameters<typeof createMessengerApp>[0]> = {}): Promise<MessengerApp> {
  const dir = await mkdtemp(join(tmpdir(), 'messenger-library-'));
  const a = await createMessengerApp({ dataDir: dir, env: {}, log: () => {}, ...extra });
  cleanups.push(async () => {
    await a.close();
    await rm(dir, { recursive: true, force: true });
  });
  return a;
}

async function wapPushUpload(a: MessengerApp, name: string): Promise<OutboxJob> {
  const png = new Uint8Array(
    await new Jimp({ width: 16, height: 16, color: 0x336699ff }).getBuffer('image/png'),
  );
  const sent = await a.api.send.submit({
    recipients: ['447700900931'],
    content: {
      kind: 'wapPush',
      text: 'A square',
      fields: { PhoneMake: 'Nokia', WAPPushFileName1: name, WAPPushFileData1: bytesToHex(png) },
    },
  });
  return finished(a, sent.job.id);
}

describe('library.list', () => {
  it('lists the sandbox library (public and own) and sends a library ringtone by number', async () => {
    const a = await app({ sandbox: true, sandboxReceiptDelayMs: 50 });
    const account = await a.api.accounts.current();
    expect(account?.sandbox).toBe(true);
    const listed = await a.api.library.list();
    const res = await fetch(`${account?.primaryUrl}/sandbox/library`);
    const publicFiles = (await res.json()) as Array<{ number: number; name: string }>;
    // Every public file the sandbox route lists, with its name, as public items of the right kinds.
    expect(listed.map((i) => i.number)).toEqual(publicFiles.map((f) => f.number));
    expect(listed.every((i) => i.owner === 'public')).toBe(true);
    expect(listed.map((i) => i.name)).toEqual(publicFiles.map((f) => f.name));
    const kinds = new Set(listed.map((i) => i.kind));
    for (const k of ['ringtone', 'operatorLogo', 'groupGraphic', 'pictureMessage'] as const)
      expect(kinds).toContain(k);
    for (const i of listed.filter((x) => x.kind === 'pictureMessage')) {
      expect(i.number).toBeGreaterThanOrEqual(20000);
      expect(i.number).toBeLessThanOrEqual(29999);
    }

    // An upload becomes the account's own library item.
    const upload = await wapPushUpload(a, 'square.png');
    expect(upload.counts.accepted + upload.counts.queued + upload.counts.delivered).toBe(1);
    const after = await a.api.library.list();
    const own = after.filter((i) => i.owner === 'own');
    expect(own).toEqual([expect.objectContaining({ kind: 'wapPush', name: 'square.png', owner: 'own' })]);

    // A public ringtone sent by its number is accepted.
    const ringtone = listed.find((i) => i.kind === 'ringtone') as LibraryItem;
    const sent = await a.api.send.submit({
      recipients: ['447700900932'],
      content: {
        kind: 'ringtone',
        text: '',
        fields: { Ringtone: String(ringtone.number), PhoneMake: 'Nokia' },
      },
    });
    const job = await finished(a, sent.job.id);
    expect(job.counts.rejected + job.counts.unknown + job.counts.failed).toBe(0);
  });

  it('for another gateway, lists the LibraryNumbers it returned to this app, per account', async () => {
    const gw = await startTestGateway({ receiptDelayMs: 50 });
    cleanups.push(() => gw.close());
    const a = await app();
    await a.api.accounts.signIn({
      username: gw.username,
      pin: gw.pin,
      primaryUrl: gw.url,
      rememberPin: false,
    });
    expect(await a.api.library.list()).toEqual([]);
    await wapPushUpload(a, 'first.png');
    await wapPushUpload(a, 'second.png');
    const stored = gw.ctx.db
      .prepare(
        "SELECT number, name FROM library_files WHERE owner_account_id IS NOT NULL AND kind = 'wap' ORDER BY number",
      )
      .all() as Array<{ number: number; name: string }>;
    expect(stored).toHaveLength(2);
    expect(await a.api.library.list()).toEqual(
      stored.map((f) => ({ number: f.number, kind: 'wapPush', name: f.name, owner: 'own' })),
    );
    // Another account on the same app sees none of them.
    const other = gw.addAccount({ username: 'other1', pin: 'pin1234' });
    await a.api.accounts.signIn({
      username: other.username,
      pin: 'pin1234',
      primaryUrl: gw.url,
      rememberPin: false,
    });
    expect(await a.api.library.list()).toEqual([]);
  });
});
