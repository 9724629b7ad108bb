// The fast path of normalizeMsisdn (protocol/msisdn-fast.ts) must answer exactly what libphonenumber
// answers, refusals and their sentences included. A property test: numbers of 20 countries in every
// input form, from a seed that changes each run (printed on failure, so a failure can be replayed with
// MSISDN_SEED), and a fixed seed. bench/msisdn.ts runs the same comparison on 1,000,000 numbers.
import { describe, expect, it } from 'vitest';
import { normalizeMsisdn, normalizeMsisdnByLibrary } from '../../../protocol/msisdn.ts';
import { CORPUS_COUNTRIES, FORMS, corpus } from '../../support/msisdn-corpus.ts';

const SAMPLE = 12_000;

function differences(seed: number): string[] {
  const out: string[] = [];
  for (const { input, defaultCountry, form } of corpus(SAMPLE, seed)) {
    const fast = normalizeMsisdn(input, defaultCountry);
    const library = normalizeMsisdnByLibrary(input, defaultCountry);
    if (JSON.stringify(fast) !== JSON.stringify(library)) {
      out.push(
        `${JSON.stringify(input)} (${form}, default ${defaultCountry ?? 'none'}): fast ${JSON.stringify(fast)}, library ${JSON.stringify(library)}`,
      );
    }
  }
  return out;
}

describe('normalizeMsisdn fast path = libphonenumber', () => {
  it('the corpus covers 20 countries, every form, accepted and refused numbers', () => {
    const entries = [...corpus(2_000, 1)];
    expect(CORPUS_COUNTRIES).toHaveLength(20);
    expect(new Set(entries.map((e) => e.form))).toEqual(new Set(FORMS));
    const results = entries.map((e) => normalizeMsisdnByLibrary(e.input, e.defaultCountry));
    const accepted = results.filter((r) => r.ok).length;
    expect(accepted).toBeGreaterThan(entries.length / 4);
    expect(accepted).toBeLessThan((entries.length * 3) / 4);
    const codes = new Set(results.flatMap((r) => (r.ok ? [] : [r.code])));
    for (const code of ['NOT_VALID', 'TOO_SHORT', 'TOO_LONG', 'INVALID_COUNTRY', 'NOT_A_NUMBER']) {
      expect(codes).toContain(code);
    }
  });

  it('gives the same result and reason on a fixed sample', () => {
    expect(differences(1)).toEqual([]);
  });

  it('gives the same result and reason on a random sample', () => {
    const seed = Number(process.env.MSISDN_SEED ?? Math.floor(Math.random() * 2 ** 31));
    expect(differences(seed), `seed ${seed} (replay: MSISDN_SEED=${seed})`).toEqual([]);
  });

  it('stays the same for the forms around a country calling code and a trunk prefix', () => {
    const cases: Array<[string, string | undefined]> = [
      ['447400123456', 'GB'],
      ['7400123456', 'GB'],
      ['2015550123', 'US'],
      ['12015550123', 'CA'],
      ['011 44 7400 123456', 'US'],
      ['0011 61 412 345 678', 'AU'],
      ['8 912 345 67 89', 'RU'],
      ['044 55 1234 5678', 'MX'],
      ['0 11 91234 5678', 'BR'],
      ['+800 1234 5678', undefined],
      ['+0 123', undefined],
      ['+12', undefined],
      ['5', 'PL'],
      ['50', 'PL'],
      ['00', 'DE'],
      ['+', undefined],
      ['3912345678901234567', 'IT'],
    ];
    for (const [input, country] of cases) {
      expect(normalizeMsisdn(input, country), `${input} ${country ?? ''}`).toEqual(
        normalizeMsisdnByLibrary(input, country),
      );
    }
  });
});
