// The fast path of protocol/msisdn.ts: libphonenumber-js's own parse, isPossible, isValid and
// formatNational steps, ported line by line for the only inputs normalizeMsisdn gives them ('+' and
// digits, or digits with a default country), with every regular expression and numbering plan read
// once from the same metadata instead of on every call (the library builds Metadata objects and
// RegExps per number: ~35 µs a number; this: ~1 µs).
//
// It answers only what it models: `attemptFast` returns the accepted number, or the refusal and what
// its sentence names (msisdn.ts words it as for the library's answer), or `undefined` for every branch
// it does not model (non-geographic calling codes, numbers of more than 40 digits):
// msisdn.ts then asks libphonenumber itself. The identity with libphonenumber is checked on a sample
// in test/unit/protocol/msisdn-fast.test.ts and on 1,000,000 numbers of 20 countries in every input
// form by `npm run bench -- --only msisdn`.
import { Metadata } from 'libphonenumber-js/min';
import type { CountryCode } from 'libphonenumber-js/min';
import metadata from 'libphonenumber-js/metadata.min';

/** The numbering plan methods libphonenumber-js has at run time (its typings list only a few). */
interface LibFormat {
  pattern(): string;
  format(): string;
  leadingDigitsPatterns(): string[];
  nationalPrefixFormattingRule(): string | 0 | undefined;
}
interface LibType {
  pattern(): string;
  possibleLengths(): number[] | undefined;
}
interface LibPlan {
  callingCode(): string;
  IDDPrefix(): string;
  nationalNumberPattern(): string;
  possibleLengths(): number[] | undefined;
  formats(): LibFormat[];
  nationalPrefixForParsing(): string | 0 | undefined;
  nationalPrefixTransformRule(): string | 0 | undefined;
  leadingDigits(): string | 0 | undefined;
  hasTypes(): boolean;
  type(name: string): LibType | undefined;
}

interface Format {
  /** The format's pattern as libphonenumber applies it (`new RegExp(pattern)`, then replace). */
  replace: RegExp;
  entire: RegExp;
  leading: RegExp | undefined;
  replacement: string;
}
interface Plan {
  callingCode: string;
  idd: RegExp;
  pattern: RegExp;
  lengths: readonly number[] | undefined;
  prefix: RegExp | undefined;
  transform: string | undefined;
  leading: RegExp | undefined;
  /** Type patterns in libphonenumber's getNumberType order (FIXED_LINE first); undefined without types. */
  types: ReadonlyArray<{ entire: RegExp; lengths: readonly number[] | undefined }> | undefined;
  formats: () => readonly Format[];
}

/** The types getNumberType tries: FIXED_LINE, then its NON_FIXED_LINE_PHONE_TYPES in order. */
const TYPE_ORDER = [
  'FIXED_LINE',
  'MOBILE',
  'PREMIUM_RATE',
  'TOLL_FREE',
  'SHARED_COST',
  'VOIP',
  'PERSONAL_NUMBER',
  'PAGER',
  'UAN',
  'VOICEMAIL',
];
/** libphonenumber's MIN_LENGTH_FOR_NSN and MAX_LENGTH_FOR_NSN. */
const MIN_NSN = 2;
const MAX_NSN = 17;

const entire = (source: string): RegExp => new RegExp(`^(?:${source})$`);
const text = (value: string | 0 | undefined): string | undefined => (value ? value : undefined);

function compile(lib: LibPlan): Plan {
  const prefix = text(lib.nationalPrefixForParsing());
  const leading = text(lib.leadingDigits());
  let formats: Format[] | undefined;
  return {
    callingCode: lib.callingCode(),
    idd: new RegExp(lib.IDDPrefix()),
    pattern: entire(lib.nationalNumberPattern()),
    lengths: lib.possibleLengths(),
    prefix: prefix === undefined ? undefined : new RegExp(`^(?:${prefix})`),
    transform: text(lib.nationalPrefixTransformRule()),
    // `n.search(leading) === 0` in the library: a match starting at 0, which an anchored test finds
    // without scanning the rest of the number.
    leading: leading === undefined ? undefined : new RegExp(`^(?:${leading})`),
    types: lib.hasTypes()
      ? TYPE_ORDER.flatMap((name) => {
          const type = lib.type(name);
          if (!type?.pattern()) return [];
          return [{ entire: entire(type.pattern()), lengths: type.possibleLengths() }];
        })
      : undefined,
    formats: () =>
      (formats ??= lib.formats().map((f) => {
        const ld = f.leadingDigitsPatterns();
        const last = ld[ld.length - 1];
        const rule = text(f.nationalPrefixFormattingRule());
        return {
          replace: new RegExp(f.pattern()),
          entire: entire(f.pattern()),
          leading: last === undefined ? undefined : new RegExp(`^(?:${last})`),
          replacement: rule ? f.format().replace(/(\$\d)/, rule) : f.format(),
        };
      })),
  };
}

