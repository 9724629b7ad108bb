// Pure draft builders of the vCard, vCalendar, service indication and PDU editors: form state in,
// ContentDraft out (the sendmms fields, every blocking problem, a summary line). All checks come
// from protocol/ (contentProblems, the smart-messaging codecs); the editors are thin forms over
// these functions. The file-based kinds (WAP push, MMS) are file-drafts.ts.
import type { Contact } from '../../../domain/index.ts';
import { LIMITS, formatUtcDateTime, parseUtcDateTime } from '../../../protocol/limits.ts';
import { contentProblems, type RichKind } from '../../../protocol/content.ts';
import { unpackSeptets } from '../../../protocol/sms.ts';
import {
  SmartCodecError,
  buildSubmitPdus,
  buildVCalendar,
  buildVCard,
  bytesToHex,
  describeDcs,
  encodeContentToPdus,
  explainSubmitPdu,
  hexToBytes,
  parseSiAction,
} from '../../../protocol/smart/index.ts';
import type { PduField, ServiceIndication, SmartContent, VCard } from '../../../protocol/smart/index.ts';
import type { ContentDraft } from './types.ts';

/** A number the previews address their PDUs to (the real recipients are Compose's). */
const PREVIEW_NUMBER = '447700900000';

/** "foo (got x)" → "Foo (got x)." : protocol messages as the sentences ContentDraft.problems wants. */
export function sentence(text: string): string {
  const t = text.trim();
  const s = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?]$/.test(s) ? s : `${s}.`;
}

/**
 * The problems protocol/content.ts finds in the sendmms content of this kind (text becomes Message
 * when the fields have none, as the sending loop does), as sentences. Recipients are Compose's.
 */
export function draftProblems(kind: RichKind, fields: Record<string, string>, text = ''): string[] {
  return contentProblems('sendmms', { kind, text, fields }).map((p) => sentence(p.message));
}

