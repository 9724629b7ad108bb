// Issue 16 §1 and §2: the gateway serves and accepts the provider's SOAP namespaces by default and
// another pair when told (--soap-namespace / --soap-types-namespace); our client, with no setting,
// learns the pair from the gateway's WSDL and speaks every SOAP operation the app uses in it; and
// zeep, generated from the WSDL each gateway serves, calls it unchanged (QueryAddressBook included).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestGateway } from '../../support/gateway.ts';
import type { TestGateway } from '../../support/gateway.ts';
import { GatewayClient } from '../../../main/client/gateway-client.ts';
import { importAddressBook } from '../../../gateway/address-books.ts';
import {
  EXAMPLE_SENDSMS5_PROFILE,
  PROVIDER_SOAP_NAMESPACE,
  PROVIDER_SOAP_TYPES_NAMESPACE,
  SENDSMS2_PROFILE,
  type SoapProfile,
} from '../../../protocol/soap/namespaces.ts';
import { readWsdlProfile } from '../../../protocol/soap/wsdl-read.ts';
import { main as gatewayCli, soapProfileFromFlags } from '../../../gateway/cli.ts';

const run = promisify(execFile);
const PYTHON = '/usr/bin/python3';
const zeepAvailable =
  existsSync(PYTHON) &&
  (await run(PYTHON, ['-c', 'import zeep']).then(
    () => true,
    () => false,
  ));

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

const CUSTOM: SoapProfile = { namespace: 'urn:acme:sms:wsdl', typesNamespace: 'urn:acme:sms:types' };

async function gateway(profile?: SoapProfile): Promise<TestGateway> {
  const gw = await startTestGateway({ credit: '10.00', gateway: profile ? { soapProfile: profile } : {} });
  cleanups.push(() => gw.close());
  importAddressBook(gw.ctx.db, gw.account, 'Staff', [
    { number: '447700900301', name: 'Ann Lee', groups: ['Sales'] },
    { number: '447700900302', name: 'Bob', groups: ['Sales', 'Board'] },
    { number: '447700900303', groups: [] },
  ]);
  return gw;
}

