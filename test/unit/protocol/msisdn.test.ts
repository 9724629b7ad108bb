import { describe, expect, it } from 'vitest';
import { normalizeMsisdn, normalizeMsisdnByLibrary, parseRecipientText } from '../../../protocol/msisdn.ts';

function ok(input: string, country?: string): string {
  const result = normalizeMsisdn(input, country);
  if (!result.ok) throw new Error(`expected ${JSON.stringify(input)} to be accepted, got: ${result.reason}`);
  return result.msisdn;
}

function refused(input: string, country?: string): { reason: string; code: string; input: string } {
  const result = normalizeMsisdn(input, country);
  if (result.ok) throw new Error(`expected ${JSON.stringify(input)} to be refused, got ${result.msisdn}`);
  return result;
}

describe('normalizeMsisdn: accepted numbers become international digits without +', () => {
  it.each([
    ['447700900123', undefined, '447700900123'],
    ['447700900123', 'GB', '447700900123'],
    ['447700900123', 'US', '447700900123'],
    ['+44 7700 900123', undefined, '447700900123'],
    ['+44 (0)7700 900123', undefined, '447700900123'],
    ['0044 7700 900123', undefined, '447700900123'],
    ['0044-7700-900-123', 'DE', '447700900123'],
    ['07700 900123', 'GB', '447700900123'],
    ['07700-900.123', 'gb', '447700900123'],
    ['  7700 900123 ', 'GB', '447700900123'],
    ['020 7946 0000', 'GB', '442079460000'],
    ['+1 (201) 555-0123', undefined, '12015550123'],
    ['(201) 555-0123', 'US', '12015550123'],
    ['1 201 555 0123', 'US', '12015550123'],
    ['011 44 7700 900123', 'US', '447700900123'],
    ['030 12345678', 'DE', '493012345678'],
    ['01512 3456789', 'DE', '4915123456789'],
    ['+49 151 23456789', 'GB', '4915123456789'],
    ['4915123456789', undefined, '4915123456789'],
  ])('%j (default %s) → %s', (input, country, expected) => {
    expect(ok(input, country)).toBe(expected);
  });

  it.each([
    // Bare digits in the spec's international form stay international whatever the default,
    // even where the default region could read them as a national number missing its '0'.
    ['447911123456', 'DE', '447911123456'],
    ['447911123456', 'AT', '447911123456'],
    ['33612345678', 'DE', '33612345678'],
    ['12015550123', 'DE', '12015550123'],
    ['4930123456', 'DE', '4930123456'],
    // Bare digits written the way the default region writes national numbers are national.
    ['2015550123', 'US', '12015550123'],
    ['3331234567', 'IT', '393331234567'],
    // A national number whose trunk '0' was left out, when no country code makes sense of it.
    ['7911123456', 'GB', '447911123456'],
  ])('bare digits %j with default %s → %s', (input, country, expected) => {
    expect(ok(input, country)).toBe(expected);
  });

  it('accepts a number with a non-breaking space and a Unicode dash as grouping', () => {
    expect(ok('+44\u00a07700\u20119001 23')).toBe('447700900123');
  });
});

