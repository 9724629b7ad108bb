/**
 * The kinds of message the app sends (spec 2.2 sendsms, 2.4 sendmms), declared once, alone in their
 * module: content.ts, the field catalogue (fields.ts), validate.ts and content-selection.ts all name
 * a kind, and content.ts imports those three (a kind here keeps their imports one-way, issue 27).
 * content.ts re-exports everything here.
 */

/** Text sent by sendsms: Message, or FlashMessage (spec 2.2). */
export const TEXT_KINDS = ['text', 'flash'] as const;

/**
 * The sendmms content kinds (spec 2.4), one per request, in the order the app offers them.
 * fields.ts marks each content field with its kind (FieldSpec.content).
 */
export const RICH_KINDS = [
  'ringtone',
  'operatorLogo',
  'pictureMessage',
  'groupGraphic',
  'vcard',
  'vcalendar',
  'wapPush',
  'serviceIndication',
  'mms',
  'pdu',
] as const;

/** Every kind of message the app sends, declared once. */
export const CONTENT_KINDS = [...TEXT_KINDS, ...RICH_KINDS] as const;

export type TextKind = (typeof TEXT_KINDS)[number];
export type RichKind = (typeof RICH_KINDS)[number];
export type ContentKind = TextKind | RichKind;

export function isContentKind(value: unknown): value is ContentKind {
  return (CONTENT_KINDS as readonly unknown[]).includes(value);
}

export function isRichKind(kind: string): kind is RichKind {
  return (RICH_KINDS as readonly string[]).includes(kind);
}
