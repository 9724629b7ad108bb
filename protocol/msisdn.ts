// MSISDN normalisation: what a user types or pastes becomes the spec's SendTo form (spec 2.2:
// "numbers in full international format with country code, no plus sign").
//
// Numbering plans change every few months, so this leans on libphonenumber-js (Google's
// libphonenumber metadata) instead of hand-written rules. We import the 'min' metadata build:
// it knows every country calling code, the possible lengths and the national number pattern
// of each region, which is all a recipient check needs (country code assigned? right length?
// a number that can exist in that region?). The 'max' build adds per-type patterns (mobile,
// fixed line, ...) for ~75 kB more in the renderer bundle, and we cannot use the type anyway:
// many regions report FIXED_LINE_OR_MOBILE and some networks deliver SMS to landlines.
import {
  Metadata,
  ParseError,
  parsePhoneNumberWithError,
  validatePhoneNumberLength,
} from 'libphonenumber-js/min';
import type { CountryCode, PhoneNumber } from 'libphonenumber-js/min';
// The same metadata object 'libphonenumber-js/min' uses (no second copy in the bundle).
import metadata from 'libphonenumber-js/metadata.min';
import { attemptFast } from './msisdn-fast.ts';

/** Why a number was refused; `reason` is the human sentence, `code` is for programs. */
export type MsisdnProblem =
  | 'EMPTY'
  | 'NOT_A_NUMBER'
  | 'INVALID_DEFAULT_COUNTRY'
  | 'NO_COUNTRY_CODE'
  | 'INVALID_COUNTRY'
  | 'TOO_SHORT'
  | 'TOO_LONG'
  | 'INVALID_LENGTH'
  | 'NOT_VALID';

export type MsisdnResult =
  { ok: true; msisdn: string } | { ok: false; input: string; reason: string; code: MsisdnProblem };

/** E.164: a country code plus subscriber number is at most 15 digits. */
const E164_MAX_DIGITS = 15;

/**
 * Ranges that numbering authorities reserve for drama and documentation. They are well formed
 * but libphonenumber (correctly) calls them unassigned; examples, tests and the reference
 * gateway's simulated network use them, so they are accepted. Ofcom: 07700 900000-900999.
 */
const FICTIONAL_RANGES: ReadonlyArray<RegExp> = [/^447700900\d{3}$/];
const isFictional = (digits: string): boolean => FICTIONAL_RANGES.some((range) => range.test(digits));

/** Shortest country code plus subscriber number treated as a whole number when splitting on spaces. */
const MIN_WHOLE_NUMBER_DIGITS = 7;

/** Characters people use to group digits: spaces (incl. no-break), dashes, dots, parentheses, slashes. */
const GROUPING = /[\s\u00a0\u2000-\u200b\u202f\u2010-\u2015\u2212.()[\]/-]/g;

function fail(input: string, code: MsisdnProblem, reason: string): MsisdnResult {
  return { ok: false, input, reason, code };
}

/** The main region of a calling code ('44' → 'GB', '1' → 'US'), as libphonenumber lists it first. */
function mainRegion(callingCode: string): CountryCode | undefined {
  return metadata.country_calling_codes[callingCode]?.[0];
}

/** '+44 (GB)': the calling code and its main region. */
function regionLabel(callingCode: string, region = mainRegion(callingCode)): string {
  return region === undefined ? `+${callingCode}` : `+${callingCode} (${region})`;
}

/** 'expected 10', 'expected 7, 9 or 10', 'expected 4 to 15': national number lengths of a region. */
const expectedByRegion = new Map<CountryCode, string>();
function expectedLengths(region: CountryCode | undefined): string {
  if (region === undefined) return '';
  let said = expectedByRegion.get(region);
  if (said === undefined) expectedByRegion.set(region, (said = lengthsSentence(region)));
  return said;
}