const plans = new Map<string, Plan>();
/** The plan of a region ('GB') or, for a calling code ('44'), of its main region. */
function plan(regionOrCode: string): Plan {
  let p = plans.get(regionOrCode);
  if (p === undefined) {
    const m = new Metadata();
    m.selectNumberingPlan(regionOrCode as CountryCode);
    p = compile(m.numberingPlan as unknown as LibPlan);
    plans.set(regionOrCode, p);
  }
  return p;
}

/** getCountryCodesForCallingCode: the regions of a geographic calling code. */
function regionsOf(callingCode: string): readonly string[] | undefined {
  const regions = metadata.country_calling_codes[callingCode];
  if (regions === undefined || (regions.length === 1 && regions[0]!.length === 3)) return undefined;
  return regions;
}

type LengthCheck = 'IS_POSSIBLE' | 'TOO_SHORT' | 'TOO_LONG' | 'INVALID_LENGTH';
/** checkNumberLength without a type. */
function checkLength(n: string, lengths: readonly number[] | undefined): LengthCheck {
  if (!lengths) return 'IS_POSSIBLE';
  const min = lengths[0]!;
  if (min === n.length) return 'IS_POSSIBLE';
  if (min > n.length) return 'TOO_SHORT';
  if (lengths[lengths.length - 1]! < n.length) return 'TOO_LONG';
  return lengths.indexOf(n.length, 1) >= 0 ? 'IS_POSSIBLE' : 'INVALID_LENGTH';
}

/** Whether getNumberType finds a type (all that isValid and getCountryByNationalNumber use of it). */
function hasType(n: string, p: Plan): boolean {
  if (!p.pattern.test(n)) return false;
  for (const t of p.types ?? []) {
    const lengths = t.lengths ?? p.lengths;
    if (lengths && !lengths.includes(n.length)) continue;
    if (t.entire.test(n)) return true;
  }
  return false;
}

/** getCountryByCallingCode. */
function regionByCallingCode(callingCode: string, n: string): string | undefined {
  const regions = regionsOf(callingCode);
  if (regions === undefined) return undefined;
  if (regions.length === 1) return regions[0];
  for (const region of regions) {
    const p = plan(region);
    if (p.leading) {
      if (n && p.leading.test(n)) return region;
    } else if (hasType(n, p)) return region;
  }
  return undefined;
}

/** extractNationalNumber (the carrier code is not needed). */
function nationalNumber(number: string, p: Plan): string {
  let national = number;
  const match = p.prefix?.exec(number);
  if (match) {
    const groups = match.length - 1;
    const captured = groups > 0 && match[groups];
    national =
      p.transform && captured ? number.replace(p.prefix!, p.transform) : number.slice(match[0].length);
  }
  if (national === number) return number;
  if (p.pattern.test(number) && !p.pattern.test(national)) return number;
  if (p.lengths) {
    const region = regionByCallingCode(p.callingCode, national);
    const check = checkLength(national, region === undefined ? p.lengths : plan(region).lengths);
    if (check === 'TOO_SHORT' || check === 'INVALID_LENGTH') return number;
  }
  return national;
}

interface Parsed {
  callingCode: string;
  national: string;
  region: string | undefined;
}

/**
 * parse() of libphonenumber for '+digits' (at least 3), or digits (at least 2) with a default region: the number,
 * the ParseError it would throw, or undefined where not modelled.
 */
