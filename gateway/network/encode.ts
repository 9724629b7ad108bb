// What the simulated SMSC receives for each kind of content: the SMS-SUBMIT PDUs of protocol/smart's
// encodeContentToPdus (text: GSM-7/UCS-2 with concatenation UDH; flash: class 0; smart messages: 8-bit
// with the port UDH 5505 ringtone, 5506 operator logo, 5507 group graphic, 5514 picture message, 9204
// vCard, 9205 vCalendar; WAP push and MMS notification: WSP push with WBXML SI or m-notification-ind to
// port 2948), the very function the app's virtual phone previews with. Nothing here encodes bytes: it
// maps the stored content (JSON, bytes as hex) to protocol/smart's SmartContent and back for summaries.
import { bytesToHex, hexToBytes } from '../../protocol/smart/bytes.ts';
import {
  decodePdusToContent,
  decodeSubmitPdu,
  describeDcs,
  encodeContentToPdus,
} from '../../protocol/smart/sms-submit.ts';
import type { DecodedContent, SmartContent, SubmitPduPart } from '../../protocol/smart/sms-submit.ts';
import { decodeOtaBitmap } from '../../protocol/smart/ota-bitmap.ts';
import { formatRtttl } from '../../protocol/smart/rtttl.ts';
import { decodeNokiaRingtone } from '../../protocol/smart/nokia-ringtone.ts';
import { parseSiAction } from '../../protocol/smart/wbxml-si.ts';
import { unpackSeptets } from '../../protocol/sms.ts';
import type { OutboundContent } from '../content.ts';

/** MMS notifications expire after a week (X-Mms-Expiry, relative). */
const MMS_EXPIRY_SECONDS = 7 * 24 * 3600;

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
  const c = content;
  if (c.kind !== 'mms-notification' || !c.walledGardenRule || !isWalledGarden(recipient)) return content;
  return {
    kind: 'wap-push-si',
    href: c.href,
    text: c.subject ?? 'Multimedia message',
    ...(c.contentToken ? { siId: c.contentToken, contentToken: c.contentToken } : {}),
  };
}

/** JSON-friendly view of what a handset decodes (bitmaps as size + rows count, bytes as hex). */
function describeContent(c: DecodedContent): Record<string, unknown> {
  switch (c.kind) {
    case 'ringtone':
      return { kind: c.kind, rtttl: formatRtttl(c.song) };
    case 'operatorLogo':
      return { kind: c.kind, mcc: c.mcc, mnc: c.mnc, width: c.bitmap.width, height: c.bitmap.height };
    case 'groupGraphic':
      return { kind: c.kind, width: c.bitmap.width, height: c.bitmap.height };
    case 'pictureMessage':
      return {
        kind: c.kind,
        width: c.bitmap.width,
        height: c.bitmap.height,
        ...(c.text !== undefined ? { text: c.text } : {}),
      };
    case 'binary':
      return { ...c, data: bytesToHex(c.data) };
    default:
      return { ...c };
  }
}

/**
 * Septets of packed GSM-7 user data given without a septet count (the form's UserData field). n
 * octets hold floor(n*8/7) septets; when n*8 is a multiple of 7 the last septet may be the 7 spare
 * bits of a message of 8k-1 characters, which a sender zero-fills: 3GPP TS 23.038 6.1.2.3.1 says
 * to pad with <CR> exactly so that a receiver does not read those zeros as '@'. So a trailing 0x00
 * septet in that position is padding and dropped; anywhere else (or a <CR>) it is kept.
 */
export function unpackGsm7UserData(packed: Uint8Array): number[] {
  const septets = unpackSeptets(packed, Math.floor((packed.length * 8) / 7));
  if ((packed.length * 8) % 7 === 0 && septets.length > 0 && septets[septets.length - 1] === 0) septets.pop();
  return septets;
}

