// Issue 23, item 1: a hostile body before login (no account needed) must not stall the gateway for
// everyone. A 2 MB form of `a&` (a million bare tags) was decoded in quadratic time (12.9 s during
// which no other client was answered) and then overflowed the stack (report 98); a 4 MB SOAP
// envelope of CDATA was parsed in one go. Each is sent here while a second client keeps asking the
// gateway for its credit: that client's slowest answer during the attack is the stall.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../../protocol/limits.ts';
import { REPORT } from '../../../protocol/reports.ts';
import { parseTags, postForm, startTestGateway } from '../../support/gateway.ts';
import type { TestGateway } from '../../support/gateway.ts';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway({ sandbox: true });
});
afterAll(async () => {
  await gw.close();
});

/**
 * The generous bound on a normal client's slowest answer while the hostile request is handled. The
 * issue's property is 50 ms of delay; this machine is shared and loaded, so the test holds the
 * order of magnitude (before the fix: seconds) and prints what it measured.
 */
const STALL_BOUND_MS = 1000;

async function creditQuery(): Promise<number> {
  const t = performance.now();
  const res = await postForm(gw.url, '/webservices/http/queryaccount', {
    Username: gw.username,
    PIN: gw.pin,
    AvailableCredit: '',
  });
  expect(parseTags(res.body)['AvailableCredit']).toHaveLength(1);
  return performance.now() - t;
}

/** Runs `attack` while a normal client asks for its credit back to back; its slowest answer, ms. */
async function slowestAnswerDuring<T>(attack: () => Promise<T>): Promise<{ result: T; slowest: number }> {
  let done = false;
  let slowest = 0;
  const prober = (async () => {
    let n = 0;
    while (!done || n < 3) {
      slowest = Math.max(slowest, await creditQuery());
      n++;
    }
  })();
  // the prober is under way before the attack starts
  await new Promise((r) => setTimeout(r, 30));
  const result = await attack().finally(() => {
    done = true;
  });
  await prober;
  return { result, slowest };
}

describe('hostile bodies before login (issue 23)', () => {
  it('answers 2 MB of `a&` on sendsms at once with a clear report, and nobody waits', async () => {
    await creditQuery(); // warm
    const body = 'a&'.repeat(1_000_000);
    const { result, slowest } = await slowestAnswerDuring(async () => {
      const t = performance.now();
      const res = await postForm(gw.url, '/webservices/http/sendsms', `${body}ResponseFormat=1`);
      return { res, ms: performance.now() - t };
    });
    console.log(
      `2 MB of a&: answered in ${result.ms.toFixed(0)} ms; slowest other answer ${slowest.toFixed(0)} ms`,
    );
    expect(result.res.status).toBe(200);
    // format 0 (ResponseFormat sits beyond the fields read): "3 - Too many fields …"
    expect(result.res.body).toMatch(new RegExp(`^${REPORT.syntaxError} - Too many fields`));
    expect(result.res.body).toContain(String(LIMITS.maxFormFields));
    expect(result.ms).toBeLessThan(STALL_BOUND_MS * 3);
    expect(slowest).toBeLessThan(STALL_BOUND_MS);
  });

  it('answers in the requested format when the fields are within the limit but the body is hostile', async () => {
    const res = await postForm(
      gw.url,
      '/webservices/http/sendsms',
      `ResponseFormat=1&Username=x&${'&'.repeat(1_000_000)}Message=${'%41'.repeat(300_000)}%4`,
    );
    const tags = parseTags(res.body);
    expect(tags['Report']).toEqual([REPORT.syntaxError]);
    expect(tags['Text']?.[0]).toMatch(/malformed percent-encoding/);
  });

  it('refuses more than the field limit on every form path, query string and body counted together', async () => {
    const fields = Array.from({ length: LIMITS.maxFormFields }, (_, i) => `f${i}=1`).join('&');
    for (const path of ['/webservices/http/queryaccount', '/webservices/http/sendmms', '/sendsms']) {
      const res = await fetch(`${gw.url}${path}?${fields}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `Username=${gw.username}&PIN=${gw.pin}&AvailableCredit`,
      });
      const text = await res.text();
      expect(res.status).toBe(200);
      expect(text, path).not.toMatch(/^98|Report=98|Internal error/);
      if (path !== '/sendsms') expect(text, path).toMatch(/Too many fields/);
    }
  });

  it('parses a 4 MB SOAP envelope in slices and refuses one of references: other clients are answered meanwhile', async () => {
    const envelope = (inner: string) =>
      '<?xml version="1.0"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">' +
      `<soap:Body><AvailableCredit xmlns="http://x/"><Username>${inner}</Username><PIN>x</PIN></AvailableCredit></soap:Body></soap:Envelope>`;
    const bodies = {
      // plain text, parsed to the end in 64 KiB slices
      text: envelope('u'.repeat(4 * 1024 * 1024 - 400)),
      // saxes builds these one character at a time: refused at the cap, before the parser meets them
      cdata: envelope(`<![CDATA[${']'.repeat(4 * 1024 * 1024 - 400)}]]>`),
      references: envelope('&amp;'.repeat((4 * 1024 * 1024 - 400) / 5)),
    };
    for (const [name, body] of Object.entries(bodies)) {
      const { result, slowest } = await slowestAnswerDuring(async () => {
        const res = await fetch(`${gw.url}/sendsms5`, {
          method: 'POST',
          headers: { 'content-type': 'text/xml; charset=utf-8' },
          body,
        });
        return { status: res.status, text: await res.text() };
      });
      console.log(`4 MB SOAP ${name}: slowest other answer ${slowest.toFixed(0)} ms`);
      expect(result.status).toBe(200);
      if (name === 'text') expect(result.text).toMatch(/soap:Client|Report/);
      else
        expect(result.text).toMatch(
          /soap:Client[\s\S]*more than 16384 &quot;&amp;&quot; and &quot;\]&quot;|soap:Client[\s\S]*more than 16384/,
        );
      expect(slowest, name).toBeLessThan(STALL_BOUND_MS);
    }
  });
});
