// Form sendsms over real HTTP (spec 2.2, 4.1, 7): formats 0/1/3, every recipient processed,
// credit charged per recipient and part, nothing charged for a rejected request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../gateway/log.ts';
import type { NetworkSimulator } from '../../../gateway/network/simulator.ts';
import {
  messageCount,
  parseTags,
  postForm,
  getForm,
  startTestGateway,
  storedCredit,
} from '../../support/gateway.ts';
import type { TestGateway } from '../../support/gateway.ts';

const PATH = '/webservices/http/sendsms';
let gw: TestGateway;

beforeAll(async () => {
  gw = await startTestGateway({ credit: '10.00' });
});
afterAll(async () => {
  await gw.close();
});

function login(): Record<string, string> {
  return { Username: gw.username, PIN: gw.pin };
}

describe('sendsms', () => {
  it('format 0 (default): one line "code - text" and the credit is charged once', async () => {
    const before = storedCredit(gw.ctx, gw.username);
    const res = await postForm(gw.url, PATH, { ...login(), SendTo: '447700900123', Message: 'Hello there' });
    expect(res.status).toBe(200);
    expect(res.body).toMatch(/^-3 - \S.*$/);
    expect(res.body.trim().split('\n')).toHaveLength(1);
    expect(storedCredit(gw.ctx, gw.username)).toBe(before - 400); // Default tariff, 1 part
  });

  it('format 1: a single MessageIdentifier/Report/Text triple', async () => {
    const res = await postForm(gw.url, PATH, {
      ...login(),
      SendTo: '447700900123,447700900124',
      Message: 'Two recipients',
      ResponseFormat: '1',
    });
    const tags = parseTags(res.body);
    expect(tags.Report).toEqual(['-3']);
    expect(tags.MessageIdentifier).toHaveLength(1);
    expect(tags.MessageIdentifier![0]!.length).toBeLessThanOrEqual(15);
  });

  it('format 3: one value per recipient in SendTo order; an invalid number fails alone (spec 7.3)', async () => {
    const before = storedCredit(gw.ctx, gw.username);
    const res = await postForm(gw.url, PATH, {
      ...login(),
      SendTo: '447700900131,12,447700900132,+447700900133',
      Message: 'Per recipient',
      ResponseFormat: '3',
    });
    expect(res.status).toBe(200);
    const tags = parseTags(res.body);
    expect(tags.Report).toHaveLength(4);
    expect(tags.Report![0]).toBe('-3');
    expect(tags.Report![1]).not.toMatch(/^-[23]$/);
    expect(tags.Report![2]).toBe('-3');
    expect(tags.Report![3]).not.toMatch(/^-[23]$/); // spec 2.2: no plus sign
    expect(tags.Text![3]).toMatch(/plus/);
    const ids = tags.MessageIdentifier!;
    expect(new Set(ids).size).toBe(4);
    for (const id of ids) expect(id.length).toBeLessThanOrEqual(15);
    expect(storedCredit(gw.ctx, gw.username)).toBe(before - 2 * 400);
  });

  it('format 1 reports the last failure when any recipient failed', async () => {
    const res = await postForm(gw.url, PATH, {
      ...login(),
      SendTo: '447700900141,1,447700900142',
      Message: 'x',
      ResponseFormat: '1',
    });
    const tags = parseTags(res.body);
    expect(tags.Report).toHaveLength(1);
    expect(tags.Report![0]).not.toBe('-3');
  });

  it('GET works like POST', async () => {
    const res = await getForm(gw.url, PATH, {
      ...login(),
      SendTo: '447700900150',
      Message: 'via GET',
      ResponseFormat: '1',
    });
    expect(parseTags(res.body).Report).toEqual(['-3']);
  });

  it('long and Unicode texts are charged per SMS part', async () => {
    const before = storedCredit(gw.ctx, gw.username);
    const res = await postForm(gw.url, PATH, {
      ...login(),
      SendTo: '447700900151',
      Message: 'a'.repeat(161), // 2 GSM-7 parts
      ResponseFormat: '1',
    });
    expect(parseTags(res.body).Report).toEqual(['-3']);
    expect(storedCredit(gw.ctx, gw.username)).toBe(before - 2 * 400);
    const before2 = storedCredit(gw.ctx, gw.username);
    await postForm(gw.url, PATH, {
      ...login(),
      SendTo: '447700900152',
      Message: 'Привет, мир ✓',
      ResponseFormat: '1',
    });
    expect(storedCredit(gw.ctx, gw.username)).toBe(before2 - 400);
  });

  it('a flash message is accepted and stored as flash', async () => {
    const res = await postForm(gw.url, PATH, {
      ...login(),
      SendTo: '447700900153',
      FlashMessage: 'Look at me',
      ResponseFormat: '1',
    });
    const id = parseTags(res.body).MessageIdentifier![0]!;
    const row = gw.ctx.db.prepare('SELECT content FROM messages WHERE message_identifier = ?').get(id) as {
      content: string;
    };
    expect(JSON.parse(row.content)).toMatchObject({ kind: 'flash', text: 'Look at me' });
  });

  it('the Premier delivery class costs the Premier price', async () => {
    const before = storedCredit(gw.ctx, gw.username);
    await postForm(gw.url, PATH, {
      ...login(),
      SendTo: '447700900154',
      Message: 'premier',
      DeliveryServiceOption: 'Premier',
    });
    expect(storedCredit(gw.ctx, gw.username)).toBe(before - 500);
  });

  it('sends to an address book and to one of its groups', async () => {
    const before = storedCredit(gw.ctx, gw.username);
    const all = parseTags(
      (
        await postForm(gw.url, PATH, {
          ...login(),
          SendToAddressBook: 'Friends',
          Message: 'hi all',
          ResponseFormat: '3',
        })
      ).body,
    );
    expect(all.Report).toEqual(['-3', '-3', '-3']);
    const team = parseTags(
      (
        await postForm(gw.url, PATH, {
          ...login(),
          SendToAddressBook: 'Friends::Team',
          Message: 'hi team',
          ResponseFormat: '3',
        })
      ).body,
    );
    expect(team.Report).toEqual(['-3', '-3']);
    expect(storedCredit(gw.ctx, gw.username)).toBe(before - 5 * 400);
    const unknown = await postForm(gw.url, PATH, {
      ...login(),
      SendToAddressBook: 'Nope',
      Message: 'x',
      ResponseFormat: '1',
    });
    expect(parseTags(unknown.body).Report![0]).not.toBe('-3');
  });

  it('a permitted ReplyTo is accepted, any other is refused without charge', async () => {
    const ok = await postForm(gw.url, PATH, {
      ...login(),
      SendTo: '447700900155',
      Message: 'from shop',
      ReplyTo: 'DemoShop',
      ResponseFormat: '1',
    });
    expect(parseTags(ok.body).Report).toEqual(['-3']);
    const before = storedCredit(gw.ctx, gw.username);
    const bad = await postForm(gw.url, PATH, {
      ...login(),
      SendTo: '447700900155',
      Message: 'from someone else',
      ReplyTo: 'NotMine',
      ResponseFormat: '1',
    });
    expect(parseTags(bad.body).Report![0]).not.toBe('-3');
    expect(storedCredit(gw.ctx, gw.username)).toBe(before);
  });
});

