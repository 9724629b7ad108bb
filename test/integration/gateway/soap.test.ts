// The SOAP endpoint over real HTTP: the eight operations at /sendsms5 and /sendsms2, the WSDL, and the
// faults for everything that is not a valid envelope (malformed XML, DOCTYPE/XXE, entity bombs, wrong
// namespace, unknown operation, schema errors, oversize), with nothing charged or stored by a fault.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRequestEnvelope, parseFault, parseResponseEnvelope } from '../../../protocol/soap/envelope.ts';
import { SENDSMS2_PROFILE, SOAP_NAMESPACE, SOAP_TYPES_NAMESPACE } from '../../../protocol/soap/namespaces.ts';
import type {
  Message,
  Recipient,
  SoapOperation,
  SoapRequests,
  SoapResponses,
} from '../../../protocol/soap/operations.ts';
import type { SoapProfile } from '../../../protocol/soap/namespaces.ts';
import { startTestGateway } from '../../support/gateway.ts';
import type { TestGateway } from '../../support/gateway.ts';
import { DEMO_NUMBER } from '../../../gateway/demo.ts';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway({ sandbox: true, credit: '10.00', receiptDelayMs: 20 });
});
afterAll(async () => {
  await gw.close();
});

async function post(path: string, body: string, contentType = 'text/xml; charset=utf-8') {
  const res = await fetch(gw.url + path, {
    method: 'POST',
    headers: { 'content-type': contentType, soapaction: '""' },
    body,
  });
  return { status: res.status, body: await res.text(), type: res.headers.get('content-type') ?? '' };
}

async function call<K extends SoapOperation>(
  op: K,
  req: SoapRequests[K],
  path = '/sendsms5',
  profile?: SoapProfile,
): Promise<SoapResponses[K]> {
  const res = await post(path, buildRequestEnvelope(op, req, profile));
  expect(res.status, res.body).toBe(200);
  expect(res.type).toContain('xml');
  return parseResponseEnvelope(op, res.body);
}

function credit(): number {
  return (
    gw.ctx.db.prepare('SELECT credit FROM accounts WHERE id = ?').get(gw.account.id) as { credit: number }
  ).credit;
}
function messageCount(): number {
  return (gw.ctx.db.prepare('SELECT COUNT(*) AS n FROM messages').get() as { n: number }).n;
}

async function expectFault(body: string, pattern: RegExp, path = '/sendsms5') {
  const before = { credit: credit(), messages: messageCount() };
  const res = await post(path, body);
  expect(res.status).toBe(200); // a fault, but HTTP never 5xx (docs/GATEWAY.md)
  const fault = parseFault(res.body);
  expect(fault?.code).toBe('Client');
  expect(fault?.faultstring).toMatch(pattern);
  expect({ credit: credit(), messages: messageCount() }).toEqual(before);
}

const auth = () => ({ Username: gw.username, PIN: gw.pin });

