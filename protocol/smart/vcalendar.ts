// vCalendar 1.0 (versit 1996), what phones take over SMS (port 9205).
// The builder is hand-written (ical.js writes iCalendar 2.0 only, and phones want VERSION:1.0 with
// basic-format UTC dates and QUOTED-PRINTABLE for non-ASCII text). Parsing goes through ical.js:
// it reads the 1.0 structure fine once quoted-printable values have been decoded, which
// parseContentLines (shared with vcard.ts) does first.
import ICAL from 'ical.js';
import { SmartCodecError } from './bytes.ts';
import { formatContentLine, parseContentLines } from './vcard.ts';

export interface VCalendarEvent {
  summary: string;
  /** YYYY-MM-DDThh:mm:ss with a trailing Z for UTC (without: local time). */
  start: string;
  end?: string;
  location?: string;
  description?: string;
  /** Display alarm time, same format. */
  alarm?: string;
  categories?: string;
}

export interface VCalendar {
  events: VCalendarEvent[];
}

const ISO_RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(Z?)$/;

/** 2026-11-22T10:00:00Z → 20261122T100000Z */
export function toBasicDate(iso: string): string {
  const m = ISO_RE.exec(iso);
  if (!m) throw new SmartCodecError(`date "${iso}" is not YYYY-MM-DDThh:mm:ss[Z]`);
  return `${m[1]}${m[2]}${m[3]}T${m[4]}${m[5]}${m[6]}${m[7]}`;
}

function escapeText(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/\r?\n/g, '\\n');
}

export function buildVCalendar(cal: VCalendar): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:1.0'];
  for (const e of cal.events) {
    lines.push('BEGIN:VEVENT');
    if (e.categories) lines.push(formatContentLine('CATEGORIES', [], escapeText(e.categories)));
    lines.push(formatContentLine('SUMMARY', [], escapeText(e.summary)));
    if (e.description) lines.push(formatContentLine('DESCRIPTION', [], escapeText(e.description)));
    if (e.location) lines.push(formatContentLine('LOCATION', [], escapeText(e.location)));
    lines.push(`DTSTART:${toBasicDate(e.start)}`);
    if (e.end) lines.push(`DTEND:${toBasicDate(e.end)}`);
    if (e.alarm) lines.push(`DALARM:${toBasicDate(e.alarm)}`);
    lines.push('END:VEVENT');
  }
  lines.push('END:VCALENDAR');
  return lines.join('\r\n') + '\r\n';
}

function quoteParam(v: string): string {
  return /[;:,]/.test(v) ? `"${v}"` : v;
}

function iso(value: unknown): string {
  if (value && typeof value === 'object' && 'toString' in value) {
    const s = String(value);
    const m = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}:\d{2}:\d{2}))?(Z?)/.exec(s);
    if (m) return `${m[1]}T${m[2] ?? '00:00:00'}${m[3]}`;
  }
  throw new SmartCodecError(`date value "${String(value)}" cannot be read`);
}

export function parseVCalendar(text: string): VCalendar {
  // Re-serialise decoded content lines without QP/CHARSET so that ical.js sees plain values.
  const lines = parseContentLines(text).map((l) => {
    const params = Object.entries(l.params)
      .filter(([k]) => k !== 'ENCODING' && k !== 'CHARSET' && k !== 'TYPE')
      .map(([k, v]) => `;${k}=${v.map(quoteParam).join(',')}`)
      .join('');
    return `${l.name}${params}:${l.value.replace(/\r?\n/g, '\\n')}`;
  });
  let parsed: unknown;
  try {
    parsed = ICAL.parse(lines.join('\r\n') + '\r\n');
  } catch (e) {
    throw new SmartCodecError(`vCalendar: ${(e as Error).message}`);
  }
  try {
    return readCalendar(new ICAL.Component(parsed as unknown[]));
  } catch (e) {
    // ical.js reads values lazily: a bad date surfaces here as a plain Error
    if (e instanceof SmartCodecError) throw e;
    throw new SmartCodecError(`vCalendar: ${(e as Error).message}`);
  }
}

function readCalendar(root: ICAL.Component): VCalendar {
  if (root.name !== 'vcalendar') throw new SmartCodecError(`root is ${root.name}, not VCALENDAR`);
  const events: VCalendarEvent[] = root.getAllSubcomponents('vevent').map((c) => {
    const text = (name: string): string | undefined => {
      const v = c.getFirstPropertyValue(name);
      return v === null || v === undefined ? undefined : String(v);
    };
    const start = c.getFirstPropertyValue('dtstart');
    if (!start) throw new SmartCodecError('VEVENT without DTSTART');
    const ev: VCalendarEvent = { summary: text('summary') ?? '', start: iso(start) };
    const end = c.getFirstPropertyValue('dtend');
    if (end) ev.end = iso(end);
    const loc = text('location');
    if (loc) ev.location = loc;
    const desc = text('description');
    if (desc) ev.description = desc;
    const cat = text('categories');
    if (cat) ev.categories = cat;
    const alarm = text('dalarm');
    if (alarm) {
      const m =
        /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(Z?)/.exec(alarm) ??
        /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(Z?)/.exec(alarm);
      if (m) ev.alarm = `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${m[7]}`;
    }
    return ev;
  });
  return { events };
}