describe('sendsms errors', () => {
  it('a text longer than 255 concatenated parts: report 14, nothing charged or stored', async () => {
    const before = storedCredit(gw.ctx, gw.username);
    const count = messageCount(gw.ctx, gw.username);
    const res = await postForm(gw.url, PATH, {
      ...login(),
      SendTo: '447700900123',
      Message: 'a'.repeat(255 * 153 + 1),
      ResponseFormat: '3',
    });
    expect(res.status).toBe(200);
    const tags = parseTags(res.body);
    expect(tags.Report).toEqual(['14']);
    expect(tags.Text?.[0]).toContain('256 GSM-7 parts');
    expect(storedCredit(gw.ctx, gw.username)).toBe(before);
    expect(messageCount(gw.ctx, gw.username)).toBe(count);
  });

  it('invalid login: 171 - Invalid login in format 0, Report=2 in formats 1 and 3', async () => {
    const f0 = await postForm(gw.url, PATH, {
      Username: gw.username,
      PIN: 'wrong',
      SendTo: '447700900123',
      Message: 'x',
    });
    expect(f0.status).toBe(200);
    expect(f0.body.trim()).toBe('171 - Invalid login');
    const f1 = parseTags(
      (
        await postForm(gw.url, PATH, {
          Username: 'nobody',
          PIN: 'x',
          SendTo: '447700900123',
          Message: 'x',
          ResponseFormat: '1',
        })
      ).body,
    );
    expect(f1.Report).toEqual(['2']);
    const f3 = parseTags(
      (
        await postForm(gw.url, PATH, {
          Username: gw.username,
          PIN: gw.pin.toLowerCase(), // PINs are case-sensitive
          SendTo: '447700900123,447700900124',
          Message: 'x',
          ResponseFormat: '3',
        })
      ).body,
    );
    expect(f3.Report).toEqual(['2', '2']);
  });

  it('missing fields, wrong types and out-of-range values: a report, HTTP 200, nothing charged or stored', async () => {
    const before = storedCredit(gw.ctx, gw.username);
    const stored = messageCount(gw.ctx, gw.username);
    const cases: Array<Record<string, string>> = [
      { ...login(), SendTo: '447700900123' }, // no Message
      { ...login(), Message: 'no recipients' },
      { ...login(), SendTo: '447700900123', Message: 'x', SendTimeDelay: 'soon' },
      { ...login(), SendTo: '447700900123', Message: 'x', SendTimeDelay: '10081' },
      { ...login(), SendTo: '447700900123', Message: 'x', SendTimeAbsolute: '2026-13-40 25:00' },
      { ...login(), SendTo: '447700900123', Message: 'x', DeliveryServiceOption: 'Express' },
      {
        ...login(),
        SendTo: Array.from({ length: 351 }, (_, i) => `4477009${String(i).padStart(5, '0')}`).join(','),
        Message: 'x',
      },
    ];
    for (const fields of cases) {
      for (const format of ['0', '1', '3']) {
        const res = await postForm(gw.url, PATH, { ...fields, ResponseFormat: format });
        expect(res.status).toBe(200);
        if (format === '0') expect(res.body).toMatch(/^-?\d+ - .+/);
        else {
          const reports = parseTags(res.body).Report ?? [];
          expect(reports.length).toBeGreaterThan(0);
          for (const r of reports) expect(r).not.toMatch(/^-[23]$/);
        }
      }
    }
    expect(storedCredit(gw.ctx, gw.username)).toBe(before);
    expect(messageCount(gw.ctx, gw.username)).toBe(stored);
  });

  it('out of credit: 15 for the recipients that no longer fit, the rest accepted', async () => {
    const poor = gw.addAccount({ credit: '0.0800' }); // exactly two Default messages
    const res = await postForm(gw.url, PATH, {
      Username: poor.username,
      PIN: poor.pin,
      SendTo: '447700900161,447700900162,447700900163',
      Message: 'x',
      ResponseFormat: '3',
    });
    expect(parseTags(res.body).Report).toEqual(['-3', '-3', '15']);
    expect(storedCredit(gw.ctx, poor.username)).toBe(0);
  });
});

