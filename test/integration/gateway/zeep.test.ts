// Interoperability: python3-zeep (Debian's /usr/bin/python3, installed by .ci/run) loads
// /sendsms5?wsdl from a real gateway and calls all eight SOAP operations.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startTestGateway } from '../../support/gateway.ts';
import type { TestGateway } from '../../support/gateway.ts';
import { DEMO_NUMBER } from '../../../gateway/demo.ts';

const run = promisify(execFile);
const PYTHON = '/usr/bin/python3';
const SCRIPT = fileURLToPath(new URL('../../fixtures/gateway/zeep_client.py', import.meta.url));

async function hasZeep(): Promise<boolean> {
  if (!existsSync(PYTHON)) return false;
  try {
    await run(PYTHON, ['-c', 'import zeep']);
    return true;
  } catch {
    return false;
  }
}

const zeepAvailable = await hasZeep();
if (!zeepAvailable && process.env['CI'])
  throw new Error('python3-zeep is required in CI (.ci/run installs it)');

describe.skipIf(!zeepAvailable)('a foreign SOAP client (zeep)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ sandbox: true, credit: '10.00' });
  });
  afterAll(async () => {
    await gw.close();
  });

  it('loads the WSDL and calls all eight operations', async () => {
    const { stdout } = await run(PYTHON, [SCRIPT, gw.url, gw.username, gw.pin, DEMO_NUMBER], {
      timeout: 60_000,
    });
    const out = JSON.parse(stdout) as Record<string, Record<string, unknown> | null>;
    expect(out['version']).toMatchObject({
      Version: gw.ctx.config.release.version,
      DownloadURL: gw.ctx.config.release.downloadUrl,
    });
    expect(out['credit']).toMatchObject({ Currency: 'GBP', Credit: '10.0000' });
    expect(Number(out['messages']!['Messages'])).toBe(Math.floor(100_000 / 500));
    expect(String(out['replyTo']!['PermittedReplyTo']).split(',')).toContain(gw.ctx.config.defaultReplyTo);
    expect(out['submit']).toMatchObject({ Report: '-3' });
    expect(String(out['submit']!['MessageIdentifier'])).toMatch(/^[0-9A-Z]{1,15}$/);
    expect(out['submitLogo']).toMatchObject({ Report: '-3' });
    expect(out['receipt']).toMatchObject({
      MessageIdentifier: out['submit']!['MessageIdentifier'],
      Report: 0,
    });
    expect(out['deliver']).toMatchObject({ Report: 0 });
    const collected = out['collect']!;
    expect(collected['Report']).toBe(0);
    const items = (collected['MessageList'] as { item: Array<Record<string, unknown>> }).item;
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      SendTo: DEMO_NUMBER,
      ReplyTo: '447700900555',
      Message: { TextMessage: 'Reply from a phone' },
    });
    const again = out['collectAgain']!['MessageList'] as { item?: unknown[] } | null;
    expect(again?.item ?? []).toHaveLength(0);
    expect(String(out['badLogin']!['message'])).toMatch(/invalid login/i);
    // the text message was charged at the Premier tariff, the logo at Default
    const credit = gw.ctx.db.prepare('SELECT credit FROM accounts WHERE id = ?').get(gw.account.id) as {
      credit: number;
    };
    expect(credit.credit).toBe(100_000 - 500 - 400);
  });

  it('raises zeep.exceptions.Fault for a fault sent with HTTP 200 (never 5xx)', async () => {
    // The transport records the HTTP status of each POST, so the test sees what zeep got on the wire.
    const script = [
      'import json, sys, zeep',
      'from zeep.transports import Transport',
      'class Recording(Transport):',
      '    statuses = []',
      '    def post(self, *a, **k):',
      '        r = super().post(*a, **k)',
      '        Recording.statuses.append(r.status_code)',
      '        return r',
      'client = zeep.Client(sys.argv[1] + "/sendsms5?wsdl", transport=Recording())',
      'out = {}',
      'try:',
      '    client.service.AvailableMessages(Username=sys.argv[2], PIN="wrong")',
      '    out["fault"] = None',
      'except zeep.exceptions.Fault as f:',
      '    out["fault"] = {"message": f.message, "code": str(f.code), "detail": f.detail is not None}',
      'out["statuses"] = Recording.statuses',
      'print(json.dumps(out))',
    ].join('\n');
    const { stdout } = await run(PYTHON, ['-c', script, gw.url, gw.username], { timeout: 60_000 });
    const out = JSON.parse(stdout) as { fault: { message: string; code: string } | null; statuses: number[] };
    expect(out.fault).not.toBeNull();
    expect(out.fault!.message).toMatch(/invalid login/i);
    expect(out.fault!.code).toMatch(/Client/);
    expect(out.statuses).toEqual([200]);
  });
});
