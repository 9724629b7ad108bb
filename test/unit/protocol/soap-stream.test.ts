// The streaming reader (issue 15, goal 1) and its caps (issue 17, items 4, 14, 16): what the one pass
// refuses while it reads, and a CollectMessages answer handed out item by item, whatever its size.
import { describe, expect, it } from 'vitest';
import {
  buildResponseEnvelope,
  createResponseStream,
  parseRequestEnvelope,
  parseResponseEnvelope,
  SOAP_MAX_ATTRIBUTES,
  SOAP_MAX_ELEMENTS,
} from '../../../protocol/soap/envelope.ts';
import { SoapFaultError } from '../../../protocol/soap/errors.ts';
import { moMessage } from '../../fixtures/soap/samples.ts';
import { envelope, parseError, T } from './soap-helpers.ts';

describe('caps counted while parsing', () => {
  it('refuses more elements than the cap, well inside the size limit', () => {
    const flat = envelope(
      `<t:SubmitMessage xmlns:t="${T}"><Reserved>${'<a/>'.repeat(SOAP_MAX_ELEMENTS)}</Reserved></t:SubmitMessage>`,
    );
    const error = parseError(() => parseRequestEnvelope(flat));
    expect(error.message).toMatch(`more than ${SOAP_MAX_ELEMENTS} elements`);
    expect(error.line).toBeGreaterThan(1);
    expect(() => parseRequestEnvelope(flat, { maxElements: SOAP_MAX_ELEMENTS + 10 })).not.toThrow();
  });

  it('refuses more attributes than the cap, on one element or spread out', () => {
    const many = Array.from({ length: SOAP_MAX_ATTRIBUTES + 1 }, (_, i) => `a${i}="v"`).join(' ');
    const one = envelope(`<t:AvailableCredit xmlns:t="${T}" ${many}/>`);
    expect(parseError(() => parseRequestEnvelope(one)).message).toMatch(
      `more than ${SOAP_MAX_ATTRIBUTES} attributes`,
    );
    const spread = envelope(
      `<t:SubmitMessage xmlns:t="${T}"><Reserved>${'<a b="1" c="2"/>'.repeat(SOAP_MAX_ATTRIBUTES / 2 + 1)}</Reserved></t:SubmitMessage>`,
    );
    expect(parseError(() => parseRequestEnvelope(spread, { maxElements: 1e6 })).message).toMatch(
      /attributes/,
    );
  });
});

describe('characters XML 1.0 forbids', () => {
  it.each([
    ['U+001E', '\u001E'],
    ['U+0000', '\u0000'],
    ['U+FFFE', '\uFFFE'],
    ['U+FFFF', '\uFFFF'],
  ])('a raw %s in text is not well-formed, refused with line and column', (_name, ch) => {
    const xml = envelope(
      `<t:SubmitMessage xmlns:t="${T}"><Recipient><SendTo>447700900123,447700${ch}900124</SendTo></Recipient></t:SubmitMessage>`,
    );
    const error = parseError(() => parseRequestEnvelope(xml));
    expect(error.message).toMatch(/malformed XML: a character XML 1.0 does not allow/);
    expect(error.line).toBe(5);
    expect(error.column).toBeGreaterThan(1);
  });

  it('also in an attribute value and in CDATA', () => {
    expect(
      parseError(() => parseRequestEnvelope(envelope(`<t:AvailableCredit xmlns:t="${T}" x="\u0001"/>`)))
        .message,
    ).toMatch(/malformed XML/);
    expect(
      parseError(() =>
        parseRequestEnvelope(
          envelope(`<t:AvailableCredit xmlns:t="${T}"><PIN><![CDATA[\u001E]]></PIN></t:AvailableCredit>`),
        ),
      ).message,
    ).toMatch(/malformed XML/);
  });
});

describe('streaming a CollectMessages answer', () => {
  const items = Array.from({ length: 50 }, (_, i) => moMessage(i + 1));
  const bytes = new TextEncoder().encode(
    buildResponseEnvelope('CollectMessages', { Report: 0, MessageList: { item: items } }),
  );

  it.each([1, 7, 64, 4096])('gives every item once, in order, fed in chunks of %i bytes', (size) => {
    const stream = createResponseStream('CollectMessages');
    const got: unknown[] = [];
    for (let at = 0; at < bytes.byteLength; at += size)
      got.push(...stream.write(bytes.subarray(at, at + size)));
    const end = stream.end();
    got.push(...end.items);
    expect(got).toEqual(items);
    expect(end.response).toEqual({ Report: 0, MessageList: { item: [] } });
    // the same bytes whole give the same items
    expect(parseResponseEnvelope('CollectMessages', bytes).MessageList.item).toEqual(items);
  });

  it('items come out before the answer ends; a later error still throws', () => {
    const stream = createResponseStream('CollectMessages');
    const cut = new TextDecoder().decode(bytes).split('</item>');
    const first = stream.write(`${cut[0]}</item>${cut[1]}</item>`);
    expect(first).toEqual(items.slice(0, 2));
    expect(() => stream.write('<item><SendTo>1</SendTo></oops>')).toThrow(/malformed XML/);
  });

  it('no size limit for the whole answer, but one per item', () => {
    const big = Array.from({ length: 3000 }, (_, i) => moMessage(i % 60));
    const xml = buildResponseEnvelope('CollectMessages', { Report: 0, MessageList: { item: big } });
    const stream = createResponseStream('CollectMessages', { maxBytes: 1000, maxElements: 20 });
    let n = stream.write(xml).length;
    n += stream.end().items.length;
    expect(n).toBe(3000);
    expect(xml.length).toBeGreaterThan(100_000);
    const huge = buildResponseEnvelope('CollectMessages', {
      Report: 0,
      MessageList: { item: [{ ...moMessage(1), Message: { TextMessage: 'x'.repeat(5000) } }] },
    });
    expect(() => createResponseStream('CollectMessages', { maxBytes: 1000 }).write(huge)).toThrow(
      /list item is larger than the limit/,
    );
  });

  it('a fault is thrown at the end; invalid UTF-8 across a chunk boundary is refused', () => {
    const fault = new TextEncoder().encode(
      `<e:Envelope xmlns:e="http://schemas.xmlsoap.org/soap/envelope/"><e:Body><e:Fault><faultcode>e:Server</faultcode><faultstring>busy</faultstring></e:Fault></e:Body></e:Envelope>`,
    );
    const stream = createResponseStream('CollectMessages');
    stream.write(fault.subarray(0, 50));
    stream.write(fault.subarray(50));
    expect(() => stream.end()).toThrow(SoapFaultError);
    const text = new TextEncoder().encode(
      buildResponseEnvelope('AvailableCredit', { Currency: 'é', Credit: '1' }),
    );
    const at = text.indexOf(0xc3);
    const bad = createResponseStream('AvailableCredit');
    bad.write(text.subarray(0, at + 1));
    expect(() => bad.write(new Uint8Array([0x41]))).toThrow(/not valid UTF-8/);
  });
});
