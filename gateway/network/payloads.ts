// The 8-bit payload and destination port of each smart-message kind, built by protocol/smart's codecs.
import { hexToBytes } from '../../protocol/smart/bytes.ts';
import { SMART_PORTS } from '../../protocol/smart/sms-submit.ts';
import { decodeOtaBitmap } from '../../protocol/smart/ota-bitmap.ts';
import { parseRtttl } from '../../protocol/smart/rtttl.ts';
import { encodeNokiaRingtone } from '../../protocol/smart/nokia-ringtone.ts';
import { encodeOperatorLogo } from '../../protocol/smart/operator-logo.ts';
import { encodeGroupGraphic } from '../../protocol/smart/group-graphic.ts';
import { encodePictureMessage } from '../../protocol/smart/picture-message.ts';
import { encodeSi, SI_ACTIONS } from '../../protocol/smart/wbxml-si.ts';
import type { SiAction } from '../../protocol/smart/wbxml-si.ts';
import { encodeWspPush, WAP_APPLICATION_ID } from '../../protocol/smart/wsp-push.ts';
import { encodeMmsNotification } from '../../protocol/smart/mms-notification.ts';
import type { RichContent, SmartKind } from './encode.ts';

/** MMS notifications expire after a week (X-Mms-Expiry, relative). */
const MMS_EXPIRY_SECONDS = 7 * 24 * 3600;
let wspTid = 0;
const nextTid = () => (wspTid = (wspTid + 1) & 0xff);

export class UnsupportedContentError extends Error {}

export interface SmartPayload {
  data: Uint8Array;
  port: number;
  srcPort?: number;
}

export function smartPayload(c: Extract<RichContent, { kind: SmartKind }>): SmartPayload {
  switch (c.kind) {
    case 'ringtone':
      return {
        data: c.data !== undefined ? hexToBytes(c.data) : encodeNokiaRingtone(parseRtttl(c.rtttl ?? '')),
        port: SMART_PORTS.ringtone,
      };
    case 'operator-logo':
      return {
        data: encodeOperatorLogo({ mcc: c.mcc, mnc: c.mnc, bitmap: decodeOtaBitmap(hexToBytes(c.bitmap)) }),
        port: SMART_PORTS.operatorLogo,
      };
    case 'group-graphic':
      return {
        data: encodeGroupGraphic(decodeOtaBitmap(hexToBytes(c.bitmap))),
        port: SMART_PORTS.groupGraphic,
      };
    case 'picture':
      return {
        data: encodePictureMessage({
          bitmap: decodeOtaBitmap(hexToBytes(c.bitmap)),
          ...(c.text !== undefined ? { text: c.text } : {}),
        }),
        port: SMART_PORTS.pictureMessage,
      };
    case 'vcard':
      return { data: new TextEncoder().encode(c.data), port: SMART_PORTS.vcard };
    case 'vcalendar':
      return { data: new TextEncoder().encode(c.data), port: SMART_PORTS.vcalendar };
    case 'wap-push-si': {
      const action = c.action as SiAction | undefined;
      const si = encodeSi({
        href: c.href,
        ...(c.siId !== undefined ? { siId: c.siId } : {}),
        ...(c.created !== undefined ? { created: c.created } : {}),
        ...(c.expires !== undefined ? { expires: c.expires } : {}),
        ...(action !== undefined && (SI_ACTIONS as ReadonlyArray<string>).includes(action) ? { action } : {}),
        ...(c.text !== undefined ? { text: c.text } : {}),
        ...(c.info ? { info: [{ class: c.info.class, text: c.info.pcdata }] } : {}),
      });
      return {
        data: encodeWspPush({ transactionId: nextTid(), contentType: 'application/vnd.wap.sic', body: si }),
        port: SMART_PORTS.wapPush,
        srcPort: SMART_PORTS.wapSource,
      };
    }
    case 'mms-notification': {
      const ind = encodeMmsNotification({
        transactionId: c.contentToken ?? 'T' + Date.now().toString(36),
        messageClass: 'personal',
        messageSize: c.size,
        expirySeconds: MMS_EXPIRY_SECONDS,
        contentLocation: c.href,
        ...(c.subject !== undefined ? { subject: c.subject } : {}),
      });
      return {
        data: encodeWspPush({
          transactionId: nextTid(),
          contentType: 'application/vnd.wap.mms-message',
          applicationId: WAP_APPLICATION_ID.mmsUa,
          body: ind,
        }),
        port: SMART_PORTS.wapPush,
        srcPort: SMART_PORTS.wapSource,
      };
    }
    default:
      throw new UnsupportedContentError(`content kind ${(c as { kind: string }).kind} cannot be encoded`);
  }
}
