// Mail merge (issue 12): {name}, {first name}, {last name}, {number} and {email} in a text, filled per
// recipient from the address book; "{first name|there}" gives the text for a number without a contact
// (or without that field), otherwise the field is left empty.
import type { Contact } from '../../preload/api.ts';

const FIELD = /\{\s*(name|first name|last name|number|email)\s*(?:\|([^{}]*))?\}/giu;

export function hasMergeFields(text: string): boolean {
  FIELD.lastIndex = 0;
  const found = FIELD.test(text);
  FIELD.lastIndex = 0;
  return found;
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
