import { describe, expect, it } from 'vitest';
import {
  buildRequestEnvelope,
  buildResponseEnvelope,
  parseRequestEnvelope,
  parseResponseEnvelope,
} from '../../../protocol/soap/envelope.ts';
import { SENDSMS2_PROFILE, SOAP_NAMESPACE, SOAP12_ENV_NAMESPACE } from '../../../protocol/soap/namespaces.ts';
import { SOAP_OPERATIONS } from '../../../protocol/soap/operations.ts';
import { SOAP_COMPLEX_TYPES, SOAP_OPERATION_SCHEMAS, type FieldDef } from '../../../protocol/soap/schema.ts';
import { fullMessage, moMessage, sampleRequests, sampleResponses } from '../../fixtures/soap/samples.ts';

import { envelope, T } from './soap-helpers.ts';

describe('round trip of every operation', () => {
  it.each(SOAP_OPERATIONS)('%s request', (op) => {
    const xml = buildRequestEnvelope(op, sampleRequests[op]);
    expect(xml).toContain(`<tns:${op} xmlns:tns="${T}"`);
    const parsed = parseRequestEnvelope(xml);
    expect(parsed.operation).toBe(op);
    expect(parsed.namespace).toBe(T);
    expect(parsed.soapVersion).toBe('1.1');
    expect(parsed.ignored).toEqual([]);
    expect(parsed.request).toEqual(sampleRequests[op]);
  });

  it.each(SOAP_OPERATIONS)('%s response', (op) => {
    const xml = buildResponseEnvelope(op, sampleResponses[op]);
    expect(xml).toContain(`<tns:${op}Response xmlns:tns="${T}"`);
    expect(parseResponseEnvelope(op, xml)).toEqual(sampleResponses[op]);
  });

  it('keeps text exactly: markup characters, CR LF, tabs, non-BMP characters', () => {
    const xml = buildRequestEnvelope('SubmitMessage', {
      Message: { TextMessage: fullMessage.TextMessage ?? '' },
    });
    expect(xml).toContain('Tom &amp; Jerry &lt;3');
    expect(xml).toContain('&#13;');
    const parsed = parseRequestEnvelope(xml);
    expect(parsed.operation === 'SubmitMessage' && parsed.request.Message?.TextMessage).toBe(
      fullMessage.TextMessage,
    );
  });

  it('writes child elements unqualified and in schema (xs:sequence) order', () => {
    const xml = buildRequestEnvelope('SubmitDeliveryReceipt', {
      Report: 5,
      MessageIdentifier: 'M1',
      Timestamp1: '2026-11-22T07:00:00',
      PIN: 'p',
      Username: 'u',
    });
    expect(xml).toMatch(
      /<tns:SubmitDeliveryReceipt [^>]*><Username>u<\/Username><PIN>p<\/PIN><Timestamp1>[^<]*<\/Timestamp1><MessageIdentifier>M1<\/MessageIdentifier><Report>5<\/Report><\/tns:SubmitDeliveryReceipt>/,
    );
  });

  it('samples set every element of the schema at least once', () => {
    const seen = new Set<string>();
    const visit = (owner: string, fields: ReadonlyArray<FieldDef>, value: unknown): void => {
      const record = value as Record<string, unknown>;
      for (const field of fields) {
        const item = record[field.name];
        if (item === undefined) continue;
        const items = field.many ? (item as unknown[]) : [item];
        if (items.length > 0) seen.add(`${owner}.${field.name}`);
        if (field.of.kind === 'complex') {
          for (const entry of items) visit(field.of.type, SOAP_COMPLEX_TYPES[field.of.type], entry);
        }
      }
    };
    for (const op of SOAP_OPERATIONS) {
      visit(op, SOAP_OPERATION_SCHEMAS[op].request, sampleRequests[op]);
      visit(`${op}Response`, SOAP_OPERATION_SCHEMAS[op].response, sampleResponses[op]);
    }
    const all = [
      ...SOAP_OPERATIONS.flatMap((op) => [
        ...SOAP_OPERATION_SCHEMAS[op].request.map((f) => `${op}.${f.name}`),
        ...SOAP_OPERATION_SCHEMAS[op].response.map((f) => `${op}Response.${f.name}`),
      ]),
      ...Object.entries(SOAP_COMPLEX_TYPES).flatMap(([type, fields]) =>
        fields.map((f) => `${type}.${f.name}`),
      ),
    ];
    expect(all.filter((path) => !seen.has(path))).toEqual([]);
  });

  it('uses the namespace of the profile and reports it when parsing (sendsms2)', () => {
    const xml = buildRequestEnvelope('AvailableCredit', { Username: 'u', PIN: 'p' }, SENDSMS2_PROFILE);
    expect(parseRequestEnvelope(xml).namespace).toBe(SOAP_NAMESPACE);
    const res = buildResponseEnvelope(
      'AvailableCredit',
      { Currency: 'GBP', Credit: '1.0000' },
      SENDSMS2_PROFILE,
    );
    expect(res).toContain(`xmlns:tns="${SOAP_NAMESPACE}"`);
    expect(parseResponseEnvelope('AvailableCredit', res)).toEqual({ Currency: 'GBP', Credit: '1.0000' });
  });
});

