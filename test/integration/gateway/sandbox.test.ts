// /sandbox/* over real HTTP: inbound injection collected once through SOAP CollectMessages, the
// outbound PDU list, and the routes' absence without --sandbox.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRequestEnvelope, parseResponseEnvelope } from '../../../protocol/soap/envelope.ts';
import { decodeSubmitPdu } from '../../../protocol/smart/sms-submit.ts';
import { postForm, startTestGateway } from '../../support/gateway.ts';
import type { TestGateway } from '../../support/gateway.ts';
import { DEMO_NUMBER } from '../../../gateway/demo.ts';
import { addLibraryFile } from '../../../gateway/library/library.ts';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway({ sandbox: true });
});
afterAll(async () => {
  await gw.close();
});

async function collect(username = gw.username, pin = gw.pin) {
  const res = await fetch(`${gw.url}/sendsms5`, {
    method: 'POST',
    headers: { 'content-type': 'text/xml; charset=utf-8' },
    body: buildRequestEnvelope('CollectMessages', { Username: username, PIN: pin }),
  });
  return parseResponseEnvelope('CollectMessages', await res.text());
}

describe('/sandbox/inbound', () => {
  it('queues a phone message for the account with that number, collected exactly once', async () => {
    const res = await postForm(gw.url, '/sandbox/inbound', {
      SendTo: DEMO_NUMBER,
      ReplyTo: '447700900777',
      Message: 'Yes please – 2 € 😀',
    });
    expect(res.status).toBe(200);
    const { messageIdentifier } = JSON.parse(res.body) as { messageIdentifier: string };
    expect(messageIdentifier).toMatch(/^[0-9A-Z]{1,15}$/);
    const other = gw.addAccount({ number: '447700900888' });
    await postForm(gw.url, '/sandbox/inbound', {
      SendTo: '447700900888',
      ReplyTo: '447700900777',
      Message: 'for the other one',
    });
    const [first, second] = [await collect(), await collect()];
    expect(first.MessageList.item.map((m) => m.Message.TextMessage)).toEqual(['Yes please – 2 € 😀']);
    expect(first.MessageList.item[0]).toMatchObject({ SendTo: DEMO_NUMBER, ReplyTo: '447700900777' });
    expect(second.MessageList.item).toEqual([]);
    expect(
      (await collect(other.username, other.pin)).MessageList.item.map((m) => m.Message.TextMessage),
    ).toEqual(['for the other one']);
  });

  it('refuses unknown numbers and missing fields', async () => {
    expect(
      (await postForm(gw.url, '/sandbox/inbound', { SendTo: '440000000000', ReplyTo: '1', Message: 'x' }))
        .status,
    ).toBe(404);
    expect((await postForm(gw.url, '/sandbox/inbound', { SendTo: DEMO_NUMBER, Message: 'x' })).status).toBe(
      400,
    );
    expect((await postForm(gw.url, '/sandbox/inbound', 'SendTo=%ZZ')).status).toBe(400);
    expect((await collect()).MessageList.item).toEqual([]);
  });
});

describe('/sandbox/outbound', () => {
  it('lists the PDUs of sent messages with hex fields and a decoded summary', async () => {
    const res = await postForm(gw.url, '/webservices/http/sendsms', {
      Username: gw.username,
      PIN: gw.pin,
      SendTo: '447700900601',
      Message: 'Hello handset',
      ResponseFormat: '1',
    });
    const id = new URLSearchParams(res.body).get('MessageIdentifier')!;
    const list = (await (await fetch(`${gw.url}/sandbox/outbound?messageIdentifier=${id}`)).json()) as Array<
      Record<string, unknown>
    >;
    expect(list).toHaveLength(1);
    const [p] = list as [Record<string, unknown>];
    expect(p).toMatchObject({
      MessageIdentifier: id,
      recipient: '447700900601',
      dcs: 0,
      udh: '',
      summary: { kind: 'text', text: 'Hello handset' },
    });
    expect(decodeSubmitPdu(String(p['pdu'])).text).toBe('Hello handset');
    const all = (await (
      await fetch(`${gw.url}/sandbox/outbound?recipient=447700900601`)
    ).json()) as unknown[];
    expect(all.length).toBeGreaterThanOrEqual(1);
    const mine = (await (
      await fetch(`${gw.url}/sandbox/outbound?username=${gw.username}`)
    ).json()) as unknown[];
    expect(mine.length).toBeGreaterThanOrEqual(1);
    expect(await (await fetch(`${gw.url}/sandbox/outbound?username=nobody`)).json()).toEqual([]);
    const after = (await (
      await fetch(`${gw.url}/sandbox/outbound?after=${String(p['id'])}`)
    ).json()) as unknown[];
    expect(after).toEqual([]);
  });
});

describe('/sandbox/library', () => {
  it('lists the public library for the app to pick from', async () => {
    const list = (await (await fetch(`${gw.url}/sandbox/library`)).json()) as Array<{
      number: number;
      kind: string;
      size: number;
    }>;
    expect(list.map((f) => f.kind)).toEqual(
      expect.arrayContaining(['ringtone', 'operator-logo', 'picture', 'group-graphic', 'mms']),
    );
    expect(list.every((f) => f.size > 0 && f.number >= 10000 && f.number <= 99999)).toBe(true);
  });

  it('adds the own uploads of ?username= (owner "own"), never another account\'s', async () => {
    const mine = addLibraryFile(gw.ctx.db, {
      kind: 'wap',
      ownerAccountId: gw.account.id,
      name: 'mine.png',
      contentType: 'image/png',
      bytes: new Uint8Array([1, 2, 3]),
    });
    const other = gw.addAccount();
    const theirs = addLibraryFile(gw.ctx.db, {
      kind: 'wap',
      ownerAccountId: other.account.id,
      name: 'theirs.png',
      contentType: 'image/png',
      bytes: new Uint8Array([4, 5, 6]),
    });
    type Item = { number: number; kind: string; name: string; owner: string };
    const get = async (q: string) => (await (await fetch(`${gw.url}/sandbox/library${q}`)).json()) as Item[];
    const publicOnly = await get('');
    expect(publicOnly.every((f) => f.owner === 'public')).toBe(true);
    expect(publicOnly.map((f) => f.number)).not.toContain(mine);
    const withMine = await get(`?username=${encodeURIComponent(gw.username)}`);
    expect(withMine.filter((f) => f.owner === 'own')).toEqual([
      expect.objectContaining({ number: mine, kind: 'wap', name: 'mine.png' }),
    ]);
    expect(withMine.map((f) => f.number)).not.toContain(theirs);
    expect(withMine.filter((f) => f.owner === 'public')).toEqual(publicOnly);
    expect(await get('?username=nobody')).toEqual(publicOnly);
  });
});

describe('without --sandbox', () => {
  it('has no /sandbox routes but still serves SOAP', async () => {
    const plain = await startTestGateway({ sandbox: false });
    try {
      expect((await fetch(`${plain.url}/sandbox/outbound`)).status).toBe(404);
      expect(
        (await postForm(plain.url, '/sandbox/inbound', { SendTo: DEMO_NUMBER, ReplyTo: '1', Message: 'x' }))
          .status,
      ).toBe(404);
      expect((await fetch(`${plain.url}/sendsms5?wsdl`)).status).toBe(200);
    } finally {
      await plain.close();
    }
  });
});
