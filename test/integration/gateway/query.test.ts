// queryaccount over real HTTP (spec 4.3) and the older credit query on /sendsms.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getForm, parseTags, postForm, startTestGateway } from '../../support/gateway.ts';
import type { TestGateway } from '../../support/gateway.ts';

const PATH = '/webservices/http/queryaccount';
let gw: TestGateway;

beforeAll(async () => {
  gw = await startTestGateway({ credit: '12.3456' });
});
afterAll(async () => {
  await gw.close();
});

describe('queryaccount', () => {
  it('AvailableCredit: Currency=GBP and four decimals', async () => {
    const res = await postForm(gw.url, PATH, { Username: gw.username, PIN: gw.pin, AvailableCredit: '' });
    expect(res.status).toBe(200);
    expect(parseTags(res.body)).toEqual({ Currency: ['GBP'], AvailableCredit: ['12.3456'] });
  });

  it('AvailableMessages: credit / Premier price, rounded down', async () => {
    const res = await getForm(gw.url, PATH, { Username: gw.username, PIN: gw.pin, AvailableMessages: '' });
    expect(parseTags(res.body)).toEqual({ AvailableMessages: ['246'] }); // 12.3456 / 0.05
  });

  it('PermittedReplyTo contains the service default and the account values', async () => {
    const res = await postForm(gw.url, PATH, { Username: gw.username, PIN: gw.pin, PermittedReplyTo: '' });
    const list = parseTags(res.body).PermittedReplyTo ?? [];
    expect(list).toContain(gw.ctx.config.defaultReplyTo);
    expect(list).toContain('DemoShop');
    expect(list).toContain('447700900001');
  });

  it('credit changes after a send are visible', async () => {
    await postForm(gw.url, '/webservices/http/sendsms', {
      Username: gw.username,
      PIN: gw.pin,
      SendTo: '447700900201',
      Message: 'x',
    });
    const res = await postForm(gw.url, PATH, { Username: gw.username, PIN: gw.pin, AvailableCredit: '' });
    expect(parseTags(res.body).AvailableCredit).toEqual(['12.3056']);
  });

  it('invalid login: MessageIdentifier=-1&Report=2', async () => {
    for (const fields of [
      { Username: gw.username, PIN: 'bad', AvailableCredit: '' } as Record<string, string>,
      { Username: 'ghost', PIN: 'bad', AvailableMessages: '' },
      { AvailableCredit: '' },
    ]) {
      const res = await postForm(gw.url, PATH, fields);
      expect(res.status).toBe(200);
      const tags = parseTags(res.body);
      expect(tags.MessageIdentifier).toEqual(['-1']);
      expect(tags.Report).toEqual(['2']);
      expect(tags.Text?.[0]?.toLowerCase()).toBe('invalid login');
    }
  });

  it('no operation or two operations: an error report, not data', async () => {
    for (const fields of [
      { Username: gw.username, PIN: gw.pin } as Record<string, string>,
      { Username: gw.username, PIN: gw.pin, AvailableCredit: '', AvailableMessages: '' },
    ]) {
      const res = await postForm(gw.url, PATH, fields);
      expect(res.status).toBe(200);
      const tags = parseTags(res.body);
      expect(tags.Report?.[0]).toBeDefined();
      expect(tags.Report?.[0]).not.toBe('0');
      expect(tags.AvailableCredit).toBeUndefined();
    }
  });

  it('the older /sendsms credit query answers a single value with currency and amount', async () => {
    const res = await postForm(gw.url, '/sendsms', {
      Username: gw.username,
      PIN: gw.pin,
      AvailableCredit: '',
    });
    expect(res.status).toBe(200);
    const value = parseTags(res.body).AvailableCredit?.[0] ?? '';
    expect(value).toMatch(/^[A-Z]{3} \d+\.\d{4}$/);
  });
});
