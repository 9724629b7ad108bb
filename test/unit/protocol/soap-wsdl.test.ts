// The XSD and WSDL checked by independent tools: libxml2 (xmllint) validates envelope bodies written
// by our builder against buildXsd(), and python-zeep (Debian's /usr/bin/python3) loads buildWsdl(),
// writes requests our parser must read, and reads responses our builder wrote.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  buildRequestEnvelope,
  buildResponseEnvelope,
  parseRequestEnvelope,
} from '../../../protocol/soap/envelope.ts';
import {
  SENDSMS2_PROFILE,
  SENDSMS5_PROFILE,
  SOAP_TYPES_NAMESPACE,
  type SoapProfile,
} from '../../../protocol/soap/namespaces.ts';
import { SOAP_OPERATIONS } from '../../../protocol/soap/operations.ts';
import { buildWsdl, buildXsd, SOAP_SERVICE_NAME } from '../../../protocol/soap/wsdl.ts';
import { moMessage, sampleRequests, sampleResponses } from '../../fixtures/soap/samples.ts';

const XMLLINT = '/usr/bin/xmllint';
const PYTHON = '/usr/bin/python3';
const hasXmllint = existsSync(XMLLINT);
const hasZeep = existsSync(PYTHON) && spawnSync(PYTHON, ['-c', 'import zeep']).status === 0;

