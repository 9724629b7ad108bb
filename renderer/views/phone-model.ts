// The virtual phone's model: the PDUs the local sandbox's network received (sandbox.outbound),
// grouped per handset and per message, each message reassembled and decoded with protocol/smart
// exactly as a handset would (decodePdusToContent), plus readable views of vCard / vCalendar text.
import type { Page, SandboxPdu } from '../../domain/index.ts';
import { decodePdusToContent, parseVCalendar, parseVCard } from '../../protocol/smart/index.ts';
import type { DecodedContent, VCalendar, VCard } from '../../protocol/smart/index.ts';

export interface HandsetMessage {
  messageIdentifier: string;
  /** The id of its newest PDU (ordering). */
  lastId: number;
  createdAt: string;
  /** Parts received and parts expected. */
  partsReceived: number;
  partsExpected: number;
  complete: boolean;
  /** What the handset shows; null when the PDUs did not decode at all. */
  content: DecodedContent | null;
  /** Why the payload could not be decoded as its port says (content is then binary) or at all. */
  error?: string;
}

export interface Handset {
  recipient: string;
  /** Newest first. */
  messages: HandsetMessage[];
  lastId: number;
}

/** Handsets with what each received, the most recently active first; messages newest first. */
export function buildHandsets(pdus: readonly SandboxPdu[]): Handset[] {
  const byRecipient = new Map<string, Map<string, SandboxPdu[]>>();
  for (const p of pdus) {
    let messages = byRecipient.get(p.recipient);
    if (!messages) byRecipient.set(p.recipient, (messages = new Map()));
    const list = messages.get(p.messageIdentifier);
    if (list) list.push(p);
    else messages.set(p.messageIdentifier, [p]);
  }
  const handsets: Handset[] = [];
  for (const [recipient, messages] of byRecipient) {
    const out: HandsetMessage[] = [];
    for (const [messageIdentifier, parts] of messages) out.push(...decodeMessage(messageIdentifier, parts));
    out.sort((a, b) => b.lastId - a.lastId);
    handsets.push({ recipient, messages: out, lastId: out[0]?.lastId ?? 0 });
  }
  return handsets.sort((a, b) => b.lastId - a.lastId);
}

function decodeMessage(messageIdentifier: string, parts: SandboxPdu[]): HandsetMessage[] {
  // one PDU per part: a page boundary or a repeated fetch never counts a part twice
  const unique = [...new Map(parts.map((p) => [p.id, p])).values()].sort((a, b) => a.id - b.id);
  const last = unique[unique.length - 1]!;
  const base = {
    messageIdentifier,
    lastId: last.id,
    createdAt: unique[0]!.createdAt,
    partsReceived: unique.length,
    partsExpected: last.parts,
  };
  try {
    const received = decodePdusToContent(unique.map((p) => p.pdu));
    return received.map((r) => ({
      ...base,
      partsReceived: r.parts,
      complete: r.complete,
      content: r.content,
      ...(r.error !== undefined ? { error: r.error } : {}),
    }));
  } catch (e) {
    return [{ ...base, complete: false, content: null, error: e instanceof Error ? e.message : String(e) }];
  }
}

/** The PDUs the phone holds: the most recent ones, and whether older ones were let go. */
export interface PduWindow {
  pdus: SandboxPdu[];
  trimmed: boolean;
}

/** `window` with `fresh` appended, keeping the latest `max` PDUs (a large campaign must not grow it forever). */
export function appendPdus(window: PduWindow, fresh: readonly SandboxPdu[], max: number): PduWindow {
  if (fresh.length === 0) return window;
  const all = window.pdus.concat(fresh);
  if (all.length <= max) return { pdus: all, trimmed: window.trimmed };
  return { pdus: all.slice(all.length - max), trimmed: true };
}

/** One page of sandbox.outbound: the PDUs after `afterId`, at most `limit`. */
export type FetchPdus = (args: { afterId: number; limit: number }) => Promise<Page<SandboxPdu, number>>;

/**
 * Reads the PDUs after `afterId`, page by page, and hands each non-empty page to `onPage` as soon
 * as it arrives, with the id the next read starts after. The caller keeps the page and moves its
 * cursor in that one call, so a failing later page never loses an earlier one (nor skips it: the
 * cursor never gets ahead of what was kept). Rejects with the failing page's error.
 */
export async function pullPdus(
  fetchPage: FetchPdus,
  afterId: number,
  limit: number,
  onPage: (items: SandboxPdu[], cursor: number) => void,
): Promise<void> {
  let cursor = afterId;
  for (;;) {
    const page = await fetchPage({ afterId: cursor, limit });
    const last = page.items[page.items.length - 1];
    if (last) {
      cursor = last.id;
      onPage(page.items, cursor);
    }
    if (page.next === null || !last) return;
  }
}

/** A vCard's text as fields, or the parser's objection. */
export function readVCard(text: string): { card: VCard } | { error: string } {
  try {
    return { card: parseVCard(text) };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

export function readVCalendar(text: string): { calendar: VCalendar } | { error: string } {
  try {
    return { calendar: parseVCalendar(text) };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

/** "2026-12-01T09:00:00Z" (vCalendar / SI UTC) as the user's local date and time; as given when unreadable. */
export function utcToLocal(iso: string): string {
  const ms = Date.parse(/[zZ]$/.test(iso) ? iso : `${iso}Z`);
  if (Number.isNaN(ms)) return iso;
  return new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** A short label of each decoded kind (list headings, screen readers). */
export const CONTENT_LABELS: Record<DecodedContent['kind'], string> = {
  text: 'Text',
  flash: 'Flash message',
  ringtone: 'Ringtone',
  operatorLogo: 'Operator logo',
  groupGraphic: 'Group graphic',
  pictureMessage: 'Picture message',
  vcard: 'Contact card (vCard)',
  vcalendar: 'Calendar event (vCalendar)',
  wapPushSi: 'Service indication (WAP push)',
  mmsNotification: 'MMS notification',
  binary: 'Binary message',
};
