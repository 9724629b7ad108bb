// Conformance sweep over real HTTP: every form path of the spec, by GET and POST, fed valid, missing,
// mistyped and hostile input (seeded random bytes, malformed percent-encoding, invalid UTF-8, oversize
// bodies) must answer HTTP 200 with a body protocol/responses recognises, and must never charge or
// store anything for a refused request. The SOAP endpoints must answer every such body with a fault
// (never a crash), and every operation the spec lists must be in the WSDL and reachable.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAnyResponse } from '../../../protocol/responses.ts';
import { buildRequestEnvelope, parseFault } from '../../../protocol/soap/envelope.ts';
import { buildXsd } from '../../../protocol/soap/wsdl.ts';
import type { SoapOperation, SoapRequests } from '../../../protocol/soap/operations.ts';
import { DEMO_NUMBER } from '../../../gateway/demo.ts';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { SOAP_OPERATIONS } from '../../../protocol/soap/operations.ts';
import { startTestGateway } from '../../support/gateway.ts';
import type { TestGateway } from '../../support/gateway.ts';

const FORM_PATHS = [
  '/webservices/http/sendsms',
  '/webservices/http/sendmms',
  '/webservices/http/queryaccount',
  '/webservices/http/manageaccount',
  '/sendsms',
];

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway({ sandbox: true, credit: '5.00' });
});
afterAll(async () => {
  await gw.close();
});

function state() {
  const n = (sql: string) => (gw.ctx.db.prepare(sql).get() as { n: number }).n;
  return {
    credit: n('SELECT SUM(credit) AS n FROM accounts'),
    messages: n('SELECT COUNT(*) AS n FROM messages'),
    library: n('SELECT COUNT(*) AS n FROM library_files'),
    accounts: n('SELECT COUNT(*) AS n FROM accounts'),
    pdus: n('SELECT COUNT(*) AS n FROM outbound_pdus'),
  };
}

