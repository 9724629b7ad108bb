/**
 * What a message is, in words, from its stored content (issue 26): "Ringtone: Nokia tune",
 * "Contact card: Alice Smith", "Calendar event: Team lunch". Threads, conversation previews,
 * History and search all show this one label; the journal stores it with each outbound message
 * (main/store/outbox-journal.ts) and History makes it from a send's content. Plain text has no
 * label: its text says what it is.
 */
import type { Content, ContentKind } from './content.ts';
import { isContentKind } from './content.ts';
import { parseRingtoneField } from './smart/nokia-ringtone.ts';
import { parseContentLines } from './smart/vcard.ts';

/** The name of each kind, as a person reads it (every kind of CONTENT_KINDS, the type says when one is missing). */
export const KIND_NAMES: Readonly<Record<ContentKind, string>> = {
  text: 'Text',
  flash: 'Flash message',
  ringtone: 'Ringtone',
  operatorLogo: 'Operator logo',
  pictureMessage: 'Picture message',
  groupGraphic: 'Group graphic',
  vcard: 'Contact card',
  vcalendar: 'Calendar event',
  wapPush: 'WAP push file',
  serviceIndication: 'Link',
  mms: 'MMS',
  pdu: 'SMS PDU',
};

/** Longest detail kept after the kind's name (a label is one line in a list). */
const DETAIL_MAX = 60;

/** A content as stored: its kind, its text and its sendmms fields (any of them may be missing). */
export type StoredContent = Pick<Content, 'kind'> & { text?: string; fields?: Record<string, string> };

function oneLine(s: string): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > DETAIL_MAX ? `${t.slice(0, DETAIL_MAX - 1)}…` : t;
}

/** The value of the first content line named one of `names` (quoted-printable decoded), '' when none. */
function contentLine(text: string, names: readonly string[]): string {
  try {
    const lines = parseContentLines(text);
    for (const name of names) {
      const l = lines.find((x) => x.name === name && x.value.trim() !== '');
      if (l) return l.value;
    }
  } catch {
    // unreadable: no detail
  }
  return '';
}

/** vCard FN, else N as "given family" (its components split on unescaped ';'). */
function vcardName(card: string): string {
  const fn = contentLine(card, ['FN']);
  if (fn) return fn.replace(/\\([,;\\])/g, '$1');
  const n = contentLine(card, ['N']);
  const [family = '', given = ''] = n.split(/(?<!\\);/);
  return [given, family].filter(Boolean).join(' ');
}

function ringtoneName(value: string): string {
  try {
    const r = parseRingtoneField(value);
    return r.kind === 'library' ? `library ${r.libraryNumber}` : r.song.name;
  } catch {
    return '';
  }
}

/** A library number as "library 30012", a file name as it is, hex data as nothing. */
function libraryOrFile(value: string | undefined): string {
  if (!value) return '';
  return /^\d{1,5}$/.test(value.trim()) ? `library ${value.trim()}` : '';
}

/** The detail after the kind's name: the ringtone's name, the card's name, the event's summary, … */
function detail(content: StoredContent): string {
  const f = content.fields ?? {};
  const text = content.text ?? '';
  switch (content.kind) {
    case 'text':
    case 'flash':
      return text;
    case 'ringtone':
      return ringtoneName(f.Ringtone ?? '');
    case 'vcard':
      return vcardName(f.vCard ?? '');
    case 'vcalendar':
      return contentLine(f.vCal ?? '', ['SUMMARY', 'DESCRIPTION']);
    case 'operatorLogo': {
      const lib = libraryOrFile(f.OperatorLogo);
      const net = f.MCC && f.MNC ? `network ${f.MCC} ${f.MNC}` : '';
      return [lib, net].filter(Boolean).join(', ');
    }
    case 'pictureMessage':
      return text || libraryOrFile(f.PictureMessage);
    case 'groupGraphic':
      return libraryOrFile(f.GroupGraphic);
    case 'wapPush':
      return f.WAPPushFileName1 ?? libraryOrFile(f.MMSFileWAP);
    case 'serviceIndication':
      return f['si-content'] || text || f['si-href'] || '';
    case 'mms':
      return text || f.MMSNotificationFileName1 || libraryOrFile(f.MMSFileMMS);
    case 'pdu':
      return text;
  }
}

/**
 * "Ringtone: Nokia tune", or the kind's name alone when the content says nothing more
 * ("Group graphic"); null for plain text, whose text is its own label. A kind this version does
 * not know is named as stored.
 */
export function contentLabel(content: StoredContent): string | null {
  if (!isContentKind(content.kind)) return String(content.kind);
  if (content.kind === 'text') return null;
  const d = content.kind === 'flash' ? '' : oneLine(detail(content));
  return d ? `${KIND_NAMES[content.kind]}: ${d}` : KIND_NAMES[content.kind];
}

/**
 * One line for a list (conversation preview, History's send title): the label, and the text after
 * it when the label does not already hold it ("Flash message · Meet at 5"); the text alone for
 * plain text.
 */
export function summaryLine(label: string | null, text: string): string {
  const t = oneLine(text);
  if (label === null) return text;
  return t !== '' && !label.includes(t) ? `${label} · ${t}` : label;
}
