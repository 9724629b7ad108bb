import { describe, expect, it } from 'vitest';
import {
  INVALID_LOGIN_BODY,
  ResponseParseError,
  buildDeprecated,
  buildFormat0,
  buildFormat1,
  buildFormat3,
  buildManageResponse,
  buildQueryResponse,
  parseAnyResponse,
  parseDeprecated,
  parseFormat0,
  parseManageResponse,
  parseQueryResponse,
  parseRecordsResponse,
} from '../../../protocol/responses.ts';
import type { ResponseRecord } from '../../../protocol/responses.ts';
import { FORMAT0_INVALID_LOGIN } from '../../../protocol/reports.ts';

const THREE: ResponseRecord[] = [
  { messageIdentifier: 'A1000000000001', report: '-3', text: 'Accepted' },
  { messageIdentifier: 'A1000000000002', report: '5', text: 'Invalid number, not sent' },
  { messageIdentifier: 'A1000000000003', report: '-2', text: 'Queued' },
];

describe('format 0', () => {
  it('builds and reads the spec example "171 - Invalid login"', () => {
    const line = buildFormat0(FORMAT0_INVALID_LOGIN.code, FORMAT0_INVALID_LOGIN.text);
    expect(line).toBe('171 - Invalid login');
    expect(parseFormat0(line)).toEqual({ code: '171', text: 'Invalid login' });
  });

  it('is tolerant of a trailing newline, negative codes and a missing text', () => {
    expect(parseFormat0('-3 - Message accepted\r\n')).toEqual({ code: '-3', text: 'Message accepted' });
    expect(parseFormat0('15')).toEqual({ code: '15', text: '' });
  });

  it('keeps the response on one line', () => {
    expect(buildFormat0('3', 'a\nb')).toBe('3 - a b');
  });

  it('refuses a body that is not a format 0 line', () => {
    expect(() => parseFormat0('MessageIdentifier=1&Report=-3')).toThrow(ResponseParseError);
  });
});

