// Recipient preparation: normalised with protocol/msisdn.ts, duplicates removed in the user's order,
// every bad entry reported at once, and requests of at most 350 numbers (spec 8).
import { describe, expect, it } from 'vitest';
import { batches, prepareRecipients } from '../../../main/client/recipients.ts';

describe('prepareRecipients', () => {
  it('normalises national and international forms and removes duplicates, first one kept', () => {
    const r = prepareRecipients(
      ['07700 900123', '+44 7700 900124', '447700900123', '0044 7700 900124'],
      'GB',
    );
    expect(r.numbers).toEqual(['447700900123', '447700900124']);
    expect(r.duplicatesRemoved).toBe(2);
    expect(r.problems).toEqual([]);
  });

  it('reports every bad entry with field, rule and value', () => {
    const r = prepareRecipients(['447700900123', 'call me', '0123'], undefined);
    expect(r.numbers).toEqual(['447700900123']);
    expect(r.problems.map((p) => [p.field, p.rule, p.value])).toEqual([
      ['SendTo', 'msisdn', 'call me'],
      ['SendTo', 'msisdn', '0123'],
    ]);
  });

  it('already-normalised numbers are only checked for their form', () => {
    const r = prepareRecipients(
      ['447700900123', '447700900123', '+447700900124', '07700900125'],
      undefined,
      'SendTo',
      true,
    );
    expect(r.numbers).toEqual(['447700900123']);
    expect(r.duplicatesRemoved).toBe(1);
    expect(r.problems.map((p) => p.value)).toEqual(['+447700900124', '07700900125']);
  });
});

describe('batches', () => {
  it('splits into requests of at most 350, order kept', () => {
    const items = Array.from({ length: 1000 }, (_, i) => i);
    const b = batches(items);
    expect(b.map((x) => x.length)).toEqual([350, 350, 300]);
    expect(b.flat()).toEqual(items);
    expect(batches([])).toEqual([]);
    expect(batches(items.slice(0, 350))).toHaveLength(1);
    expect(batches(items.slice(0, 351))).toHaveLength(2);
    expect(() => batches(items, 0)).toThrow(RangeError);
  });
});
