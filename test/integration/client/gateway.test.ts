// GatewayClient against the real reference gateway on an ephemeral port (test/support/gateway.ts),
// with a counting proxy in front of it where the number of requests matters.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { messageCount, startTestGateway } from '../../support/gateway.ts';
import type { TestGateway } from '../../support/gateway.ts';
import { GatewayClient } from '../../../main/client/gateway-client.ts';
import type { GatewayClientOptions } from '../../../main/client/gateway-client.ts';
import { PushReceiver } from '../../../main/client/push-receiver.ts';
import type { DeliveryReceipt } from '../../../main/client/push-receiver.ts';
import { closedPortUrl, countingProxy } from './sockets.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

function clientFor(
  gw: { url: string; username: string; pin: string },
  extra: Partial<GatewayClientOptions> = {},
): GatewayClient {
  const c = new GatewayClient({
    primaryUrl: gw.url,
    username: gw.username,
    pin: gw.pin,
    defaultCountry: 'GB',
    ...extra,
  });
  cleanups.push(() => c.close());
  return c;
}

async function proxyFor(url: string): ReturnType<typeof countingProxy> {
  const proxy = await countingProxy(url);
  cleanups.push(() => proxy.close());
  return proxy;
}

async function gateway(opts: Parameters<typeof startTestGateway>[0] = {}): Promise<TestGateway> {
  const gw = await startTestGateway(opts);
  cleanups.push(() => gw.close());
  return gw;
}

/** Distinct valid UK mobile numbers. */
const numbers = (n: number, from = 0): string[] =>
  Array.from({ length: n }, (_, i) => String(447400000000 + from + i));

describe('campaigns against the reference gateway', () => {
  it('1,000 recipients = 3 requests, per-recipient results merged in order', async () => {
    const gw = await gateway({ credit: '100.00' });
    const proxy = await proxyFor(gw.url);
    const to = numbers(1000);
    const progress: number[] = [];
    const result = await clientFor({ ...gw, url: proxy.url }).sendSms(
      { to, text: 'Winter sale starts today' },
      { onProgress: (p) => progress.push(p.done) },
    );
    expect(proxy.byPath.get('/webservices/http/sendsms')).toBe(3);
    expect(proxy.count()).toBe(3);
    expect(result.requests).toBe(3);
    expect(progress).toEqual([350, 700, 1000]);
    expect(result.outcome).toBe('ok');
    expect(result.recipients.map((r) => r.number)).toEqual(to);
    const ids = new Set(result.recipients.map((r) => r.messageIdentifier));
    expect(ids.size).toBe(1000);
    expect(result.recipients.every((r) => r.classification === 'accepted')).toBe(true);
    expect(messageCount(gw.ctx, gw.username)).toBe(1000);
  });

  it('invalid login: one error, one request', async () => {
    const gw = await gateway();
    const proxy = await proxyFor(gw.url);
    const result = await clientFor({ url: proxy.url, username: gw.username, pin: 'wrongPIN' }).sendSms({
      to: numbers(1000),
      text: 'x',
    });
    expect(proxy.count()).toBe(1);
    expect(result.error?.code).toBe('2');
    expect(result.counts.accepted).toBe(0);
    expect(result.counts['not-sent']).toBe(650);
    expect(messageCount(gw.ctx, gw.username)).toBe(0);
  });

  it('out of credit mid-campaign: the rest reported, never retried', async () => {
    // 20.00 GBP at the Default tariff (0.04) buys 500 single-part messages.
    const gw = await gateway({ credit: '20.00' });
    const proxy = await proxyFor(gw.url);
    const result = await clientFor({ ...gw, url: proxy.url }).sendSms({ to: numbers(1000), text: 'x' });
    expect(proxy.count()).toBe(2);
    expect(result.counts.accepted).toBe(500);
    expect(result.error).toMatchObject({ code: '15', request: 2 });
    expect(result.recipients[500]!.report).toBe('15');
    expect(result.recipients[699]!.status).toBe('rejected');
    expect(result.recipients.slice(700).every((r) => r.status === 'not-sent')).toBe(true);
    await new Promise((r) => setTimeout(r, 200));
    expect(proxy.count()).toBe(2);
    // The gateway saw the 700 recipients of the two requests (200 of them refused), none of the third.
    expect(messageCount(gw.ctx, gw.username)).toBe(700);
    expect(messageCount(gw.ctx, gw.username, 'rejected')).toBe(200);
  });

  it('a closed primary fails over to the gateway as secondary', async () => {
    const gw = await gateway();
    const result = await clientFor(gw, { primaryUrl: await closedPortUrl(), secondaryUrl: gw.url }).sendSms({
      to: ['07700 900123'],
      text: 'via the secondary',
    });
    expect(result.outcome).toBe('ok');
    expect(result.recipients[0]!.server).toBe('secondary');
  });
});

