// GatewayClient against recorded gateway answers over real HTTP (127.0.0.1, ephemeral port): request
// fields, batching, merging, whole-request errors, stop rules, cancellation, and every response format.
import { afterEach, describe, expect, it } from 'vitest';
import { SENDSMS5_PROFILE } from '../../../protocol/soap/namespaces.ts';
import { decodeForm } from '../../../protocol/form.ts';
import { buildResponseEnvelope } from '../../../protocol/soap/envelope.ts';
import { PATHS, GatewayClient } from '../../../main/client/gateway-client.ts';
import type { GatewayClientOptions } from '../../../main/client/gateway-client.ts';
import { ValidationError } from '../../../main/client/results.ts';
import { closedPortUrl, rawServer, recordedServer } from './sockets.ts';
import type { ReceivedRequest, TestServer } from './sockets.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function serve(
  respond: (req: ReceivedRequest) => string | { status: number; body: string },
): Promise<TestServer> {
  const server = await recordedServer(respond);
  cleanups.push(() => server.close());
  return server;
}

function client(url: string, extra: Partial<GatewayClientOptions> = {}): GatewayClient {
  const c = new GatewayClient({
    primaryUrl: url,
    username: 'acme.1',
    pin: 'Secret9',
    defaultCountry: 'GB',
    ...extra,
  });
  cleanups.push(() => c.destroy());
  return c;
}

/** A format 3 body as a gateway writes it: one comma-separated, URL-encoded value per recipient. */
function format3(records: Array<{ id: string; report: string; text: string }>): string {
  const join = (pick: (r: { id: string; report: string; text: string }) => string): string =>
    records.map((r) => encodeURIComponent(pick(r))).join(',');
  return `MessageIdentifier=${join((r) => r.id)}&Report=${join((r) => r.report)}&Text=${join((r) => r.text)}`;
}

function sendTo(req: ReceivedRequest): string[] {
  return (decodeForm(req.body).get('SendTo') ?? '').split(',').filter((n) => n !== '');
}

const numbers = (n: number, from = 0): string[] =>
  Array.from({ length: n }, (_, i) => `4477009${String(from + i).padStart(5, '0')}`);