const dir = mkdtempSync(join(tmpdir(), 'soap-wsdl-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The single element inside soap:Body of an envelope our builder wrote (it carries its own xmlns). */
function bodyOf(envelope: string): string {
  const match = /<soap:Body>([\s\S]*)<\/soap:Body>/.exec(envelope);
  if (!match?.[1]) throw new Error(`no body in ${envelope.slice(0, 200)}`);
  return `<?xml version="1.0" encoding="utf-8"?>\n${match[1]}`;
}

/** Validate documents against a schema with xmllint; returns per-file verdicts and the tool output. */
function xmllintValidate(
  schema: string,
  docs: Record<string, string>,
): { valid: Record<string, boolean>; output: string } {
  const schemaFile = join(dir, `schema-${Math.random().toString(36).slice(2)}.xsd`);
  writeFileSync(schemaFile, schema);
  const files = Object.entries(docs).map(([name, xml]) => {
    const file = join(dir, `${name}.xml`);
    writeFileSync(file, xml);
    return [name, file] as const;
  });
  const run = spawnSync(XMLLINT, ['--noout', '--schema', schemaFile, ...files.map(([, file]) => file)], {
    encoding: 'utf8',
  });
  const output = `${run.stdout}${run.stderr}`;
  if (/failed to compile/.test(output)) throw new Error(`schema does not compile:\n${output}`);
  const valid: Record<string, boolean> = {};
  for (const [name, file] of files) valid[name] = output.includes(`${file} validates`);
  return { valid, output };
}

function sampleBodies(profile: SoapProfile): Record<string, string> {
  const docs: Record<string, string> = {};
  for (const op of SOAP_OPERATIONS) {
    docs[`${op}-request`] = bodyOf(buildRequestEnvelope(op, sampleRequests[op], profile));
    docs[`${op}-response`] = bodyOf(buildResponseEnvelope(op, sampleResponses[op], profile));
  }
  for (const count of [0, 1, 3]) {
    const item = Array.from({ length: count }, (_, i) => moMessage(i));
    docs[`CollectMessages-${count}`] = bodyOf(
      buildResponseEnvelope('CollectMessages', { Report: 0, MessageList: { item } }, profile),
    );
  }
  docs['MobileMessengerVersion-minimal'] = bodyOf(
    buildRequestEnvelope('MobileMessengerVersion', {}, profile),
  );
  docs['SubmitMessage-minimal'] = bodyOf(buildRequestEnvelope('SubmitMessage', {}, profile));
  return docs;
}

describe.skipIf(!hasXmllint)('XSD validation with xmllint', () => {
  it.each([
    ['sendsms5', SENDSMS5_PROFILE],
    ['sendsms2', SENDSMS2_PROFILE],
  ] as const)('every request and response body of %s validates against buildXsd()', (_name, profile) => {
    const { valid, output } = xmllintValidate(buildXsd(profile), sampleBodies(profile));
    const failed = Object.entries(valid)
      .filter(([, ok]) => !ok)
      .map(([name]) => name);
    expect(failed, output).toEqual([]);
    expect(Object.keys(valid).length).toBe(2 * SOAP_OPERATIONS.length + 5);
  });

  it('the schema really constrains: wrong order, bad values and a wrong namespace are invalid', () => {
    const good = bodyOf(buildRequestEnvelope('SubmitMessage', sampleRequests.SubmitMessage));
    const docs = {
      order: good.replace(
        /<Username>acme.01<\/Username><PIN>Secret42<\/PIN>/,
        '<PIN>Secret42</PIN><Username>acme.01</Username>',
      ),
      mcc: good.replace('<MCC>234</MCC>', '<MCC>two</MCC>'),
      action: good.replace('<action>signal-high</action>', '<action>delete</action>'),
      hex: good.replace('<UserData>DEADBEEF</UserData>', '<UserData>DEADBEE</UserData>'),
      qualified: good.replace('<ReplyTo>ACME</ReplyTo>', `<tns:ReplyTo>ACME</tns:ReplyTo>`),
      namespace: good.replaceAll(SOAP_TYPES_NAMESPACE, 'urn:other'),
    };
    for (const [name, xml] of Object.entries(docs)) expect(xml, name).not.toBe(good);
    const { valid, output } = xmllintValidate(buildXsd(), { good, ...docs });
    expect(valid, output).toEqual({
      good: true,
      order: false,
      mcc: false,
      action: false,
      hex: false,
      qualified: false,
      namespace: false,
    });
  });

  it('the WSDL is well-formed and describes document/literal with soapAction ""', () => {
    const url = 'http://127.0.0.1:8080/sendsms5?a=1&b=2';
    const wsdl = buildWsdl({ endpointUrl: url });
    const file = join(dir, 'service.wsdl');
    writeFileSync(file, wsdl);
    expect(() => execFileSync(XMLLINT, ['--noout', file], { stdio: 'pipe' })).not.toThrow();
    expect(wsdl).toContain(
      '<soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>',
    );
    expect(wsdl).toContain('<soap:address location="http://127.0.0.1:8080/sendsms5?a=1&amp;b=2"/>');
    expect(wsdl.match(/<soap:operation soapAction="" style="document"\/>/g)?.length).toBe(
      SOAP_OPERATIONS.length,
    );
    expect(SOAP_OPERATIONS).toHaveLength(9); // the spec's eight and the provider's QueryAddressBook
    expect(wsdl.match(/<soap:body use="literal" parts="parameters"\/>/g)?.length).toBe(18);
    // the provider's names (its published WSDL)
    expect(wsdl).toContain('<wsdl:service name="Service">');
    expect(wsdl).toContain('<wsdl:port name="Service" binding="tns:Service">');
    expect(wsdl).toContain('<wsdl:portType name="ServicePortType">');
    for (const op of SOAP_OPERATIONS) {
      expect(wsdl).toContain(`<wsdl:message name="${op}Request">`);
      expect(wsdl).toContain(`<wsdl:message name="${op}Response">`);
      expect(wsdl).toContain(`<wsdl:part name="parameters" element="types:${op}"/>`);
    }
    expect(wsdl).toContain('elementFormDefault="unqualified"');
  });
});

const ZEEP_SCRIPT = String.raw`
import json, sys, zeep
from lxml import etree
from zeep.helpers import serialize_object
job = json.load(sys.stdin)
client = zeep.Client(job['wsdl'])
out = {'services': {}, 'requests': {}, 'responses': {}}
for service in client.wsdl.services.values():
    for port in service.ports.values():
        out['services'][service.name + '/' + port.name] = {
            'address': port.binding_options['address'],
            'operations': sorted(port.binding._operations.keys()),
        }
for name, kwargs in job['requests'].items():
    message = client.create_message(client.service, name, **kwargs)
    out['requests'][name] = etree.tostring(message, encoding='unicode')
operations = client.service._binding._operations
for name, xml in job['responses'].items():
    result = operations[name].output.deserialize(etree.fromstring(xml.encode('utf-8')))
    out['responses'][name] = serialize_object(result)
json.dump(out, sys.stdout, default=str)
`;

describe.skipIf(!hasZeep)('python-zeep as an independent SOAP client', () => {
  it('loads the WSDL, lists all eight operations, and both sides understand each other', () => {
    const wsdlFile = join(dir, 'zeep.wsdl');
    const endpointUrl = 'http://127.0.0.1:9/sendsms5';
    writeFileSync(wsdlFile, buildWsdl({ endpointUrl }));
    const responses: Record<string, string> = {};
    for (const op of SOAP_OPERATIONS) responses[op] = buildResponseEnvelope(op, sampleResponses[op]);
    const run = spawnSync(PYTHON, ['-c', ZEEP_SCRIPT], {
      input: JSON.stringify({ wsdl: wsdlFile, requests: sampleRequests, responses }),
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout) as {
      services: Record<string, { address: string; operations: string[] }>;
      requests: Record<string, string>;
      responses: Record<string, Record<string, unknown>>;
    };

    expect(Object.values(out.services)).toEqual([
      { address: endpointUrl, operations: [...SOAP_OPERATIONS].sort() },
    ]);
    expect(Object.keys(out.services)[0]).toMatch(new RegExp(`^${SOAP_SERVICE_NAME}/`));

    // zeep's requests (its own prefixes, no XML declaration) parse back to what we asked it to send
    for (const op of SOAP_OPERATIONS) {
      const parsed = parseRequestEnvelope(out.requests[op] ?? '');
      expect(parsed.operation).toBe(op);
      expect(parsed.namespace).toBe(SOAP_TYPES_NAMESPACE);
      expect(parsed.ignored).toEqual([]);
      expect(parsed.request, op).toEqual(sampleRequests[op]);
    }

    // zeep reads our responses with their types
    expect(out.responses['SubmitMessage']).toMatchObject({
      MessageIdentifier: 'A1B2C3D4E5F6G7H',
      Report: '-3',
      LibraryNumber: 80004,
    });
    expect(out.responses['AvailableCredit']).toMatchObject({ Currency: 'GBP', Credit: '12.3400' });
    expect(out.responses['SubmitDeliveryReceipt']).toMatchObject({ Report: 0, Text: 'Receipt stored' });
    expect(out.responses['MobileMessengerVersion']).toMatchObject({
      ReleaseNotice: 'First release & notes',
      DownloadURL: 'https://downloads.example/messenger?v=0.1.0&os=linux',
    });
    const collected = out.responses['CollectMessages'] as {
      Report: number;
      MessageList: { item: Array<Record<string, unknown>> };
    };
    expect(collected.Report).toBe(0);
    expect(collected.MessageList.item.map((m) => m['ReplyTo'])).toEqual(['447700900101', '447700900102']);
    const second = collected.MessageList.item[1]?.['Message'] as Record<string, unknown>;
    expect(second['TextMessage']).toBe(
      sampleResponses.CollectMessages.MessageList.item[1]?.Message.TextMessage,
    );
  });
});
