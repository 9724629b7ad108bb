// Issue 24, item 7: our gateway as peers that are not ours see it. curl posting multipart/form-data
// (what an HTML form with a file sends); node-soap's client speaking SOAP 1.2; the MMS a handset
// fetches from the notification's content location, decoded here byte by byte per OMA-MMS-ENC 1.2;
// and xmllint validating what the provider sends (nil elements, LibraryNumber 0) and our empty
// CollectMessages answer against the schema our gateway serves.
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as soap from 'soap';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postForm, startTestGateway } from '../../support/gateway.ts';
import type { TestGateway } from '../../support/gateway.ts';

const run = promisify(execFile);
let gw: TestGateway;
const dir = mkdtempSync(join(tmpdir(), 'gateway-as-seen-'));
beforeAll(async () => {
  gw = await startTestGateway({ sandbox: true, credit: '20.00' });
});
afterAll(async () => {
  await gw.close();
  rmSync(dir, { recursive: true, force: true });
});

const TYPES = 'http://www.csoft.co.uk/dtd/sendsms5.xsd';
const soap11 = (body: string) =>
  '<?xml version="1.0" encoding="utf-8"?><s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" ' +
  `xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><s:Body>${body}</s:Body></s:Envelope>`;

describe('multipart/form-data (curl -F)', () => {
  it('is refused as a syntax error, not "171 Invalid login"', async () => {
    const { stdout } = await run('curl', [
      '-s',
      '-F',
      `Username=${gw.username}`,
      '-F',
      `PIN=${gw.pin}`,
      '-F',
      'SendTo=447700900123',
      '-F',
      'Message=Hello',
      `${gw.url}/webservices/http/sendsms`,
    ]);
    expect(stdout).not.toMatch(/^171/);
    expect(stdout).toMatch(/^3 - .*multipart/);
  });
});

describe('SOAP 1.2 (node-soap with forceSoap12Headers)', () => {
  it('is answered with a VersionMismatch fault', async () => {
    const client = await soap.createClientAsync(`${gw.url}/sendsms5?wsdl`, { forceSoap12Headers: true });
    const failure = await client.AvailableCreditAsync({ Username: gw.username, PIN: gw.pin }).then(
      () => undefined,
      (err: unknown) => err as { body?: string; message?: string },
    );
    expect(failure).toBeDefined();
    expect(`${failure?.body ?? ''} ${failure?.message ?? ''}`).toMatch(/VersionMismatch/);
    expect(client.lastRequest).toContain('http://www.w3.org/2003/05/soap-envelope');
  });
});

/** WSP header values (WAP-230 8.4.1.2): short-length data, uintvar length, text, or short integer. */
function readHeaders(b: Uint8Array): Array<{ field: number; value: Uint8Array }> {
  const out: Array<{ field: number; value: Uint8Array }> = [];
  let at = 0;
  while (at < b.length) {
    const field = b[at++]!;
    const start = at;
    const first = b[at]!;
    if (first <= 30) at += 1 + first;
    else if (first === 31) {
      let len = 0;
      at++;
      for (;;) {
        const x = b[at++]!;
        len = len * 128 + (x & 0x7f);
        if ((x & 0x80) === 0) break;
      }
      at += len;
    } else if (first < 128) {
      while (b[at] !== 0) at++;
      at++;
    } else at++;
    out.push({ field, value: b.subarray(start, at) });
    if (field === 0x84) break; // Content-Type is the last header
  }
  return out;
}

