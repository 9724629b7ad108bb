// vCard 2.1 (versit 1996), the version phones take over SMS (Nokia Smart Messaging port 9204).
// Builder and parser are hand-written: ical.js reads vCard 3.0/4.0 and rejects 2.1's bare
// parameters ("TEL;CELL;PREF:") and quoted-printable soft line breaks, which are what phones send.
// Non-ASCII values are written as CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE, as Nokia handsets do.
import { SmartCodecError } from './bytes.ts';

export interface VCard {
  name: { family: string; given: string; middle?: string; prefix?: string; suffix?: string };
  formattedName?: string;
  /** types e.g. ['CELL'], ['HOME','VOICE'], ['WORK','FAX'], plus 'PREF' */
  phones: Array<{ number: string; types: string[] }>;
  emails: Array<{ address: string; types: string[] }>;
  organization?: string;
  title?: string;
  url?: string;
  note?: string;
  /** YYYY-MM-DD */
  birthday?: string;
}

export interface ContentLine {
  name: string;
  /** Bare 2.1 parameters become TYPE entries; names are upper-cased. */
  params: Record<string, string[]>;
  value: string;
}

const enc = new TextEncoder();

/** Quoted-printable (RFC 2045) of the UTF-8 octets, soft line breaks at 75 characters. */
export function encodeQuotedPrintable(text: string, firstLineUsed = 0): string {
  let out = '';
  let lineLen = firstLineUsed;
  for (const b of enc.encode(text)) {
    const ch = b >= 0x21 && b <= 0x7e && b !== 0x3d ? String.fromCharCode(b) : b === 0x20 ? ' ' : null;
    const piece = ch ?? '=' + b.toString(16).toUpperCase().padStart(2, '0');
    if (lineLen + piece.length > 73) {
      out += '=\r\n';
      lineLen = 0;
    }
    out += piece;
    lineLen += piece.length;
  }
  // a trailing space must be encoded
  if (out.endsWith(' ')) out = out.slice(0, -1) + '=20';
  return out;
}

export function decodeQuotedPrintable(text: string, charset = 'UTF-8'): string {
  const bytes: number[] = [];
  const t = text.replace(/=\r?\n/g, '');
  for (let i = 0; i < t.length; i++) {
    const c = t[i]!;
    if (c === '=' && /^[0-9A-Fa-f]{2}$/.test(t.slice(i + 1, i + 3))) {
      bytes.push(parseInt(t.slice(i + 1, i + 3), 16));
      i += 2;
    } else for (const b of enc.encode(c)) bytes.push(b);
  }
  const label = /^(iso-8859-1|latin1|us-ascii)$/i.test(charset) ? 'latin1' : charset;
  try {
    return new TextDecoder(label).decode(Uint8Array.from(bytes));
  } catch {
    return new TextDecoder().decode(Uint8Array.from(bytes));
  }
}

/** Splits vCard/vCalendar text into content lines: folding and QP soft breaks undone, values decoded. */
export function parseContentLines(text: string): ContentLine[] {
  const physical = text.replace(/\r\n|\r/g, '\n').split('\n');
  const logical: string[] = [];
  for (const line of physical) {
    const prev = logical[logical.length - 1];
    if (prev !== undefined && /QUOTED-PRINTABLE/i.test(prev.split(':')[0] ?? '') && prev.endsWith('=')) {
      // quoted-printable soft line break: the next line continues the value as it is
      logical[logical.length - 1] = prev.slice(0, -1) + line;
    } else if ((line.startsWith(' ') || line.startsWith('\t')) && prev !== undefined) {
      logical[logical.length - 1] = prev + line.slice(1);
    } else if (line.trim() !== '') logical.push(line);
  }
  return logical.map((line, i) => {
    const colon = line.indexOf(':');
    if (colon < 0) throw new SmartCodecError(`line ${i + 1} "${line.slice(0, 30)}" has no ":"`, i + 1);
    const [rawName, ...rawParams] = line.slice(0, colon).split(';');
    const name = rawName!.replace(/^.*\./, '').toUpperCase(); // drop a group prefix "item1."
    const params: Record<string, string[]> = {};
    for (const p of rawParams) {
      const eq = p.indexOf('=');
      const key = eq < 0 ? 'TYPE' : p.slice(0, eq).toUpperCase();
      const values = (eq < 0 ? p : p.slice(eq + 1)).split(',').map((v) => v.replace(/^"|"$/g, ''));
      (params[key] ??= []).push(...values.map((v) => (key === 'TYPE' ? v.toUpperCase() : v)));
    }
    let value = line.slice(colon + 1);
    if (params.ENCODING?.some((e) => /^QUOTED-PRINTABLE$/i.test(e))) {
      value = decodeQuotedPrintable(value, params.CHARSET?.[0]);
    }
    return { name, params, value };
  });
}