describe('sendSms', () => {
  it('normalises, removes duplicates, sends one format-3 request and maps results in order', async () => {
    const server = await serve(() =>
      format3([
        { id: 'M1', report: '-3', text: 'Accepted' },
        { id: 'M2', report: '5', text: 'Barred, 100%' },
      ]),
    );
    const result = await client(server.url).sendSms({
      to: ['07700 900123', '+44 7700 900124', '447700900123'],
      text: 'Café at 3?',
      replyTo: 'DemoShop',
      deliveryOption: 'Premier',
    });
    expect(server.count()).toBe(1);
    const fields = decodeForm(server.requests[0]!.body);
    expect(fields.get('SendTo')).toBe('447700900123,447700900124');
    expect(fields.get('Message')).toBe('Café at 3?');
    expect(fields.get('ResponseFormat')).toBe('3');
    expect(fields.get('Username')).toBe('acme.1');
    expect(fields.get('PIN')).toBe('Secret9');
    expect(fields.get('ReplyTo')).toBe('DemoShop');
    expect(fields.get('DeliveryServiceOption')).toBe('Premier');
    expect(server.requests[0]!.body).toContain('Caf%C3%A9');
    expect(result.duplicatesRemoved).toBe(1);
    expect(result.requests).toBe(1);
    expect(result.outcome).toBe('failed');
    expect(result.recipients.map((r) => [r.number, r.status, r.messageIdentifier, r.report])).toEqual([
      ['447700900123', 'accepted', 'M1', '-3'],
      ['447700900124', 'rejected', 'M2', '5'],
    ]);
    expect(result.recipients[1]!.text).toContain('Barred, 100%');
    expect(result.recipients[1]!.classification).toBe('error');
  });

  it('sends flash text, schedule and address book fields', async () => {
    const server = await serve(() => format3([{ id: 'M1', report: '-2', text: 'Queued' }]));
    const result = await client(server.url).sendSms({
      to: ['447700900123'],
      text: 'Now!',
      flash: true,
      sendTimeAbsolute: new Date(Date.UTC(2026, 11, 24, 18, 30, 0)),
      toAddressBook: 'Friends::Team',
    });
    // This recorded server cannot size the book (QueryAddressBook, issue 16): the book goes alone.
    const posts = server.requests.filter((r) => r.path === PATHS.sendsms).map((r) => decodeForm(r.body));
    expect(posts).toHaveLength(2);
    for (const fields of posts) {
      expect(fields.get('FlashMessage')).toBe('Now!');
      expect(fields.has('Message')).toBe(false);
      expect(fields.get('SendTimeAbsolute')).toBe('2026-12-24T18:30:00');
    }
    expect(posts[0]!.get('SendToAddressBook')).toBe('Friends::Team');
    expect(posts[0]!.has('SendTo')).toBe(false);
    expect(posts[1]!.get('SendTo')).toBe('447700900123');
    expect(posts[1]!.has('SendToAddressBook')).toBe(false);
    expect(result.outcome).toBe('ok');
  });

  it('a campaign of 1,000 recipients is 3 requests (350, 350, 300), merged in the user order', async () => {
    let next = 0;
    const server = await serve((req) =>
      format3(sendTo(req).map((n) => ({ id: `ID${next++}`, report: '-3', text: `ok ${n}` }))),
    );
    const progress: number[] = [];
    const to = numbers(1000);
    const result = await client(server.url).sendSms(
      { to, text: 'Sale today' },
      { onProgress: (p) => progress.push(p.done) },
    );
    expect(server.requests.map((r) => sendTo(r).length)).toEqual([350, 350, 300]);
    expect(result.requests).toBe(3);
    expect(result.outcome).toBe('ok');
    expect(result.counts.accepted).toBe(1000);
    expect(result.recipients.map((r) => r.number)).toEqual(to);
    expect(result.recipients[999]!.messageIdentifier).toBe('ID999');
    expect(result.recipients[999]!.text).toContain(`ok ${to[999]}`);
    expect(result.recipients[400]!.request).toBe(2);
    expect(progress).toEqual([350, 700, 1000]);
  });

  it('invalid login is one error, not 350 copies, and the campaign stops after one request', async () => {
    const server = await serve(() => 'MessageIdentifier=-1&Report=2&Text=Invalid%20Login');
    const result = await client(server.url).sendSms({ to: numbers(1000), text: 'hi' });
    expect(server.count()).toBe(1);
    expect(result.requests).toBe(1);
    expect(result.error).toMatchObject({ code: '2', request: 1 });
    expect(result.error!.message).toMatch(/Invalid Login/i);
    expect(result.counts).toEqual({ accepted: 0, rejected: 350, unknown: 0, 'not-sent': 650 });
    expect(result.outcome).toBe('failed');
  });

  it('out of credit mid-campaign: later recipients reported, never sent or retried', async () => {
    let accepted = 0;
    const server = await serve((req) =>
      format3(
        sendTo(req).map(() =>
          accepted < 500
            ? { id: `M${accepted++}`, report: '-3', text: 'ok' }
            : { id: '', report: '15', text: 'Out of credit' },
        ),
      ),
    );
    const result = await client(server.url).sendSms({ to: numbers(1000), text: 'hi' });
    expect(server.count()).toBe(2);
    expect(result.counts).toEqual({ accepted: 500, rejected: 200, unknown: 0, 'not-sent': 300 });
    expect(result.error).toMatchObject({ code: '15', request: 2 });
    expect(result.recipients[699]!.status).toBe('rejected');
    expect(result.recipients[700]!.status).toBe('not-sent');
    expect(result.recipients[700]!.text).toMatch(/stopped after request 2/);
  });

  it('an error report makes exactly one request', async () => {
    const server = await serve(() => format3([{ id: 'X', report: '11', text: 'Rejected' }]));
    const result = await client(server.url).sendSms({ to: ['447700900123'], text: 'x' });
    expect(result.outcome).toBe('failed');
    expect(result.recipients[0]!.status).toBe('rejected');
    await new Promise((r) => setTimeout(r, 100));
    expect(server.count()).toBe(1);
  });

  it('an unknown report code keeps the server text and is "unknown", not accepted', async () => {
    const server = await serve(() => 'MessageIdentifier=Q1&Report=123&Text=Brand%20new%20state&Future=x');
    const result = await client(server.url).sendSms({ to: ['447700900123'], text: 'x' });
    expect(result.recipients[0]).toMatchObject({
      status: 'unknown',
      report: '123',
      classification: 'unknown',
    });
    expect(result.recipients[0]!.text).toContain('Brand new state');
    expect(result.outcome).toBe('unknown');
  });

  it('reads a format 0 line from a gateway that ignored ResponseFormat', async () => {
    const server = await serve(() => '171 - Invalid login');
    const result = await client(server.url).sendSms({ to: numbers(3), text: 'x' });
    expect(result.error?.code).toBe('171');
    expect(result.counts.rejected).toBe(3);
  });

  it('HTTP 500 is unknown, and nothing is sent again', async () => {
    const server = await serve(() => ({ status: 500, body: 'oops' }));
    const result = await client(server.url).sendSms({ to: numbers(700), text: 'x' });
    expect(server.count()).toBe(1);
    expect(result.outcome).toBe('unknown');
    expect(result.counts).toEqual({ accepted: 0, rejected: 0, unknown: 350, 'not-sent': 350 });
  });

  it('validates everything before sending: all problems at once, nothing sent', async () => {
    const server = await serve(() => 'unused');
    const c = client(server.url);
    const err = await c
      .sendSms({ to: ['447700900123', 'call me', '0123'], text: 'x', sendTimeDelay: 20000 })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(ValidationError);
    const problems = (err as ValidationError).problems;
    expect(problems.filter((p) => p.rule === 'msisdn').map((p) => p.value)).toEqual(['call me', '0123']);
    expect(problems.some((p) => p.field === 'SendTimeDelay')).toBe(true);
    expect(server.count()).toBe(0);
  });

  it('cancellation between requests: the request in flight completes, the rest is not sent', async () => {
    const server = await serve((req) =>
      format3(sendTo(req).map(() => ({ id: 'M', report: '-3', text: 'ok' }))),
    );
    const controller = new AbortController();
    const result = await client(server.url).sendSms(
      { to: numbers(1000), text: 'x' },
      { signal: controller.signal, onProgress: () => controller.abort() },
    );
    expect(server.count()).toBe(1);
    expect(result.cancelled).toBe(true);
    expect(result.counts).toEqual({ accepted: 350, rejected: 0, unknown: 0, 'not-sent': 650 });
  });

  it('a stalled primary in a campaign: unknown, secondary never called, campaign stopped', async () => {
    const primary = await rawServer('stall');
    cleanups.push(() => primary.close());
    const secondary = await serve(() => 'unused');
    const result = await client(primary.url, { secondaryUrl: secondary.url, responseTimeoutMs: 300 }).sendSms(
      {
        to: numbers(700),
        text: 'x',
      },
    );
    expect(result.outcome).toBe('unknown');
    expect(result.counts).toEqual({ accepted: 0, rejected: 0, unknown: 350, 'not-sent': 350 });
    expect(result.recipients[0]!.text).toMatch(/may have been sent/);
    expect(primary.count()).toBe(1);
    expect(secondary.count()).toBe(0);
  });

  it('a closed primary fails over to the secondary for every request of a campaign', async () => {
    const secondary = await serve((req) =>
      format3(sendTo(req).map(() => ({ id: 'S', report: '-3', text: 'ok' }))),
    );
    const result = await client(await closedPortUrl(), { secondaryUrl: secondary.url }).sendSms({
      to: numbers(400),
      text: 'x',
    });
    expect(result.outcome).toBe('ok');
    expect(secondary.count()).toBe(2);
    expect(result.recipients.every((r) => r.server === 'secondary')).toBe(true);
  });
});

