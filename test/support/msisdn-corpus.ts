// Generated recipient numbers as people type and paste them, for comparing protocol/msisdn.ts's fast
// path with libphonenumber (test/unit/protocol/msisdn-fast.test.ts on a sample, bench/msisdn.ts on
// 1,000,000). Twenty countries; each number is near a real one of its region (the first digits of
// libphonenumber's example mobile number, the rest random, sometimes a digit more or less), written in
// one of the forms people use: +CC with grouping, 00CC, the spec's bare international digits, national
// with the trunk prefix, national without it, and garbage; read with the number's own country as the
// default, another country, or none.
import examples from 'libphonenumber-js/mobile/examples';
import { getCountryCallingCode } from 'libphonenumber-js/min';
import type { CountryCode } from 'libphonenumber-js/min';
import { rng } from './random.ts';

export const CORPUS_COUNTRIES: readonly CountryCode[] = [
  'GB', 'US', 'CA', 'DE', 'FR', 'IT', 'ES', 'NL', 'PL', 'SE',
  'IE', 'CH', 'AU', 'NZ', 'IN', 'BR', 'MX', 'JP', 'RU', 'ZA',
]; // prettier-ignore

/** The trunk prefix people dial before a national number (none in Italy's sense of keeping the 0). */
const TRUNK: Partial<Record<CountryCode, string>> = {
  GB: '0', DE: '0', FR: '0', ES: '', IT: '', NL: '0', PL: '', SE: '0', IE: '0', CH: '0',
  AU: '0', NZ: '0', IN: '0', BR: '0', MX: '', JP: '0', RU: '8', ZA: '0', US: '1', CA: '1',
}; // prettier-ignore

export const FORMS = [
  'plus',
  'double-zero',
  'bare-international',
  'national-trunk',
  'national',
  'plus-random',
  'garbage',
] as const;
export type Form = (typeof FORMS)[number];

export interface CorpusEntry {
  input: string;
  defaultCountry: string | undefined;
  form: Form;
}

const SEPARATORS = [' ', ' ', ' ', '-', '.', '\u00a0', '/'];

/** Generates `count` entries from `seed`; the same seed gives the same entries. */
export function* corpus(count: number, seed = 1): Generator<CorpusEntry> {
  const random = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const digits = (n: number): string => {
    let s = '';
    for (let i = 0; i < n; i++) s += String(Math.floor(random() * 10));
    return s;
  };
  /** Digits written in groups of 2 to 4 with one separator, sometimes the first group in parentheses. */
  const grouped = (s: string): string => {
    if (random() < 0.3) return s;
    const sep = pick(SEPARATORS);
    const parts: string[] = [];
    for (let i = 0; i < s.length;) {
      const n = 2 + Math.floor(random() * 3);
      parts.push(s.slice(i, i + n));
      i += n;
    }
    if (random() < 0.15 && parts.length > 1) parts[0] = `(${parts[0]})`;
    return parts.join(sep);
  };
  for (let i = 0; i < count; i++) {
    const country = pick(CORPUS_COUNTRIES);
    const example = examples[country] ?? '';
    const keep = 1 + Math.floor(random() * 4);
    const r = random();
    const length = example.length + (r < 0.1 ? -1 : r < 0.2 ? 1 : 0);
    const nsn = example.slice(0, keep) + digits(Math.max(0, length - keep));
    const cc = getCountryCallingCode(country);
    const d = random();
    const defaultCountry = d < 0.7 ? country : d < 0.85 ? pick(CORPUS_COUNTRIES) : undefined;
    const form = pick(FORMS);
    let input: string;
    switch (form) {
      case 'plus':
        input = `+${cc}${random() < 0.5 ? ' ' : ''}${grouped(nsn)}`;
        break;
      case 'double-zero':
        input = `00${cc} ${grouped(nsn)}`;
        break;
      case 'bare-international':
        input = `${cc}${nsn}`;
        break;
      case 'national-trunk':
        input = grouped(`${TRUNK[country] ?? '0'}${nsn}`);
        break;
      case 'national':
        input = grouped(nsn);
        break;
      case 'plus-random':
        input = `+${digits(1 + Math.floor(random() * 15))}`;
        break;
      case 'garbage': {
        const g = Math.floor(random() * 6);
        input =
          g === 0
            ? `+${cc} ${nsn.slice(0, 3)}x${nsn.slice(3)}`
            : g === 1
              ? `+0${nsn}`
              : g === 2
                ? digits(1 + Math.floor(random() * 3))
                : g === 3
                  ? `${cc}+${nsn}`
                  : g === 4
                    ? '  '
                    : `+${cc}${nsn}${digits(3 + Math.floor(random() * 4))}`;
        break;
      }
    }
    yield { input, defaultCountry, form };
  }
}
