// Issue 16 §3: the batching and conflict bugs, each through GatewayClient against the real reference
// gateway (test/support/gateway.ts): address books and Cc/Bcc go with exactly one request, the
// 350-recipient limit counts what the gateway counts, and conflicting inputs are refused with a
// reason instead of being resolved silently.
import { afterEach, describe, expect, it } from 'vitest';
import { sentTo, serverBook as book, startTestGateway } from '../../support/gateway.ts';
import type { TestGateway } from '../../support/gateway.ts';
import { GatewayClient, PATHS } from '../../../main/client/gateway-client.ts';
import { ValidationError } from '../../../main/client/results.ts';
import { decodeForm } from '../../../protocol/form.ts';
import { REPORT } from '../../../protocol/reports.ts';
import { bytesToHex } from '../../../protocol/smart/bytes.ts';
import { bitmapFromRows, encodeOtaBitmap } from '../../../protocol/smart/ota-bitmap.ts';
import { countingProxy } from './sockets.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function gateway(): Promise<TestGateway> {
  const gw = await startTestGateway({ credit: '500.00' });
  cleanups.push(() => gw.close());
  return gw;
}

function clientFor(gw: TestGateway, url = gw.url): GatewayClient {
  const c = new GatewayClient({ primaryUrl: url, username: gw.username, pin: gw.pin, defaultCountry: 'GB' });
  cleanups.push(() => c.close());
  return c;
}

const numbers = (n: number, from = 0): string[] =>
  Array.from({ length: n }, (_, i) => String(447400000000 + from + i));

const RTTTL = 'Tone:d=4,o=5,b=120:c,e,g';
const hex = (text: string) => bytesToHex(new TextEncoder().encode(text));

describe('address books and Cc/Bcc go with exactly one request', () => {
  it('400 numbers + a Cc book and a Bcc book: two requests, the books in one, each member charged once', async () => {
    const gw = await gateway();
    const board = numbers(3, 9000);
    const staff = numbers(2, 9100);
    book(gw, 'Board', board);
    book(gw, 'Staff', staff);
    const proxy = await countingProxy(gw.url);
    cleanups.push(() => proxy.close());
    const to = numbers(400);
    const result = await clientFor(gw, proxy.url).sendMms({
      to,
      content: { type: 'vCard', vcard: 'BEGIN:VCARD\r\nVERSION:2.1\r\nN:Lee;Ann\r\nEND:VCARD' },
      sendCcAddressBook: 'Board',
      sendBccAddressBook: 'Staff',
      sendCc: ['447400009200'],
    });
    const posts = proxy.requests.filter((r) => r.path === PATHS.sendmms).map((r) => decodeForm(r.body));
    expect(posts).toHaveLength(2);
    expect(posts.filter((f) => f.has('SendCcAddressBook'))).toHaveLength(1);
    expect(posts.filter((f) => f.has('SendBccAddressBook'))).toHaveLength(1);
    expect(posts.filter((f) => f.has('SendCc'))).toHaveLength(1);
    // the first request: 350 minus the 3 + 2 book members and the Cc number
    expect(posts[0]!.get('SendTo')!.split(',')).toHaveLength(344);
    const counts = sentTo(gw);
    for (const n of [...to, ...board, ...staff, '447400009200']) expect(counts.get(n)).toBe(1);
    expect(result.counts.accepted).toBe(400 + 3 + 2 + 1);
  });

  it('349 numbers + a 3-member book: not refused (Report 11 before), every number sent once', async () => {
    const gw = await gateway();
    const members = numbers(3, 8000);
    book(gw, 'Club', members, 'Team');
    const proxy = await countingProxy(gw.url);
    cleanups.push(() => proxy.close());
    const to = numbers(349);
    const result = await clientFor(gw, proxy.url).sendSms({ to, toAddressBook: 'Club::Team', text: 'hi' });
    expect(result.counts.rejected).toBe(0);
    expect(result.counts.accepted).toBe(352);
    const posts = proxy.requests.filter((r) => r.path === PATHS.sendsms).map((r) => decodeForm(r.body));
    expect(posts).toHaveLength(2);
    expect(posts.filter((f) => f.has('SendToAddressBook'))).toHaveLength(1);
    const counts = sentTo(gw);
    for (const n of [...to, ...members]) expect(counts.get(n)).toBe(1);
  });

  it('a book that cannot be sized goes alone: no SendTo numbers beside it', async () => {
    const gw = await gateway();
    book(gw, 'Club', numbers(2, 8000));
    const proxy = await countingProxy(gw.url);
    cleanups.push(() => proxy.close());
    // QueryAddressBook of an unknown book is a fault: its size is unknown
    const result = await clientFor(gw, proxy.url).sendSms({
      to: numbers(5),
      toAddressBook: 'Nope',
      text: 'hi',
    });
    const posts = proxy.requests.filter((r) => r.path === PATHS.sendsms).map((r) => decodeForm(r.body));
    expect(posts).toHaveLength(2);
    expect(posts[0]!.get('SendToAddressBook')).toBe('Nope');
    expect(posts[0]!.has('SendTo')).toBe(false);
    expect(posts[1]!.get('SendTo')!.split(',')).toHaveLength(5);
    expect(result.counts.accepted).toBe(5);
  });

  it('Cc/Bcc numbers and books beyond 350 are refused before anything is sent', async () => {
    const gw = await gateway();
    book(gw, 'Big', numbers(351, 5000));
    const c = clientFor(gw);
    await expect(
      c.sendMms({
        to: numbers(1),
        content: { type: 'vCard', vcard: 'BEGIN:VCARD\r\nEND:VCARD' },
        sendBccAddressBook: 'Big',
      }),
    ).rejects.toThrow(ValidationError);
    expect(sentTo(gw).size).toBe(0);
  });

  it('SOAP SubmitMessage with a text message sends its Cc and Bcc books (never accepted and dropped)', async () => {
    const gw = await gateway();
    const board = numbers(2, 7000);
    const staff = numbers(2, 7100);
    book(gw, 'Board', board);
    book(gw, 'Staff', staff);
    const r = await clientFor(gw).soapSubmitMessage({
      Recipient: { SendTo: '447400000001', SendCcAddressBook: 'Board', SendBccAddressBook: 'Staff' },
      Message: { TextMessage: 'hello' },
    });
    expect(r.outcome).toBe('ok');
    const counts = sentTo(gw);
    for (const n of ['447400000001', ...board, ...staff]) expect(counts.get(n)).toBe(1);
  });
});