/** How many SMS a smart message takes (its concatenated parts), or the codec's objection. */
export function smsParts(content: SmartContent): { parts: number } | { error: string } {
  try {
    return { parts: encodeContentToPdus(content, PREVIEW_NUMBER).length };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

const utf8Length = (s: string): number => new TextEncoder().encode(s).length;

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

// ------------------------------------------------------------------------------------------ vCard

export interface VcardOptions {
  includeEmail: boolean;
  includeNotes: boolean;
}

/** A contact of the address book as a vCard 2.1 record (one mobile number, optional e-mail and note). */
export function contactToVCard(contact: Contact, opts: VcardOptions): VCard {
  const words = contact.name.trim().split(/\s+/).filter(Boolean);
  const family = words.length > 1 ? words[words.length - 1]! : '';
  const given = words.length > 1 ? words.slice(0, -1).join(' ') : (words[0] ?? '');
  const card: VCard = {
    name: { family, given },
    formattedName: contact.name.trim(),
    phones: [
      { number: /^\d+$/.test(contact.number) ? `+${contact.number}` : contact.number, types: ['CELL'] },
    ],
    emails: [],
  };
  if (opts.includeEmail && contact.email.trim() !== '')
    card.emails.push({ address: contact.email.trim(), types: ['INTERNET'] });
  if (opts.includeNotes && contact.notes.trim() !== '') card.note = contact.notes.trim();
  return card;
}

export function vcardDraft(contact: Contact | null, opts: VcardOptions): ContentDraft & { preview: string } {
  if (!contact)
    return {
      kind: 'vcard',
      text: '',
      fields: {},
      problems: ['Choose a contact from the address book.'],
      summary: 'vCard',
      preview: '',
    };
  let vcard: string;
  try {
    vcard = buildVCard(contactToVCard(contact, opts));
  } catch (e) {
    return {
      kind: 'vcard',
      text: '',
      fields: {},
      problems: [sentence(`${contact.name} cannot be written as a vCard: ${(e as Error).message}`)],
      summary: 'vCard',
      preview: '',
    };
  }
  const fields = { vCard: vcard };
  const problems = draftProblems('vcard', fields);
  const parts = smsParts({ kind: 'vcard', vcard });
  if ('error' in parts) problems.push(sentence(parts.error));
  const size = `${utf8Length(vcard)} bytes${'parts' in parts ? `, ${plural(parts.parts, 'SMS', 'SMS')}` : ''}`;
  return {
    kind: 'vcard',
    text: '',
    fields,
    problems,
    summary: `vCard “${contact.name}”, ${size}`,
    preview: vcard,
  };
}

// -------------------------------------------------------------------------------------- vCalendar

export interface VcalendarForm {
  title: string;
  /** datetime-local values: the user's local time. */
  start: string;
  end: string;
  location: string;
  /** Minutes before the start; '' for no reminder. */
  reminderMinutes: string;
}

/** The longest reminder offered: 30 days before the event. */
export const MAX_REMINDER_MINUTES = 30 * 24 * 60;

/** A datetime-local value (local time) as vCalendar UTC YYYY-MM-DDThh:mm:ssZ, or null. */
export function localToUtcIso(local: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(local)) return null;
  const ms = new Date(local).getTime();
  return Number.isNaN(ms) ? null : `${formatUtcDateTime(ms)}Z`;
}

export function vcalendarDraft(form: VcalendarForm): ContentDraft & { preview: string } {
  const problems: string[] = [];
  const title = form.title.trim();
  if (title === '') problems.push('Give the event a title.');
  const start = localToUtcIso(form.start);
  if (start === null) problems.push('Choose when the event starts.');
  let end: string | null = null;
  if (form.end !== '') {
    end = localToUtcIso(form.end);
    if (end === null) problems.push('The end time is not a valid date and time.');
    else if (start !== null && Date.parse(end) <= Date.parse(start))
      problems.push('The event must end after it starts.');
  }
  let alarm: string | null = null;
  if (form.reminderMinutes.trim() !== '') {
    const m = form.reminderMinutes.trim();
    if (!/^\d+$/.test(m) || Number(m) > MAX_REMINDER_MINUTES)
      problems.push(
        `The reminder must be 0 to ${MAX_REMINDER_MINUTES} minutes before the start (got “${m}”).`,
      );
    else if (start !== null) alarm = `${formatUtcDateTime(Date.parse(start) - Number(m) * 60_000)}Z`;
  }
  if (problems.length > 0 || start === null)
    return { kind: 'vcalendar', text: '', fields: {}, problems, summary: 'vCalendar event', preview: '' };
  const vcal = buildVCalendar({
    events: [
      {
        summary: title,
        start,
        ...(end !== null ? { end } : {}),
        ...(form.location.trim() !== '' ? { location: form.location.trim() } : {}),
        ...(alarm !== null ? { alarm } : {}),
      },
    ],
  });
  const fields = { vCal: vcal };
  problems.push(...draftProblems('vcalendar', fields));
  const parts = smsParts({ kind: 'vcalendar', vcalendar: vcal });
  if ('error' in parts) problems.push(sentence(parts.error));
  const size = `${utf8Length(vcal)} bytes${'parts' in parts ? `, ${plural(parts.parts, 'SMS', 'SMS')}` : ''}`;
  return {
    kind: 'vcalendar',
    text: '',
    fields,
    problems,
    summary: `vCalendar “${title}”, ${size}`,
    preview: vcal,
  };
}

// ---------------------------------------------------------------------- service indication

export interface SiForm {
  href: string;
  siId: string;
  /** datetime-local values (local time), '' when not given. */
  created: string;
  expires: string;
  /** '' = the gateway's default (signal-medium). */
  action: string;
  content: string;
}

/** A fresh si-id: distinct per indication, so a handset never takes two for one (spec 2.4). */
export function generateSiId(now = Date.now()): string {
  const random = new Uint8Array(4);
  crypto.getRandomValues(random);
  return `si-${now.toString(36)}-${bytesToHex(random).toLowerCase()}`;
}

/** A datetime-local value as the spec's UTC YYYY-MM-DDThh:mm:ss (no Z), or null. */
export function localToUtcField(local: string): string | null {
  const iso = localToUtcIso(local);
  return iso === null ? null : iso.slice(0, 19);
}

export function siDraft(form: SiForm, now = Date.now()): ContentDraft & { warnings: string[] } {
  const problems: string[] = [];
  const warnings: string[] = [];
  const fields: Record<string, string> = {};
  const href = form.href.trim();
  if (href === '') problems.push('Enter the link (si-href) the indication points at.');
  else fields['si-href'] = href;
  if (form.siId.trim() !== '') fields['si-id'] = form.siId.trim();
  else
    warnings.push(
      'Without an si-id, two indications with the same link look identical to the handset and the second may be discarded silently, although a success receipt comes back.',
    );
  for (const [name, local] of [
    ['si-created', form.created],
    ['si-expires', form.expires],
  ] as const) {
    if (local === '') continue;
    const utc = localToUtcField(local);
    if (utc === null) problems.push(`${name} is not a valid date and time.`);
    else fields[name] = utc;
  }
  const created = fields['si-created'] !== undefined ? parseUtcDateTime(fields['si-created']) : undefined;
  const expires = fields['si-expires'] !== undefined ? parseUtcDateTime(fields['si-expires']) : undefined;
  if (expires !== undefined && expires <= now)
    problems.push('si-expires is in the past: the handset would discard the indication at once.');
  if (created !== undefined && expires !== undefined && expires <= created)
    problems.push('si-expires must be after si-created.');
  if (form.action !== '') fields['si-action'] = form.action;
  if (form.content !== '') fields['si-content'] = form.content;
  if (href !== '') problems.push(...draftProblems('serviceIndication', fields));
  let summary = `Service indication ${href || '(no link)'}`;
  if (problems.length === 0) {
    // What the handset gets: the WBXML SI in a WSP push, in as many SMS as it takes.
    const action = form.action !== '' ? parseSiAction(form.action) : undefined;
    const si: ServiceIndication = {
      href,
      ...(fields['si-id'] !== undefined ? { siId: fields['si-id'] } : {}),
      ...(fields['si-created'] !== undefined ? { created: fields['si-created'] } : {}),
      ...(fields['si-expires'] !== undefined ? { expires: fields['si-expires'] } : {}),
      ...(action !== undefined ? { action } : {}),
      ...(form.content !== '' ? { text: form.content } : {}),
    };
    const parts = smsParts({ kind: 'wapPushSi', si });
    if ('error' in parts) problems.push(sentence(parts.error));
    else summary += `, ${plural(parts.parts, 'SMS', 'SMS')}`;
  }
  return { kind: 'serviceIndication', text: '', fields, problems, summary, warnings };
}

// ------------------------------------------------------------------------------------ PDU mode

export interface PduForm {
  /** One octet each, hex. */
  dcs: string;
  pid: string;
  /** The whole UDH in hex, its length octet first. */
  udh: string;
  dataMode: 'hex' | 'text';
  /** User data in hex (dataMode 'hex'): octets, or packed septets for a GSM-7 DCS. */
  userData: string;
  /** Text placed in the PDU as user data (dataMode 'text'), sent as Message. */
  text: string;
}

const cleanHex = (s: string): string => s.replace(/\s+/g, '').toUpperCase();

/**
 * Septet values of packed GSM-7 user data given without a count: n octets hold floor(8n/7)
 * septets, and when 8n is a multiple of 7 a last zero septet is the sender's padding
 * (3GPP TS 23.038 6.1.2.3.1), as the gateway reads the SmsSubmitPduUserData of a GSM-7 DCS.
 */
export function unpackGsm7Hex(packed: Uint8Array): Uint8Array {
  const septets = unpackSeptets(packed, Math.floor((packed.length * 8) / 7));
  if ((packed.length * 8) % 7 === 0 && septets[septets.length - 1] === 0) septets.pop();
  return Uint8Array.from(septets);
}

export function pduDraft(form: PduForm): ContentDraft & { explanation: PduField[]; pduHex: string } {
  const fields: Record<string, string> = {
    SmsSubmitPduDataCodingScheme: cleanHex(form.dcs),
    SmsSubmitPduProtocolIdentifier: cleanHex(form.pid),
    SmsSubmitPduUserDataHeader: cleanHex(form.udh),
  };
  let text = '';
  if (form.dataMode === 'hex') fields.SmsSubmitPduUserData = cleanHex(form.userData);
  else text = form.text;
  const problems = draftProblems('pdu', fields, text);
  const base = { kind: 'pdu' as const, text, fields, summary: 'SMS-SUBMIT PDU', explanation: [], pduHex: '' };
  if (problems.length > 0) return { ...base, problems };
  try {
    const dcs = parseInt(fields.SmsSubmitPduDataCodingScheme!, 16);
    const pid = parseInt(fields.SmsSubmitPduProtocolIdentifier!, 16);
    const udh = hexToBytes(fields.SmsSubmitPduUserDataHeader!);
    let userData: Uint8Array | undefined;
    if (form.dataMode === 'hex') {
      userData = hexToBytes(fields.SmsSubmitPduUserData!);
      if (describeDcs(dcs).alphabet === 'GSM-7') userData = unpackGsm7Hex(userData);
    }
    const [part] = buildSubmitPdus({
      kind: 'raw',
      to: PREVIEW_NUMBER,
      dcs,
      pid,
      udh,
      ...(userData !== undefined ? { userData } : { text }),
    });
    const pduHex = bytesToHex(part!.pdu);
    const explanation = explainSubmitPdu(part!.pdu);
    const dcsInfo = describeDcs(dcs);
    return {
      ...base,
      problems,
      explanation,
      pduHex,
      summary: `SMS-SUBMIT PDU, DCS ${fields.SmsSubmitPduDataCodingScheme} (${dcsInfo.alphabet}), ${part!.pdu.length} octets`,
    };
  } catch (e) {
    if (e instanceof SmartCodecError)
      return { ...base, problems: [sentence(`The PDU cannot be built: ${e.message}`)] };
    throw e;
  }
}

/** The Message limit of MMS and WAP push (spec 8), for the editors' counters. */
export const MMS_MESSAGE_MAX = LIMITS.mmsMessageMax;
