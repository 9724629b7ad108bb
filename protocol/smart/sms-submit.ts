// Smart content ⇄ SMS-SUBMIT PDUs: the gateway's network simulator turns every accepted message into
// these PDUs; the app's virtual phone reassembles and decodes them by destination port.
// The TPDU itself is tpdu.ts (3GPP TS 23.040 9.2.2.2), its user data header and DCS udh.ts; both
// are re-exported here, the module the codecs' users import.
import { bytesToHex, concatBytes, hexToBytes } from './bytes.ts';
import { decodeGroupGraphic, encodeGroupGraphic } from './group-graphic.ts';
import { decodeMmsNotification, encodeMmsNotification } from './mms-notification.ts';
import type { MmsNotification } from './mms-notification.ts';
import { decodeNokiaRingtone, encodeNokiaRingtone } from './nokia-ringtone.ts';
import { decodeOperatorLogo, encodeOperatorLogo } from './operator-logo.ts';
import type { Bitmap } from './ota-bitmap.ts';
import { decodePictureMessage, encodePictureMessage } from './picture-message.ts';
import type { PictureMessage } from './picture-message.ts';
import { parseRtttl } from './rtttl.ts';
import type { RtttlSong } from './rtttl.ts';
import { buildSubmitPdus, decodeSubmitPdu } from './tpdu.ts';
import type { CommonOptions, DecodedSubmitPdu, SubmitMessage, SubmitPduPart } from './tpdu.ts';
import { DCS, SMART_PORTS } from './udh.ts';
import { decodeSi, encodeSi } from './wbxml-si.ts';
import type { ServiceIndication } from './wbxml-si.ts';
import { WAP_APPLICATION_ID, decodeWspPush, encodeWspPush } from './wsp-push.ts';

export { DCS, IEI, SMART_PORTS, buildPortUdh, buildUdh, describeDcs, parseUdh } from './udh.ts';
export type { Alphabet, InformationElement, ParsedUdh } from './udh.ts';
export { buildSubmitPdus, decodeSubmitPdu, withEmptySmsc } from './tpdu.ts';
export type { DecodedSubmitPdu, SubmitMessage, SubmitPduPart } from './tpdu.ts';
export { bytesToHex, hexToBytes };

export type SmartContent =
  | { kind: 'text'; text: string }
  | { kind: 'flash'; text: string }
  /** RTTTL/RTX text or a parsed song; sent as a Nokia ringtone binary. */
  | { kind: 'ringtone'; song: RtttlSong | string }
  | { kind: 'operatorLogo'; mcc: number; mnc: number; bitmap: Bitmap }
  | { kind: 'groupGraphic'; bitmap: Bitmap }
  | { kind: 'pictureMessage'; bitmap: Bitmap; text?: string }
  | { kind: 'vcard'; vcard: string }
  | { kind: 'vcalendar'; vcalendar: string }
  | { kind: 'wapPushSi'; si: ServiceIndication }
  | { kind: 'mmsNotification'; notification: MmsNotification }
  | { kind: 'raw'; dcs: number; pid?: number; udh: Uint8Array; userData?: Uint8Array; text?: string };

/** The kind of a handset payload (not the app's content kinds: protocol/content.ts). */
export type SmartContentKind = SmartContent['kind'];

/** What the virtual phone can get back: the content kinds, or undecodable binary data. */
export type DecodedContent =
  | Exclude<SmartContent, { kind: 'ringtone' | 'raw' }>
  | { kind: 'ringtone'; song: RtttlSong }
  | { kind: 'binary'; dcs: number; pid: number; destPort?: number; srcPort?: number; data: Uint8Array };

export interface EncodeOptions {
  concatRef?: number;
  messageReference?: number;
  validityPeriod?: number;
  statusReportRequest?: boolean;
}

/** The SMS-SUBMIT PDUs of one piece of content for one recipient. */
export function encodeContentToPdus(
  content: SmartContent,
  to: string,
  opts: EncodeOptions = {},
): SubmitPduPart[] {
  const common: CommonOptions = { to };
  if (opts.concatRef !== undefined) common.concatRef = opts.concatRef;
  if (opts.messageReference !== undefined) common.messageReference = opts.messageReference;
  if (opts.validityPeriod !== undefined) common.validityPeriod = opts.validityPeriod;
  if (opts.statusReportRequest !== undefined) common.statusReportRequest = opts.statusReportRequest;
  const binary = (
    data: Uint8Array,
    destPort: number,
    srcPort = 0,
    dcs: number = DCS.data8Class1,
  ): SubmitPduPart[] => buildSubmitPdus({ ...common, kind: 'binary', data, destPort, srcPort, dcs });
  switch (content.kind) {
    case 'text':
      return buildSubmitPdus({ ...common, kind: 'text', text: content.text });
    case 'flash':
      return buildSubmitPdus({ ...common, kind: 'text', text: content.text, flash: true });
    case 'ringtone': {
      const song = typeof content.song === 'string' ? parseRtttl(content.song) : content.song;
      return binary(encodeNokiaRingtone(song), SMART_PORTS.ringtone);
    }
    case 'operatorLogo':
      return binary(encodeOperatorLogo(content), SMART_PORTS.operatorLogo);
    case 'groupGraphic':
      return binary(encodeGroupGraphic(content.bitmap), SMART_PORTS.groupGraphic);
    case 'pictureMessage': {
      const pm: PictureMessage = { bitmap: content.bitmap };
      if (content.text !== undefined) pm.text = content.text;
      return binary(encodePictureMessage(pm), SMART_PORTS.pictureMessage);
    }
    case 'vcard':
      return binary(new TextEncoder().encode(content.vcard), SMART_PORTS.vcard);
    case 'vcalendar':
      return binary(new TextEncoder().encode(content.vcalendar), SMART_PORTS.vcalendar);
    case 'wapPushSi': {
      const body = encodeSi(content.si);
      const push = encodeWspPush({
        transactionId: 1,
        contentType: 'application/vnd.wap.sic',
        charset: 106,
        body,
      });
      return binary(push, SMART_PORTS.wapPush, SMART_PORTS.wapSource, DCS.data8);
    }
    case 'mmsNotification': {
      const body = encodeMmsNotification(content.notification);
      const push = encodeWspPush({
        transactionId: 1,
        contentType: 'application/vnd.wap.mms-message',
        applicationId: WAP_APPLICATION_ID.mmsUa,
        body,
      });
      return binary(push, SMART_PORTS.wapPush, SMART_PORTS.wapSource, DCS.data8);
    }
    case 'raw': {
      const raw: SubmitMessage = { ...common, kind: 'raw', dcs: content.dcs, udh: content.udh };
      if (content.pid !== undefined) raw.pid = content.pid;
      if (content.userData !== undefined) raw.userData = content.userData;
      if (content.text !== undefined) raw.text = content.text;
      return buildSubmitPdus(raw);
    }
  }
}