describe('CollectMessages lists', () => {
  it.each([0, 1, 3])('%i messages round trip as an array', (count) => {
    const items = Array.from({ length: count }, (_, i) => moMessage(i + 1));
    const xml = buildResponseEnvelope('CollectMessages', { Report: 0, MessageList: { item: items } });
    expect(xml.match(/<item>/g)?.length ?? 0).toBe(count);
    const parsed = parseResponseEnvelope('CollectMessages', xml);
    expect(Array.isArray(parsed.MessageList.item)).toBe(true);
    expect(parsed.MessageList.item).toEqual(items);
    expect(parsed.MessageList.item.map((m) => m.ReplyTo)).toEqual(items.map((m) => m.ReplyTo));
  });

  it('a single hand-written item and an empty list still parse as arrays; nil items are skipped', () => {
    const one = `<CollectMessagesResponse xmlns="${T}"><Report>0</Report><MessageList>
      <item><SendTo>44</SendTo><ReplyTo>4477</ReplyTo><Timestamp1>2026-01-01T00:00:00</Timestamp1><Message/></item>
      <item xsi:nil="true"/>
    </MessageList></CollectMessagesResponse>`;
    expect(parseResponseEnvelope('CollectMessages', envelope(one)).MessageList.item).toEqual([
      { SendTo: '44', ReplyTo: '4477', Timestamp1: '2026-01-01T00:00:00', Message: {} },
    ]);
    const none = `<r:CollectMessagesResponse xmlns:r="${T}"><Report>-1</Report><MessageList></MessageList></r:CollectMessagesResponse>`;
    expect(parseResponseEnvelope('CollectMessages', envelope(none))).toEqual({
      Report: -1,
      MessageList: { item: [] },
    });
  });

  it('si info and info items are arrays even with one of each', () => {
    const body = `<m:SubmitMessage xmlns:m="${T}"><Message><WAPPush><si>
      <indication><href>http://a.example/</href></indication>
      <info><item><pcdata>p</pcdata><class>c</class></item></info>
    </si></WAPPush></Message></m:SubmitMessage>`;
    const parsed = parseRequestEnvelope(envelope(body));
    expect(parsed.operation).toBe('SubmitMessage');
    if (parsed.operation !== 'SubmitMessage') return;
    expect(parsed.request.Message?.WAPPush?.si?.info).toEqual([{ item: [{ pcdata: 'p', class: 'c' }] }]);
  });
});

describe('what other SOAP stacks send is accepted', () => {
  it('any prefix, a default namespace, comments, a Header and whitespace', () => {
    const xml = envelope(
      `<!-- from a .NET client -->
       <AvailableCredit xmlns="${T}">
         <Username> user.1 </Username>
         <PIN>1234</PIN>
       </AvailableCredit>`,
      '<soapenv:Header><x:Trace xmlns:x="urn:trace">1</x:Trace></soapenv:Header>',
    );
    const parsed = parseRequestEnvelope(xml);
    expect(parsed).toMatchObject({ operation: 'AvailableCredit', namespace: T });
    // strings keep their spaces: the PIN and username are the caller's business
    expect(parsed.request).toEqual({ Username: ' user.1 ', PIN: '1234' });
  });

  it('reports an unexpected or missing namespace instead of refusing it', () => {
    expect(
      parseRequestEnvelope(envelope('<CollectMessages><Username>u</Username></CollectMessages>')).namespace,
    ).toBe('');
    const old = `<ns1:CollectMessages xmlns:ns1="${SOAP_NAMESPACE}"><Username>u</Username></ns1:CollectMessages>`;
    expect(parseRequestEnvelope(envelope(old)).namespace).toBe(SOAP_NAMESPACE);
  });

  it('a SOAP 1.2 envelope, qualified children, any order, xsi:nil credentials, unknown elements', () => {
    const xml = `<env:Envelope xmlns:env="${SOAP12_ENV_NAMESPACE}" xmlns:i="http://www.w3.org/2001/XMLSchema-instance">
      <env:Body><t:SubmitDeliveryReceipt xmlns:t="${T}">
        <t:Report>  -3 </t:Report>
        <t:Timestamp1>2026-11-22T07:00:00Z</t:Timestamp1>
        <t:Username i:nil="true"/>
        <Future>ignored</Future>
      </t:SubmitDeliveryReceipt></env:Body></env:Envelope>`;
    const parsed = parseRequestEnvelope(xml);
    expect(parsed.soapVersion).toBe('1.2');
    expect(parsed.request).toEqual({ Report: -3, Timestamp1: '2026-11-22T07:00:00Z' });
    expect(parsed.ignored).toEqual(['SubmitDeliveryReceipt/Future']);
  });

  it('character references, predefined entities and CDATA', () => {
    const body =
      `<t:SubmitMessage xmlns:t="${T}"><Message><TextMessage>caf&#233; &#x1F600; &lt;b&gt; &quot;&apos;&amp; <![CDATA[<raw> &amp; kept]]></TextMessage>
      <Ringtone><Data>02 4a</Data></Ringtone></Message></t:SubmitMessage>`.replace('02 4a', ' 024a ');
    const parsed = parseRequestEnvelope(envelope(body));
    if (parsed.operation !== 'SubmitMessage') throw new Error(parsed.operation);
    expect(parsed.request.Message?.TextMessage).toBe('café 😀 <b> "\'& <raw> &amp; kept');
    expect(parsed.request.Message?.Ringtone?.Data).toBe('024A');
  });

  it('accepts UTF-8 bytes, with or without a byte order mark', () => {
    const xml = buildRequestEnvelope('SubmitMessage', { Message: { TextMessage: 'Grüße' } });
    const bytes = new TextEncoder().encode(`\uFEFF${xml}`);
    const parsed = parseRequestEnvelope(bytes);
    expect(parsed.operation === 'SubmitMessage' && parsed.request.Message?.TextMessage).toBe('Grüße');
  });
});
