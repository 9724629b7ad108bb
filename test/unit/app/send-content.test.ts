// main/services/send-content.ts: the request of one send is the account, the recipients, the
// content's own fields (protocol/content.ts) and ResponseFormat 3; checkContent refuses a content
// with problems before anything is journaled.
import { describe, expect, it } from 'vitest';
import { checkContent, sendFields } from '../../../main/services/send-content.ts';
import { ACCOUNT, CASES } from '../protocol/content-cases.ts';

describe('sendFields', () => {
  it('is the account, the recipients, the content’s fields and ResponseFormat 3, in that order', () => {
    const f = sendFields({ username: 'u', pin: 'p' }, CASES.text.ok, '447700900001,447700900002');
    expect(Object.entries(f)).toEqual([
      ['Username', 'u'],
      ['PIN', 'p'],
      ['SendTo', '447700900001,447700900002'],
      ['Message', 'Hello'],
      ['ReplyTo', 'Acme'],
      ['DeliveryServiceOption', 'Premier'],
      ['SendTimeDelay', '60'],
      ['ResponseFormat', '3'],
    ]);
    expect(sendFields({ username: 'u', pin: 'p' }, CASES.mms.ok, '447700900001')).toEqual({
      ...ACCOUNT,
      ...CASES.mms.fields,
      ResponseFormat: '3',
    });
  });

  it('keeps the login and the journal’s recipients whatever the content’s fields say', () => {
    const content = {
      ...CASES.vcard.ok,
      fields: { ...CASES.vcard.fields, SendTo: '447700900999', PIN: 'x' },
    };
    const f = sendFields({ username: 'u', pin: 'p' }, content, '447700900001');
    expect(f).toMatchObject({ Username: 'u', PIN: 'p', SendTo: '447700900001' });
  });
});

describe('checkContent', () => {
  it('passes a content without problems and refuses one with problems, listing them', () => {
    expect(() => checkContent(CASES.vcard.ok)).not.toThrow();
    expect(() => checkContent(CASES.mms.bad)).toThrow(
      expect.objectContaining({
        code: 'invalid-request',
        problems: [
          expect.objectContaining({ field: 'MMSNotificationFileName1' }),
          expect.objectContaining({ field: 'MMSNotificationFileData1' }),
        ],
      }),
    );
  });
});