function lengthsSentence(region: CountryCode): string {
  const plan = new Metadata();
  plan.selectNumberingPlan(region);
  const lengths = plan.numberingPlan?.possibleLengths() ?? [];
  const first = lengths[0];
  const last = lengths[lengths.length - 1];
  if (first === undefined || last === undefined) return '';
  if (lengths.length === 1) return `, expected ${first}`;
  if (lengths.length > 3 && last - first === lengths.length - 1) return `, expected ${first} to ${last}`;
  return `, expected ${lengths.slice(0, -1).join(', ')} or ${last}`;
}

/** A length problem of a parsed number, with the digit count and what the region expects. */
function lengthProblem(
  code: 'TOO_SHORT' | 'TOO_LONG' | 'INVALID_LENGTH',
  callingCode: string,
  country: string | undefined,
  count: number,
): Attempt {
  const region = (country as CountryCode | undefined) ?? mainRegion(callingCode);
  const where = regionLabel(callingCode, region);
  const what =
    code === 'TOO_SHORT' ? 'too short' : code === 'TOO_LONG' ? 'too long' : 'wrong number of digits';
  return {
    ok: false,
    code,
    reason: `${what} for ${where}: national number of ${count} digit${count === 1 ? '' : 's'}${expectedLengths(region)}`,
  };
}

type Attempt =
  // nationalForm: the digits of the number as its region writes it nationally ('' if unknown).
  // digits: set when the number as parsed (calling code included) has more digits than E.164 allows.
  | { ok: true; msisdn: string; nationalForm: string }
  | { ok: false; code: MsisdnProblem; reason: string; digits?: number };

/** Parse `text` ('+…' international, or national with `country`) with libphonenumber. */
function attempt(text: string, country: CountryCode | undefined): Attempt {
  let phone: PhoneNumber;
  try {
    phone = parsePhoneNumberWithError(text, country);
  } catch (error) {
    if (error instanceof ParseError) return fromLibraryCode(error.message, text, country);
    throw error;
  }
  const digits = phone.number.slice(1);
  // A national format without any grouping means the metadata has no format for this number,
  // so it tells nothing about how people write it: nationalForm stays empty then.
  const formatted = phone.formatNational();
  const nationalForm = /\D/.test(formatted) ? formatted.replace(/\D/g, '') : '';
  const accepted: Attempt = { ok: true, msisdn: digits, nationalForm };
  if (isFictional(digits)) return accepted;
  if (digits.length > E164_MAX_DIGITS) return tooManyDigits(digits.length);
  if (!phone.isPossible()) {
    const length = validatePhoneNumberLength(text, country);
    return lengthProblem(
      length === 'TOO_SHORT' || length === 'TOO_LONG' ? length : 'INVALID_LENGTH',
      phone.countryCallingCode,
      phone.country,
      phone.nationalNumber.length,
    );
  }
  if (!phone.isValid()) return notValid(phone.countryCallingCode, phone.country);
  return accepted;
}

function tooManyDigits(count: number): Attempt {
  return {
    ok: false,
    code: 'TOO_LONG',
    reason: `too long: ${count} digits, at most ${E164_MAX_DIGITS}`,
    digits: count,
  };
}

/**
 * The reason of a number with too many digits, counted as the person typed them (issue 26: a
 * 17-digit entry read nationally became 44 + 17 = 19 digits, and the reason said 19). Only when
 * what was typed fits but the calling code added makes it too long is the whole number counted.
 */
function tooLongReason(typed: number, parsed: number): string {
  return typed > E164_MAX_DIGITS
    ? `too long: ${typed} digits, at most ${E164_MAX_DIGITS}`
    : `too long: ${parsed} digits with the country code, at most ${E164_MAX_DIGITS}`;
}

function notValid(callingCode: string, country: string | undefined): Attempt {
  return {
    ok: false,
    code: 'NOT_VALID',
    reason: `not a valid number for ${regionLabel(callingCode, country as CountryCode | undefined)}`,
  };
}

