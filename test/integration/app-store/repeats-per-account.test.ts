// Issue 24 meets issue 25: a gateway that keeps collected messages answers a new run with them again,
// and the reply intake leaves out what an earlier answer kept (ReplySpool.collectedCopies). What
// another account collected is no repeat of this account's: an identical reply (same sender, number,
// second and text) collected for account B after account A's is B's own, and is stored.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildResponseEnvelope } from '../../../protocol/soap/envelope.ts';
import type { MOMessage } from '../../../protocol/soap/operations.ts';
import { openAppStore } from '../../../main/store/app-store.ts';
import type { OpenedAppStore } from '../../../main/store/app-store.ts';
import { createReplyIntake } from '../../../main/services/reply-intake.ts';

let dir: string;
let store: OpenedAppStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'repeats-account-'));
  store = openAppStore(join(dir, 'messenger.sqlite'), { defaultCountry: 'GB' });
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const yes: MOMessage = {
  SendTo: '447700900999',
  ReplyTo: '447700900123',
  Timestamp1: '2026-11-27T09:00:00Z',
  Message: { TextMessage: 'YES' },
};

function collect(account: { id: string; username: string }): number {
  const intake = createReplyIntake({
    store,
    emit: () => {},
    log: () => {},
    announce: () => {},
    minFreeBytes: 0,
    repeatsAcrossRuns: true,
  });
  const a = intake.collect(account);
  a.raw(Buffer.from(buildResponseEnvelope('CollectMessages', { Report: 0, MessageList: { item: [yes] } })));
  return a.finish();
}

describe('collect repeats across runs, per account', () => {
  it("stores account B's reply identical to one account A collected", () => {
    const a = { id: 'acct-a', username: 'parent' };
    const b = { id: 'acct-b', username: 'child' };
    expect(collect(a)).toBe(1);
    expect(collect(a)).toBe(0); // A's gateway answering again with what it kept: a repeat
    expect(collect(b)).toBe(1);
    expect(store.conversations.byPeer(b.id, '447700900123')?.unreadCount).toBe(1);
    expect(store.conversations.byPeer(a.id, '447700900123')?.unreadCount).toBe(1);
  });
});
