// Issue 26: one label per content kind, made from the stored content.
import { describe, expect, it } from 'vitest';
import { CONTENT_KINDS } from '../../../protocol/content.ts';
import { KIND_NAMES, contentLabel, summaryLine } from '../../../protocol/content-label.ts';
import { buildVCard } from '../../../protocol/smart/vcard.ts';

describe('contentLabel', () => {
  it('names every content kind, and plain text not at all', () => {
    for (const kind of CONTENT_KINDS) {
      const label = contentLabel({ kind });
      if (kind === 'text') expect(label).toBeNull();
      else expect(label).toBe(KIND_NAMES[kind]);
    }
  });

  it('says which ringtone, contact, event, logo, file or link it is', () => {
    const label = (kind: (typeof CONTENT_KINDS)[number], fields: Record<string, string>, text = '') =>
      contentLabel({ kind, text, fields });
    expect(
      label('ringtone', { PhoneMake: 'Nokia', Ringtone: 'Nokia tune:d=4,o=5,b=225:8e6,8d6,4f#,4g#' }),
    ).toBe('Ringtone: Nokia tune');
    expect(label('ringtone', { PhoneMake: 'Nokia', Ringtone: '30012' })).toBe('Ringtone: library 30012');
    expect(label('ringtone', { Ringtone: 'not:a:tune' })).toBe('Ringtone');
    const card = buildVCard({
      name: { family: 'Smith', given: 'Alice' },
      phones: [{ number: '+447700900123', types: ['CELL'] }],
      emails: [],
    });
    expect(label('vcard', { vCard: card })).toBe('Contact card: Alice Smith');
    expect(label('vcard', { vCard: 'BEGIN:VCARD\r\nVERSION:2.1\r\nFN:Zoë Brown\r\nEND:VCARD\r\n' })).toBe(
      'Contact card: Zoë Brown',
    );
    expect(
      label('vcalendar', {
        vCal: 'BEGIN:VCALENDAR\r\nVERSION:1.0\r\nBEGIN:VEVENT\r\nSUMMARY:Team lunch\r\nDTSTART:20261201T120000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n',
      }),
    ).toBe('Calendar event: Team lunch');
    expect(label('operatorLogo', { OperatorLogo: '10001', MCC: '234', MNC: '15' })).toBe(
      'Operator logo: library 10001, network 234 15',
    );
    expect(label('wapPush', { WAPPushFileName1: 'game.jar', WAPPushFileData1: '00' })).toBe(
      'WAP push file: game.jar',
    );
    expect(label('serviceIndication', { 'si-href': 'https://example.com/a' })).toBe(
      'Link: https://example.com/a',
    );
    expect(label('pictureMessage', { PictureMessage: '20001' }, 'Hello there')).toBe(
      'Picture message: Hello there',
    );
    expect(label('flash', {}, 'Now')).toBe('Flash message');
  });

  it('keeps a label to one short line', () => {
    const l = contentLabel({
      kind: 'serviceIndication',
      fields: { 'si-content': `a\nb ${'x'.repeat(100)}` },
    });
    expect(l).toMatch(/^Link: a b x+…$/);
    expect(l!.length).toBeLessThanOrEqual('Link: '.length + 60);
  });
});

describe('summaryLine', () => {
  it('is the text for plain text, the label with any text it does not hold for the rest', () => {
    expect(summaryLine(null, 'Hi')).toBe('Hi');
    expect(summaryLine('Flash message', 'Meet at 5')).toBe('Flash message · Meet at 5');
    expect(summaryLine('Picture message: Hello', 'Hello')).toBe('Picture message: Hello');
    expect(summaryLine('Ringtone: Nokia tune', '')).toBe('Ringtone: Nokia tune');
  });
});
