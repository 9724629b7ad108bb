// What one outbound message carries, one variant per kind the gateway sends: the input that
// gateway/network/encode.ts maps to protocol/smart's SmartContent (and from there to SMS-SUBMIT PDUs).
// Stored as JSON in messages.content, so it stays JSON-serialisable: bytes as hex strings.
import type { SiAction } from '../protocol/smart/wbxml-si.ts';

export type OutboundContent =
  | TextContent
  | { kind: 'ringtone'; rtttl?: string; /** a Nokia Smart Messaging ringtone, hex */ data?: string }
  | { kind: 'operator-logo'; mcc: number; mnc: number; /** OTA bitmap, hex */ bitmap: string }
  | { kind: 'group-graphic'; /** OTA bitmap, hex */ bitmap: string }
  | { kind: 'picture'; /** OTA bitmap, hex */ bitmap: string; text?: string }
  | { kind: 'vcard'; data: string }
  | { kind: 'vcalendar'; data: string }
  | WapPushSiContent
  | MmsNotificationContent
  | {
      kind: 'pdu';
      dcs: number;
      pid: number;
      /** user data header, hex ('' for none) */
      udh: string;
      /** user data as sent in the form (hex; GSM-7 packed), or else the text */
      userData?: string;
      text?: string;
    };

export interface TextContent {
  kind: 'text' | 'flash';
  text: string;
}

export interface WapPushSiContent {
  kind: 'wap-push-si';
  href: string;
  siId?: string;
  created?: string;
  expires?: string;
  action?: SiAction;
  text?: string;
  info?: { pcdata: string; class: string };
  /** the token of the file handsets fetch from /content/<token> */
  contentToken?: string;
}

export interface MmsNotificationContent {
  kind: 'mms-notification';
  href: string;
  size: number;
  subject?: string;
  /** DisableWalledGardenRule absent or 0: walled-garden networks get a WAP push instead */
  walledGardenRule: boolean;
  /** the token of the MMS handsets fetch from /content/<token> */
  contentToken?: string;
}

export type OutboundKind = OutboundContent['kind'];

export function textContent(text: string, flash = false): TextContent {
  return { kind: flash ? 'flash' : 'text', text };
}