describe('conflicting inputs are refused, never resolved silently', () => {
  it('SendTimeDelay with SendTimeAbsolute: the client refuses; the gateway answers Report 3 with the reason', async () => {
    const gw = await gateway();
    const c = clientFor(gw);
    await expect(
      c.sendSms({ to: numbers(1), text: 'x', sendTimeDelay: 5, sendTimeAbsolute: '2030-01-01T10:00:00' }),
    ).rejects.toThrow(/SendTimeDelay and SendTimeAbsolute/);
    // the same fields straight to the gateway (sendFormFields is not validated by the client)
    const res = await c.sendFormFields(
      'sendmms',
      {
        SendTo: '447400000001',
        vCard: 'BEGIN:VCARD\r\nEND:VCARD',
        SendTimeDelay: '5',
        SendTimeAbsolute: '2030-01-01T10:00:00',
        ResponseFormat: '3',
      },
      ['447400000001'],
    );
    expect(res.outcome).toBe('answered');
    if (res.outcome !== 'answered') return;
    expect(res.value.results[0]).toMatchObject({ status: 'rejected', report: REPORT.syntaxError });
    expect(res.value.results[0]!.text).toMatch(/SendTimeDelay and SendTimeAbsolute/);
    const soap = await c.soapSubmitMessage({
      Recipient: {
        SendTo: '447400000001',
        SendOptions: { SendTimeDelay: 5, SendTimeAbsolute: '2030-01-01T10:00:00' },
      },
      Message: { TextMessage: 'x' },
    });
    expect(soap).toMatchObject({ outcome: 'rejected', code: REPORT.syntaxError });
    expect(sentTo(gw).size).toBe(0);
  });

  it('a SOAP TextMessage with a ringtone, logo or group graphic is refused; a picture message with text is sent', async () => {
    const gw = await gateway();
    const c = clientFor(gw);
    const ringtone = await c.soapSubmitMessage({
      Recipient: { SendTo: '447400000001', PhoneMake: 'Nokia' },
      Message: { TextMessage: 'listen', Ringtone: { Data: hex(RTTTL) } },
    });
    expect(ringtone).toMatchObject({ outcome: 'rejected', code: REPORT.syntaxError });
    if (ringtone.outcome === 'rejected')
      expect(ringtone.reason).toMatch(/TextMessage cannot go with Ringtone/);
    const flash = await c.soapSubmitMessage({
      Recipient: { SendTo: '447400000001', PhoneMake: 'Nokia' },
      Message: { FlashMessage: 'now', Ringtone: { Data: hex(RTTTL) } },
    });
    expect(flash).toMatchObject({ outcome: 'rejected', code: REPORT.syntaxError });
    expect(sentTo(gw).size).toBe(0);
    const picture = bytesToHex(encodeOtaBitmap(bitmapFromRows(['#.#.', '.#.#'])));
    const withText = await c.soapSubmitMessage({
      Recipient: { SendTo: '447400000001', PhoneMake: 'Nokia' },
      Message: { TextMessage: 'see this', PictureMessage: { Data: picture } },
    });
    expect(withText.outcome).toBe('ok');
    expect(sentTo(gw).get('447400000001')).toBe(1);
  });

  it('SmartMessage/Format is honoured: RTTTL data as RTTTL is sent, RTTTL data declared OTA is refused', async () => {
    const gw = await gateway();
    const c = clientFor(gw);
    const ok = await c.soapSubmitMessage({
      Recipient: { SendTo: '447400000001', PhoneMake: 'Nokia' },
      Message: { Ringtone: { Data: hex(RTTTL), Format: 'RTTTL' } },
    });
    expect(ok.outcome).toBe('ok');
    const wrong = await c.soapSubmitMessage({
      Recipient: { SendTo: '447400000002', PhoneMake: 'Nokia' },
      Message: { Ringtone: { Data: hex(RTTTL), Format: 'OTA' } },
    });
    expect(wrong).toMatchObject({ outcome: 'rejected', code: REPORT.syntaxError });
    const logo = await c.soapSubmitMessage({
      Recipient: { SendTo: '447400000003', PhoneMake: 'Nokia', MCC: 234, MNC: 15 },
      Message: { OperatorLogo: { Data: '00', Format: 'RTTTL' } },
    });
    expect(logo).toMatchObject({ outcome: 'rejected', code: REPORT.syntaxError });
    expect([...sentTo(gw).keys()]).toEqual(['447400000001']);
  });

  it('Message and FlashMessage both: Message is sent and the response Text says so', async () => {
    const gw = await gateway();
    const r = await clientFor(gw).soapSubmitMessage({
      Recipient: { SendTo: '447400000001' },
      Message: { TextMessage: 'normal', FlashMessage: 'flash' },
    });
    expect(r.outcome).toBe('ok');
    if (r.outcome === 'ok') expect(r.value.Text).toMatch(/FlashMessage ignored.*Message is sent/);
    const row = gw.ctx.db.prepare('SELECT content FROM messages WHERE account_id = ?').get(gw.account.id) as {
      content: string;
    };
    expect(JSON.parse(row.content)).toMatchObject({ kind: 'text', text: 'normal' });
  });

  it('more than 350 recipients is Report 11 on every path', async () => {
    const gw = await gateway();
    const c = clientFor(gw);
    const many = numbers(351).join(',');
    const form = await c.sendFormFields(
      'sendmms',
      { SendTo: many, vCard: 'BEGIN:VCARD\r\nEND:VCARD', ResponseFormat: '3' },
      numbers(351),
    );
    expect(form.outcome).toBe('answered');
    if (form.outcome === 'answered') expect(form.value.results[0]!.report).toBe(REPORT.tooManyRecipients);
    const soap = await c.soapSubmitMessage({ Recipient: { SendTo: many }, Message: { TextMessage: 'x' } });
    expect(soap).toMatchObject({ outcome: 'rejected', code: REPORT.tooManyRecipients });
    const books = numbers(300, 6000);
    book(gw, 'Half', books);
    const viaBook = await c.soapSubmitMessage({
      Recipient: { SendTo: numbers(60).join(','), SendToAddressBook: 'Half' },
      Message: { TextMessage: 'x' },
    });
    expect(viaBook).toMatchObject({ outcome: 'rejected', code: REPORT.tooManyRecipients });
    expect(sentTo(gw).size).toBe(0);
  });

  it('content selection (spec 2.4) at the gateway: an .mms or a .jad as a WAP push file is refused', async () => {
    const gw = await gateway();
    const c = clientFor(gw);
    for (const name of ['show.mms', 'game.jad']) {
      const res = await c.sendFormFields(
        'sendmms',
        { SendTo: '447400000001', WAPPushFileName1: name, WAPPushFileData1: '00', ResponseFormat: '3' },
        ['447400000001'],
      );
      expect(res.outcome).toBe('answered');
      if (res.outcome !== 'answered') continue;
      expect(res.value.results[0]).toMatchObject({ status: 'rejected', report: REPORT.syntaxError });
      expect(res.value.results[0]!.text).toMatch(name.endsWith('.mms') ? /MMS notification/ : /si-href/);
    }
    expect(sentTo(gw).size).toBe(0);
  });
});