describe('operations', () => {
  it('MobileMessengerVersion serves the configured release without credentials', async () => {
    const res = await call('MobileMessengerVersion', {});
    const rel = gw.ctx.config.release;
    expect(res).toMatchObject({
      Version: rel.version,
      ReleaseNotice: rel.releaseNotice,
      DownloadURL: rel.downloadUrl,
    });
    expect(Date.parse(res.ReleaseDate)).toBe(Date.parse(rel.releaseDate));
  });

  it('AvailableCredit, AvailableMessages and PermittedReplyTo answer for the account', async () => {
    expect(await call('AvailableCredit', auth())).toMatchObject({
      Currency: 'GBP',
      Credit: (credit() / 10_000).toFixed(4),
    });
    const msgs = await call('AvailableMessages', auth());
    expect(Number(msgs.Messages)).toBe(Math.floor(credit() / 500));
    const reply = await call('PermittedReplyTo', auth());
    expect(reply.PermittedReplyTo.split(',')).toEqual(
      expect.arrayContaining([gw.ctx.config.defaultReplyTo, 'DemoShop']),
    );
  });

  it('an invalid login is a client fault on the queries and Report 2 where a Report exists', async () => {
    const res = await post(
      '/sendsms5',
      buildRequestEnvelope('AvailableCredit', { Username: gw.username, PIN: 'nope' }),
    );
    expect(res.status).toBe(200);
    expect(parseFault(res.body)?.faultstring).toMatch(/invalid login/i);
    expect(await call('CollectMessages', { Username: 'ghost', PIN: 'x' })).toMatchObject({ Report: 2 });
    const sub = await call('SubmitMessage', {
      Username: gw.username,
      PIN: 'bad',
      Recipient: { SendTo: '447700900200' },
      Message: { TextMessage: 'x' },
    });
    expect(sub.Report).toBe('2');
  });

  it('SubmitMessage sends text through the same pipeline as the form API and charges per part', async () => {
    const before = credit();
    const res = await call('SubmitMessage', {
      ...auth(),
      Recipient: {
        SendTo: '447700900201',
        SendBcc: '447700900202',
        SendOptions: { DeliveryOption: 'Economy' },
      },
      Message: { TextMessage: 'Hello over SOAP' },
      ReplyTo: 'DemoShop',
    });
    expect(res.Report).toBe('-3');
    expect(res.MessageIdentifier).toMatch(/^[0-9A-Z]{1,15}$/);
    expect(before - credit()).toBe(2 * 250);
    const row = gw.ctx.db
      .prepare('SELECT recipient, reply_to, status FROM messages WHERE message_identifier = ?')
      .get(res.MessageIdentifier) as {
      recipient: string;
      reply_to: string;
    };
    expect(row).toMatchObject({ recipient: '447700900202', reply_to: 'DemoShop' });
  });

  it('SubmitMessage reports a validation error with nothing charged', async () => {
    const before = { credit: credit(), messages: messageCount() };
    const res = await call('SubmitMessage', {
      ...auth(),
      Recipient: { SendTo: '447700900203', SendOptions: { SendTimeDelay: 20000 } },
      Message: { TextMessage: 'late' },
    });
    expect(res.Report).not.toBe('-3');
    expect(res.Text).toMatch(/SendTimeDelay/);
    expect({ credit: credit(), messages: messageCount() }).toEqual(before);
  });

  it('SubmitMessage with SendTimeDelay is queued (-2)', async () => {
    const res = await call('SubmitMessage', {
      ...auth(),
      Recipient: { SendTo: '447700900204', SendOptions: { SendTimeDelay: 5 } },
      Message: { FlashMessage: 'later' },
    });
    expect(res.Report).toBe('-2');
  });

  it('SubmitMessage uploads a WAP push file and returns its LibraryNumber', async () => {
    const res = await call('SubmitMessage', {
      ...auth(),
      Recipient: { SendTo: '447700900205', PhoneMake: 'Nokia' },
      Message: {
        WAPPush: {
          FileUpload: { FileName1: 'tune.amr', FileData1: '2321414d520a3c', TextMessage1: 'Your tune' },
        },
      },
    });
    expect(res.Report).toBe('-3');
    expect(res.LibraryNumber).toBeGreaterThanOrEqual(80000);
    expect(res.LibraryNumber).toBeLessThanOrEqual(89999);
  });

  it('DeliverMessage queues inbound for the account whose number is SendTo; CollectMessages hands it out once', async () => {
    const d = await call('DeliverMessage', {
      ...auth(),
      Recipient: { SendTo: DEMO_NUMBER },
      Message: { TextMessage: 'Ünïcödé reply' },
      ReplyTo: '447700900999',
      Timestamp1: '2026-03-04T05:06:07Z',
    });
    expect(d.Report).toBe(0);
    // an account without the operator permission cannot inject into another account's queue
    const plain = gw.addAccount({ credit: '1.00', number: '447700900998' });
    const intrude = await call('DeliverMessage', {
      Username: plain.username,
      PIN: plain.pin,
      Recipient: { SendTo: DEMO_NUMBER },
      Message: { TextMessage: 'spoof' },
      ReplyTo: '447700900999',
    });
    expect(intrude.Report).not.toBe(0);
    const own = await call('DeliverMessage', {
      Username: plain.username,
      PIN: plain.pin,
      Recipient: { SendTo: '447700900998' },
      Message: { TextMessage: 'to myself' },
      ReplyTo: '447700900999',
    });
    expect(own.Report).toBe(0);
    const unknown = await call('DeliverMessage', {
      ...auth(),
      Recipient: { SendTo: '449999999999' },
      Message: { TextMessage: 'x' },
      ReplyTo: '447700900999',
    });
    expect(unknown.Report).not.toBe(0);
    const first = await call('CollectMessages', auth());
    expect(first.Report).toBe(0);
    expect(first.MessageList.item).toHaveLength(1);
    expect(first.MessageList.item[0]).toMatchObject({
      SendTo: DEMO_NUMBER,
      ReplyTo: '447700900999',
      Message: { TextMessage: 'Ünïcödé reply' },
    });
    expect(Date.parse(first.MessageList.item[0]!.Timestamp1)).toBe(Date.parse('2026-03-04T05:06:07Z'));
    expect((await call('CollectMessages', auth())).MessageList.item).toHaveLength(0);
  });

  it('SubmitDeliveryReceipt is stored against the MessageIdentifier of the caller', async () => {
    const sent = await call('SubmitMessage', {
      ...auth(),
      Recipient: { SendTo: '447700900206' },
      Message: { TextMessage: 'r' },
    });
    const r = await call('SubmitDeliveryReceipt', {
      ...auth(),
      Timestamp1: '2026-01-01T00:00:00Z',
      SentTo: '447700900206',
      MessageIdentifier: sent.MessageIdentifier,
      Report: 0,
    });
    expect(r).toMatchObject({ MessageIdentifier: sent.MessageIdentifier, Report: 0 });
    const stored = gw.ctx.db
      .prepare("SELECT report FROM delivery_receipts WHERE message_identifier = ? AND source = 'soap'")
      .all(sent.MessageIdentifier);
    expect(stored).toEqual([{ report: 0 }]);
    // another account cannot file receipts for it
    const other = gw.addAccount({ credit: '1.00' });
    const foreign = await call('SubmitDeliveryReceipt', {
      Username: other.username,
      PIN: other.pin,
      Timestamp1: '2026-01-01T00:00:00Z',
      MessageIdentifier: sent.MessageIdentifier,
      Report: 5,
    });
    expect(foreign.Report).not.toBe(0);
  });

  it('/sendsms2 serves the same operations in the older namespace and refuses the new one', async () => {
    const res = await call('AvailableCredit', auth(), '/sendsms2', SENDSMS2_PROFILE);
    expect(res.Currency).toBe('GBP');
    await expectFault(buildRequestEnvelope('AvailableCredit', auth()), /namespace/, '/sendsms2');
    await expectFault(
      buildRequestEnvelope('AvailableCredit', auth(), SENDSMS2_PROFILE),
      /namespace/,
      '/sendsms5',
    );
  });
});

