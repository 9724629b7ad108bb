/**
 * The create-child request of manageaccount (spec 4.4) as a person types it, tidied once for both
 * sides of the app: the Accounts form checks what the service will send, and the service sends it.
 * The country code loses a leading '+', the mobile number is normalised to international digits
 * (kept as typed when it is not a number, so the validator names it), empty optional names are left
 * out. `childAccountFields` gives the spec's field names (the caller adds Username and PIN).
 */
import type { ChildAccountType } from './limits.ts';
import { normalizeMsisdn } from './msisdn.ts';

export interface ChildAccountInput {
  type: ChildAccountType;
  email: string;
  telephoneCountryCode: string;
  mobileNumber: string;
  givenName?: string;
  familyName?: string;
  companyName?: string;
}

export interface TidyChildAccount {
  request: ChildAccountInput;
  /** Why the typed mobile number is not a valid number (null when it is, or when it is empty). */
  mobileProblem: string | null;
}

export function tidyChildAccount(input: ChildAccountInput, defaultCountry?: string): TidyChildAccount {
  const typed = input.mobileNumber.trim();
  const mobile = normalizeMsisdn(typed, defaultCountry || undefined);
  const request: ChildAccountInput = {
    type: input.type,
    email: input.email.trim(),
    telephoneCountryCode: input.telephoneCountryCode.trim().replace(/^\+/, ''),
    mobileNumber: mobile.ok ? mobile.msisdn : typed,
  };
  for (const key of ['givenName', 'familyName', 'companyName'] as const) {
    const value = input[key]?.trim();
    if (value) request[key] = value;
  }
  return { request, mobileProblem: !mobile.ok && typed !== '' ? mobile.reason : null };
}

/** The CreateChildAccount* fields of a (tidied) request, optional ones only when given. */
export function childAccountFields(req: ChildAccountInput): Record<string, string> {
  const fields: Record<string, string> = {
    CreateChildAccountType: req.type,
    CreateChildAccountEmail: req.email,
    CreateChildAccountTelephoneCountryCode: req.telephoneCountryCode,
    CreateChildAccountMobileNumber: req.mobileNumber,
  };
  if (req.givenName !== undefined) fields.CreateChildAccountGivenName = req.givenName;
  if (req.familyName !== undefined) fields.CreateChildAccountFamilyName = req.familyName;
  if (req.companyName !== undefined) fields.CreateChildAccountCompanyName = req.companyName;
  return fields;
}
