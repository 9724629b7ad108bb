// vCard reading for contact import. ical.js parses vCard 3.0 and 4.0 (RFC 6350) well, but it
// refuses vCard 2.1, which phones and old address books still export: bare parameters
// ("TEL;CELL:…" instead of "TEL;TYPE=CELL:…"), QUOTED-PRINTABLE values with soft line breaks and
// a CHARSET parameter. So 2.1 text is first rewritten, line by line, into the 3.0 form ical.js
// accepts (this small rewrite is hand-written because no maintained library reads 2.1; the
// parsing itself stays ical.js's). Only the properties a contact needs are kept.
import ICAL from 'ical.js';

export interface VcardEntry {
  name: string;
  /** The preferred telephone number (CELL, then PREF, then the first), as written. */
  number: string | null;
  email: string;
  notes: string;
}

const KEPT = new Set(['BEGIN', 'END', 'VERSION', 'FN', 'N', 'ORG', 'TEL', 'EMAIL', 'NOTE']);

/** Parse one or more vCards (2.1, 3.0 or 4.0) into contact entries, in file order. */
export function parseVcards(text: string): VcardEntry[] {
  const parsed: unknown = ICAL.parse(rewriteTo30(text));
  const list = (Array.isArray(parsed) && Array.isArray(parsed[0]) ? parsed : [parsed]) as unknown[];
  return list
    .map((jcal) => new ICAL.Component(jcal as unknown[]))
    .filter((c) => c.name === 'vcard')
    .map(toEntry);
}

function toEntry(card: ICAL.Component): VcardEntry {
  const str = (v: unknown): string =>
    (typeof v === 'string' ? v : Array.isArray(v) ? v.join(' ') : '').trim();
  let name = str(card.getFirstPropertyValue('fn'));
  if (name === '') {
    const n = card.getFirstPropertyValue('n');
    if (Array.isArray(n)) {
      // N is family;given;additional;prefix;suffix: show "given family".
      name = [n[3], n[1], n[2], n[0], n[4]]
        .map((part) => str(part))
        .filter((p) => p !== '')
        .join(' ');
    }
  }
  if (name === '') name = str(card.getFirstPropertyValue('org'));
  const tels = card.getAllProperties('tel');
  const types = (p: ICAL.Property): string[] =>
    [p.getParameter('type')]
      .flat()
      .filter((t): t is string => typeof t === 'string')
      .flatMap((t) => t.split(','))
      .map((t) => t.toLowerCase());
  const preferred =
    tels.find((p) => types(p).includes('cell')) ??
    tels.find((p) => types(p).includes('pref') || p.getParameter('pref') !== undefined) ??
    tels[0];
  const number = preferred ? str(preferred.getFirstValue()).replace(/^tel:/i, '') : '';
  return {
    name,
    number: number === '' ? null : number,
    email: str(card.getFirstPropertyValue('email')),
    notes: str(card.getFirstPropertyValue('note')),
  };
}

/** Rewrite vCard 2.1 syntax into 3.0 (3.0/4.0 lines pass through unchanged, other properties dropped). */
export function rewriteTo30(text: string): string {
  const physical = text.replace(/\r\n?/g, '\n').split('\n');
  // Join QUOTED-PRINTABLE soft line breaks ("=" at the end of a line) before unfolding.
  const joined: string[] = [];
  for (let i = 0; i < physical.length; i++) {
    let line = physical[i] ?? '';
    if (/QUOTED-PRINTABLE/i.test(line.slice(0, line.indexOf(':') + 1))) {
      while (line.endsWith('=') && i + 1 < physical.length) line = line.slice(0, -1) + (physical[++i] ?? '');
    }
    joined.push(line);
  }
  // Unfold: a line starting with a space or tab continues the previous one.
  const logical: string[] = [];
  for (const line of joined) {
    if (/^[ \t]/.test(line) && logical.length > 0) logical[logical.length - 1] += line.slice(1);
    else if (line.trim() !== '') logical.push(line);
  }
  const out: string[] = [];
  for (const line of logical) {
    const colon = findColon(line);
    if (colon < 0) continue;
    const [head = '', ...paramParts] = line.slice(0, colon).split(';');
    const name = head.replace(/^[^.]*\./, '').toUpperCase(); // drop a group prefix ("item1.TEL")
    if (!KEPT.has(name)) continue;
    let value = line.slice(colon + 1);
    if (name === 'VERSION') {
      out.push(value.trim() === '2.1' ? 'VERSION:3.0' : `VERSION:${value.trim()}`);
      continue;
    }
    const params: string[] = [];
    let qp = false;
    let charset = 'utf-8';
    for (const p of paramParts) {
      const eq = p.indexOf('=');
      const key = (eq < 0 ? 'TYPE' : p.slice(0, eq)).toUpperCase();
      const val = eq < 0 ? p : p.slice(eq + 1);
      if (key === 'ENCODING' || (eq < 0 && /^(QUOTED-PRINTABLE|8BIT|7BIT|BASE64)$/i.test(val))) {
        qp = /^QUOTED-PRINTABLE$/i.test(val);
      } else if (key === 'CHARSET') charset = val;
      else if (key === 'TYPE' && eq < 0) params.push(`TYPE=${val}`);
      else params.push(`${key}=${val}`);
    }
    if (qp) value = escapeText(decodeQuotedPrintable(value, charset));
    out.push([name, ...params].join(';') + ':' + value);
  }
  return out.join('\r\n') + '\r\n';
}

function findColon(line: string): number {
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '"') quoted = !quoted;
    else if (c === ':' && !quoted) return i;
  }
  return -1;
}

function decodeQuotedPrintable(value: string, charset: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < value.length; i++) {
    const c = value[i] ?? '';
    const hex = value.slice(i + 1, i + 3);
    if (c === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      for (const b of new TextEncoder().encode(c)) bytes.push(b);
    }
  }
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset);
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  return decoder.decode(new Uint8Array(bytes));
}

/**
 * Escape decoded text for a 3.0 value: backslash, line breaks and commas (ical.js reads `\,` and
 * `\n` back). A ';' stays as it is: it separates the parts of N, and ical.js keeps it in text.
 */
function escapeText(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\r?\n/g, '\\n').replace(/,/g, '\\,');
}
