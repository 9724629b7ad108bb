// Every channel of preload/api.ts answers through the facade's generic binding (app.call), the way
// both shells call it: the storage-backed areas with real data, the gateway-backed ones signed in.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMessengerApp } from '../../../main/services/app.ts';
import type { MessengerApp } from '../../../main/services/app.ts';
import type { ApiChannel, Contact, Group, OutboxJob, SendEstimate, Template } from '../../../preload/api.ts';
import { API_CHANNELS } from '../../../preload/ipc-contract.ts';
import { postForm, startTestGateway } from '../../support/gateway.ts';
import type { TestGateway } from '../../support/gateway.ts';
import { DEMO_NUMBER } from '../../../gateway/demo.ts';

let gw: TestGateway;
let app: MessengerApp;
let dir: string;
const called = new Set<ApiChannel>();

async function call<T>(channel: ApiChannel, arg?: unknown): Promise<T> {
  called.add(channel);
  return (await app.call(channel, arg)) as T;
}

beforeAll(async () => {
  gw = await startTestGateway({ receiptDelayMs: 100 });
  dir = await mkdtemp(join(tmpdir(), 'messenger-channels-'));
  app = await createMessengerApp({ dataDir: dir, env: {}, log: () => {} });
});
afterAll(async () => {
  await app.close();
  await gw.close();
  await rm(dir, { recursive: true, force: true });
});

