// How the client reads recorded gateway answers of every format into per-recipient results:
// format 3 (one value per recipient), format 1 (one record for many), format 0 lines, the deprecated
// bare codes, unknown report codes and unknown tags, and answers that do not fit.
import { describe, expect, it } from 'vitest';
import { interpretDeprecated, interpretRecords } from '../../../main/client/gateway-client.ts';

const two = ['447700900123', '447700900124'];

describe('interpretRecords', () => {
  it('format 3: one result per recipient in SendTo order, values URL-decoded', () => {
    const r = interpretRecords(
      'MessageIdentifier=AB12,AB13&Report=-3,-2&Text=Accepted%2C%20thanks,Queued%20for%20later',
      two,
    );
    expect(r.stop).toBe(false);
    expect(r.error).toBeUndefined();
    expect(r.results).toMatchObject([
      {
        number: '447700900123',
        status: 'accepted',
        messageIdentifier: 'AB12',
        report: '-3',
        classification: 'accepted',
      },
      { number: '447700900124', status: 'accepted', messageIdentifier: 'AB13', report: '-2' },
    ]);
    expect(r.results[0]!.text).toContain('Accepted, thanks');
  });

  it('format 3 with an empty or missing Text keeps a meaning for the user', () => {
    const r = interpretRecords('MessageIdentifier=A,B&Report=-3,11', two);
    expect(r.results[0]!.text.length).toBeGreaterThan(0);
    expect(r.results[1]).toMatchObject({ status: 'rejected', report: '11', classification: 'error' });
  });

  it('99 is an acceptance code (spec 7.1)', () => {
    expect(interpretRecords('MessageIdentifier=A&Report=99&Text=', ['447700900123']).results[0]!.status).toBe(
      'accepted',
    );
  });

  it('unknown report codes: server text kept, status unknown; unknown tags ignored', () => {
    const r = interpretRecords('MessageIdentifier=Z9&Report=42&Text=Carrier%20maintenance&Shiny=new', [
      '447700900123',
    ]);
    expect(r.results[0]).toMatchObject({ status: 'unknown', report: '42', classification: 'unknown' });
    expect(r.results[0]!.text).toContain('Carrier maintenance');
  });

  it('format 1: one accepted record for many recipients means all accepted', () => {
    const r = interpretRecords('MessageIdentifier=LAST&Report=-3&Text=ok', two);
    expect(r.results.map((x) => [x.status, x.messageIdentifier])).toEqual([
      ['accepted', undefined],
      ['accepted', 'LAST'],
    ]);
  });

  it('invalid login: one whole-request error that stops the campaign', () => {
    const r = interpretRecords('MessageIdentifier=-1&Report=2&Text=Invalid%20Login', two);
    expect(r.stop).toBe(true);
    expect(r.error).toMatchObject({ code: '2' });
    expect(r.error!.message).toMatch(/Invalid Login/i);
    expect(r.results.every((x) => x.status === 'rejected')).toBe(true);
  });

  it('out of credit part-way: accepted ones stay accepted, the campaign stops', () => {
    const r = interpretRecords('MessageIdentifier=A,&Report=-3,15&Text=ok,Out%20of%20credit', two);
    expect(r.results.map((x) => x.status)).toEqual(['accepted', 'rejected']);
    expect(r.results[1]!.messageIdentifier).toBeUndefined();
    expect(r.stop).toBe(true);
    expect(r.error?.code).toBe('15');
  });

  it('LibraryNumber of a stored file', () => {
    const r = interpretRecords('MessageIdentifier=W1&Report=-3&Text=ok&LibraryNumber=80123', [
      '447700900123',
    ]);
    expect(r.libraryNumber).toBe('80123');
    expect(r.results[0]!.libraryNumber).toBe('80123');
  });

  it('format 0 line', () => {
    const r = interpretRecords('171 - Invalid login', two);
    expect(r.error).toMatchObject({ code: '171' });
    expect(r.results.every((x) => x.status === 'rejected')).toBe(true);
  });

  it('too few results for the recipients is an error (the caller reports "unknown")', () => {
    expect(() =>
      interpretRecords('MessageIdentifier=A,B&Report=-3,-3&Text=a,b', [...two, '447700900125']),
    ).toThrow(/2 results for 3 recipients/);
  });

  it('address book recipients beyond SendTo are labelled by the book', () => {
    const r = interpretRecords(
      'MessageIdentifier=A,B,C&Report=-3,-3,-3&Text=a,b,c',
      ['447700900123'],
      'Friends::Team',
    );
    expect(r.results.map((x) => x.number)).toEqual(['447700900123', 'Friends::Team #1', 'Friends::Team #2']);
  });
});

describe('interpretDeprecated', () => {
  it('01 accepted, 99 invalid login (stop), 97 unknown per recipient', () => {
    expect(interpretDeprecated('01', two).results.map((x) => x.status)).toEqual(['accepted', 'accepted']);
    const bad = interpretDeprecated('99', two);
    expect(bad.stop).toBe(true);
    expect(bad.error?.code).toBe('99');
    const partial = interpretDeprecated('97\n', two);
    expect(partial.results.map((x) => x.status)).toEqual(['unknown', 'unknown']);
  });
});
