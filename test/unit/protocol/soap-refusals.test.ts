import { describe, expect, it } from 'vitest';
import {
  buildFault,
  buildRequestEnvelope,
  buildResponseEnvelope,
  parseFault,
  parseRequestEnvelope,
  parseResponseEnvelope,
  SOAP_MAX_BYTES,
} from '../../../protocol/soap/envelope.ts';
import { SoapFaultError } from '../../../protocol/soap/errors.ts';
import { isSoapContentType, SOAP12_ENV_NAMESPACE } from '../../../protocol/soap/namespaces.ts';
import type { SoapOperation } from '../../../protocol/soap/operations.ts';
import { buildError, ENV, envelope, parseError, T } from './soap-helpers.ts';

describe('what is refused, with the place named', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['not an integer', '<MCC>23x</MCC>', /Recipient\/MCC: "23x" is not an integer/],
    [
      'out of range',
      '<SendOptions><SendTimeDelay>70000</SendTimeDelay></SendOptions>',
      /SendTimeDelay: 70000 is outside unsignedShort/,
    ],
    [
      'not a boolean',
      '<SendOptions><DisableRepurposing>yes</DisableRepurposing></SendOptions>',
      /not a boolean/,
    ],
    [
      'not an enumeration value',
      '<SendOptions><DeliveryOption>Fast</DeliveryOption></SendOptions>',
      /"Fast" is not one of Default, Premier/,
    ],
    [
      'a repeated single element',
      '<SendTo>1</SendTo><SendTo>2</SendTo>',
      /Recipient\/SendTo: element appears more than once/,
    ],
    ['elements inside a scalar', '<SendTo><b>1</b></SendTo>', /expected text/],
    ['text inside a complex element', 'stray text', /unexpected text/],
  ];
  it.each(cases)('%s', (_name, recipient, message) => {
    const error = parseError(() =>
      parseRequestEnvelope(
        envelope(`<t:SubmitMessage xmlns:t="${T}"><Recipient>${recipient}</Recipient></t:SubmitMessage>`),
      ),
    );
    expect(error.message).toMatch(message);
  });

  it('bad hexBinary, a missing required element, a nil required element', () => {
    const pdu = (inner: string): string =>
      envelope(
        `<t:SubmitMessage xmlns:t="${T}"><Message><SmsSubmitPdu>${inner}</SmsSubmitPdu></Message></t:SubmitMessage>`,
      );
    expect(
      parseError(() =>
        parseRequestEnvelope(
          pdu(
            '<DataCodingScheme>F</DataCodingScheme><ProtocolIdentifier>00</ProtocolIdentifier><UserDataHeader/><UserData/>',
          ),
        ),
      ).message,
    ).toMatch(/DataCodingScheme: "F" is not hexBinary/);
    const missing = parseError(() =>
      parseRequestEnvelope(
        pdu('<DataCodingScheme>00</DataCodingScheme><ProtocolIdentifier>00</ProtocolIdentifier><UserData/>'),
      ),
    );
    expect(missing.path).toBe('SubmitMessage/Message/SmsSubmitPdu/UserDataHeader');
    expect(
      parseError(() =>
        parseRequestEnvelope(
          envelope(`<t:SubmitDeliveryReceipt xmlns:t="${T}"><Report>0</Report></t:SubmitDeliveryReceipt>`),
        ),
      ).path,
    ).toBe('SubmitDeliveryReceipt/Timestamp1');
    expect(
      parseError(() =>
        parseResponseEnvelope(
          'AvailableCredit',
          envelope(
            `<t:AvailableCreditResponse xmlns:t="${T}"><Currency xsi:nil="true"/><Credit>1</Credit></t:AvailableCreditResponse>`,
          ),
        ),
      ).message,
    ).toMatch(/Currency: required element is nil/);
  });

  it('unknown operations, a wrong response element, anything that is not a SOAP envelope', () => {
    expect(parseError(() => parseRequestEnvelope(envelope(`<t:SendFax xmlns:t="${T}"/>`))).message).toMatch(
      /unknown operation <SendFax>/,
    );
    expect(
      parseError(() =>
        parseResponseEnvelope(
          'AvailableCredit',
          buildResponseEnvelope('AvailableMessages', { Messages: '1' }),
        ),
      ).message,
    ).toMatch(/expected <AvailableCreditResponse>, found <AvailableMessagesResponse>/);
    expect(
      parseError(() => parseRequestEnvelope(`<Envelope><Body><AvailableCredit/></Body></Envelope>`)).message,
    ).toMatch(/not a SOAP 1.1 or 1.2 Envelope/);
    expect(parseError(() => parseRequestEnvelope(envelope(''))).message).toMatch(/the Body is empty/);
    expect(
      parseError(() =>
        parseRequestEnvelope(
          envelope(`<t:AvailableCredit xmlns:t="${T}"/><t:AvailableCredit xmlns:t="${T}"/>`),
        ),
      ).message,
    ).toMatch(/more than one element/);
    expect(parseError(() => parseRequestEnvelope(envelope('<x:AvailableCredit/>'))).message).toMatch(
      /undeclared namespace prefix "x"/,
    );
  });

  it('malformed XML, bad references, invalid UTF-8', () => {
    const unclosed = parseError(() =>
      parseRequestEnvelope(envelope(`<t:AvailableCredit xmlns:t="${T}"><PIN>1</t:AvailableCredit>`)),
    );
    expect(unclosed.message).toMatch(/malformed XML/);
    expect(unclosed.line).toBeGreaterThan(1);
    expect(
      parseError(() =>
        parseRequestEnvelope(
          envelope(`<t:AvailableCredit xmlns:t="${T}"><PIN>&nbsp;</PIN></t:AvailableCredit>`),
        ),
      ).message,
    ).toMatch(/undeclared entity/);
    expect(
      parseError(() =>
        parseRequestEnvelope(
          envelope(`<t:AvailableCredit xmlns:t="${T}"><PIN>&#1;</PIN></t:AvailableCredit>`),
        ),
      ).message,
    ).toMatch(/not an XML character/);
    const bytes = new TextEncoder().encode(buildRequestEnvelope('AvailableCredit', { PIN: 'xx' }));
    bytes[bytes.indexOf(0x78)] = 0xc3; // "x" -> a lead byte followed by ASCII: invalid UTF-8
    expect(parseError(() => parseRequestEnvelope(bytes)).message).toMatch(/not valid UTF-8/);
    expect(parseError(() => parseRequestEnvelope('')).message).toMatch(/no document element|malformed/);
  });
});

