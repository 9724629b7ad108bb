// Issue 25 with issue 24: the app stores a collected answer from its reply spool, so the spool must
// know the answer's encoding when only the HTTP Content-Type gave it (ISO-8859-1, no XML declaration):
// the charset is kept with the spool entry (app migration 046). Before, the app read such an answer
// from the spool as UTF-8 and stored "Gr��e".
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { createMessengerApp } from '../../../main/services/app.ts';
import { foreignCollectAnswer, foreignServer } from '../../support/foreign-server.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

describe("a collected answer's HTTP charset", () => {
  it('is kept with its spool entry: the app stores the text as sent', async () => {
    const greeting = [{ from: '447700900301', text: 'Grüße aus Köln', at: '2026-11-27T08:00:00Z' }];
    const xml = foreignCollectAnswer(greeting).replace('<?xml version="1.0" encoding="utf-8"?>\n', '');
    let collects = 0;
    const server = await foreignServer((r) => {
      if (r.path.includes('queryaccount'))
        return { contentType: 'text/plain', body: 'Currency=GBP&AvailableCredit=5.0000' };
      if (r.method === 'POST' && r.body.toString('utf8').includes('CollectMessages'))
        return collects++ === 0
          ? { contentType: 'text/xml; charset=ISO-8859-1', body: Buffer.from(xml, 'latin1') }
          : { body: foreignCollectAnswer([]) };
      return { status: 404, contentType: 'text/plain', body: 'not here' };
    });
    cleanups.push(() => server.close());
    const dir = await mkdtemp(join(tmpdir(), 'messenger-charset-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const a = await createMessengerApp({ dataDir: dir, env: {}, log: () => {} });
    await a.api.accounts.signIn({
      username: 'acme.1',
      pin: 'Secret9',
      primaryUrl: server.url,
      rememberPin: false,
    });
    expect((await a.api.inbox.pollNow()).received).toBe(1);
    await a.close();
    const db = new DatabaseSync(join(dir, 'messenger.sqlite'), { readOnly: true });
    try {
      expect(db.prepare("SELECT text FROM messages WHERE direction = 'in'").all()).toEqual([
        { text: 'Grüße aus Köln' },
      ]);
    } finally {
      db.close();
    }
  });
});