describe('format 3', () => {
  it('parses a body for three recipients with one failure into three records in order', () => {
    const body =
      'MessageIdentifier=A1000000000001,A1000000000002,A1000000000003&Report=-3,5,-3&Text=Accepted,Invalid%20number,Accepted';
    const { records, extra } = parseRecordsResponse(body, 3);
    expect(records).toEqual([
      { messageIdentifier: 'A1000000000001', report: '-3', text: 'Accepted' },
      { messageIdentifier: 'A1000000000002', report: '5', text: 'Invalid number' },
      { messageIdentifier: 'A1000000000003', report: '-3', text: 'Accepted' },
    ]);
    expect(extra).toEqual({});
  });

  it('round-trips texts containing commas, ampersands and non-ASCII', () => {
    const records: ResponseRecord[] = [
      { messageIdentifier: 'm1', report: '-3', text: 'ok, sent & done' },
      { messageIdentifier: 'm2', report: '15', text: 'Grüße, € 0,00' },
    ];
    const body = buildFormat3(records);
    expect(body).toContain('Text=ok%2C%20sent%20%26%20done,');
    expect(parseRecordsResponse(body).records).toEqual(records);
  });

  it('round-trips records whatever characters their values hold', () => {
    const alphabet = ['a', ',', '&', '=', '%', '+', ' ', 'é', '€', '😀', '%2C', '\n'];
    let seed = 7;
    const pick = (): string => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return alphabet[seed % alphabet.length]!;
    };
    for (let round = 0; round < 200; round++) {
      const records: ResponseRecord[] = Array.from({ length: 1 + (round % 5) }, (_, i) => ({
        messageIdentifier: `m${round}-${i}`,
        report: i % 2 === 0 ? '-3' : '15',
        text: Array.from({ length: round % 9 }, pick).join(''),
      }));
      expect(parseRecordsResponse(buildFormat3(records), records.length).records).toEqual(records);
    }
  });

  it('writes one value per recipient in SendTo order, LibraryNumber when any record has one', () => {
    const body = buildFormat3([
      { messageIdentifier: 'm1', report: '-3', libraryNumber: '80001' },
      { messageIdentifier: 'm2', report: '5' },
    ]);
    expect(body).toBe('MessageIdentifier=m1,m2&Report=-3,5&LibraryNumber=80001,');
    expect(parseRecordsResponse(body).records).toEqual([
      { messageIdentifier: 'm1', report: '-3', libraryNumber: '80001' },
      { messageIdentifier: 'm2', report: '5' },
    ]);
  });

  it('is tolerant: missing Text, trailing newline, tags in any order, unknown tags kept in extra', () => {
    const { records, extra } = parseRecordsResponse('Report=-3,-2&Future=x%20y&MessageIdentifier=a,b\n');
    expect(records).toEqual([
      { messageIdentifier: 'a', report: '-3' },
      { messageIdentifier: 'b', report: '-2' },
    ]);
    expect(extra).toEqual({ Future: 'x y' });
  });

  it('reads a body whose comma separators were percent-encoded too', () => {
    expect(parseRecordsResponse('MessageIdentifier=a%2Cb&Report=-3%2C15&Text=ok%2Cno').records).toEqual([
      { messageIdentifier: 'a', report: '-3', text: 'ok' },
      { messageIdentifier: 'b', report: '15', text: 'no' },
    ]);
  });

  it('cuts Text to 255 characters', () => {
    const body = buildFormat3([
      { messageIdentifier: 'm1', report: '3', text: 'é'.repeat(300) },
      { messageIdentifier: 'm2', report: '3', text: 'short' },
    ]);
    const [first, second] = parseRecordsResponse(body).records;
    expect([...(first?.text ?? '')]).toHaveLength(255);
    expect(first?.text?.endsWith('…')).toBe(true);
    expect(second?.text).toBe('short');
    const one = parseRecordsResponse(
      buildFormat1([{ messageIdentifier: 'm', report: '3', text: 'x'.repeat(256) }]),
    );
    expect(one.records[0]?.text).toHaveLength(255);
  });

  it('encodes each value of a run of equal ones and the values between them (issue 27: equal values encoded once)', () => {
    const long = 'x,'.repeat(200);
    const records: ResponseRecord[] = [
      { messageIdentifier: 'a', report: '-3', text: 'ok, sent' },
      { messageIdentifier: 'b', report: '-3', text: 'ok, sent' },
      { messageIdentifier: 'c', report: '15', text: 'no & no' },
      { messageIdentifier: 'd', report: '-3', text: 'ok, sent' },
      { messageIdentifier: 'e', report: '-3', text: long },
      { messageIdentifier: 'f', report: '-3', text: long },
      { messageIdentifier: 'g', report: '-3' },
      { messageIdentifier: 'h', report: '-3', text: '' },
    ];
    const body = buildFormat3(records);
    expect(body).toBe(
      'MessageIdentifier=a,b,c,d,e,f,g,h&Report=-3,-3,15,-3,-3,-3,-3,-3' +
        `&Text=ok%2C%20sent,ok%2C%20sent,no%20%26%20no,ok%2C%20sent,${'x%2C'.repeat(127)}%E2%80%A6,${'x%2C'.repeat(127)}%E2%80%A6,,`,
    );
  });

  it('refuses a body without Report, and a record count that fits neither 1 nor the expected count', () => {
    expect(() => parseRecordsResponse('171 - Invalid login')).toThrow(ResponseParseError);
    expect(() => parseRecordsResponse('MessageIdentifier=a,b&Report=-3,-3', 3)).toThrow(/expected 3/);
    // One record for many recipients is a format 1 or whole-request answer, not an error.
    expect(parseRecordsResponse(INVALID_LOGIN_BODY, 3).records).toHaveLength(1);
  });
});