function parse(
  input: string,
  defaultRegion: CountryCode | undefined,
): Parsed | 'INVALID_COUNTRY' | 'TOO_SHORT' | 'TOO_LONG' | undefined {
  let number = input;
  let callingCode: string | undefined;
  if (number[0] !== '+') {
    if (defaultRegion === undefined) return undefined;
    const home = plan(defaultRegion);
    const idd = home.idd.exec(number);
    const rest = idd?.index === 0 ? number.slice(idd[0].length) : undefined;
    if (rest !== undefined && rest !== '' && rest[0] !== '0') {
      number = `+${rest}`;
    } else {
      // extractCountryCallingCodeFromInternationalNumberWithoutPlusSign
      const code = home.callingCode;
      if (number.startsWith(code)) {
        const shorter = number.slice(code.length);
        const shorterNational = nationalNumber(shorter, home);
        const whole = nationalNumber(number, home);
        if (
          (!home.pattern.test(whole) && home.pattern.test(shorterNational)) ||
          checkLength(whole, home.lengths) === 'TOO_LONG'
        ) {
          callingCode = code;
          number = shorter;
        }
      }
    }
  }
  let region: string | undefined;
  if (number[0] === '+') {
    if (number[1] === '0') return 'INVALID_COUNTRY';
    for (let i = 2; i - 1 <= 3 && i <= number.length; i++) {
      const code = number.slice(1, i);
      if (regionsOf(code) !== undefined) {
        callingCode = code;
        number = number.slice(i);
        break;
      }
      // A non-geographic calling code (+800, +882, …): not modelled.
      if (metadata.nonGeographic[code] !== undefined) return undefined;
    }
    if (callingCode === undefined) return 'INVALID_COUNTRY';
  } else if (callingCode === undefined) {
    region = defaultRegion;
    callingCode = plan(defaultRegion!).callingCode;
  }
  if (!number) return 'TOO_SHORT';
  const national = nationalNumber(number, plan(region ?? callingCode));
  region = regionByCallingCode(callingCode, national) ?? region;
  if (national.length < MIN_NSN) return 'TOO_SHORT';
  if (national.length > MAX_NSN) return 'TOO_LONG';
  return { callingCode, national, region };
}

/** PhoneNumber.formatNational(), digits only ('' when the metadata has no format for it), as msisdn.ts wants it. */
function nationalForm(p: Plan, national: string): string {
  for (const f of p.formats()) {
    if (f.leading && !f.leading.test(national)) continue;
    if (!f.entire.test(national)) continue;
    const formatted = national.replace(f.replace, f.replacement);
    return /\D/.test(formatted) ? formatted.replace(/\D/g, '') : '';
  }
  return '';
}

/**
 * What libphonenumber makes of a number, as msisdn.ts's `attempt` needs it: accepted (with its
 * national form, a function: it walks the region's formats and only a national reading needs it), or
 * refused and why, with what the refusal's sentence names; undefined when not modelled.
 */
export type FastAttempt =
  | { ok: true; msisdn: string; nationalForm: () => string }
  | { ok: false; problem: 'PARSE'; code: 'INVALID_COUNTRY' | 'TOO_SHORT' | 'TOO_LONG' }
  | { ok: false; problem: 'DIGITS'; digits: number }
  | {
      ok: false;
      problem: 'LENGTH';
      code: 'TOO_SHORT' | 'TOO_LONG' | 'INVALID_LENGTH';
      callingCode: string;
      region: string | undefined;
      nationalLength: number;
    }
  | { ok: false; problem: 'NOT_VALID'; callingCode: string; region: string | undefined }
  | undefined;

/**
 * msisdn.ts's `attempt(input, defaultRegion)`: libphonenumber's parse, then the checks msisdn.ts
 * makes (fictional ranges accepted, at most `maxDigits`, possible, valid).
 */
export function attemptFast(
  input: string,
  defaultRegion: CountryCode | undefined,
  maxDigits: number,
  fictional: (digits: string) => boolean,
): FastAttempt {
  // parseInput: one digit, or '+' and two, is not a viable number but the start of one: TOO_SHORT.
  const plus = input[0] === '+';
  const digitCount = plus ? input.length - 1 : input.length;
  if (digitCount === 0) return undefined;
  if (digitCount < 2 || (plus && digitCount === 2)) return { ok: false, problem: 'PARSE', code: 'TOO_SHORT' };
  if (digitCount > 40) return undefined;
  const parsed = parse(input, defaultRegion);
  if (parsed === undefined || typeof parsed === 'string') {
    return parsed === undefined ? undefined : { ok: false, problem: 'PARSE', code: parsed };
  }
  const { callingCode, national, region } = parsed;
  const digits = callingCode + national;
  const p = plan(region ?? callingCode);
  const accepted: FastAttempt = { ok: true, msisdn: digits, nationalForm: () => nationalForm(p, national) };
  if (fictional(digits)) return accepted;
  if (digits.length > maxDigits) return { ok: false, problem: 'DIGITS', digits: digits.length };
  if (!p.lengths) return undefined;
  const length = checkLength(national, p.lengths);
  if (length !== 'IS_POSSIBLE') {
    return {
      ok: false,
      problem: 'LENGTH',
      code: length,
      callingCode,
      region,
      nationalLength: national.length,
    };
  }
  const valid = p.types ? hasType(national, p) : p.pattern.test(national);
  return valid ? accepted : { ok: false, problem: 'NOT_VALID', callingCode, region };
}
