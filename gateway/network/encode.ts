// What the simulated SMSC receives for each kind of content: the SMS-SUBMIT PDUs built by protocol/smart
// (text: GSM-7/UCS-2 with concatenation UDH; flash: class 0; smart messages: 8-bit with the port UDH
// 5505 ringtone, 5506 operator logo, 5507 group graphic, 5514 picture message, 9204 vCard, 9205
// vCalendar; WAP push and MMS notification: WSP push with WBXML SI or m-notification-ind to port 2948).
// Nothing here encodes bytes itself: it only chooses the protocol/smart codec for a content kind.
import { hexToBytes } from '../../protocol/smart/bytes.ts';
import { buildSubmitPdus, decodeSubmitPdu, DCS, SMART_PORTS } from '../../protocol/smart/sms-submit.ts';
import type { SubmitPduPart } from '../../protocol/smart/sms-submit.ts';
import { describeDcs } from '../../protocol/smart/sms-submit.ts';
import { unpackSeptets } from '../../protocol/sms.ts';
import type { OutboundContent } from '../content.ts';
import { smartPayload } from './payloads.ts';

/** The content kinds the gateway sends (stored as JSON in messages.content; bytes as hex). */
export type RichContent =
  | { kind: 'text'; text: string }
  | { kind: 'flash'; text: string }
  | { kind: 'ringtone'; rtttl?: string; data?: string }
  | { kind: 'operator-logo'; mcc: number; mnc: number; bitmap: string }
  | { kind: 'group-graphic'; bitmap: string }
  | { kind: 'picture'; bitmap: string; text?: string }
  | { kind: 'vcard'; data: string }
  | { kind: 'vcalendar'; data: string }
  | {
      kind: 'wap-push-si';
      href: string;
      siId?: string;
      created?: string;
      expires?: string;
      action?: string;
      text?: string;
      info?: { pcdata: string; class: string };
      contentToken?: string;
    }
  | {
      kind: 'mms-notification';
      href: string;
      size: number;
      subject?: string;
      /** DisableWalledGardenRule absent or 0: walled-garden networks get a WAP push instead */
      walledGardenRule: boolean;
      contentToken?: string;
    }
  | { kind: 'pdu'; dcs: number; pid: number; udh: string; userData?: string; text?: string };

export type SmartKind = Exclude<RichContent['kind'], 'text' | 'flash' | 'pdu'>;

export interface NetworkPdu {
  dcs: number;
  pid: number;
  udh: Uint8Array;
  userData: Uint8Array;
  pdu: Uint8Array;
  /** decoded view for /sandbox/outbound and logs */
  summary: Record<string, unknown>;
}

/**
 * Numbers of the simulated walled-garden network ("Garden Mobile", prefix 447999): an MMS notification
 * to them is sent as a WAP push service indication to the same content, unless DisableWalledGardenRule=1.
 */
export const WALLED_GARDEN_PREFIXES: ReadonlyArray<string> = ['447999'];

export function isWalledGarden(recipient: string): boolean {
  return WALLED_GARDEN_PREFIXES.some((p) => recipient.startsWith(p));
}

/** The content a recipient actually gets after the walled-garden rule. */
export function applyWalledGarden(content: OutboundContent, recipient: string): OutboundContent {
  const c = content as unknown as RichContent;
  if (c.kind !== 'mms-notification' || !c.walledGardenRule || !isWalledGarden(recipient)) return content;
  const si: RichContent = {
    kind: 'wap-push-si',
    href: c.href,
    text: c.subject ?? 'Multimedia message',
    ...(c.contentToken ? { siId: c.contentToken, contentToken: c.contentToken } : {}),
  };
  return si as unknown as OutboundContent;
}

function summarize(part: SubmitPduPart, kind: string): Record<string, unknown> {
  const d = decodeSubmitPdu(part.pdu);
  return {
    kind,
    to: d.to,
    alphabet: d.alphabet,
    ...(d.messageClass !== undefined ? { messageClass: d.messageClass } : {}),
    ...(d.udh.ports ? { ports: d.udh.ports } : {}),
    ...(d.udh.concat ? { concat: d.udh.concat } : {}),
    ...(d.text !== undefined ? { text: d.text } : {}),
  };
}

function toNetwork(parts: SubmitPduPart[], kind: string): NetworkPdu[] {
  return parts.map((p) => ({ ...p, summary: summarize(p, kind) }));
}

/** The SMS-SUBMIT PDUs of a content for one recipient. Throws for content that cannot be encoded. */
export function encodeForNetwork(content: OutboundContent, recipient: string): NetworkPdu[] {
  const c = content as unknown as RichContent;
  const to = /^\d{1,20}$/.test(recipient) ? recipient : '0';
  switch (c.kind) {
    case 'text':
    case 'flash':
      return toNetwork(
        buildSubmitPdus({ kind: 'text', to, text: c.text, flash: c.kind === 'flash' }),
        c.kind,
      );
    case 'pdu': {
      const udh = c.udh ? hexToBytes(c.udh) : new Uint8Array(0);
      if (c.userData !== undefined) {
        let userData = hexToBytes(c.userData);
        // the form carries GSM-7 user data packed, protocol/smart takes septet values
        if (describeDcs(c.dcs).alphabet === 'GSM-7')
          userData = Uint8Array.from(unpackSeptets(userData, Math.floor((userData.length * 8) / 7)));
        return toNetwork(buildSubmitPdus({ kind: 'raw', to, dcs: c.dcs, pid: c.pid, udh, userData }), 'pdu');
      }
      return toNetwork(
        buildSubmitPdus({ kind: 'raw', to, dcs: c.dcs, pid: c.pid, udh, text: c.text ?? '' }),
        'pdu',
      );
    }
    default: {
      const { data, port, srcPort } = smartPayload(c);
      return toNetwork(
        buildSubmitPdus({
          kind: 'binary',
          to,
          data,
          destPort: port,
          srcPort: srcPort ?? 0,
          dcs: port === SMART_PORTS.wapPush ? DCS.data8 : DCS.data8Class1,
        }),
        c.kind,
      );
    }
  }
}