describe('deprecated format one', () => {
  it('sends UN, PIN, M, N and reads the bare code', async () => {
    const server = await serve(() => '01');
    const result = await client(server.url).sendSmsDeprecated({
      to: ['447700900123', '447700900124'],
      text: 'old',
    });
    const fields = decodeForm(server.requests[0]!.body);
    expect(fields.names()).toEqual(['UN', 'PIN', 'M', 'N']);
    expect(fields.get('N')).toBe('447700900123,447700900124');
    expect(result.outcome).toBe('ok');
  });

  it('99 is invalid login, 97 leaves every recipient unknown', async () => {
    const bad = await serve(() => '99');
    expect((await client(bad.url).sendSmsDeprecated({ to: ['447700900123'], text: 'x' })).error?.code).toBe(
      '99',
    );
    const partial = await serve(() => '97');
    const r = await client(partial.url).sendSmsDeprecated({
      to: ['447700900123', '447700900124'],
      text: 'x',
    });
    expect(r.outcome).toBe('unknown');
    expect(r.recipients[0]!.text).toMatch(/does not say which/);
  });
});

describe('sendMms', () => {
  it('uploads a WAP push file hex-encoded and returns the LibraryNumber', async () => {
    const server = await serve(() => 'MessageIdentifier=W1&Report=-3&Text=Accepted&LibraryNumber=80042');
    const result = await client(server.url).sendMms({
      to: ['447700900123'],
      message: 'Our logo',
      content: {
        type: 'wapPush',
        file: { name: 'logo.png', data: new Uint8Array([0x89, 0x50, 0x4e, 0x47]) },
      },
    });
    const fields = decodeForm(server.requests[0]!.body);
    expect(server.requests[0]!.path).toBe('/webservices/http/sendmms');
    expect(fields.get('WAPPushFileName1')).toBe('logo.png');
    expect(fields.get('WAPPushFileData1')).toBe('89504E47');
    expect(fields.get('Message')).toBe('Our logo');
    expect(result.libraryNumber).toBe('80042');
    expect(result.recipients[0]!.libraryNumber).toBe('80042');
  });

  it('sends an operator logo with MCC, MNC and PhoneMake', async () => {
    const server = await serve(() => 'MessageIdentifier=O1&Report=-3&Text=Accepted');
    await client(server.url).sendMms({
      to: ['447700900123'],
      phoneMake: 'Nokia',
      content: { type: 'operatorLogo', logo: 10001, mcc: 234, mnc: 15 },
    });
    const fields = decodeForm(server.requests[0]!.body).toRecord();
    expect(fields).toMatchObject({ OperatorLogo: '10001', MCC: '234', MNC: '15', PhoneMake: 'Nokia' });
  });
});

