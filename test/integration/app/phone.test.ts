// Every content kind of the vCard, vCalendar, WAP push, SI, MMS and PDU editors, built by the
// editors' own draft functions, sent through the app facade to the local sandbox (the reference
// gateway in-process), and read back as the virtual phone reads it: sandbox.outbound's PDUs decoded
// with protocol/smart (buildHandsets).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync, strToU8 } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMessengerApp } from '../../../main/services/app.ts';
import type { MessengerApp } from '../../../main/services/app.ts';
import type { OutboxContent, SandboxPdu } from '../../../preload/api.ts';
import { bytesToHex, buildPortUdh, parseVCalendar, parseVCard } from '../../../protocol/smart/index.ts';
import type { DecodedContent } from '../../../protocol/smart/index.ts';
import { encodeGsm7, packSeptets } from '../../../protocol/sms.ts';
import { buildHandsets } from '../../../renderer/views/phone-model.ts';
import { fileToPicked, mmsDraft, wapPushDraft } from '../../../renderer/views/media/file-drafts.ts';
import type { MmsForm } from '../../../renderer/views/media/file-drafts.ts';
import { pduDraft, siDraft, vcalendarDraft, vcardDraft } from '../../../renderer/views/media/rich-drafts.ts';
import { draftContent } from '../../../renderer/views/media/types.ts';
import type { ContentDraft } from '../../../renderer/views/media/types.ts';

let dir: string;
let app: MessengerApp;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'messenger-phone-'));
  app = await createMessengerApp({
    dataDir: dir,
    sandbox: true,
    sandboxReceiptDelayMs: 50,
    env: {},
    log: () => {},
  });
});
afterAll(async () => {
  await app?.close();
  await rm(dir, { recursive: true, force: true });
});

