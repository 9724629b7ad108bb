// Mail merge measured (issue 12): Compose's counter and the estimate follow each recipient's own
// text — the longest one's parts, the sum of everyone's parts as the cost — not the template.
import { describe, expect, it } from 'vitest';
import { fillText, measureMerge } from '../../../main/services/mail-merge.ts';
import { estimateSend } from '../../../main/services/send-plan.ts';
import type { Contact, Credit } from '../../../preload/api.ts';

const contact = (id: number, name: string, number: string): Contact => ({
  id,
  name,
  number,
  numberTyped: number,
  email: '',
  notes: '',
  createdAt: 0,
  updatedAt: 0,
});
const LONG = 'Bartholomew Maximilian Fitzgerald-Worthington';
const contacts = new Map([
  ['447700900901', contact(1, 'Al', '447700900901')],
  ['447700900902', contact(2, LONG, '447700900902')],
  ['447700900903', contact(3, 'Zoë', '447700900903')],
]);
// 130 characters of template around the field: one part for "Al", two for the long name (GSM-7).
const TEMPLATE = `Dear {name|friend}, ${'x'.repeat(120)}`;

describe('measureMerge', () => {
  it('finds the longest merged text and sums every recipient’s parts', () => {
    const m = measureMerge(TEMPLATE, false, ['447700900901', '447700900902', '447700900904'], contacts);
    expect(m.longest).toEqual({
      text: fillText(TEMPLATE, contacts.get('447700900902')!, ''),
      to: '447700900902',
      name: LONG,
    });
    expect(m.segments).toBe(2);
    // Al 1 part, the long name 2, the number without a contact ("friend") 1.
    expect(m.messages).toBe(4);
    expect(m).toMatchObject({ merged: true, recipients: 3, withoutContact: 1, distinctTexts: 3 });
  });

  it('counts a name outside GSM-7 as UCS-2 for that recipient only', () => {
    const m = measureMerge(TEMPLATE, false, ['447700900901', '447700900903'], contacts);
    // "Zoë": 131 characters in UCS-2 are two parts; "Al" stays one GSM-7 part.
    expect(m.longest?.name).toBe('Zoë');
    expect(m.segments).toBe(2);
    expect(m.messages).toBe(3);
  });

  it('shares the measurement of recipients whose text is the same', () => {
    const numbers = Array.from({ length: 5000 }, (_, i) => `4477009${String(10000 + i).slice(-5)}`);
    const m = measureMerge('Hi {first name|there}', false, numbers, contacts);
    expect(m).toMatchObject({ recipients: 5000, messages: 5000, segments: 1, distinctTexts: 1 });
    expect(m.longest?.text).toBe('Hi there');
  });
});

describe('estimateSend with mail merge', () => {
  it('costs the sum of each recipient’s parts and counts affordable recipients by running total', () => {
    const plan = { numbers: ['447700900902', '447700900901', '447700900904'], invalid: [], duplicates: 0 };
    const credit: Credit = {
      currency: 'GBP',
      credit: '0.30',
      availableMessages: '3',
      fetchedAt: 0,
      low: false,
    };
    const e = estimateSend(plan, { kind: 'text', text: TEMPLATE }, credit, 50, (to) =>
      fillText(TEMPLATE, contacts.get(to) ?? null, to),
    );
    expect(e).toMatchObject({
      segments: 2,
      messages: 4,
      affordableRecipients: 2,
      wouldFail: 1,
      needsConfirm: true,
    });
  });
});