describe('every API channel', () => {
  it('accounts, credit, permitted ReplyTo, updates, PIN change', async () => {
    expect(await call('accounts.list')).toEqual([]);
    const account = await call<{ id: string }>('accounts.signIn', {
      username: gw.username,
      pin: gw.pin,
      primaryUrl: gw.url,
      rememberPin: false,
    });
    expect(await call('accounts.current')).toMatchObject({ id: account.id });
    expect(await call('accounts.list')).toHaveLength(1);
    expect(await call('send.permittedReplyTo')).toContain('DemoShop');
    expect(await call('credit.refresh')).toMatchObject({ currency: 'GBP', low: false });
    expect(await call('credit.get')).toMatchObject({ currency: 'GBP' });
    expect(await call('updates.check')).toMatchObject({ newer: false });
    // Not the local sandbox and nothing uploaded yet: no library number seen (library.test.ts does more).
    expect(await call('library.list')).toEqual([]);
    expect(await call('updates.status')).toMatchObject({ enabled: true, channel: 'stable', available: null });
    await expect(call('updates.download')).rejects.toMatchObject({ code: 'no-update' });
    expect(await call('updates.cancelDownload')).toBeUndefined();
    await expect(call('updates.openDownload', { reveal: false })).rejects.toMatchObject({
      code: 'not-supported',
    });
    await expect(call('accounts.changePin', { oldPin: 'not-it', newPin: 'x1234' })).rejects.toMatchObject({
      code: 'invalid-login',
    });
    await expect(
      call('accounts.changePin', { oldPin: gw.pin, newPin: 'notTheGatewayOne' }),
    ).rejects.toMatchObject({
      code: 'invalid-login',
    });
    expect(await call('settings.get')).toMatchObject({ pollIntervalSeconds: 30, defaultCountry: 'GB' });
    expect(await call('settings.update', { lowCreditThreshold: 1_000_000 })).toMatchObject({
      lowCreditThreshold: 1_000_000,
    });
    expect(await call('credit.get')).toMatchObject({ low: true });
    await expect(call('settings.update', { pollIntervalSeconds: 1 })).rejects.toMatchObject({
      code: 'invalid-input',
    });
  });

  it('contacts, groups and templates', async () => {
    const alice = await call<Contact>('contacts.add', { name: 'Alice', number: '07700 900801' });
    const edited = await call<Contact>('contacts.edit', { id: alice.id, changes: { notes: 'VIP' } });
    expect(edited.notes).toBe('VIP');
    expect(await call('contacts.get', alice.id)).toMatchObject({ name: 'Alice' });
    expect(await call('contacts.findDuplicates', '+447700900801')).toHaveLength(1);
    const csv = await call<{ added: Contact[] }>('contacts.importCsv', {
      csv: 'Name,Phone\nBob,07700 900802\nBad,12\n',
      mapping: { name: 'Name', number: 'Phone' },
    });
    expect(csv.added.map((c) => c.name)).toEqual(['Bob']);
    const vcard = await call<{ added: Contact[] }>('contacts.importVcard', {
      text: 'BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Carol\r\nTEL:+447700900803\r\nEND:VCARD\r\n',
    });
    expect(vcard.added.map((c) => c.name)).toEqual(['Carol']);
    expect(await call<string>('contacts.exportCsv')).toMatch(/Carol/);
    expect(await call('contacts.list')).toHaveLength(3);

    const group = await call<Group>('groups.create', 'Friends');
    await call('groups.addMembers', { id: group.id, contactIds: [alice.id, ...csv.added.map((c) => c.id)] });
    expect(await call('groups.members', group.id)).toHaveLength(2);
    await call('groups.removeMembers', { id: group.id, contactIds: [alice.id] });
    expect(await call('groups.rename', { id: group.id, name: 'Pals' })).toMatchObject({
      name: 'Pals',
      memberCount: 1,
    });
    expect(await call('groups.list')).toHaveLength(1);
    await call('groups.delete', group.id);
    await call('contacts.delete', alice.id);
    expect(await call('contacts.get', alice.id)).toBeNull();
    // issue 13: a bulk delete and its undo.
    const gone = await call<unknown[]>(
      'contacts.deleteMany',
      csv.added.map((c) => c.id),
    );
    expect(gone).toHaveLength(csv.added.length);
    expect(await call('contacts.restore', gone)).toBe(csv.added.length);

    const t = await call<Template>('templates.create', { name: 'Hi', text: 'Hello {name}' });
    expect(await call('templates.update', { id: t.id, text: 'Hello!' })).toMatchObject({
      name: 'Hi',
      text: 'Hello!',
    });
    expect(await call('templates.list')).toHaveLength(1);
    await call('templates.delete', t.id);
    expect(await call('templates.list')).toEqual([]);
  });

  it('send, outbox, history and inbox', async () => {
    // issue 12: what a send would cost, nothing journaled.
    const estimate = await call<SendEstimate>('send.estimate', {
      recipients: ['447700900811', '07700 900812', '447700900811', '12ab'],
      content: { kind: 'text', text: 'Channel check' },
    });
    expect(estimate).toMatchObject({ recipients: 2, duplicates: 1, invalid: 1, segments: 1, messages: 2 });
    expect(estimate.needsConfirm).toBe(false);
    expect(estimate.availableMessages).toBeGreaterThan(2);
    // issue 12: the account's Compose draft.
    expect(await call('drafts.get')).toBeNull();
    const saved = {
      numbers: ['07700 900811', 'nope'],
      contactIds: [],
      groupIds: [],
      kind: 'text',
      text: 'Half written',
      phoneMake: '',
      options: { replyTo: '', delivery: 'Economy', schedule: 'now', delay: '60', at: '' },
      entry: 'Ali',
    };
    await call('drafts.save', saved);
    expect(await call('drafts.get')).toEqual(saved);
    await expect(call('drafts.save', { ...saved, kind: 'fax' })).rejects.toMatchObject({
      code: 'bad-argument',
    });
    // A rich editor's own state rides along as JSON (nested, but not without bound).
    const rich = {
      ...saved,
      kind: 'operatorLogo',
      editor: {
        kind: 'operatorLogo',
        state: { from: 'draw', pixels: '80', mcc: '262', file: null, n: [1, { a: true }] },
      },
    };
    await call('drafts.save', rich);
    expect(await call('drafts.get')).toEqual(rich);
    const deep = { editor: { kind: 'ringtone', state: { a: [[[[[[['too deep']]]]]]] } } };
    await expect(call('drafts.save', { ...saved, ...deep })).rejects.toMatchObject({ code: 'bad-argument' });
    await call('drafts.discard');
    expect(await call('drafts.get')).toBeNull();
    // issue 12: a mail-merge text measured per recipient for Compose's counter.
    expect(
      await call('mailmerge.measure', {
        recipients: ['447700900811'],
        content: { kind: 'text', text: 'Hi {first name|you}' },
      }),
    ).toMatchObject({ merged: true, recipients: 1, longest: { text: 'Hi you', to: '447700900811' } });
    // issue 12: the opt-out list.
    expect(await call('optouts.add', ['447700900899'])).toEqual({ added: 1, invalid: [] });
    expect(await call('optouts.list')).toMatchObject([{ number: '447700900899', source: 'manual' }]);
    expect(await call('optouts.exportCsv')).toContain('447700900899,manual');
    expect(await call('optouts.remove', ['447700900899'])).toBe(1);
    // issue 12: keyword auto-reply rules.
    const rule = await call<{ id: number }>('autoreplies.create', { keyword: 'JOIN', reply: 'Welcome' });
    expect(await call('autoreplies.update', { id: rule.id, enabled: false })).toMatchObject({
      enabled: false,
    });
    expect(await call('autoreplies.list')).toMatchObject([
      { keyword: 'JOIN', reply: 'Welcome', sentToday: 0 },
    ]);
    await call('autoreplies.delete', rule.id);
    expect(await call('autoreplies.list')).toEqual([]);
    const sent = await call<{ job: OutboxJob }>('send.submit', {
      recipients: ['447700900811', '447700900812'],
      content: { kind: 'text', text: 'Channel check' },
    });
    for (let i = 0; i < 200; i++) {
      const j = await call<OutboxJob>('outbox.job', sent.job.id);
      if (j.counts.pending === 0 && j.counts.sending === 0) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(await call('outbox.jobs')).toHaveLength(1);
    expect(await call('outbox.batches', sent.job.id)).toMatchObject([{ state: 'accepted' }]);
    expect(await call('outbox.recipients', sent.job.id)).toHaveLength(2);
    expect(await call('outbox.unknownBatches')).toEqual([]);
    expect(await call('outbox.halts')).toEqual([]);
    expect(await call('outbox.cancel', sent.job.id)).toEqual([]);
    // issue 17: nothing left that was never requested
    await expect(call('outbox.continue', sent.job.id)).rejects.toMatchObject({ code: 'invalid-state' });
    await expect(call('outbox.continue', 'x')).rejects.toMatchObject({ code: 'bad-argument' });
    const again = await call<OutboxJob>('outbox.resend', { jobId: sent.job.id, numbers: ['447700900812'] });
    expect(again).toMatchObject({ resendOf: sent.job.id, recipientCount: 1 });
    const history = await call<{ items: unknown[] }>('history.messages', { filter: { jobId: sent.job.id } });
    expect(history.items).toHaveLength(2);
    // issue 12: the campaign of the first send and its resend, read from the resend
    expect(await call('campaigns.get', again.id)).toMatchObject({
      job: { id: sent.job.id },
      jobIds: [sent.job.id, again.id],
    });
    await expect(call('campaigns.resendFailed', sent.job.id)).rejects.toMatchObject({
      code: 'invalid-state',
    });
    await expect(call('campaigns.get', 'x')).rejects.toMatchObject({ code: 'bad-argument' });

    await postForm(gw.url, '/sandbox/inbound', {
      SendTo: DEMO_NUMBER,
      ReplyTo: '447700900811',
      Message: 'Got it',
    });
    expect(await call('inbox.pollNow')).toEqual({ received: 1 });
    const page = await call<{ items: Array<{ id: number; peer: string }> }>('inbox.conversations', {
      limit: 10,
    });
    const conv = page.items.find((c) => c.peer === '447700900811');
    expect(conv).toBeDefined();
    const id = conv?.id ?? 0;
    const thread = await call<{ items: Array<{ direction: string }> }>('inbox.thread', {
      conversationId: id,
    });
    expect(thread.items.map((m) => m.direction)).toContain('in');
    expect(await call('inbox.unreadTotal')).toBe(1);
    await call('inbox.markRead', id);
    expect(await call('inbox.unreadTotal')).toBe(0);
    await call('inbox.markUnread', id);
    expect(await call<string>('inbox.exportCsv', id)).toMatch(/Got it/);
    expect(await call('inbox.search', { query: 'Got' })).toMatchObject({ messages: [expect.anything()] });
    // issue 13: archive, mark all read, a number's conversation, export beyond one conversation.
    await call('inbox.setArchived', { conversationId: id, archived: true });
    expect(await call('inbox.conversations', { filter: 'archived' })).toMatchObject({ items: [{ id }] });
    await call('inbox.setArchived', { conversationId: id, archived: false });
    expect(await call('inbox.markAllRead')).toBe(1);
    expect(await call('inbox.open', page.items[0]!.peer)).toMatchObject({ id });
    expect(await call<string>('inbox.exportMessages', { query: 'Got' })).toMatch(/Got it/);
    // wait for the resend to finish before deleting its conversation
    for (let i = 0; i < 200; i++) {
      const j = await call<OutboxJob>('outbox.job', again.id);
      if (j.counts.pending === 0 && j.counts.sending === 0) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    await call('inbox.delete', id);
    await call('accounts.signOut');
    expect(await call('accounts.current')).toBeNull();
  });

  it('child accounts and the deploy policy', async () => {
    await call('accounts.signIn', {
      username: gw.username,
      pin: gw.pin,
      primaryUrl: gw.url,
      rememberPin: false,
    });
    expect(await call('policy.get')).toMatchObject({ offerSandbox: true, error: null });
    // Accounts is off until the user turns it on (issue 16)
    expect(await call('children.permitted')).toMatchObject({ permitted: false, definite: true });
    await call('settings.update', { childAccounts: true });
    expect(await call('children.permitted')).toEqual({ permitted: true, reason: null, definite: true });
    const made = await call<{ child: { username: string }; pin: string }>('children.create', {
      type: 'TRANSFER',
      email: 'child@example.com',
      telephoneCountryCode: '44',
      mobileNumber: '447700900999',
    });
    expect(await call('children.list')).toMatchObject([{ username: made.child.username }]);
    expect(
      await call('children.transfer', {
        username: made.child.username,
        direction: 'toChild',
        amount: '0.50',
      }),
    ).toMatchObject({ child: null });
    expect(await call('children.balance', { username: made.child.username, pin: made.pin })).toMatchObject({
      credit: '0.5000',
    });
    await expect(call('children.transfer', { username: 'x', direction: 'sideways' })).rejects.toMatchObject({
      code: 'bad-argument',
    });
    await call('children.delete', made.child.username);
    expect(await call('children.list')).toEqual([]);
    // issue 16: the SOAP namespace in use and the account's server address books
    expect(await call('soap.namespace')).toMatchObject({
      typesNamespace: 'http://www.csoft.co.uk/dtd/sendsms5.xsd',
      source: 'wsdl',
    });
    expect(await call<Array<{ name: string }>>('addressbooks.list')).toContainEqual(
      expect.objectContaining({ name: 'Friends', groups: [{ name: 'Team', members: 2 }] }),
    );
    await call('accounts.signOut');
  });

  it('sandbox.outbound: refused on a real gateway account, and its argument checked', async () => {
    await call('accounts.signIn', {
      username: gw.username,
      pin: gw.pin,
      primaryUrl: gw.url,
      rememberPin: false,
    });
    await expect(call('sandbox.outbound', { afterId: 0 })).rejects.toMatchObject({
      code: 'not-sandbox',
      message: expect.stringMatching(/local sandbox only/),
    });
    await expect(call('sandbox.outbound', { limit: 0 })).rejects.toMatchObject({ code: 'bad-argument' });
    await call('accounts.signOut');
  });

  it('database: status, a backup, an export; restore and a new start refused while it is not damaged', async () => {
    const status = await call<{ state: string; file: string }>('database.status');
    expect(status).toMatchObject({ state: 'ok', file: join(dir, 'messenger.sqlite') });
    const backup = await call<{ reason: string; file: string }>('database.backupNow');
    expect(backup.reason).toBe('manual');
    const exported = await call<{ folder: string; problems: string[] }>('database.exportReadable');
    expect(exported.problems).toEqual([]);
    await expect(call('database.restoreLatest')).rejects.toMatchObject({ code: 'invalid-state' });
    await expect(call('database.startNew')).rejects.toMatchObject({ code: 'invalid-state' });
    await expect(call('database.status', 1)).rejects.toMatchObject({ code: 'bad-argument' });
  });

  it('office: not in office mode; the setting read and cleared; a bad URL refused', async () => {
    expect(await call('office.status')).toBeNull();
    expect(await call('office.setting')).toMatchObject({ url: null, active: null, restartNeeded: false });
    expect(await call('office.configure', { url: null })).toMatchObject({ url: null, active: null });
    await expect(call('office.configure', { url: 'http://not-postgres/' })).rejects.toMatchObject({
      code: expect.any(String),
    });
    await expect(call('office.configure', { url: 7 })).rejects.toMatchObject({ code: 'bad-argument' });
    // issue 28: this desk's name (kept for office mode; '' gives the computer's name back)
    expect(await call('office.rename', { name: 'Front desk' })).toMatchObject({ deskName: 'Front desk' });
    expect(await call('office.rename', { name: '' })).not.toMatchObject({ deskName: 'Front desk' });
    await expect(call('office.rename', { name: 'x'.repeat(61) })).rejects.toMatchObject({
      code: 'invalid-input',
    });
    await expect(call('office.rename', {})).rejects.toMatchObject({ code: 'bad-argument' });
  });

  it('were all called', () => {
    expect(API_CHANNELS.filter((c) => !called.has(c))).toEqual([]);
  });
});
