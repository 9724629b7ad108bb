// The Contacts filter: names by the start of their words (and e-mail, notes by the whole query)
// without regard to case or accents ("zoe" finds "Zoë"), and numbers in any format only when the query looks like a number: "07911 100042" is read
// with the default country (+44 7911 100042), "+44 7911", "7911" and "100042" match as digits. A
// query with letters ("user42@", "comma 42") is never a number search.
import { getCountryCallingCode, type CountryCode } from 'libphonenumber-js/min';
import type { Contact } from '../../domain/index.ts';
import { normalizeMsisdn } from '../../protocol/msisdn.ts';

export const fold = (s: string): string => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** Digits, spaces, + ( ) - . / only, and at least 3 digits: a number, not a name. */
export function looksLikeNumber(query: string): boolean {
  return /^[+\d\s().\-/]+$/.test(query.trim()) && (query.match(/\d/g)?.length ?? 0) >= 3;
}

/** The digit strings a number-like query stands for (as typed; national prefix read with the country). */
export function numberNeedles(query: string, country: string | undefined): string[] {
  const digits = query.replace(/\D/g, '');
  const out = new Set<string>();
  const full = normalizeMsisdn(query, country);
  if (full.ok) out.add(full.msisdn);
  if (query.trim().startsWith('+') || digits.startsWith('00')) {
    out.add(digits.replace(/^00/, ''));
  } else if (digits.startsWith('0') && country) {
    // A national number being typed: 07911… is 447911… in GB.
    try {
      out.add(getCountryCallingCode(country as CountryCode) + digits.slice(1));
    } catch {
      // not a country libphonenumber knows: the digits alone below
    }
    out.add(digits.slice(1));
  } else {
    out.add(digits);
  }
  return [...out].filter((d) => d.length > 0);
}

/** A predicate for the contacts matching `query` (everything for an empty query). */
export function contactMatcher(query: string, country: string | undefined): (c: Contact) => boolean {
  const q = query.trim();
  if (!q) return () => true;
  if (looksLikeNumber(q)) {
    const needles = numberNeedles(q, country);
    return (c) => needles.some((n) => c.number.includes(n));
  }
  // Words: each begins a word of the name ("ann" finds "Ann Lee", "member 42" finds "Member 421",
  // not "Member 142"). The whole query may also be part of the e-mail or the notes ("user42@").
  const whole = fold(q);
  const words = whole.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  return (c) => {
    const nameWords = fold(c.name).split(/[^\p{L}\p{N}]+/u);
    if (words.length > 0 && words.every((w) => nameWords.some((n) => n.startsWith(w)))) return true;
    return fold(c.email).includes(whole) || fold(c.notes).includes(whole);
  };
}