describe('deprecated format one (UN, PIN, M, N)', () => {
  it('answers 01 / 97 / 99 on /sendsms and on /webservices/http/sendsms', async () => {
    for (const path of ['/sendsms', PATH]) {
      const ok = await postForm(gw.url, path, {
        UN: gw.username,
        PIN: gw.pin,
        M: 'old style',
        N: '447700900171',
      });
      expect(ok.body.trim()).toBe('01');
      const bad = await postForm(gw.url, path, {
        UN: gw.username,
        PIN: 'nope',
        M: 'old style',
        N: '447700900171',
      });
      expect(bad.body.trim()).toBe('99');
      const syntax = await postForm(gw.url, path, { UN: gw.username, PIN: gw.pin, N: '447700900171' });
      expect(syntax.body.trim()).toBe('97');
      const someFail = await postForm(gw.url, path, {
        UN: gw.username,
        PIN: gw.pin,
        M: 'x',
        N: '447700900171,1',
      });
      expect(someFail.body.trim()).toBe('97');
    }
  });

  it('out of credit is 97', async () => {
    const poor = gw.addAccount({ credit: '0' });
    const res = await postForm(gw.url, '/sendsms', {
      UN: poor.username,
      PIN: poor.pin,
      M: 'x',
      N: '447700900172',
    });
    expect(res.body.trim()).toBe('97');
  });
});

describe('network failure for one recipient', () => {
  it('that recipient fails (98) and is refunded, nothing half-stored; the others are sent', async () => {
    const errors: string[] = [];
    const own = await startTestGateway({
      credit: '1.00',
      gateway: { log: createLogger({ write: (l) => errors.push(l) }) },
    });
    try {
      const network = own.ctx.network as NetworkSimulator;
      const realEncode = network.encodeQueued.bind(network);
      // Fault injection: the real simulator, except that it breaks for one number.
      network.encodeQueued = (content, recipient, encoders) => {
        if (recipient === '447700900802') throw new Error('SMSC link down');
        return realEncode(content, recipient, encoders);
      };
      const res = await postForm(own.url, PATH, {
        Username: own.username,
        PIN: own.pin,
        SendTo: '447700900801,447700900802,447700900803',
        Message: 'x',
        ResponseFormat: '3',
      });
      const tags = parseTags(res.body);
      // Accepted at the request (the network works off the request path, spec 7.3 answers per
      // recipient at once); the network's failure then shows in the message's status and report.
      expect(tags.Report).toEqual(['-3', '-3', '-3']);
      const ids = tags.MessageIdentifier!;
      const pdus = (id: string): number =>
        (
          own.ctx.db
            .prepare('SELECT count(*) AS n FROM outbound_pdus WHERE message_identifier = ?')
            .get(id) as {
            n: number;
          }
        ).n;
      await expect.poll(() => pdus(ids[0]!) + pdus(ids[2]!)).toBe(2);
      const failed = own.ctx.db
        .prepare('SELECT status, report, cost FROM messages WHERE message_identifier = ?')
        .get(ids[1]!) as { status: string; report: string; cost: number };
      expect(failed).toEqual({ status: 'failed', report: '98', cost: 0 });
      expect(storedCredit(own.ctx, own.username)).toBe(10_000 - 2 * 400);
      expect(pdus(ids[1]!)).toBe(0);
      expect(errors.some((l) => l.includes('SMSC link down'))).toBe(true);
    } finally {
      await own.close();
    }
  });
});
