// protocol/content.ts: the app's kinds declared once, the form fields each kind sends, and the
// problems of a content alone: exactly what validateRequest finds in the whole request, without
// the account's and the recipients' problems.
import { describe, expect, it } from 'vitest';
import {
  CONTENT_KINDS,
  RICH_KINDS,
  TEXT_KINDS,
  contentFormFields,
  contentOperation,
  contentProblems,
  isContentKind,
  isRichKind,
  type Content,
} from '../../../protocol/content.ts';
import { ACCOUNT, CASES, VCAL, VCARD } from './content-cases.ts';
import { FIELDS } from '../../../protocol/fields.ts';
import { validateRequest } from '../../../protocol/validate.ts';

/** What validateRequest finds in the whole request of a content, less the account's and recipients'. */
function requestProblems(content: Content) {
  return validateRequest(contentOperation(content.kind), {
    ...ACCOUNT,
    ...contentFormFields(content),
  }).filter((p) => !(p.field in ACCOUNT));
}

describe('the content kinds', () => {
  it('are declared once: text kinds, then the sendmms kinds', () => {
    expect(CONTENT_KINDS).toEqual([...TEXT_KINDS, ...RICH_KINDS]);
    expect(new Set(CONTENT_KINDS).size).toBe(CONTENT_KINDS.length);
    expect(Object.keys(CASES).sort()).toEqual([...CONTENT_KINDS].sort());
    for (const k of TEXT_KINDS) expect(contentOperation(k)).toBe('sendsms');
    for (const k of RICH_KINDS) expect(contentOperation(k)).toBe('sendmms');
    expect(isContentKind('wapPushFile')).toBe(false);
    expect(isContentKind('mms')).toBe(true);
    expect(isRichKind('text')).toBe(false);
  });

  it('name the field catalogue’s sendmms content: every kind has its fields, every content field a kind', () => {
    const marked = new Set(FIELDS.sendmms.flatMap((s) => (s.content === undefined ? [] : [s.content])));
    expect([...marked].sort()).toEqual([...RICH_KINDS].sort());
    // …and the problem of none names them all, in the catalogue's order (fields.ts CONTENT_LABELS)
    expect(contentProblems('sendmms', { kind: 'vcard', text: '' })).toEqual([
      expect.objectContaining({
        message:
          'One kind of content is required: PictureMessage, GroupGraphic, OperatorLogo, Ringtone, vCard, vCal, MMS notification, WAP push file, si-href or SMS-SUBMIT PDU fields',
      }),
    ]);
  });
});

describe('contentFormFields and contentProblems, kind by kind', () => {
  for (const kind of CONTENT_KINDS) {
    const { ok, fields, bad, problems } = CASES[kind];
    const op = contentOperation(kind);
    it(`${kind}: the fields it sends; its problems are validateRequest's without the account`, () => {
      expect(contentFormFields(ok)).toEqual(fields);
      expect(contentProblems(op, ok)).toEqual([]);
      expect(requestProblems(ok)).toEqual([]);
      const found = contentProblems(op, bad);
      expect(found.map((p) => [p.field, p.rule])).toEqual(problems);
      expect(found).toEqual(requestProblems(bad));
    });
  }

  it('puts Message from the text only when the fields have none, and no delivery option on rich content', () => {
    expect(contentFormFields({ kind: 'pdu', text: 'a', fields: { Message: 'b' } })).toEqual({ Message: 'b' });
    expect(contentFormFields({ kind: 'vcard', text: '', fields: { vCard: VCARD } })).toEqual({
      vCard: VCARD,
    });
    expect(contentFormFields({ kind: 'text', text: 'x', replyTo: '' })).toEqual({ Message: 'x' });
  });

  it('leaves out credentials and recipients: a content has none', () => {
    expect(contentProblems('sendsms', { kind: 'text', text: 'Hello' })).toEqual([]);
    expect(validateRequest('sendsms', { Message: 'Hello' }).map((p) => p.field)).toEqual([
      'Username',
      'PIN',
      'SendTo',
    ]);
  });

  it('refuses a kind sent by the other operation, and fields of another kind', () => {
    expect(contentProblems('sendmms', { kind: 'text', text: 'x' })).toEqual([
      expect.objectContaining({ field: 'kind', rule: 'operation', value: 'text' }),
    ]);
    expect(contentProblems('sendmms', { kind: 'vcard', text: '', fields: { vCal: VCAL } })).toEqual([
      expect.objectContaining({ field: 'content', rule: 'kind', message: 'vCal is not vcard content' }),
    ]);
    // two kinds at once is the catalogue's own problem, said once
    const two = contentProblems('sendmms', { kind: 'vcard', text: '', fields: { vCard: VCARD, vCal: VCAL } });
    expect(two.map((p) => [p.field, p.rule])).toEqual([['content', 'oneOf']]);
    expect(contentProblems('sendmms', { kind: 'vcard', text: '', fields: {} })).toEqual([
      expect.objectContaining({ field: 'content', rule: 'oneOf' }),
    ]);
  });

  it('refuses a rich content whose fields carry the login, the recipients or the answer format', () => {
    const vcard = { kind: 'vcard' as const, text: '' };
    expect(
      contentProblems('sendmms', { ...vcard, fields: { vCard: VCARD, SendTo: '447700900999' } }),
    ).toEqual([expect.objectContaining({ field: 'content', rule: 'request-field', value: 'SendTo' })]);
    const all = contentProblems('sendmms', {
      ...vcard,
      fields: { vCard: VCARD, Username: 'x', PIN: 'y', ResponseFormat: '0' },
    });
    expect(all).toEqual([
      expect.objectContaining({
        rule: 'request-field',
        message: 'Username, PIN, ResponseFormat are set by the send, not by its content',
      }),
    ]);
  });
});