describe('queryaccount and manageaccount', () => {
  it('reads credit in both shapes, messages and the ReplyTo list', async () => {
    const answers: Record<string, string> = {
      AvailableCredit: 'Currency=GBP&AvailableCredit=12.3400',
      AvailableMessages: 'AvailableMessages=308',
      PermittedReplyTo: 'PermittedReplyTo=Messenger%2CDemoShop%2C447700900001',
    };
    const server = await serve((req) => answers[decodeForm(req.body).names()[2]!] ?? '');
    const c = client(server.url);
    expect(await c.availableCredit()).toMatchObject({
      outcome: 'ok',
      value: { currency: 'GBP', credit: '12.3400' },
    });
    expect(decodeForm(server.requests[0]!.body).get('AvailableCredit')).toBe('');
    expect(await c.availableMessages()).toMatchObject({ outcome: 'ok', value: 308 });
    const replyTo = await c.permittedReplyTo();
    expect(replyTo).toMatchObject({ outcome: 'ok', value: ['Messenger', 'DemoShop', '447700900001'] });

    answers.AvailableCredit = 'AvailableCredit=UKL%2012.3400';
    expect(await c.availableCredit()).toMatchObject({
      outcome: 'ok',
      value: { currency: 'UKL', credit: '12.3400' },
    });
  });

  it('invalid login on a query is rejected with code 2', async () => {
    const server = await serve(() => 'MessageIdentifier=-1&Report=2&Text=Invalid%20Login');
    const r = await client(server.url).availableCredit();
    expect(r).toMatchObject({ outcome: 'rejected', code: '2' });
  });

  it('creates, deletes and transfers to a child account', async () => {
    const server = await serve((req) => {
      const f = decodeForm(req.body);
      if (f.has('CreateChildAccountType')) return 'Report=0&Username=acme.2&PIN=Kid123';
      if (f.get('DeleteChildAccountUsername') === 'nobody') return 'Report=2&Text=Not%20your%20child';
      return 'Report=0';
    });
    const c = client(server.url);
    const created = await c.createChildAccount({
      type: 'TRANSFER',
      email: 'kid@example.com',
      telephoneCountryCode: '44',
      mobileNumber: '447700900555',
    });
    expect(created).toMatchObject({ outcome: 'ok', value: { username: 'acme.2', pin: 'Kid123' } });
    expect(await c.transferFunds('acme.2', { currency: '5.00' })).toMatchObject({ outcome: 'ok' });
    expect(decodeForm(server.requests[1]!.body).get('TransferCurrencyAmount')).toBe('5.00');
    expect(await c.transferFunds('acme.2', { messages: 10 })).toMatchObject({ outcome: 'ok' });
    expect(await c.deleteChildAccount('nobody')).toMatchObject({ outcome: 'rejected', code: '2' });
    expect(server.requests.every((r) => r.path === '/webservices/http/manageaccount')).toBe(true);
  });
});