describe('SubmitMessage with every Message choice', () => {
  const ota = (w: number, h: number) => {
    const bytes = [0x00, w, h, 0x01, ...new Array<number>(Math.ceil((w * h) / 8)).fill(0xaa)];
    return Buffer.from(bytes).toString('hex');
  };
  const cases: Array<[string, Recipient, Message, string]> = [
    [
      'Ringtone (RTTTL as hex)',
      { PhoneMake: 'Nokia' },
      { Ringtone: { Data: Buffer.from('Soap:d=4,o=5,b=120:c,d,e').toString('hex'), Format: 'RTTTL' } },
      'ringtone',
    ],
    ['Ringtone (library)', { PhoneMake: 'Nokia' }, { Ringtone: { LibraryNumber: 30001 } }, 'ringtone'],
    [
      'OperatorLogo (hex OTA)',
      { PhoneMake: 'Nokia', MCC: 262, MNC: 1 },
      { OperatorLogo: { Data: ota(72, 14), Format: 'OTA' } },
      'operatorLogo',
    ],
    [
      'PictureMessage (library) with text',
      { PhoneMake: 'Nokia' },
      { PictureMessage: { LibraryNumber: 20000 }, TextMessage: 'Look' },
      'pictureMessage',
    ],
    [
      'GroupGraphic (hex OTA)',
      { PhoneMake: 'Nokia' },
      { GroupGraphic: { Data: ota(72, 14) } },
      'groupGraphic',
    ],
    [
      'SmsSubmitPdu',
      {},
      {
        SmsSubmitPdu: {
          DataCodingScheme: 'f5',
          ProtocolIdentifier: '00',
          UserDataHeader: '060504158a0000',
          UserData: '0102',
        },
      },
      'binary',
    ],
    [
      'WAPPush SimplePush',
      {},
      { WAPPush: { SimplePush: { LibraryNumber: 80001, TextMessage: 'Picture' } } },
      'wapPushSi',
    ],
    [
      'WAPPush si',
      {},
      {
        WAPPush: {
          si: {
            indication: {
              href: 'http://wap.example/x',
              'si-id': 'a1',
              action: 'signal-delete',
              content: 'Gone',
            },
            info: [],
          },
        },
      },
      'wapPushSi',
    ],
    [
      'MMSNotification library',
      {},
      { MMSNotification: { LibraryNumber: { LibraryNumber: 80000, TextMessage: 'Hello' } } },
      'mmsNotification',
    ],
    [
      'MMSNotification upload (.mms)',
      {},
      { MMSNotification: { FileUpload: { FileName1: 'again.mms', FileData1: '' } } },
      'mmsNotification',
    ],
  ];
  for (const [name, recipient, message, kind] of cases) {
    it(name, async () => {
      if (message.MMSNotification?.FileUpload) {
        const seed = gw.ctx.db.prepare('SELECT bytes FROM library_files WHERE number = 80000').get() as {
          bytes: Uint8Array;
        };
        message.MMSNotification.FileUpload.FileData1 = Buffer.from(seed.bytes).toString('hex');
      }
      const res = await call('SubmitMessage', {
        ...auth(),
        Recipient: { SendTo: '447700900250', ...recipient },
        Message: message,
      });
      expect(res.Report, res.Text).toBe('-3');
      const pdus = (await (
        await fetch(`${gw.url}/sandbox/outbound?messageIdentifier=${res.MessageIdentifier}`)
      ).json()) as Array<{
        summary: { content: { kind: string; si?: { action?: string } } };
      }>;
      expect(pdus[0]!.summary.content.kind).toBe(kind);
      if (name === 'WAPPush si') expect(pdus[0]!.summary.content.si?.action).toBe('delete');
      if (message.MMSNotification?.FileUpload) expect(res.LibraryNumber).toBeGreaterThanOrEqual(80000);
    });
  }
});