/** Deterministic pseudo-random bytes (mulberry32), so a failure is reproducible. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function hostileBodies(): Array<[string, string | Uint8Array<ArrayBuffer>]> {
  const rand = rng(42);
  const bytes = (n: number) => Uint8Array.from({ length: n }, () => Math.floor(rand() * 256));
  const creds = `Username=${gw.username}&PIN=${gw.pin}`;
  return [
    ['empty', ''],
    ['no credentials', 'SendTo=447700900700&Message=hi'],
    ['wrong PIN', `Username=${gw.username}&PIN=nope&SendTo=447700900700&Message=hi`],
    ['truncated escape', `${creds}&SendTo=447700900700&Message=%E`],
    ['bad escape', `${creds}&SendTo=447700900700&Message=%ZZ`],
    ['escaped invalid UTF-8', `${creds}&SendTo=447700900700&Message=%C3%28`],
    ['raw invalid UTF-8', Uint8Array.from([...new TextEncoder().encode(`${creds}&Message=`), 0xff, 0xfe])],
    ['random bytes', bytes(512)],
    [
      'random bytes with credentials',
      Uint8Array.from([...new TextEncoder().encode(`${creds}&`), ...bytes(256)]),
    ],
    ['mistyped fields', `${creds}&SendTo=abc&SendTimeDelay=soon&ResponseFormat=7&MCC=x&Ringtone=%00`],
    ['repeated fields', `${creds}&${'SendTo=447700900700&'.repeat(400)}Message=x`],
    [
      '400 recipients',
      `${creds}&ResponseFormat=3&SendTo=${Array.from({ length: 400 }, (_, i) => `4477009007${String(i % 100).padStart(2, '0')}`).join(',')}&Message=x`,
    ],
    ['oversize', `${creds}&Message=${'a'.repeat(2 * 1024 * 1024 + 10)}`],
  ];
}

describe('form paths never fail at the HTTP level', () => {
  it('answer hostile input with HTTP 200 and a recognisable report, charging and storing nothing', async () => {
    for (const path of FORM_PATHS) {
      for (const [name, body] of hostileBodies()) {
        const before = state();
        const res = await fetch(gw.url + path, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
          body,
        });
        const text = await res.text();
        expect(res.status, `${path} ${name}: ${text}`).toBe(200);
        expect(() => parseAnyResponse(text), `${path} ${name}: ${text}`).not.toThrow();
        const parsed = parseAnyResponse(text);
        if (parsed.kind === 'records')
          expect(
            parsed.records.every((r) => r.report !== '-3' && r.report !== '-2'),
            `${path} ${name}`,
          ).toBe(true);
        expect(state(), `${path} ${name}`).toEqual(before);
      }
    }
  });

  it('answer GET with the same reports as POST', async () => {
    for (const path of FORM_PATHS) {
      const res = await fetch(
        `${gw.url}${path}?Username=${gw.username}&PIN=wrong&SendTo=447700900700&Message=x&AvailableCredit=`,
      );
      expect(res.status).toBe(200);
      expect(['invalidLogin', 'deprecated', 'manage', 'records', 'format0']).toContain(
        parseAnyResponse(await res.text()).kind,
      );
    }
  });
});

describe('SOAP endpoints never crash', () => {
  it('answer every hostile body with a client fault', async () => {
    for (const path of ['/sendsms5', '/sendsms2']) {
      for (const [name, body] of hostileBodies()) {
        const before = state();
        const res = await fetch(gw.url + path, {
          method: 'POST',
          headers: { 'content-type': 'text/xml; charset=utf-8' },
          body,
        });
        const text = await res.text();
        expect(res.status, `${path} ${name}`).toBe(200); // a fault, HTTP never 5xx
        expect(parseFault(text)?.code, `${path} ${name}: ${text.slice(0, 200)}`).toBe('Client');
        expect(state()).toEqual(before);
      }
    }
  });

  it('declare every operation of spec 4.5 in the WSDL with soapAction ""', async () => {
    const wsdl = await (await fetch(`${gw.url}/sendsms5?wsdl`)).text();
    expect(SOAP_OPERATIONS).toHaveLength(9); // spec 4.5's eight and the provider's QueryAddressBook
    for (const op of SOAP_OPERATIONS) expect(wsdl).toMatch(new RegExp(`<wsdl:operation name="${op}"`));
    expect(wsdl).toMatch(/soapAction=""/);
    expect(wsdl).toMatch(/style="document"/);
  });
});

const XMLLINT = '/usr/bin/xmllint';
const hasXmllint = existsSync(XMLLINT);
if (!hasXmllint && process.env['CI'])
  throw new Error('xmllint is required in CI (.ci/run installs libxml2-utils)');

describe.skipIf(!hasXmllint)('SOAP responses validate against the published XSD (xmllint)', () => {
  it('every operation response body element is schema-valid', async () => {
    const auth = { Username: gw.username, PIN: gw.pin };
    const send = async <K extends SoapOperation>(op: K, req: SoapRequests[K]) => {
      const res = await fetch(`${gw.url}/sendsms5`, {
        method: 'POST',
        headers: { 'content-type': 'text/xml; charset=utf-8' },
        body: buildRequestEnvelope(op, req),
      });
      expect(res.status).toBe(200);
      return res.text();
    };
    const submitted = await send('SubmitMessage', {
      ...auth,
      Recipient: { SendTo: '447700900710', PhoneMake: 'Nokia' },
      Message: { WAPPush: { FileUpload: { FileName1: 'a.txt', FileData1: '6869' } } },
    });
    const id = /<MessageIdentifier>([^<]+)</.exec(submitted)![1]!;
    await send('DeliverMessage', {
      ...auth,
      Recipient: { SendTo: DEMO_NUMBER },
      Message: { TextMessage: 'hi' },
      ReplyTo: '447700900711',
    });
    const bodies: Record<string, string> = {
      SubmitMessage: submitted,
      SubmitDeliveryReceipt: await send('SubmitDeliveryReceipt', {
        ...auth,
        Timestamp1: '2026-01-01T00:00:00Z',
        MessageIdentifier: id,
        Report: 0,
      }),
      DeliverMessage: await send('DeliverMessage', {
        ...auth,
        Recipient: { SendTo: DEMO_NUMBER },
        Message: { TextMessage: 'x' },
        ReplyTo: '1',
      }),
      AvailableMessages: await send('AvailableMessages', auth),
      AvailableCredit: await send('AvailableCredit', auth),
      MobileMessengerVersion: await send('MobileMessengerVersion', {}),
      CollectMessages: await send('CollectMessages', auth),
      PermittedReplyTo: await send('PermittedReplyTo', auth),
    };
    const dir = await mkdtemp(join(tmpdir(), 'gw-xsd-'));
    try {
      await writeFile(join(dir, 'types.xsd'), buildXsd());
      for (const [op, envelope] of Object.entries(bodies)) {
        const element = new RegExp(`<(\\w+:)?${op}Response[\\s>][\\s\\S]*</(\\w+:)?${op}Response>`).exec(
          envelope,
        )?.[0];
        expect(element, `${op}: ${envelope}`).toBeDefined();
        const file = join(dir, `${op}.xml`);
        await writeFile(file, element!);
        const { stderr } = await promisify(execFile)(XMLLINT, [
          '--noout',
          '--schema',
          join(dir, 'types.xsd'),
          file,
        ]);
        expect(stderr).toContain('validates');
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