describe('SOAP', () => {
  it('posts envelopes to /sendsms5 and reads typed responses and faults', async () => {
    const server = await serve((req) => {
      if (req.body.includes('AvailableCredit')) {
        return buildResponseEnvelope('AvailableCredit', { Currency: 'GBP', Credit: '9.5000' });
      }
      if (req.body.includes('MobileMessengerVersion')) {
        return buildResponseEnvelope('MobileMessengerVersion', {
          Version: '1.2.0',
          ReleaseNotice: 'Faster',
          DownloadURL: 'https://example.invalid/d',
          ReleaseDate: '2026-01-01T00:00:00Z',
        });
      }
      if (req.body.includes('SubmitMessage')) {
        return buildResponseEnvelope('SubmitMessage', {
          MessageIdentifier: '',
          Report: '15',
          Text: 'Out of credit',
        });
      }
      return {
        status: 500,
        body: '<?xml version="1.0"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault><faultcode>soap:Client</faultcode><faultstring>bad</faultstring></soap:Fault></soap:Body></soap:Envelope>',
      };
    });
    const c = client(server.url);
    expect(await c.soapAvailableCredit()).toMatchObject({
      outcome: 'ok',
      value: { Currency: 'GBP', Credit: '9.5000' },
    });
    // the client first asks for the gateway's WSDL (issue 16); this server has none: the provider's values
    const posts = server.requests.filter((r) => r.method === 'POST');
    expect(server.requests.filter((r) => r.method === 'GET').map((r) => r.path)).toEqual([
      '/sendsms5?wsdl',
      '/dtd/sendsms5.wsdl',
    ]);
    expect(await c.soapNamespace()).toMatchObject({ source: 'provider', profile: SENDSMS5_PROFILE });
    expect(posts[0]!.path).toBe('/sendsms5');
    expect(posts[0]!.headers['content-type']).toBe('text/xml; charset=utf-8');
    expect(posts[0]!.headers.soapaction).toBe('""');
    expect(posts[0]!.body).toContain(SENDSMS5_PROFILE.typesNamespace);
    expect(await c.mobileMessengerVersion()).toMatchObject({ outcome: 'ok', value: { Version: '1.2.0' } });
    expect(
      await c.soapSubmitMessage({ Recipient: { SendTo: '447700900123' }, Message: { TextMessage: 'x' } }),
    ).toMatchObject({ outcome: 'rejected', code: '15' });
    expect(await c.collectMessages()).toMatchObject({ outcome: 'rejected', code: 'soap:Client' });
  });
});
