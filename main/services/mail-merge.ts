// Mail merge (issue 12): {name}, {first name}, {last name}, {number} and {email} in a text, filled per
// recipient from the address book; "{first name|there}" gives the text for a number without a contact
// (or without that field), otherwise the field is left empty.
import { analyzeText } from '../../protocol/sms.ts';
import { isRichKind } from '../../protocol/content.ts';
import { LIMITS } from '../../protocol/limits.ts';
import type { Contact, MergeMeasure } from '../../domain/index.ts';
import { ApiError } from './validate-args.ts';

const FIELD = /\{\s*(name|first name|last name|number|email)\s*(?:\|([^{}]*))?\}/giu;

export function hasMergeFields(text: string): boolean {
  FIELD.lastIndex = 0;
  const found = FIELD.test(text);
  FIELD.lastIndex = 0;
  return found;
}

/** A text or flash message with merge fields in its text (rich content is never merged). */
export function isMailMerge(content: { kind: string; text: string }): boolean {
  return !isRichKind(content.kind) && hasMergeFields(content.text);
}

/** Each recipient's own text: `text` filled from the recipient's contact in `contacts` (by number). */
export function mergedTexts(text: string, contacts: ReadonlyMap<string, Contact>): (to: string) => string {
  return (to) => fillText(text, contacts.get(to) ?? null, to);
}

function field(name: string, contact: Contact | null, msisdn: string): string {
  const full = contact?.name.trim() ?? '';
  const words = full.split(/\s+/).filter(Boolean);
  switch (name.toLowerCase()) {
    case 'name':
      return full;
    case 'first name':
      return words[0] ?? '';
    case 'last name':
      return words.length > 1 ? words[words.length - 1]! : '';
    case 'number':
      return `+${msisdn}`;
    default:
      return contact?.email ?? '';
  }
}

/** The text one recipient gets. */
export function fillText(text: string, contact: Contact | null, msisdn: string): string {
  return text.replace(FIELD, (_m, name: string, fallback: string | undefined) => {
    const v = field(name, contact, msisdn);
    return v !== '' ? v : (fallback ?? '');
  });
}

/**
 * What a merged text costs across its recipients (Compose's live counter): each recipient's own text
 * measured (texts that come out the same are measured once), the longest one (most parts, then most
 * characters, the first such recipient) and the total of parts. `contacts` holds the recipients'
 * contacts by number.
 */
export function measureMerge(
  text: string,
  flash: boolean,
  numbers: readonly string[],
  contacts: ReadonlyMap<string, Contact>,
): MergeMeasure {
  const parts = new Map<string, { segments: number; characters: number }>();
  let longest: MergeMeasure['longest'] = null;
  let best = { segments: -1, characters: -1 };
  let messages = 0;
  let withoutContact = 0;
  for (const to of numbers) {
    const contact = contacts.get(to) ?? null;
    if (!contact) withoutContact++;
    const own = fillText(text, contact, to);
    let m = parts.get(own);
    if (!m) {
      const a = analyzeText(own, { flash });
      m = { segments: Math.max(1, a.segments), characters: a.characters };
      parts.set(own, m);
    }
    messages += m.segments;
    if (m.segments > best.segments || (m.segments === best.segments && m.characters > best.characters)) {
      best = m;
      longest = { text: own, to, name: contact?.name ?? null };
    }
  }
  return {
    merged: true,
    recipients: numbers.length,
    longest,
    segments: Math.max(1, best.segments),
    messages,
    withoutContact,
    distinctTexts: parts.size,
  };
}

/**
 * Refuses a merge whose longest text needs more parts than the gateway joins into one message,
 * before anything is journaled: Compose says the same from its live measure, but a key press can
 * come before that measure answers, and the gateway would refuse those recipients one by one.
 */
export function checkMergedLength(m: MergeMeasure): void {
  if (m.segments <= LIMITS.maxMessageParts) return;
  const who = m.longest ? (m.longest.name ?? m.longest.to) : 'a recipient';
  throw new ApiError(
    'invalid-request',
    `the merged text for ${who} needs ${m.segments} parts; at most ${LIMITS.maxMessageParts} can be joined into one message`,
  );
}