function needsQp(value: string): boolean {
  return /[^\x20-\x7e]/.test(value);
}

/** One content line, with CHARSET/ENCODING parameters when the value is not plain ASCII. */
export function formatContentLine(name: string, params: readonly string[], value: string): string {
  const head = [name, ...params].join(';');
  if (!needsQp(value)) return `${head}:${value}`;
  const qpHead = `${head};CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:`;
  return qpHead + encodeQuotedPrintable(value, qpHead.length);
}

/** 2.1 structured values: ';' separates components and is escaped inside one. */
function escapeComponent(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/;/g, '\\;');
}

function splitComponents(value: string): string[] {
  const out: string[] = [''];
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (c === '\\' && i + 1 < value.length) {
      const n = value[++i]!;
      out[out.length - 1] += n === 'n' || n === 'N' ? '\n' : n;
    } else if (c === ';') out.push('');
    else out[out.length - 1] += c;
  }
  return out;
}

function unescapeText(value: string): string {
  return value.replace(/\\([\\;,nN])/g, (_, c: string) => (c === 'n' || c === 'N' ? '\n' : c));
}

export function buildVCard(card: VCard): string {
  const n = card.name;
  const comps = [n.family, n.given, n.middle ?? '', n.prefix ?? '', n.suffix ?? ''];
  while (comps.length > 2 && comps[comps.length - 1] === '') comps.pop();
  const lines = [
    'BEGIN:VCARD',
    'VERSION:2.1',
    formatContentLine('N', [], comps.map(escapeComponent).join(';')),
  ];
  const fn = card.formattedName ?? [n.given, n.family].filter(Boolean).join(' ');
  if (fn) lines.push(formatContentLine('FN', [], fn));
  for (const t of card.phones) {
    if (!/^\+?[0-9*#pw ()-]+$/i.test(t.number))
      throw new SmartCodecError(`"${t.number}" is not a phone number`);
    lines.push(
      formatContentLine(
        'TEL',
        t.types.map((x) => x.toUpperCase()),
        t.number,
      ),
    );
  }
  for (const e of card.emails)
    lines.push(formatContentLine('EMAIL', e.types.length ? e.types : ['INTERNET'], e.address));
  if (card.organization) lines.push(formatContentLine('ORG', [], escapeComponent(card.organization)));
  if (card.title) lines.push(formatContentLine('TITLE', [], card.title));
  if (card.url) lines.push(formatContentLine('URL', [], card.url));
  if (card.birthday) lines.push(formatContentLine('BDAY', [], card.birthday));
  if (card.note) lines.push(formatContentLine('NOTE', [], card.note));
  lines.push('END:VCARD');
  return lines.join('\r\n') + '\r\n';
}

/** Parses one vCard (2.1, also 3.0) into the fields above. */
export function parseVCard(text: string): VCard {
  const lines = parseContentLines(text);
  const begin = lines.findIndex((l) => l.name === 'BEGIN' && l.value.toUpperCase() === 'VCARD');
  if (begin < 0) throw new SmartCodecError('no BEGIN:VCARD line', 0);
  const end = lines.findIndex((l, i) => i > begin && l.name === 'END' && l.value.toUpperCase() === 'VCARD');
  if (end < 0) throw new SmartCodecError('no END:VCARD line', lines.length);
  const card: VCard = { name: { family: '', given: '' }, phones: [], emails: [] };
  for (const l of lines.slice(begin + 1, end)) {
    const types = (l.params.TYPE ?? []).filter((t) => t !== '');
    switch (l.name) {
      case 'N': {
        const [family = '', given = '', middle, prefix, suffix] = splitComponents(l.value);
        card.name = { family, given };
        if (middle) card.name.middle = middle;
        if (prefix) card.name.prefix = prefix;
        if (suffix) card.name.suffix = suffix;
        break;
      }
      case 'FN':
        card.formattedName = unescapeText(l.value);
        break;
      case 'TEL':
        card.phones.push({ number: l.value.trim(), types });
        break;
      case 'EMAIL':
        card.emails.push({ address: l.value.trim(), types });
        break;
      case 'ORG':
        card.organization = splitComponents(l.value).filter(Boolean).join(', ');
        break;
      case 'TITLE':
        card.title = unescapeText(l.value);
        break;
      case 'URL':
        card.url = l.value.trim();
        break;
      case 'BDAY':
        card.birthday = l.value.trim();
        break;
      case 'NOTE':
        card.note = unescapeText(l.value);
        break;
      default:
        break;
    }
  }
  return card;
}