/** Maps stored content to protocol/smart's SmartContent. Throws for content it cannot encode. */
export function toSmartContent(c: OutboundContent): SmartContent {
  switch (c.kind) {
    case 'text':
    case 'flash':
      return { kind: c.kind, text: c.text };
    case 'ringtone':
      // a Smart Messaging ringtone uploaded as hex is decoded and re-encoded: same song, checked bytes
      return {
        kind: 'ringtone',
        song: c.data !== undefined ? decodeNokiaRingtone(hexToBytes(c.data)) : (c.rtttl ?? ''),
      };
    case 'operator-logo':
      return { kind: 'operatorLogo', mcc: c.mcc, mnc: c.mnc, bitmap: decodeOtaBitmap(hexToBytes(c.bitmap)) };
    case 'group-graphic':
      return { kind: 'groupGraphic', bitmap: decodeOtaBitmap(hexToBytes(c.bitmap)) };
    case 'picture':
      return {
        kind: 'pictureMessage',
        bitmap: decodeOtaBitmap(hexToBytes(c.bitmap)),
        ...(c.text !== undefined ? { text: c.text } : {}),
      };
    case 'vcard':
      return { kind: 'vcard', vcard: c.data };
    case 'vcalendar':
      return { kind: 'vcalendar', vcalendar: c.data };
    case 'wap-push-si': {
      // stored JSON: an action this version does not know is left out
      const action = parseSiAction(c.action ?? '');
      return {
        kind: 'wapPushSi',
        si: {
          href: c.href,
          ...(c.siId !== undefined ? { siId: c.siId } : {}),
          ...(c.created !== undefined ? { created: c.created } : {}),
          ...(c.expires !== undefined ? { expires: c.expires } : {}),
          ...(action !== undefined ? { action } : {}),
          ...(c.text !== undefined ? { text: c.text } : {}),
          ...(c.info ? { info: [{ class: c.info.class, text: c.info.pcdata }] } : {}),
        },
      };
    }
    case 'mms-notification':
      return {
        kind: 'mmsNotification',
        notification: {
          transactionId: c.contentToken ?? 'T' + Date.now().toString(36),
          messageClass: 'personal',
          messageSize: c.size,
          expirySeconds: MMS_EXPIRY_SECONDS,
          contentLocation: c.href,
          ...(c.subject !== undefined ? { subject: c.subject } : {}),
        },
      };
    case 'pdu': {
      const udh = c.udh ? hexToBytes(c.udh) : new Uint8Array(0);
      if (c.userData === undefined) return { kind: 'raw', dcs: c.dcs, pid: c.pid, udh, text: c.text ?? '' };
      let userData = hexToBytes(c.userData);
      // the form carries GSM-7 user data packed; protocol/smart takes septet values
      if (describeDcs(c.dcs).alphabet === 'GSM-7') userData = Uint8Array.from(unpackGsm7UserData(userData));
      return { kind: 'raw', dcs: c.dcs, pid: c.pid, udh, userData };
    }
    default:
      // stored JSON from elsewhere (or a kind this version does not know)
      throw new Error(`unknown content kind ${(c as { kind: string }).kind}`);
  }
}

/** The SMS-SUBMIT PDUs of a content for one recipient, each with a decoded summary. */
export function encodeForNetwork(content: OutboundContent, recipient: string): NetworkPdu[] {
  const kind = content.kind;
  const to = /^\d{1,20}$/.test(recipient) ? recipient : '0';
  const parts: SubmitPduPart[] = encodeContentToPdus(toSmartContent(content), to);
  let decoded: Record<string, unknown>;
  try {
    const [message] = decodePdusToContent(parts.map((p) => p.pdu));
    decoded = message ? describeContent(message.content) : {};
  } catch (err) {
    decoded = { error: (err as Error).message };
  }
  return parts.map((p, i) => {
    const d = decodeSubmitPdu(p.pdu);
    return {
      ...p,
      summary: {
        kind,
        alphabet: d.alphabet,
        ...(d.messageClass !== undefined ? { messageClass: d.messageClass } : {}),
        ...(d.udh.ports ? { ports: d.udh.ports } : {}),
        ...(d.udh.concat ? { concat: d.udh.concat } : {}),
        ...(d.text !== undefined ? { text: d.text } : {}),
        ...(i === 0 ? { content: decoded } : {}),
      },
    };
  });
}

/**
 * An encoder for one stored content, reused for many recipients (the network dispatcher drains a
 * whole request at a time): the walled-garden rule is applied per recipient as before, but the
 * decoded summary of a single-part text or flash message, which does not depend on the recipient,
 * is computed once. Every recipient still gets its own PDUs from protocol/smart (the destination address is in them).
 */
export function networkEncoder(
  content: OutboundContent,
): (recipient: string) => Array<NetworkPdu & { summaryJson: string }> {
  const kind = content.kind;
  if (kind !== 'text' && kind !== 'flash') {
    return (recipient) =>
      encodeForNetwork(applyWalledGarden(content, recipient), recipient).map((p) => ({
        ...p,
        summaryJson: JSON.stringify(p.summary),
      }));
  }
  const smart = toSmartContent(content);
  let summaries: Array<{ summary: Record<string, unknown>; json: string }> | null = null;
  return (recipient) => {
    const to = /^\d{1,20}$/.test(recipient) ? recipient : '0';
    if (summaries === null) {
      summaries = encodeForNetwork(content, to).map((p) => ({
        summary: p.summary,
        json: JSON.stringify(p.summary),
      }));
    }
    // A concatenated message carries a fresh reference per recipient in its summary: full path.
    const single = summaries.length === 1 ? summaries[0] : undefined;
    if (single === undefined) {
      return encodeForNetwork(content, to).map((p) => ({ ...p, summaryJson: JSON.stringify(p.summary) }));
    }
    return encodeContentToPdus(smart, to).map((p) => ({
      ...p,
      summary: single.summary,
      summaryJson: single.json,
    }));
  };
}