describe('the MMS a handset fetches', () => {
  it('is an m-retrieve-conf (8C 84) with MMS-Version, Date and Content-Type', async () => {
    const res = await postForm(gw.url, '/webservices/http/sendmms', {
      Username: gw.username,
      PIN: gw.pin,
      SendTo: '447700900514',
      MMSFileMMS: '80000',
      Message: 'Welcome',
    });
    expect(res.body).toMatch(/^-?\d+ /);
    const row = gw.ctx.db
      .prepare('SELECT token FROM delivered_content ORDER BY rowid DESC LIMIT 1')
      .get() as {
      token: string;
    };
    const fetched = await fetch(`${gw.url}/content/${row.token}`);
    expect(fetched.headers.get('content-type')).toBe('application/vnd.wap.mms-message');
    const bytes = new Uint8Array(await fetched.arrayBuffer());
    const headers = readHeaders(bytes);
    expect(headers[0]).toEqual({ field: 0x8c, value: Uint8Array.of(0x84) }); // X-Mms-Message-Type: m-retrieve-conf
    const fields = headers.map((h) => h.field);
    expect(fields).toContain(0x8d); // X-Mms-MMS-Version
    expect(fields[fields.length - 1]).toBe(0x84); // Content-Type, last
    const date = headers.find((h) => h.field === 0x85); // Date: Long-integer, seconds since 1970
    expect(date).toBeDefined();
    const seconds = [...date!.value.subarray(1)].reduce((n, x) => n * 256 + x, 0);
    expect(Math.abs(seconds - Date.now() / 1000)).toBeLessThan(3600);
  });
});

describe('the schema our gateway serves, checked by xmllint', () => {
  async function servedSchema(): Promise<string> {
    const wsdl = await (await fetch(`${gw.url}/sendsms5?wsdl`)).text();
    const schema = /<xs:schema[\s\S]*<\/xs:schema>/.exec(wsdl)?.[0];
    if (schema === undefined) throw new Error('no schema in the WSDL');
    return schema.replace('<xs:schema', '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"');
  }

  function validate(schema: string, docs: Record<string, string>): Record<string, string> {
    writeFileSync(join(dir, 'served.xsd'), schema);
    const verdicts: Record<string, string> = {};
    for (const [name, xml] of Object.entries(docs)) {
      writeFileSync(join(dir, `${name}.xml`), xml);
      const r = spawnSync(
        'xmllint',
        ['--noout', '--schema', join(dir, 'served.xsd'), join(dir, `${name}.xml`)],
        {
          encoding: 'utf8',
        },
      );
      verdicts[name] = r.status === 0 ? 'valid' : r.stderr;
    }
    return verdicts;
  }

  const xsi = 'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"';
  it('accepts what the provider may send and our own empty CollectMessages answer', async () => {
    const empty = await fetch(`${gw.url}/sendsms5`, {
      method: 'POST',
      headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: '""' },
      body: soap11(
        `<t:CollectMessages xmlns:t="${TYPES}"><Username>${gw.username}</Username><PIN>${gw.pin}</PIN></t:CollectMessages>`,
      ),
    }).then((r) => r.text());
    const emptyBody = /<soap:Body>([\s\S]*)<\/soap:Body>/.exec(empty)?.[1] ?? '';
    expect(emptyBody).toMatch(/CollectMessagesResponse/);
    const verdicts = validate(await servedSchema(), {
      'submit-response-nil-text-library-0':
        `<t:SubmitMessageResponse xmlns:t="${TYPES}" ${xsi}><MessageIdentifier>A1</MessageIdentifier>` +
        '<Report>-3</Report><Text xsi:nil="true"/><LibraryNumber>0</LibraryNumber></t:SubmitMessageResponse>',
      'submit-request-nil-fields':
        `<t:SubmitMessage xmlns:t="${TYPES}" ${xsi}><Username>u</Username><PIN>p</PIN>` +
        '<Recipient><SendTo>447700900123</SendTo><SendCc xsi:nil="true"/><SendOptions xsi:nil="true"/></Recipient>' +
        '<Message><TextMessage>Hi</TextMessage><FlashMessage xsi:nil="true"/><WAPPush xsi:nil="true"/></Message>' +
        '<ReplyTo xsi:nil="true"/><MessageIdentifier xsi:nil="true"/></t:SubmitMessage>',
      'mms-library-0':
        `<t:SubmitMessage xmlns:t="${TYPES}" ${xsi}><Message><MMSNotification><LibraryNumber>` +
        '<LibraryNumber>0</LibraryNumber><TextMessage xsi:nil="true"/></LibraryNumber>' +
        '<FileUpload xsi:nil="true"/></MMSNotification></Message></t:SubmitMessage>',
      'empty-collect': emptyBody,
    });
    expect(verdicts).toEqual({
      'submit-response-nil-text-library-0': 'valid',
      'submit-request-nil-fields': 'valid',
      'mms-library-0': 'valid',
      'empty-collect': 'valid',
    });
  });
});