describe('every operation against the reference gateway', () => {
  let gw: TestGateway;
  let client: GatewayClient;
  beforeAll(async () => {
    gw = await startTestGateway({ credit: '50.00' });
    client = new GatewayClient({
      primaryUrl: gw.url,
      username: gw.username,
      pin: gw.pin,
      defaultCountry: 'GB',
    });
  });
  afterAll(async () => {
    await client.close();
    await gw.close();
  });

  it('sendsms: flash, delay, delivery option, ReplyTo, address book', async () => {
    const r = await client.sendSms({
      to: ['07700 900123'],
      toAddressBook: 'Friends::Team',
      text: 'Flash sale ☃',
      flash: true,
      sendTimeDelay: 5,
      deliveryOption: 'Premier',
      replyTo: 'DemoShop',
    });
    expect(r.outcome).toBe('ok');
    expect(r.recipients.length).toBeGreaterThanOrEqual(3);
    expect(r.recipients[0]!.number).toBe('447700900123');
  });

  it('sendsms scheduled at an absolute time', async () => {
    const at = new Date(Date.now() + 3_600_000);
    const r = await client.sendSms({ to: ['447700900124'], text: 'later', sendTimeAbsolute: at });
    expect(r.outcome).toBe('ok');
  });

  it('an error report comes back once and is not retried', async () => {
    const proxy = await proxyFor(gw.url);
    const c = clientFor({ ...gw, url: proxy.url });
    const r = await c.sendSms({ to: ['447700900125'], text: 'x', replyTo: 'NotMine' });
    expect(r.outcome).toBe('failed');
    expect(r.recipients[0]!.status).toBe('rejected');
    expect(proxy.count()).toBe(1);
  });

  it('deprecated format one', async () => {
    const r = await client.sendSmsDeprecated({ to: ['447700900126', '447700900127'], text: 'old style' });
    expect(r.outcome).toBe('ok');
    expect(r.recipients.map((x) => x.report)).toEqual(['01', '01']);
  });

  it('sendmms: every content type', async () => {
    const to = ['447700900130'];
    const cases: Array<Parameters<GatewayClient['sendMms']>[0]> = [
      { to, phoneMake: 'Nokia', content: { type: 'pictureMessage', picture: 20000 }, message: 'Hi' },
      { to, phoneMake: 'Nokia', content: { type: 'groupGraphic', graphic: 10000 } },
      { to, phoneMake: 'Nokia', content: { type: 'operatorLogo', logo: 10001, mcc: 234, mnc: 15 } },
      { to, phoneMake: 'Nokia', content: { type: 'ringtone', ringtone: 'Beep:d=4,o=5,b=120:c,e,g,c6' } },
      {
        to,
        content: {
          type: 'vCard',
          vcard: 'BEGIN:VCARD\r\nVERSION:2.1\r\nN:Smith;Jo\r\nTEL:+447700900123\r\nEND:VCARD\r\n',
        },
      },
      {
        to,
        content: {
          type: 'vCal',
          vcal: 'BEGIN:VCALENDAR\r\nVERSION:1.0\r\nBEGIN:VEVENT\r\nDTSTART:20261224T180000Z\r\nSUMMARY:Party\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n',
        },
      },
      { to, content: { type: 'mmsNotification', libraryNumber: 80000 }, message: 'Welcome' },
      { to, content: { type: 'wapPush', libraryNumber: 80001 }, message: 'A picture' },
      {
        to,
        content: {
          type: 'serviceIndication',
          href: 'https://example.com/news',
          id: 'n1',
          content: 'News',
          action: 'signal-high',
        },
      },
      {
        to,
        content: {
          type: 'pdu',
          dataCodingScheme: 0xf5,
          protocolIdentifier: 0,
          userDataHeader: new Uint8Array([0x06, 0x05, 0x04, 0x15, 0x81, 0x00, 0x00]),
          userData: new Uint8Array([0x01, 0x02, 0x03]),
        },
      },
    ];
    for (const req of cases) {
      const r = await client.sendMms(req);
      expect({ type: req.content.type, outcome: r.outcome, text: r.recipients[0]?.text }).toMatchObject({
        type: req.content.type,
        outcome: 'ok',
      });
    }
  });

  it('sendmms: an uploaded file returns its LibraryNumber', async () => {
    const png = new Uint8Array([
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x00,
      0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4, 0x89, 0x00,
      0x00, 0x00, 0x0d, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0xf8, 0xcf, 0xc0, 0xf0, 0x1f, 0x00, 0x05,
      0x00, 0x01, 0xff, 0x89, 0x99, 0x3d, 0x1d, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42,
      0x60, 0x82,
    ]);
    const r = await client.sendMms({
      to: ['447700900131'],
      message: 'Logo',
      content: { type: 'wapPush', file: { name: 'dot.png', data: png } },
    });
    expect(r.outcome).toBe('ok');
    expect(Number(r.libraryNumber)).toBeGreaterThanOrEqual(80000);
    expect(Number(r.libraryNumber)).toBeLessThanOrEqual(89999);
  });

  it('queryaccount: credit with currency, available messages, permitted ReplyTo', async () => {
    const credit = await client.availableCredit();
    expect(credit.outcome).toBe('ok');
    if (credit.outcome === 'ok') {
      expect(credit.value.currency).toBe('GBP');
      expect(credit.value.credit).toMatch(/^\d+\.\d{4}$/);
    }
    const messages = await client.availableMessages();
    expect(messages.outcome === 'ok' && messages.value).toBeGreaterThan(0);
    const replyTo = await client.permittedReplyTo();
    expect(replyTo.outcome === 'ok' && replyTo.value).toEqual(
      expect.arrayContaining(['Messenger', 'DemoShop']),
    );
  });

  it('queryaccount with a wrong PIN is rejected with report 2', async () => {
    const c = clientFor({ url: gw.url, username: gw.username, pin: 'nope1234' });
    expect(await c.availableCredit()).toMatchObject({ outcome: 'rejected', code: '2' });
  });

  it('manageaccount: create a child, transfer funds and messages, delete it', async () => {
    const created = await client.createChildAccount({
      type: 'TRANSFER',
      email: 'kid@example.com',
      telephoneCountryCode: '44',
      mobileNumber: '447700900555',
      givenName: 'Kid',
    });
    expect(created.outcome).toBe('ok');
    if (created.outcome !== 'ok') return;
    const child = created.value;
    expect(await client.transferFunds(child.username, { currency: '1.00' })).toMatchObject({ outcome: 'ok' });
    expect(await client.transferFunds(child.username, { messages: 2 })).toMatchObject({ outcome: 'ok' });
    const childClient = clientFor({ url: gw.url, username: child.username, pin: child.pin });
    const childCredit = await childClient.availableCredit();
    expect(childCredit.outcome).toBe('ok');
    expect(await client.deleteChildAccount(child.username)).toMatchObject({ outcome: 'ok' });
    expect(await client.deleteChildAccount(child.username)).toMatchObject({ outcome: 'rejected' });
  });

  it('SOAP: AvailableCredit, AvailableMessages, PermittedReplyTo, SubmitMessage, CollectMessages, version', async () => {
    const credit = await client.soapAvailableCredit();
    expect(credit).toMatchObject({ outcome: 'ok', value: { Currency: 'GBP' } });
    expect((await client.soapAvailableMessages()).outcome).toBe('ok');
    const replyTo = await client.soapPermittedReplyTo();
    expect(replyTo.outcome === 'ok' && replyTo.value).toEqual(expect.arrayContaining(['Messenger']));
    const submitted = await client.soapSubmitMessage({
      Recipient: { SendTo: '447700900140' },
      Message: { TextMessage: 'over SOAP' },
    });
    expect(submitted.outcome).toBe('ok');
    if (submitted.outcome === 'ok') expect(submitted.value.MessageIdentifier).not.toBe('');
    const inbox = await client.collectMessages();
    expect(inbox.outcome).toBe('ok');
    if (inbox.outcome === 'ok') expect(Array.isArray(inbox.value.MessageList.item)).toBe(true);
    const version = await client.mobileMessengerVersion();
    expect(version).toMatchObject({ outcome: 'ok', value: { Version: expect.any(String) } });
  });
});

describe('push receiver with the reference gateway', () => {
  it('receives the delivery receipt of a message the client sent', async () => {
    const receiver = new PushReceiver({ username: 'pushy' });
    const url = await receiver.listen();
    cleanups.push(() => receiver.close());
    const gw = await gateway({ receiptDelayMs: 20 });
    const account = gw.addAccount({ username: 'pushy', credit: '5.00', pushUrl: url });
    const receipts: DeliveryReceipt[] = [];
    const arrived = new Promise<void>((resolve) =>
      receiver.on('receipt', (r) => {
        receipts.push(r);
        resolve();
      }),
    );
    const result = await clientFor({ url: gw.url, username: account.username, pin: account.pin }).sendSms({
      to: ['447700900150'],
      text: 'receipt please',
    });
    expect(result.outcome).toBe('ok');
    await arrived;
    expect(receipts[0]?.MessageIdentifier).toBe(result.recipients[0]!.messageIdentifier);
    expect(receipts[0]?.SentTo).toBe('447700900150');
  });
});
