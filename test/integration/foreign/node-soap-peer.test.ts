// Issue 24, item 3 (and the peer for items 4 and 6): node-soap's own server (`soap.listen`), built from
// the WSDL our gateway serves, answering as the provider's schema allows: LibraryNumber 0 (an
// xs:nonNegativeInteger in the provider's sendsms5.xsd). node-soap writes the envelopes, not us.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import * as soap from 'soap';
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayClient } from '../../../main/client/gateway-client.ts';
import { buildWsdl } from '../../../protocol/soap/wsdl.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

type Handlers = Record<string, (args: Record<string, unknown>) => unknown>;

/** A node-soap server at /sendsms5 for `handlers`, described by the WSDL our gateway serves. */
async function nodeSoapGateway(handlers: Handlers): Promise<{ url: string; calls: string[] }> {
  const calls: string[] = [];
  const server: Server = createServer((_req, res) => {
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const url = `http://127.0.0.1:${port}`;
  const wsdl = buildWsdl({ endpointUrl: `${url}/sendsms5` });
  const ops: Handlers = {};
  for (const [name, fn] of Object.entries(handlers))
    ops[name] = (args) => {
      calls.push(name);
      return fn(args);
    };
  soap.listen(server, '/sendsms5', { Service: { Service: ops } }, wsdl);
  cleanups.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { url, calls };
}

function client(url: string): GatewayClient {
  const c = new GatewayClient({ primaryUrl: url, username: 'acme.1', pin: 'Secret9', defaultCountry: 'GB' });
  cleanups.push(() => c.close());
  return c;
}

describe('node-soap as the gateway', () => {
  it('a SubmitMessageResponse with LibraryNumber 0 is an accepted send', async () => {
    const gw = await nodeSoapGateway({
      SubmitMessage: () => ({
        MessageIdentifier: 'ABC123',
        Report: '-3',
        Text: 'Accepted',
        LibraryNumber: 0,
      }),
    });
    const r = await client(gw.url).soapSubmitMessage({
      Recipient: { SendTo: '447700900123' },
      Message: { TextMessage: 'Hello' },
    });
    expect(gw.calls).toEqual(['SubmitMessage']);
    expect(r).toMatchObject({ outcome: 'ok', value: { MessageIdentifier: 'ABC123', LibraryNumber: 0 } });
  });
});

describe('node-soap faults that carry a report code', () => {
  it('<detail><Report>2</Report></detail> is reported as 2 (invalid login), not soap:Client', async () => {
    const invalidLogin = (): never => {
      // node-soap writes this as <soap:Fault>...<detail><Report>2</Report></detail></soap:Fault>
      throw { Fault: { faultcode: 'soap:Client', faultstring: 'Invalid login', detail: { Report: 2 } } };
    };
    const gw = await nodeSoapGateway({ AvailableCredit: invalidLogin, CollectMessages: invalidLogin });
    const c = client(gw.url);
    expect(await c.soapAvailableCredit()).toMatchObject({ outcome: 'rejected', code: '2' });
    expect(await c.collectMessages()).toMatchObject({ outcome: 'rejected', code: '2' });
    const { runCli } = await import('../../support/cli-run.ts');
    const { code, err } = await runCli(['credit', '--soap'], {
      MESSENGER_URL: gw.url,
      MESSENGER_USERNAME: 'acme.1',
      MESSENGER_PIN: 'Wrong1',
    });
    expect(code).toBe(1);
    expect(err).toMatch(/rejected by the gateway \(2\)/);
  });
});

describe('our gateway and LibraryNumber 0', () => {
  it('a request carrying LibraryNumber 0 is answered by the library rules, not a schema fault', async () => {
    const { startTestGateway } = await import('../../support/gateway.ts');
    const gw = await startTestGateway({ credit: '1.00' });
    cleanups.push(() => gw.close());
    const res = await fetch(`${gw.url}/sendsms5`, {
      method: 'POST',
      headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: '""' },
      body:
        '<?xml version="1.0"?><e:Envelope xmlns:e="http://schemas.xmlsoap.org/soap/envelope/"><e:Body>' +
        '<t:SubmitMessage xmlns:t="http://www.csoft.co.uk/dtd/sendsms5.xsd">' +
        `<Username>${gw.username}</Username><PIN>${gw.pin}</PIN>` +
        '<Recipient><SendTo>447700900123</SendTo></Recipient>' +
        '<Message><PictureMessage><LibraryNumber>0</LibraryNumber></PictureMessage></Message>' +
        '</t:SubmitMessage></e:Body></e:Envelope>',
    });
    const body = await res.text();
    expect(body).not.toMatch(/Fault/);
    expect(body).toMatch(/<Report>\d+<\/Report>/);
  });
});
