import { describe, expect, it } from 'vitest';
import { childAccountFields, tidyChildAccount } from '../../../protocol/child-account.ts';

describe('create-child request (spec 4.4)', () => {
  it('tidies what a person typed: trimmed, country code without +, national mobile made international, empty names left out', () => {
    const { request, mobileProblem } = tidyChildAccount(
      {
        type: 'TRANSFER',
        email: ' kid@example.com ',
        telephoneCountryCode: ' +44',
        mobileNumber: ' 07700 900321 ',
        givenName: ' Kim ',
        familyName: '  ',
      },
      'GB',
    );
    expect(mobileProblem).toBeNull();
    expect(request).toEqual({
      type: 'TRANSFER',
      email: 'kid@example.com',
      telephoneCountryCode: '44',
      mobileNumber: '447700900321',
      givenName: 'Kim',
    });
    expect(childAccountFields(request)).toEqual({
      CreateChildAccountType: 'TRANSFER',
      CreateChildAccountEmail: 'kid@example.com',
      CreateChildAccountTelephoneCountryCode: '44',
      CreateChildAccountMobileNumber: '447700900321',
      CreateChildAccountGivenName: 'Kim',
    });
  });

  it('keeps a mobile number that is not one as typed, with the reason; an empty one has no reason', () => {
    const bad = tidyChildAccount(
      { type: 'SHARED', email: 'a@b.co', telephoneCountryCode: '44', mobileNumber: ' 12 ' },
      'GB',
    );
    expect(bad.request.mobileNumber).toBe('12');
    expect(bad.mobileProblem).toMatch(/./);
    const empty = tidyChildAccount({
      type: 'SHARED',
      email: 'a@b.co',
      telephoneCountryCode: '44',
      mobileNumber: '',
    });
    expect(empty.mobileProblem).toBeNull();
  });
});