function fromLibraryCode(code: string, text: string, country: CountryCode | undefined): Attempt {
  const place =
    !text.startsWith('+') && country
      ? regionLabel(metadata.countries[country]![0], country)
      : 'an international number';
  switch (code) {
    case 'INVALID_COUNTRY': {
      const cc = /^\+(\d{1,3})/.exec(text)?.[1];
      return {
        ok: false,
        code: 'INVALID_COUNTRY',
        reason: cc ? `invalid country code: no country uses +${cc}` : 'invalid country code',
      };
    }
    case 'TOO_SHORT':
      return { ok: false, code: 'TOO_SHORT', reason: `too short for ${place}` };
    case 'TOO_LONG':
      return { ok: false, code: 'TOO_LONG', reason: `too long for ${place}` };
    case 'INVALID_LENGTH':
      return { ok: false, code: 'INVALID_LENGTH', reason: `wrong number of digits for ${place}` };
    default:
      return { ok: false, code: 'NOT_A_NUMBER', reason: 'not a phone number' };
  }
}

/**
 * Normalise one recipient number to the spec's SendTo form: international, digits only, no '+'.
 *
 * - '+44 7700 900123', '0044 7700 900123', '(+44) 7700-900.123' → '447700900123'
 * - '07700 900123' with defaultCountry 'GB' → '447700900123'
 * - '447700900123' (already international, as the spec writes it) → '447700900123'
 *
 * A bare digit string that does not start with 0 is read as a national number of
 * `defaultCountry` when it is written the way that region writes national numbers (the US
 * '2015550123'); otherwise as international digits (the spec's own form, '447700900123'), and
 * as a national number without its trunk prefix only when no country code makes sense of it.
 */
export function normalizeMsisdn(input: string, defaultCountry?: string): MsisdnResult {
  return normalize(input, defaultCountry, quickAttempt);
}

/**
 * normalizeMsisdn with every number parsed by libphonenumber itself (no fast path): the reference the
 * fast path is compared with (test/unit/protocol/msisdn-fast.test.ts, bench/msisdn.ts).
 */
export function normalizeMsisdnByLibrary(input: string, defaultCountry?: string): MsisdnResult {
  return normalize(input, defaultCountry, attempt);
}

/** isSupportedCountry without building a Metadata object for each number. */
function supportedCountry(code: string): code is CountryCode {
  return Object.hasOwn(metadata.countries, code);
}