describe.each([
  [
    "the provider's namespaces (default)",
    undefined,
    { namespace: PROVIDER_SOAP_NAMESPACE, typesNamespace: PROVIDER_SOAP_TYPES_NAMESPACE },
  ],
  ['a custom namespace pair', CUSTOM, CUSTOM],
  ["the project's older example pair", EXAMPLE_SENDSMS5_PROFILE, EXAMPLE_SENDSMS5_PROFILE],
] as const)('a gateway speaking %s', (_name, configured, expected) => {
  it('serves them in its WSDL (both addresses) and our client, with no setting, uses them for every operation', async () => {
    const gw = await gateway(configured);
    for (const path of ['/sendsms5?wsdl', '/dtd/sendsms5.wsdl']) {
      expect(readWsdlProfile(await (await fetch(`${gw.url}${path}`)).text())).toEqual(expected);
    }
    // /sendsms2 keeps its older namespace
    expect(readWsdlProfile(await (await fetch(`${gw.url}/sendsms2?wsdl`)).text())).toEqual(SENDSMS2_PROFILE);
    const c = new GatewayClient({ primaryUrl: gw.url, username: gw.username, pin: gw.pin });
    cleanups.push(() => c.close());
    expect(await c.mobileMessengerVersion()).toMatchObject({
      outcome: 'ok',
      value: { Version: gw.ctx.config.release.version },
    });
    expect(await c.soapNamespace()).toEqual({ profile: expected, source: 'wsdl', detail: '/sendsms5?wsdl' });
    expect(await c.collectMessages()).toMatchObject({ outcome: 'ok', value: { Report: 0 } });
    expect(await c.soapAvailableCredit()).toMatchObject({
      outcome: 'ok',
      value: { Currency: 'GBP', Credit: '10.0000' },
    });
    expect(await c.soapAvailableMessages()).toMatchObject({ outcome: 'ok' });
    expect(await c.soapPermittedReplyTo()).toMatchObject({ outcome: 'ok' });
    expect(
      await c.soapSubmitMessage({ Recipient: { SendTo: '447700900400' }, Message: { TextMessage: 'hi' } }),
    ).toMatchObject({ outcome: 'ok', value: { Report: '-3' } });
    const group = await c.queryAddressBook('Staff', 'Sales');
    expect(group).toMatchObject({
      outcome: 'ok',
      value: [
        { GivenName: 'Ann', FamilyName: 'Lee', MobileNumber: '447700900301', Group: 'Sales' },
        { GivenName: 'Bob', MobileNumber: '447700900302', Group: 'Sales' },
      ],
    });
    const all = await c.queryAddressBook();
    const staff = all.outcome === 'ok' ? all.value.filter((e) => e.Group?.startsWith('Staff')) : [];
    expect(staff.map((e) => `${e.MobileNumber} ${e.Group}`)).toEqual([
      '447700900301 Staff::Sales',
      '447700900302 Staff::Board',
      '447700900302 Staff::Sales',
      '447700900303 Staff',
    ]);
    expect(await c.queryAddressBook('Nope')).toMatchObject({
      outcome: 'rejected',
      reason: expect.stringMatching(/Unknown address book Nope/),
    });
  });

  it.skipIf(!zeepAvailable)('zeep generated from its WSDL calls it unchanged', async () => {
    const gw = await gateway(configured);
    const script = [
      'import json, sys, zeep',
      'c = zeep.Client(sys.argv[1] + "/sendsms5?wsdl")',
      'u, p = sys.argv[2], sys.argv[3]',
      'r = {}',
      'r["credit"] = zeep.helpers.serialize_object(c.service.AvailableCredit(Username=u, PIN=p))',
      'r["collect"] = zeep.helpers.serialize_object(c.service.CollectMessages(Username=u, PIN=p))',
      'r["version"] = zeep.helpers.serialize_object(c.service.MobileMessengerVersion())',
      'r["book"] = zeep.helpers.serialize_object(c.service.QueryAddressBook(Username=u, PIN=p, AddressBookName="Staff", AddressBookGroupName="Board"))',
      'r["submit"] = zeep.helpers.serialize_object(c.service.SubmitMessage(Username=u, PIN=p, Recipient={"SendTo": "447700900401"}, Message={"TextMessage": "from zeep"}))',
      'print(json.dumps(r, default=str))',
    ].join('\n');
    const { stdout } = await run(PYTHON, ['-c', script, gw.url, gw.username, gw.pin], { timeout: 60_000 });
    const out = JSON.parse(stdout) as Record<string, Record<string, unknown>>;
    expect(out['credit']).toMatchObject({ Currency: 'GBP', Credit: '10.0000' });
    expect(out['collect']).toMatchObject({ Report: 0 });
    expect(out['version']).toMatchObject({ Version: gw.ctx.config.release.version });
    // zeep unwraps a response of one element: AddressBookEntryList's items
    expect(out['book']).toMatchObject([{ GivenName: 'Bob', MobileNumber: '447700900302', Group: 'Board' }]);
    expect(out['submit']).toMatchObject({ Report: '-3' });
  });
});

describe('the gateway CLI namespace flags', () => {
  it("--soap-namespace and --soap-types-namespace replace the provider's pair; a bad URI is refused", async () => {
    expect(soapProfileFromFlags({})).toEqual({
      namespace: PROVIDER_SOAP_NAMESPACE,
      typesNamespace: PROVIDER_SOAP_TYPES_NAMESPACE,
    });
    expect(
      soapProfileFromFlags({
        'soap-namespace': CUSTOM.namespace,
        'soap-types-namespace': CUSTOM.typesNamespace,
      }),
    ).toEqual(CUSTOM);
    expect(() => soapProfileFromFlags({ 'soap-types-namespace': 'no uri' })).toThrow(/absolute URI/);
    const out: string[] = [];
    await gatewayCli(['help'], (s) => out.push(s));
    expect(out.join('\n')).toMatch(/--soap-namespace URI --soap-types-namespace URI/);
  });
});