describe('hostile documents', () => {
  it('refuses XXE: an external entity is never resolved', () => {
    const xxe = `<?xml version="1.0"?>
<!DOCTYPE soapenv:Envelope [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> ]>
<soapenv:Envelope xmlns:soapenv="${ENV}"><soapenv:Body>
<t:SubmitMessage xmlns:t="${T}"><Username>&xxe;</Username></t:SubmitMessage>
</soapenv:Body></soapenv:Envelope>`;
    const error = parseError(() => parseRequestEnvelope(xxe));
    expect(error.message).toMatch(/DOCTYPE and ENTITY declarations are not allowed/);
    expect(error.message).not.toContain('root:');
  });

  it('refuses billion laughs at once, without expanding', () => {
    const lol = [
      '<?xml version="1.0"?>',
      '<!DOCTYPE lolz [',
      ' <!ENTITY lol "lol">',
      ...Array.from(
        { length: 9 },
        (_, i) => ` <!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`,
      ),
      ']>',
      `<soapenv:Envelope xmlns:soapenv="${ENV}"><soapenv:Body><t:AvailableCredit xmlns:t="${T}"><PIN>&lol9;</PIN></t:AvailableCredit></soapenv:Body></soapenv:Envelope>`,
    ].join('\n');
    const started = performance.now();
    expect(parseError(() => parseRequestEnvelope(lol)).message).toMatch(/DOCTYPE and ENTITY/);
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('refuses any DOCTYPE, in any case, and a stray ENTITY declaration, also as bytes', () => {
    const plain = buildRequestEnvelope('AvailableCredit', { PIN: '1' });
    const withDoctype = plain.replace('?>', '?><!doctype soap:Envelope>');
    expect(parseError(() => parseRequestEnvelope(withDoctype)).message).toMatch(/DOCTYPE/);
    expect(parseError(() => parseRequestEnvelope(new TextEncoder().encode(withDoctype))).message).toMatch(
      /DOCTYPE/,
    );
    expect(
      parseError(() => parseResponseEnvelope('AvailableCredit', plain.replace('?>', '?><!ENTITY a "b">')))
        .message,
    ).toMatch(/ENTITY/);
  });

  it('refuses absurd nesting with an error, not a stack overflow', () => {
    const depth = 100_000;
    const deep = envelope(
      `<t:SubmitMessage xmlns:t="${T}"><Reserved>${'<a>'.repeat(depth)}${'</a>'.repeat(depth)}</Reserved></t:SubmitMessage>`,
    );
    expect(parseError(() => parseRequestEnvelope(deep)).message).toMatch(/nested/i);
  });

  it('refuses a message over the size limit (default 4 MiB), as text or bytes', () => {
    expect(SOAP_MAX_BYTES).toBe(4 * 1024 * 1024);
    const big = buildRequestEnvelope('SubmitMessage', {
      Message: { TextMessage: 'a'.repeat(SOAP_MAX_BYTES) },
    });
    expect(parseError(() => parseRequestEnvelope(big)).message).toMatch(
      /larger than the limit of 4194304 bytes/,
    );
    expect(parseError(() => parseRequestEnvelope(new TextEncoder().encode(big))).message).toMatch(
      /larger than the limit/,
    );
    // the limit counts UTF-8 bytes, not characters: 700 two-byte characters are 1400 bytes
    const small = buildRequestEnvelope('SubmitMessage', { Message: { TextMessage: 'é'.repeat(700) } });
    const bytes = new TextEncoder().encode(small).byteLength;
    expect(small.length).toBeLessThan(bytes);
    expect(() => parseRequestEnvelope(small, { maxBytes: bytes })).not.toThrow();
    expect(parseError(() => parseRequestEnvelope(small, { maxBytes: bytes - 1 })).message).toMatch(
      /larger than the limit/,
    );
  });
});

describe('faults', () => {
  it('buildFault round trips through parseResponseEnvelope as SoapFaultError', () => {
    const xml = buildFault('soap:Client', 'Unknown operation <SendFax> & more');
    expect(xml).toContain('<faultcode>soap:Client</faultcode>');
    let caught: unknown;
    try {
      parseResponseEnvelope('SubmitMessage', xml);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SoapFaultError);
    const fault = caught as SoapFaultError;
    expect(fault.faultcode).toBe('soap:Client');
    expect(fault.code).toBe('Client');
    expect(fault.faultstring).toBe('Unknown operation <SendFax> & more');
    expect(fault.message).toContain('Unknown operation');
  });

  it('server faults with detail; parseFault returns undefined for a normal response', () => {
    const fault = parseFault(buildFault('soap:Server', 'database locked', 'retry later'));
    expect(fault).toMatchObject({
      faultcode: 'soap:Server',
      code: 'Server',
      faultstring: 'database locked',
      detail: 'retry later',
    });
    expect(parseFault(buildResponseEnvelope('AvailableMessages', { Messages: '5' }))).toBeUndefined();
    expect(parseError(() => parseRequestEnvelope(buildFault('soap:Client', 'x'))).message).toMatch(
      /Fault, not a request/,
    );
  });

  it('buildFault never throws: characters XML cannot carry become U+FFFD', () => {
    const cut = 'emoji 😀'.slice(0, -1); // half a surrogate pair, as a careless truncation leaves it
    const fault = parseFault(buildFault('soap:Client', `${cut} and \u0001`, 'bell \u0007'));
    expect(fault?.faultstring).toBe('emoji \uFFFD and \uFFFD');
    expect(fault?.detail).toBe('bell \uFFFD');
  });

  it('reads faults of other stacks: another prefix, SOAP 1.2 Code/Reason', () => {
    const v11 = `<e:Envelope xmlns:e="${ENV}"><e:Body><e:Fault><faultcode>e:Server</faultcode><faultstring>boom</faultstring><faultactor>urn:gw</faultactor><detail><x>d1</x><y>d2</y></detail></e:Fault></e:Body></e:Envelope>`;
    expect(parseFault(v11)).toMatchObject({
      code: 'Server',
      faultstring: 'boom',
      faultactor: 'urn:gw',
      detail: 'd1d2',
    });
    const v12 = `<env:Envelope xmlns:env="${SOAP12_ENV_NAMESPACE}"><env:Body><env:Fault><env:Code><env:Value>env:Sender</env:Value></env:Code><env:Reason><env:Text xml:lang="en">bad PIN</env:Text></env:Reason></env:Fault></env:Body></env:Envelope>`;
    expect(() => parseResponseEnvelope('AvailableCredit', v12)).toThrow(SoapFaultError);
    expect(parseFault(v12)).toMatchObject({
      faultcode: 'env:Sender',
      code: 'Client',
      faultstring: 'bad PIN',
    });
  });
});

describe('building refuses what the schema cannot carry', () => {
  const build = (op: SoapOperation, value: unknown): string => buildRequestEnvelope(op, value as never);

  it('names the element and the rule', () => {
    expect(buildError(() => build('SubmitMessage', { Message: { Ringtone: { Data: 'XYZ' } } })).path).toBe(
      'SubmitMessage/Message/Ringtone/Data',
    );
    expect(buildError(() => build('SubmitMessage', { Recipient: { MCC: 23.5 } })).message).toMatch(
      /MCC: expected an integer/,
    );
    expect(buildError(() => build('SubmitMessage', { Recipient: { MCC: '234' } })).message).toMatch(
      /expected an integer number/,
    );
    expect(
      buildError(() => build('SubmitMessage', { Recipient: { SendOptions: { SendTimeDelay: 65536 } } }))
        .message,
    ).toMatch(/outside unsignedShort/);
    expect(
      buildError(() => build('SubmitMessage', { Message: { PictureMessage: { LibraryNumber: -1 } } }))
        .message,
    ).toMatch(/outside nonNegativeInteger/);
    expect(
      buildError(() =>
        build('SubmitMessage', { Recipient: { SendOptions: { SendTimeAbsolute: '2026-13-01 10:00' } } }),
      ).message,
    ).toMatch(/not an xs:dateTime/);
    expect(
      buildError(() => build('SubmitMessage', { Recipient: { SendOptions: { DeliveryOption: 'Cheap' } } }))
        .message,
    ).toMatch(/not one of/);
    expect(buildError(() => build('SubmitDeliveryReceipt', { Report: 0 })).path).toBe(
      'SubmitDeliveryReceipt/Timestamp1',
    );
    expect(buildError(() => build('SubmitMessage', { Recipent: {} })).message).toMatch(
      /unknown element "Recipent"/,
    );
    expect(
      buildError(() => build('SubmitMessage', { Message: { TextMessage: 'bell \u0007' } })).message,
    ).toMatch(/U\+0007 at index 5 cannot be sent in XML/);
    expect(
      buildError(() =>
        buildResponseEnvelope('CollectMessages', { Report: 0, MessageList: { item: [{}] } } as never),
      ).path,
    ).toBe('CollectMessagesResponse/MessageList/item[0]/SendTo');
  });

  it('undefined optional elements are left out, empty strings are kept', () => {
    const xml = buildRequestEnvelope('SubmitMessage', { Username: '', PIN: undefined, ReplyTo: 'X' });
    expect(xml).toContain('<Username/>');
    expect(xml).not.toContain('<PIN');
    expect(parseRequestEnvelope(xml).request).toEqual({ Username: '', ReplyTo: 'X' });
  });
});

describe('content types', () => {
  it('accepts the SOAP media types with any parameters, nothing else', () => {
    expect(isSoapContentType('text/xml; charset=utf-8')).toBe(true);
    expect(isSoapContentType('Application/SOAP+XML;charset=UTF-8;action=""')).toBe(true);
    expect(isSoapContentType('text/soap')).toBe(true);
    expect(isSoapContentType('application/x-www-form-urlencoded; charset=utf-8')).toBe(false);
    expect(isSoapContentType(undefined)).toBe(false);
  });
});