describe('normalizeMsisdn: refused numbers say precisely why', () => {
  it('too short', () => {
    const r = refused('12', 'GB');
    expect(r.code).toBe('TOO_SHORT');
    expect(r.reason).toBe('too short for +44 (GB): national number of 2 digits, expected 7, 9 or 10');
    expect(r.input).toBe('12');
  });

  it('too long for the region', () => {
    const r = refused('+44 7700 9001 2345');
    expect(r.code).toBe('TOO_LONG');
    expect(r.reason).toBe('too long for +44 (GB): national number of 12 digits, expected 7, 9 or 10');
  });

  it('length problems name what the region expects (US, DE, FR)', () => {
    expect(refused('+1 201 555 012').reason).toBe(
      'too short for +1 (US): national number of 9 digits, expected 10',
    );
    expect(refused('+49 30 1').reason).toBe(
      'too short for +49 (DE): national number of 3 digits, expected 4 to 15',
    );
    expect(refused('+33 6 12 34 56 7').reason).toBe(
      'too short for +33 (FR): national number of 8 digits, expected 9',
    );
  });

  it('too long for E.164 (more than 15 digits)', () => {
    const r = refused('4477009001234567');
    expect(r.code).toBe('TOO_LONG');
    expect(r.reason).toContain('16 digits');
  });

  it('counts the digits as typed, not with the default country code added (issue 26)', () => {
    for (const country of ['GB', 'DE', 'US'])
      for (const impl of [normalizeMsisdn, normalizeMsisdnByLibrary]) {
        const r = impl('28345678901234567', country);
        expect(r.ok).toBe(false);
        if (!r.ok) expect(r.reason).toBe('too long: 17 digits, at most 15');
      }
    const prefixed = normalizeMsisdn('0044770090012345678', 'GB');
    if (!prefixed.ok) expect(prefixed.reason).toBe('too long: 17 digits, at most 15');
    // 15 digits typed, 17 once the country code is added: the whole number is counted, and why.
    const grown = normalizeMsisdn('283456789012345', 'GB');
    if (!grown.ok) expect(grown.reason).toBe('too long: 17 digits with the country code, at most 15');
    expect(prefixed.ok || grown.ok).toBe(false);
  });

  it('invalid country code', () => {
    const r = refused('+999 123456');
    expect(r.code).toBe('INVALID_COUNTRY');
    expect(r.reason).toContain('+999');
  });

  it('not a number', () => {
    const r = refused('call me', 'GB');
    expect(r.code).toBe('NOT_A_NUMBER');
    expect(r.reason).toMatch(/not a phone number/);
    expect(refused('+44+7700900123').code).toBe('NOT_A_NUMBER');
    expect(refused('()-', 'GB').code).toBe('NOT_A_NUMBER');
  });

  it('empty', () => {
    expect(refused('   ').code).toBe('EMPTY');
  });

  it('not valid for the region although the length is right', () => {
    const uk = refused('+44 1000 000000');
    expect(uk.code).toBe('NOT_VALID');
    expect(uk.reason).toBe('not a valid number for +44 (GB)');
    // NANP area code 555 does not exist.
    const us = refused('+1 555 123 4567');
    expect(us.code).toBe('NOT_VALID');
    expect(us.reason).toContain('+1');
  });

  it('a national number without a default country', () => {
    const r = refused('07700 900123');
    expect(r.code).toBe('NO_COUNTRY_CODE');
    expect(r.reason).toMatch(/default country/);
  });

  it('an unknown default country', () => {
    const r = refused('07700 900123', 'XX');
    expect(r.code).toBe('INVALID_DEFAULT_COUNTRY');
    expect(r.reason).toContain('XX');
  });

  it('a US default does not turn a short German national number into something valid', () => {
    expect(normalizeMsisdn('030 1234', 'US').ok).toBe(false);
  });
});

describe('parseRecipientText', () => {
  it('splits on commas, semicolons, tabs and line breaks, dropping empty entries', () => {
    expect(
      parseRecipientText('447700900123,447700900124;447700900125\n447700900126\r\n\t447700900127,, ;\n'),
    ).toEqual(['447700900123', '447700900124', '447700900125', '447700900126', '447700900127']);
  });

  it('splits on spaces between whole numbers', () => {
    expect(parseRecipientText('447700900123 447700900124  +447700900125')).toEqual([
      '447700900123',
      '447700900124',
      '+447700900125',
    ]);
  });

  it('keeps digit groups of one number together', () => {
    expect(parseRecipientText('+44 7700 900123, 07700 900124\n(020) 7946 0000')).toEqual([
      '+44 7700 900123',
      '07700 900124',
      '(020) 7946 0000',
    ]);
  });

  it('keeps order and duplicates, and does not normalise', () => {
    expect(parseRecipientText('07700900123; +44 7700 900123; 07700900123')).toEqual([
      '07700900123',
      '+44 7700 900123',
      '07700900123',
    ]);
  });

  it('returns nothing for blank text', () => {
    expect(parseRecipientText(' \n ,; ')).toEqual([]);
  });

  it('pasted list normalises end to end', () => {
    const list = parseRecipientText('07700 900123\n+44 7700 900124; 447700900125, 12');
    const results = list.map((entry) => normalizeMsisdn(entry, 'GB'));
    expect(results.map((r) => (r.ok ? r.msisdn : `!${r.code}`))).toEqual([
      '447700900123',
      '447700900124',
      '447700900125',
      '!TOO_SHORT',
    ]);
  });
});