describe('WSDL', () => {
  it('is served at ?wsdl with the endpoint URL of the request host', async () => {
    const res = await fetch(`${gw.url}/sendsms5?wsdl`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain(`location="${gw.url}/sendsms5"`);
    expect(text).toContain(SOAP_TYPES_NAMESPACE);
    for (const op of [
      'SubmitMessage',
      'SubmitDeliveryReceipt',
      'DeliverMessage',
      'AvailableMessages',
      'AvailableCredit',
      'MobileMessengerVersion',
      'CollectMessages',
      'PermittedReplyTo',
    ])
      expect(text).toContain(`name="${op}"`);
    const old = await (await fetch(`${gw.url}/sendsms2?wsdl`)).text();
    expect(old).toContain(SOAP_NAMESPACE);
    expect(old).toContain(`location="${gw.url}/sendsms2"`);
  });
});

describe('faults', () => {
  const env = (inner: string) =>
    `<?xml version="1.0"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>${inner}</soap:Body></soap:Envelope>`;
  const submit = (user: string) =>
    `<t:SubmitMessage xmlns:t="${SOAP_TYPES_NAMESPACE}"><Username>${user}</Username><PIN>${'x'}</PIN><Recipient><SendTo>447700900300</SendTo></Recipient><Message><TextMessage>hi</TextMessage></Message></t:SubmitMessage>`;

  it('malformed XML', async () => {
    await expectFault(
      '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><oops></soap:Body>',
      /./,
    );
    await expectFault('not xml at all', /./);
    await expectFault('', /./);
  });

  it('DOCTYPE / external entities (XXE) are refused', async () => {
    const xxe =
      `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY f SYSTEM "file:///etc/passwd">]>` +
      env(submit('&f;')).replace('<?xml version="1.0"?>', '');
    await expectFault(xxe, /DOCTYPE|entit/i);
  });

  it('entity bombs are refused quickly', async () => {
    let defs = '<!ENTITY a0 "lol">';
    for (let i = 1; i < 10; i++) defs += `<!ENTITY a${i} "${`&a${i - 1};`.repeat(10)}">`;
    const bomb =
      `<?xml version="1.0"?><!DOCTYPE x [${defs}]>` +
      env(submit('&a9;')).replace('<?xml version="1.0"?>', '');
    const t = performance.now();
    await expectFault(bomb, /DOCTYPE|entit/i);
    expect(performance.now() - t).toBeLessThan(5000);
  });

  it('unknown operation, schema errors and non-envelopes', async () => {
    await expectFault(env(`<t:Nope xmlns:t="${SOAP_TYPES_NAMESPACE}"/>`), /unknown operation/i);
    await expectFault(
      env(
        `<t:SubmitDeliveryReceipt xmlns:t="${SOAP_TYPES_NAMESPACE}"><Report>abc</Report><Timestamp1>x</Timestamp1></t:SubmitDeliveryReceipt>`,
      ),
      /./,
    );
    await expectFault('<a/>', /./);
  });

  it('oversize bodies get a fault, not a crash', async () => {
    const huge = env(
      `<t:AvailableCredit xmlns:t="${SOAP_TYPES_NAMESPACE}"><Username>${'a'.repeat(5 * 1024 * 1024)}</Username></t:AvailableCredit>`,
    );
    await expectFault(huge, /larger than/);
  });

  it('GET without ?wsdl is not an operation', async () => {
    const res = await fetch(`${gw.url}/sendsms5`);
    expect(res.status).toBe(405);
  });
});
