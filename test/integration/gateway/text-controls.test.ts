// Issue 23, item 5: raw control characters (%00, %1E) in a text were accepted and charged; now the
// request is refused (report 3) with the field and the character named, and nothing is charged. A
// line break stays allowed in an SMS text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT } from '../../../protocol/reports.ts';
import { parseTags, postForm, startTestGateway, storedCredit } from '../../support/gateway.ts';
import type { TestGateway } from '../../support/gateway.ts';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway({ sandbox: true });
});
afterAll(async () => {
  await gw.close();
});

const send = (message: string) =>
  postForm(
    gw.url,
    '/webservices/http/sendsms',
    `Username=${gw.username}&PIN=${gw.pin}&SendTo=447700900123&ResponseFormat=1&Message=${message}`,
  );

describe('control characters in a text (issue 23)', () => {
  it('refuses %00 and %1E, names the field, charges nothing', async () => {
    const before = storedCredit(gw.ctx, gw.username);
    for (const [escape, u] of [
      ['%00', 'U+0000'],
      ['%1E', 'U+001E'],
    ]) {
      const tags = parseTags((await send(`Hello${escape}there`)).body);
      expect(tags['Report']).toEqual([REPORT.syntaxError]);
      expect(tags['Text']?.[0]).toContain(`Message contains a control character (${u}) at character 6`);
    }
    expect(storedCredit(gw.ctx, gw.username)).toBe(before);
  });

  it('sends a text with a line break', async () => {
    const tags = parseTags((await send('line%20one%0D%0Aline%20two')).body);
    expect(tags['Report']).toEqual([REPORT.accepted]);
  });
});