export interface ReceivedMessage {
  to: string;
  content: DecodedContent;
  /** Parts that made this message (1 when not concatenated). */
  parts: number;
  /** False when some concatenated parts are missing (content then holds what arrived). */
  complete: boolean;
  /** Set when the payload could not be decoded as its port says; content is then 'binary'. */
  error?: string;
}

function decodePayload(
  ports: { dest: number; src: number } | undefined,
  data: Uint8Array,
  dcs: number,
  pid: number,
): DecodedContent {
  const dec = new TextDecoder();
  switch (ports?.dest) {
    case SMART_PORTS.ringtone:
      return { kind: 'ringtone', song: decodeNokiaRingtone(data) };
    case SMART_PORTS.operatorLogo:
      return { kind: 'operatorLogo', ...decodeOperatorLogo(data) };
    case SMART_PORTS.groupGraphic:
      return { kind: 'groupGraphic', bitmap: decodeGroupGraphic(data) };
    case SMART_PORTS.pictureMessage: {
      const pm = decodePictureMessage(data);
      return pm.text !== undefined
        ? { kind: 'pictureMessage', bitmap: pm.bitmap, text: pm.text }
        : { kind: 'pictureMessage', bitmap: pm.bitmap };
    }
    case SMART_PORTS.vcard:
      return { kind: 'vcard', vcard: dec.decode(data) };
    case SMART_PORTS.vcalendar:
      return { kind: 'vcalendar', vcalendar: dec.decode(data) };
    case SMART_PORTS.wapPush: {
      const push = decodeWspPush(data);
      if (push.contentType === 'application/vnd.wap.sic')
        return { kind: 'wapPushSi', si: decodeSi(push.body) };
      if (push.contentType === 'application/vnd.wap.mms-message') {
        return { kind: 'mmsNotification', notification: decodeMmsNotification(push.body) };
      }
      break;
    }
    default:
      break;
  }
  const bin: DecodedContent = { kind: 'binary', dcs, pid, data };
  if (ports) {
    bin.destPort = ports.dest;
    bin.srcPort = ports.src;
  }
  return bin;
}

/**
 * Reassembles concatenated parts (in any order, several messages interleaved) and decodes each
 * message by its destination port. Text stays text (flash when class 0).
 */
export function decodePdusToContent(pdus: ReadonlyArray<Uint8Array | string>): ReceivedMessage[] {
  const decoded = pdus.map((p) => decodeSubmitPdu(p));
  const groups = new Map<string, DecodedSubmitPdu[]>();
  const order: string[] = [];
  decoded.forEach((d, i) => {
    const c = d.udh.concat;
    const key = c ? `${d.to}|${c.ref}|${c.total}|${d.udh.ports?.dest ?? ''}|${d.alphabet}` : `single|${i}`;
    if (!groups.has(key)) {
      groups.set(key, []);
      order.push(key);
    }
    groups.get(key)!.push(d);
  });
  return order.map((key) => {
    const parts = groups.get(key)!;
    const first = parts[0]!;
    const total = first.udh.concat?.total ?? 1;
    const bySeq = new Map<number, DecodedSubmitPdu>();
    for (const p of parts) bySeq.set(p.udh.concat?.seq ?? 1, p);
    const sorted = [...bySeq.entries()].sort((a, b) => a[0] - b[0]).map(([, p]) => p);
    const complete = sorted.length === total && sorted.every((p, i) => (p.udh.concat?.seq ?? 1) === i + 1);
    const base = { to: first.to, parts: sorted.length, complete };
    if (first.alphabet !== '8-bit') {
      const text = sorted.map((p) => p.text ?? '').join('');
      const content: DecodedContent =
        first.messageClass === 0 ? { kind: 'flash', text } : { kind: 'text', text };
      return { ...base, content };
    }
    const data = concatBytes(...sorted.map((p) => p.userData));
    const bin: DecodedContent = { kind: 'binary', dcs: first.dcs, pid: first.pid, data };
    if (first.udh.ports) {
      bin.destPort = first.udh.ports.dest;
      bin.srcPort = first.udh.ports.src;
    }
    if (!complete) return { ...base, content: bin };
    try {
      return { ...base, content: decodePayload(first.udh.ports, data, first.dcs, first.pid) };
    } catch (e) {
      return { ...base, content: bin, error: e instanceof Error ? e.message : String(e) };
    }
  });
}