async function until<T>(
  what: string,
  fn: () => Promise<T | null | undefined | false>,
  ms = 15_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== null && v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Sends a ready draft to one number and waits for the gateway's answer: accepted. */
async function send(to: string, draft: ContentDraft): Promise<void> {
  expect(draft.problems).toEqual([]);
  const content: OutboxContent = draftContent(draft);
  const sent = await app.api.send.submit({ recipients: [to], content });
  const job = await until('the answer', async () => {
    const j = await app.api.outbox.job(sent.job.id);
    return j && j.counts.pending === 0 && j.counts.sending === 0 ? j : null;
  });
  const [outcome] = await app.api.outbox.recipients(sent.job.id);
  expect(outcome?.reportText ?? '', `${draft.summary}: ${outcome?.report}`).not.toMatch(/error|invalid/i);
  expect(job.counts.accepted + job.counts.queued + job.counts.delivered).toBe(1);
}

async function allPdus(): Promise<SandboxPdu[]> {
  const out: SandboxPdu[] = [];
  let afterId = 0;
  for (;;) {
    const page = await app.api.sandbox.outbound({ afterId, limit: 7 });
    out.push(...page.items);
    if (page.next === null) return out;
    afterId = page.next;
  }
}

/** The one message the virtual phone shows for this number. */
async function received(to: string): Promise<DecodedContent> {
  const handset = buildHandsets(await allPdus()).find((h) => h.recipient === to);
  expect(handset, `a handset for ${to}`).toBeDefined();
  expect(handset!.messages).toHaveLength(1);
  const [m] = handset!.messages;
  expect(m?.complete).toBe(true);
  expect(m?.error).toBeUndefined();
  return m!.content!;
}

const mmsForm: MmsForm = {
  source: 'library',
  library: '80000',
  file: null,
  subject: '',
  disableRepurposing: false,
  disableWalledGardenRule: false,
  addSmil: '0',
};

describe('rich content through the app to the sandbox, seen on the virtual phone', () => {
  it('vCard of an address-book contact', async () => {
    const contact = await app.api.contacts.add({
      name: 'Zoë Ångström',
      number: '+44 7700 900311',
      email: 'zoe@example.org',
    });
    await send('447700900301', vcardDraft(contact, { includeEmail: true, includeNotes: false }));
    const c = await received('447700900301');
    expect(c.kind).toBe('vcard');
    const card = parseVCard((c as Extract<DecodedContent, { kind: 'vcard' }>).vcard);
    expect(card.formattedName).toBe('Zoë Ångström');
    expect(card.phones).toEqual([{ number: '+447700900311', types: ['CELL'] }]);
    expect(card.emails[0]?.address).toBe('zoe@example.org');
  });

  it('vCalendar event with UTC times and a reminder', async () => {
    const draft = vcalendarDraft({
      title: 'Board meeting',
      start: '2026-12-03T15:00',
      end: '2026-12-03T16:00',
      location: 'HQ',
      reminderMinutes: '30',
    });
    await send('447700900302', draft);
    const c = await received('447700900302');
    expect(c.kind).toBe('vcalendar');
    const [ev] = parseVCalendar((c as Extract<DecodedContent, { kind: 'vcalendar' }>).vcalendar).events;
    const start = `${new Date('2026-12-03T15:00').toISOString().slice(0, 19)}Z`;
    expect(ev).toMatchObject({ summary: 'Board meeting', location: 'HQ', start });
    expect(Date.parse(start) - Date.parse(ev!.alarm!)).toBe(30 * 60_000);
  });

  it('service indication with every si- field', async () => {
    const draft = siDraft({
      href: 'http://www.example.com/offer',
      siId: 'offer-42',
      created: '2026-11-20T10:00',
      expires: '2030-01-01T00:00',
      action: 'signal-high',
      content: 'Your offer is ready',
    });
    await send('447700900303', draft);
    const c = await received('447700900303');
    expect(c).toEqual({
      kind: 'wapPushSi',
      si: {
        href: 'http://www.example.com/offer',
        siId: 'offer-42',
        created: `${draft.fields['si-created']}Z`,
        expires: `${draft.fields['si-expires']}Z`,
        action: 'signal-high',
        text: 'Your offer is ready',
      },
    });
  });

  it('WAP push of a library file and of an uploaded file: an SI pointing at the content', async () => {
    await send(
      '447700900304',
      wapPushDraft({ source: 'library', library: '80001', file: null, message: 'A picture' }),
    );
    const lib = await received('447700900304');
    expect(lib.kind).toBe('wapPushSi');
    const libSi = (lib as Extract<DecodedContent, { kind: 'wapPushSi' }>).si;
    expect(libSi.text).toBe('A picture');
    expect(libSi.href).toMatch(/\/content\/[0-9a-f]{24}$/);
    // the link is what a handset would fetch: the gateway serves the file there
    const res = await fetch(libSi.href);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^image\//);

    const tone = Uint8Array.from([0x4d, 0x54, 0x68, 0x64, 0, 0, 0, 6, 0, 0, 0, 1, 0, 0x60]);
    const upload = wapPushDraft({
      source: 'file',
      library: '',
      file: fileToPicked('tone.mid', tone),
      message: '',
    });
    expect(upload.fields.WAPPushFileData1).toBe(bytesToHex(tone));
    await send('447700900305', upload);
    const up = await received('447700900305');
    const upSi = (up as Extract<DecodedContent, { kind: 'wapPushSi' }>).si;
    expect(upSi.text).toBe('tone.mid');
    const file = await fetch(upSi.href);
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(tone);
  });

  it('MMS notification of a library MMS and of a ZIP of parts the gateway composes', async () => {
    await send('447700900306', mmsDraft({ ...mmsForm, subject: 'Welcome' }));
    const lib = await received('447700900306');
    expect(lib.kind).toBe('mmsNotification');
    const n = (lib as Extract<DecodedContent, { kind: 'mmsNotification' }>).notification;
    expect(n).toMatchObject({ subject: 'Welcome', messageClass: 'personal' });
    expect(n.messageSize).toBeGreaterThan(0);
    expect(n.contentLocation).toMatch(/\/content\/[0-9a-f]{24}$/);

    const zip = zipSync({ 'hello.txt': strToU8('Hello from the zip') });
    const draft = mmsDraft({
      ...mmsForm,
      source: 'file',
      file: fileToPicked('parts.zip', zip),
      subject: 'Composed',
      addSmil: '1',
      disableRepurposing: true,
    });
    expect(draft.fields).toMatchObject({ AddSMIL: '1', DisableRepurposing: '1' });
    await send('447700900307', draft);
    const composed = await received('447700900307');
    const cn = (composed as Extract<DecodedContent, { kind: 'mmsNotification' }>).notification;
    expect(cn.subject).toBe('Composed');
    const mms = new Uint8Array(await (await fetch(cn.contentLocation)).arrayBuffer());
    expect(mms.length).toBe(cn.messageSize);
    expect(new TextDecoder('latin1').decode(mms)).toContain('Hello from the zip');
  });

  it('the walled-garden rule: an SI by default, the MMS notification with DisableWalledGardenRule', async () => {
    await send('447999000308', mmsDraft({ ...mmsForm, subject: 'Garden' }));
    expect((await received('447999000308')).kind).toBe('wapPushSi');
    await send('447999000309', mmsDraft({ ...mmsForm, subject: 'Garden', disableWalledGardenRule: true }));
    expect((await received('447999000309')).kind).toBe('mmsNotification');
  });

  it('PDU expert mode: 8-bit text to the vCard port, and packed GSM-7 hex', async () => {
    const vcard = 'BEGIN:VCARD\r\nVERSION:2.1\r\nN:Pdu;Test\r\nEND:VCARD\r\n';
    await send(
      '447700900310',
      pduDraft({
        dcs: 'F5',
        pid: '00',
        udh: bytesToHex(buildPortUdh(9204, 0)),
        dataMode: 'text',
        userData: '',
        text: vcard,
      }),
    );
    expect(await received('447700900310')).toEqual({ kind: 'vcard', vcard });

    const packed = bytesToHex(packSeptets(encodeGsm7('hellohello')!));
    await send(
      '447700900312',
      pduDraft({ dcs: '10', pid: '00', udh: '06050413880000', dataMode: 'hex', userData: packed, text: '' }),
    );
    // DCS 0x10: GSM-7, class 0, a flash message
    expect(await received('447700900312')).toEqual({ kind: 'flash', text: 'hellohello' });
  });

  it('refuses invalid content before anything is journaled', async () => {
    const jobs = (await app.api.outbox.jobs()).length;
    await expect(
      app.api.send.submit({
        recipients: ['447700900399'],
        content: { kind: 'wapPush', text: '', fields: { MMSFileWAP: '20000' } },
      }),
    ).rejects.toMatchObject({ code: 'invalid-request', message: expect.stringMatching(/80000 to 89999/) });
    expect((await app.api.outbox.jobs()).length).toBe(jobs);
  });

  it('pages sandbox.outbound by id, only this account', async () => {
    const all = await allPdus();
    expect(all.length).toBeGreaterThan(12);
    expect(all.map((p) => p.id)).toEqual([...all.map((p) => p.id)].sort((a, b) => a - b));
    const first = await app.api.sandbox.outbound({ limit: 3 });
    expect(first.items).toEqual(all.slice(0, 3));
    expect(first.next).toBe(all[2]?.id);
    const rest = await app.api.sandbox.outbound({ afterId: all[all.length - 2]!.id, limit: 3 });
    expect(rest).toEqual({ items: all.slice(-1), next: null });
  });
});
