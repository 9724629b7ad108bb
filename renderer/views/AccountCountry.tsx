// The default country of the settings: a searchable list of country names with their ISO code and
// calling code, from libphonenumber's metadata (the same list the settings schema accepts,
// main/store/preferences.ts), so no free-typed code can be saved wrong ("Germany" is DE, never GE).
import { useMemo, useState } from 'react';
import { getCountries, getCountryCallingCode } from 'libphonenumber-js/min';

export interface CountryOption {
  code: string;
  name: string;
  callingCode: string;
}

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

let cached: CountryOption[] | null = null;
/** Every country libphonenumber reads numbers of, by English name. */
export function countryOptions(): CountryOption[] {
  if (cached) return cached;
  const names = new Intl.DisplayNames(['en'], { type: 'region' });
  cached = getCountries()
    .map((code) => ({ code, name: names.of(code) ?? code, callingCode: getCountryCallingCode(code) }))
    .sort((a, b) => a.name.localeCompare(b.name, 'en'));
  return cached;
}

/** "Germany (DE, +49)", or the words for no default country. */
export function countryLabel(code: string): string {
  if (!code) return 'None (numbers must be international)';
  const c = countryOptions().find((o) => o.code === code);
  return c ? `${c.name} (${c.code}, +${c.callingCode})` : code;
}

/** Countries matching what was typed: a name (accents and case ignored), an ISO code or a +calling code. */
export function matchCountries(query: string): CountryOption[] {
  const q = fold(query.trim());
  if (!q) return countryOptions();
  const digits = q.replace(/^\+/, '');
  return countryOptions().filter(
    (c) =>
      fold(c.name).includes(q) ||
      c.code.toLowerCase() === q ||
      (/^\d+$/.test(digits) && c.callingCode.startsWith(digits)),
  );
}

export function CountryPicker({ value, onChange }: { value: string; onChange: (code: string) => void }) {
  const [query, setQuery] = useState('');
  const shown = useMemo(() => {
    const found = matchCountries(query);
    // The chosen country stays in the list, so the list always shows what is chosen.
    const chosen =
      value && !found.some((c) => c.code === value) ? countryOptions().filter((c) => c.code === value) : [];
    return [...chosen, ...found];
  }, [query, value]);
  return (
    <fieldset className="country-picker">
      <legend>Default country for national numbers</legend>
      <input
        type="search"
        aria-label="Find a country"
        placeholder="Type a country, a code or +49"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => {
          // Enter picks the first match instead of submitting the form.
          if (e.key === 'Enter') {
            e.preventDefault();
            const first = matchCountries(query)[0];
            if (first) onChange(first.code);
          }
        }}
      />
      <select aria-label="Default country" size={6} value={value} onChange={(e) => onChange(e.target.value)}>
        {!query.trim() || value === '' ? <option value="">{countryLabel('')}</option> : null}
        {shown.map((c) => (
          <option key={c.code} value={c.code}>
            {c.name} ({c.code}, +{c.callingCode})
          </option>
        ))}
      </select>
      <span className="muted small" data-testid="country-chosen">
        Chosen: {countryLabel(value)}
      </span>
    </fieldset>
  );
}