describe('format 1', () => {
  it('picks the last failure', () => {
    const body = buildFormat1([
      { messageIdentifier: 'm1', report: '5', text: 'first failure' },
      { messageIdentifier: 'm2', report: '15', text: 'Out of credit' },
      { messageIdentifier: 'm3', report: '-3', text: 'Accepted' },
    ]);
    expect(body).toBe('MessageIdentifier=m2&Report=15&Text=Out%20of%20credit');
  });

  it('picks the last record when nothing failed', () => {
    expect(buildFormat1([THREE[0]!, THREE[2]!])).toBe(
      'MessageIdentifier=A1000000000003&Report=-2&Text=Queued',
    );
  });

  it('reads an unencoded comma in a single Text as one value', () => {
    expect(parseRecordsResponse('MessageIdentifier=m1&Report=5&Text=Bad number, not sent').records).toEqual([
      { messageIdentifier: 'm1', report: '5', text: 'Bad number, not sent' },
    ]);
  });

  it('never writes a record beyond the sizes of spec 2.5', () => {
    expect(() => buildFormat1([{ messageIdentifier: 'x'.repeat(16), report: '-3' }])).toThrow(RangeError);
    expect(() => buildFormat3([{ messageIdentifier: 'm', report: '1000' }])).toThrow(RangeError);
    expect(() => buildFormat3([{ messageIdentifier: 'm', report: '-3', libraryNumber: '800001' }])).toThrow(
      RangeError,
    );
    expect(buildFormat1([{ messageIdentifier: 'x'.repeat(15), report: '171' }])).toContain('Report=171');
  });

  it('refuses an empty record list', () => {
    expect(() => buildFormat1([])).toThrow(RangeError);
    expect(() => buildFormat3([])).toThrow(RangeError);
  });
});

describe('invalid login body (spec 4.3, 5.4)', () => {
  it('is MessageIdentifier=-1&Report=2&Text=Invalid%20Login and reads as one record', () => {
    expect(INVALID_LOGIN_BODY).toBe('MessageIdentifier=-1&Report=2&Text=Invalid%20Login');
    expect(parseRecordsResponse(INVALID_LOGIN_BODY).records).toEqual([
      { messageIdentifier: '-1', report: '2', text: 'Invalid Login' },
    ]);
  });

  it('is recognised in every shape by parseAnyResponse', () => {
    expect(parseAnyResponse(INVALID_LOGIN_BODY)).toEqual({ kind: 'invalidLogin', text: 'Invalid Login' });
    expect(parseAnyResponse('MessageIdentifier=-1&Report=2&Text=Invalid Login')).toEqual({
      kind: 'invalidLogin',
      text: 'Invalid Login',
    });
    expect(parseAnyResponse('171 - Invalid login\n')).toEqual({
      kind: 'invalidLogin',
      text: 'Invalid login',
    });
    expect(parseAnyResponse('Report=2&Text=Invalid%20login')).toEqual({
      kind: 'invalidLogin',
      text: 'Invalid login',
    });
  });
});

describe('deprecated format one', () => {
  it('is a bare two-digit code', () => {
    expect(buildDeprecated('01')).toBe('01');
    expect(parseDeprecated('97\r\n')).toEqual({ code: '97' });
    expect(() => parseDeprecated('171 - Invalid login')).toThrow(ResponseParseError);
    expect(parseAnyResponse('99')).toEqual({ kind: 'deprecated', code: '99' });
  });
});

