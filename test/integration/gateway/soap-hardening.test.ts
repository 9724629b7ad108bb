// The SOAP endpoint against resource bombs and post-commit failures (issue 17, items 4, 14, 16) and
// CollectMessages in bounded pages (issue 16, section 4), over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildFault,
  buildRequestEnvelope,
  parseFault,
  parseResponseEnvelope,
  SOAP_MAX_ATTRIBUTES,
  SOAP_MAX_ELEMENTS,
} from '../../../protocol/soap/envelope.ts';
import { SENDSMS5_PROFILE, SOAP_TYPES_NAMESPACE } from '../../../protocol/soap/namespaces.ts';
import { respond } from '../../../gateway/soap/answer.ts';
import { COLLECT_PAGE_MAX } from '../../../gateway/network/records.ts';
import { postForm, queueReplies, startTestGateway } from '../../support/gateway.ts';
import type { TestGateway } from '../../support/gateway.ts';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway({ sandbox: true, credit: '10.00', receiptDelayMs: 20 });
});
afterAll(async () => {
  await gw.close();
});

async function post(body: string): Promise<string> {
  const res = await fetch(`${gw.url}/sendsms5`, {
    method: 'POST',
    headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: '""' },
    body,
  });
  expect(res.status).toBe(200);
  return res.text();
}

function state(): { credit: number; messages: number } {
  const credit = (
    gw.ctx.db.prepare('SELECT credit FROM accounts WHERE id = ?').get(gw.account.id) as { credit: number }
  ).credit;
  const messages = (gw.ctx.db.prepare('SELECT COUNT(*) AS n FROM messages').get() as { n: number }).n;
  return { credit, messages };
}

function submit(reserved: string, sendTo = '447700900123'): string {
  return `<?xml version="1.0"?><s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><t:SubmitMessage xmlns:t="${SOAP_TYPES_NAMESPACE}"><Username>${gw.username}</Username><PIN>${gw.pin}</PIN><Recipient><SendTo>${sendTo}</SendTo></Recipient><Message><TextMessage>hello</TextMessage></Message><Reserved>${reserved}</Reserved></t:SubmitMessage></s:Body></s:Envelope>`;
}

describe('resource bombs are refused before login, with a fault (issue 17, items 4 and 16)', () => {
  it('a flat document of many empty elements', async () => {
    const before = state();
    const body = submit('<a/>'.repeat(SOAP_MAX_ELEMENTS + 10));
    const fault = parseFault(await post(body));
    expect(fault?.code).toBe('Client');
    expect(fault?.faultstring).toMatch(new RegExp(`more than ${SOAP_MAX_ELEMENTS} elements`));
    expect(state()).toEqual(before);
  });

  it('an element with very many attributes', async () => {
    const before = state();
    const attrs = Array.from({ length: SOAP_MAX_ATTRIBUTES + 10 }, (_, i) => `a${i}="1"`).join(' ');
    const fault = parseFault(await post(submit(`<Field1 ${attrs}>x</Field1>`)));
    expect(fault?.code).toBe('Client');
    expect(fault?.faultstring).toMatch(new RegExp(`more than ${SOAP_MAX_ATTRIBUTES} attributes`));
    expect(state()).toEqual(before);
  });
});

describe('characters XML 1.0 forbids and failures after a commit (issue 17, item 14)', () => {
  it('a raw U+001E in SendTo makes the document not well-formed: nothing is sent or charged', async () => {
    const before = state();
    const fault = parseFault(await post(submit('', '447700900123,447700\u001E900124')));
    expect(fault?.code).toBe('Client');
    expect(fault?.faultstring).toMatch(/malformed XML: a character XML 1.0 does not allow/);
    expect(fault?.faultstring).not.toMatch(/not processed/);
    expect(state()).toEqual(before);
  });

  it('a stored reply with a control character is collected once, with U+FFFD, never lost', async () => {
    const acct = gw.addAccount({ number: '447700900960' });
    const inject = await postForm(gw.url, '/sandbox/inbound', {
      SendTo: '447700900960',
      ReplyTo: '447700900961',
      Message: 'bell \u0007 and \u001E',
    });
    expect(inject.status).toBe(200);
    const collect = async () =>
      parseResponseEnvelope(
        'CollectMessages',
        await post(buildRequestEnvelope('CollectMessages', { Username: acct.username, PIN: acct.pin })),
      ).MessageList.item.map((m) => m.Message.TextMessage);
    expect(await collect()).toEqual(['bell \uFFFD and \uFFFD']);
    expect(await collect()).toEqual([]);
  });
});

describe('the answer of an operation that ran never says "not processed"', () => {
  const out = {
    xml: (body: string, status: number, log: Record<string, unknown>) => ({ body, status, log }),
    fault: (code: 'soap:Server', message: string, log: Record<string, unknown>) => ({
      body: buildFault(code, message),
      status: 200,
      log,
    }),
  };

  it('a text XML cannot carry is answered with U+FFFD, not a fault', () => {
    const res = respond(
      { op: 'SubmitMessage', response: { MessageIdentifier: 'M1', Report: '-3', Text: 'bad \u0001 text' } },
      SENDSMS5_PROFILE,
      gw.ctx,
      out,
    );
    expect(parseResponseEnvelope('SubmitMessage', String(res.body))).toEqual({
      MessageIdentifier: 'M1',
      Report: '-3',
      Text: 'bad \uFFFD text',
    });
  });

  it('an answer that still cannot be written is a fault that says the request was processed', () => {
    const res = respond(
      { op: 'SubmitMessage', response: { MessageIdentifier: 'M2', Report: 7 as never } },
      SENDSMS5_PROFILE,
      gw.ctx,
      out,
    );
    const fault = parseFault(String(res.body));
    expect(fault?.code).toBe('Server');
    expect(fault?.faultstring).toMatch(
      /The request was processed \(MessageIdentifier M2\).*do not send it again/,
    );
    expect(fault?.faultstring).not.toMatch(/not processed/);
  });
});

describe('CollectMessages answers in pages (issue 16, section 4)', () => {
  it(`returns at most ${COLLECT_PAGE_MAX} messages per call, oldest first, each once`, async () => {
    const acct = gw.addAccount({ number: '447700900970' });
    queueReplies(gw, '447700900970', COLLECT_PAGE_MAX * 2 + 5);
    const body = buildRequestEnvelope('CollectMessages', { Username: acct.username, PIN: acct.pin });
    const pages: string[][] = [];
    for (let call = 0; call < 4; call++) {
      const res = parseResponseEnvelope('CollectMessages', await post(body));
      expect(res.Report).toBe(0);
      pages.push(res.MessageList.item.map((m) => m.Message.TextMessage ?? ''));
    }
    expect(pages.map((p) => p.length)).toEqual([COLLECT_PAGE_MAX, COLLECT_PAGE_MAX, 5, 0]);
    const all = pages.flat();
    expect(new Set(all).size).toBe(all.length);
    expect(all[0]).toBe('reply 0');
    expect(all.at(-1)).toBe(`reply ${COLLECT_PAGE_MAX * 2 + 4}`);
  });
});