/** An accepted Attempt whose national form is worked out when first read. */
class FastAccepted {
  readonly ok = true;
  readonly msisdn: string;
  #form: string | undefined;
  #nationalForm: () => string;
  constructor(msisdn: string, nationalForm: () => string) {
    this.msisdn = msisdn;
    this.#nationalForm = nationalForm;
  }
  get nationalForm(): string {
    return (this.#form ??= this.#nationalForm());
  }
}

/** `attempt` through the fast path (msisdn-fast.ts), the library where the fast path does not model the number. */
function quickAttempt(text: string, country: CountryCode | undefined): Attempt {
  const fast = attemptFast(text, country, E164_MAX_DIGITS, isFictional);
  if (fast === undefined) return attempt(text, country);
  if (fast.ok) return new FastAccepted(fast.msisdn, fast.nationalForm);
  switch (fast.problem) {
    case 'PARSE':
      return fromLibraryCode(fast.code, text, country);
    case 'DIGITS':
      return tooManyDigits(fast.digits);
    case 'LENGTH':
      return lengthProblem(fast.code, fast.callingCode, fast.region, fast.nationalLength);
    case 'NOT_VALID':
      return notValid(fast.callingCode, fast.region);
  }
}

function normalize(
  input: string,
  defaultCountry: string | undefined,
  tryParse: (text: string, country: CountryCode | undefined) => Attempt,
): MsisdnResult {
  const text = input.trim();
  if (text === '') return fail(input, 'EMPTY', 'empty: no number given');

  let country: CountryCode | undefined;
  if (defaultCountry !== undefined && defaultCountry !== '') {
    const upper = defaultCountry.toUpperCase();
    if (!supportedCountry(upper)) {
      return fail(input, 'INVALID_DEFAULT_COUNTRY', `unknown default country "${defaultCountry}"`);
    }
    country = upper;
  }

  const compact = text.replace(GROUPING, '');
  const bad = /[^+\d]/.exec(compact);
  if (bad) return fail(input, 'NOT_A_NUMBER', `not a phone number: "${bad[0]}" is not a digit`);
  if (compact.lastIndexOf('+') > 0)
    return fail(input, 'NOT_A_NUMBER', "not a phone number: '+' inside the digits");
  const digits = compact.replace('+', '');
  if (digits === '') return fail(input, 'NOT_A_NUMBER', 'not a phone number: no digits');

  // `typed`: the digits of the number as entered, without an international call prefix.
  const done = (result: Attempt, typed = digits.length): MsisdnResult =>
    result.ok
      ? { ok: true, msisdn: result.msisdn }
      : fail(
          input,
          result.code,
          result.digits === undefined ? result.reason : tooLongReason(typed, result.digits),
        );

  // Explicitly international: '+CC…' or the '00' international call prefix used across Europe.
  if (compact.startsWith('+')) return done(tryParse(`+${digits}`, undefined));
  if (digits.startsWith('00')) {
    if (country === undefined || metadata.countries[country]?.[0] !== '1') {
      return done(tryParse(`+${digits.slice(2)}`, undefined), digits.length - 2);
    }
  }

  // National trunk prefix (0…, or 011/1… dialled in NANP): needs the default country.
  if (country === undefined) {
    if (digits.startsWith('0')) {
      return fail(
        input,
        'NO_COUNTRY_CODE',
        'no country code: a national number (starting with 0) needs a default country or a +country code',
      );
    }
    return done(tryParse(`+${digits}`, undefined));
  }

  const national = tryParse(digits, country);
  if (digits.startsWith('0')) return done(national);
  // Written as the region writes its numbers ('201 555 0123' in the US, '333 123 4567' in
  // Italy): national. Bare digits that would need a trunk prefix the user left out
  // ('447911123456' with default DE would be 0447 911123456) are the spec's international form.
  if (national.ok && national.nationalForm === digits) return done(national);
  const international = tryParse(`+${digits}`, undefined);
  if (international.ok) return done(international);
  if (national.ok) return done(national);
  // Neither reading works: explain the one closer to what the user meant. A number of the
  // default country's length was meant nationally; a longer one was meant internationally.
  return done(
    national.code === 'TOO_LONG' && international.code !== 'INVALID_COUNTRY' ? international : national,
  );
}

/**
 * Split a pasted list of numbers into entries (trimmed, empties dropped, order kept, not
 * normalised: pass each to normalizeMsisdn so the user sees which entry is wrong).
 *
 * Commas, semicolons, tabs and line breaks always separate entries. Spaces are ambiguous:
 * '+44 7700 900123' is one number written in groups, '447700900123 447700900124' is two.
 * Spaces separate entries only when every space-separated part is a whole number on its own
 * (at least 7 digits); otherwise they are read as digit grouping.
 */
export function parseRecipientText(text: string): string[] {
  const out: string[] = [];
  for (const chunk of text.split(/[,;\t\r\n\u2028\u2029]+/)) {
    const entry = chunk.trim();
    if (entry === '') continue;
    const parts = entry.split(/\s+/);
    const whole = parts.every((part) => (part.match(/\d/g)?.length ?? 0) >= MIN_WHOLE_NUMBER_DIGITS);
    if (parts.length > 1 && whole) out.push(...parts);
    else out.push(entry);
  }
  return out;
}