describe('queryaccount responses (spec 4.3)', () => {
  it('AvailableCredit, current shape', () => {
    const body = buildQueryResponse({ operation: 'AvailableCredit', currency: 'GBP', credit: '12.3456' });
    expect(body).toBe('Currency=GBP&AvailableCredit=12.3456');
    expect(parseQueryResponse(body)).toEqual({
      operation: 'AvailableCredit',
      currency: 'GBP',
      credit: '12.3456',
    });
    expect(buildQueryResponse({ operation: 'AvailableCredit', credit: 5 })).toBe(
      'Currency=GBP&AvailableCredit=5.0000',
    );
  });

  it('AvailableCredit, older single shape with GBP or UKL', () => {
    expect(parseQueryResponse('AvailableCredit=GBP 12.3456')).toMatchObject({
      currency: 'GBP',
      credit: '12.3456',
    });
    expect(parseQueryResponse('AvailableCredit=GBP%2012.3456\n')).toMatchObject({
      currency: 'GBP',
      credit: '12.3456',
    });
    expect(parseQueryResponse('AvailableCredit=UKL+0.5000')).toMatchObject({
      currency: 'UKL',
      credit: '0.5000',
    });
    const legacy = buildQueryResponse({
      operation: 'AvailableCredit',
      currency: 'UKL',
      credit: '7.2500',
      legacy: true,
    });
    expect(legacy).toBe('AvailableCredit=UKL%207.2500');
    expect(parseQueryResponse(legacy)).toEqual({
      operation: 'AvailableCredit',
      currency: 'UKL',
      credit: '7.2500',
      legacy: true,
    });
  });

  it('AvailableMessages', () => {
    const body = buildQueryResponse({ operation: 'AvailableMessages', messages: 1234 });
    expect(body).toBe('AvailableMessages=1234');
    expect(parseQueryResponse(body)).toEqual({ operation: 'AvailableMessages', messages: 1234 });
    expect(() => parseQueryResponse('AvailableMessages=lots')).toThrow(ResponseParseError);
  });

  it('PermittedReplyTo as a list', () => {
    const body = buildQueryResponse({ operation: 'PermittedReplyTo', replyTo: ['447700900123', 'My Shop'] });
    expect(body).toBe('PermittedReplyTo=447700900123,My%20Shop');
    expect(parseQueryResponse(body)).toEqual({
      operation: 'PermittedReplyTo',
      replyTo: ['447700900123', 'My Shop'],
    });
    expect(parseQueryResponse('PermittedReplyTo=447700900123%2C447700900999')).toMatchObject({
      replyTo: ['447700900123', '447700900999'],
    });
  });

  it('parseAnyResponse finds queries', () => {
    expect(parseAnyResponse('Currency=GBP&AvailableCredit=1.0000')).toEqual({
      kind: 'query',
      query: { operation: 'AvailableCredit', currency: 'GBP', credit: '1.0000' },
    });
  });
});

describe('manageaccount responses (spec 4.4)', () => {
  it('success with the child credentials', () => {
    const body = buildManageResponse({ report: '0', username: 'child.01', pin: 'Ab12' });
    expect(body).toBe('Report=0&Username=child.01&PIN=Ab12');
    expect(parseManageResponse(body)).toEqual({ report: '0', username: 'child.01', pin: 'Ab12' });
    expect(buildManageResponse({ report: '0' })).toBe('Report=0');
  });

  it('failure with text', () => {
    const body = buildManageResponse({ report: '7', text: 'Not your child account' });
    expect(body).toBe('Report=7&Text=Not%20your%20child%20account');
    expect(parseManageResponse(body)).toEqual({ report: '7', text: 'Not your child account' });
    expect(parseAnyResponse(body)).toEqual({
      kind: 'manage',
      manage: { report: '7', text: 'Not your child account' },
    });
    expect(() => parseManageResponse('Username=x')).toThrow(ResponseParseError);
  });
});

describe('parseAnyResponse', () => {
  it('recognises records and format 0 lines, and refuses anything else', () => {
    const any = parseAnyResponse(buildFormat3(THREE));
    expect(any.kind).toBe('records');
    if (any.kind === 'records') expect(any.records.map((r) => r.report)).toEqual(['-3', '5', '-2']);
    expect(parseAnyResponse('-3 - Accepted')).toEqual({ kind: 'format0', code: '-3', text: 'Accepted' });
    expect(() => parseAnyResponse('<html>Bad gateway</html>')).toThrow(ResponseParseError);
  });
});
