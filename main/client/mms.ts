// Typed content of a sendmms request (spec 2.4) and its form fields. Files and OTA bitmaps travel
// hex-encoded; text values (RTTTL, vCard, vCal) are URL-encoded by protocol/form.ts like every value.
import type { AddSmil, PhoneMake, SiAction } from '../../protocol/limits.ts';
import { bytesToHex } from '../../protocol/smart/bytes.ts';

/** A library number, or the content itself (bytes are sent hex-encoded). */
export type LibraryOrBytes = number | Uint8Array;

export interface FileUpload {
  /** File name with extension, at most 50 characters. */
  name: string;
  data: Uint8Array;
}

export type { SiAction };

export type MmsContent =
  | { type: 'pictureMessage'; picture: LibraryOrBytes }
  | { type: 'groupGraphic'; graphic: LibraryOrBytes }
  | { type: 'operatorLogo'; logo: LibraryOrBytes; mcc: number; mnc: number }
  /** RTTTL/RTX text, a library number, or binary ringtone bytes (hex). */
  | { type: 'ringtone'; ringtone: number | string | Uint8Array }
  | { type: 'vCard'; vcard: string }
  | { type: 'vCal'; vcal: string }
  | { type: 'mmsNotification'; libraryNumber: number }
  | { type: 'mmsNotification'; file: FileUpload }
  | { type: 'wapPush'; libraryNumber: number }
  | { type: 'wapPush'; file: FileUpload }
  | {
      type: 'serviceIndication';
      href: string;
      id?: string;
      created?: string;
      expires?: string;
      action?: SiAction;
      content?: string;
      info?: { pcdata: string; class: string };
    }
  | {
      type: 'pdu';
      dataCodingScheme: number | string;
      protocolIdentifier: number | string;
      userDataHeader: Uint8Array | string;
      /** Either user data bytes or a text placed in the PDU (Message). */
      userData?: Uint8Array | string;
      text?: string;
    };

export type MmsContentType = MmsContent['type'];
export const MMS_CONTENT_TYPES: readonly MmsContentType[] = [
  'pictureMessage',
  'groupGraphic',
  'operatorLogo',
  'ringtone',
  'vCard',
  'vCal',
  'mmsNotification',
  'wapPush',
  'serviceIndication',
  'pdu',
];

export interface MmsOptions {
  phoneMake?: PhoneMake;
  phoneModel?: string;
  /** Subject (MMS) or text (WAP push). */
  message?: string;
  contentType?: string;
  disableRepurposing?: boolean;
  disableWalledGardenRule?: boolean;
  addSmil?: AddSmil;
  sendCc?: string[];
  sendBcc?: string[];
  sendCcAddressBook?: string;
  sendBccAddressBook?: string;
}

export function toHex(value: Uint8Array | string | number): string {
  if (typeof value === 'number') return value.toString(16).toUpperCase().padStart(2, '0');
  if (typeof value === 'string') return value;
  return bytesToHex(value);
}

function libraryOrHex(value: LibraryOrBytes): string {
  return typeof value === 'number' ? String(value) : toHex(value);
}

/** Form fields of the content (without recipients, credentials and general options). */
export function contentFields(content: MmsContent): Record<string, string> {
  switch (content.type) {
    case 'pictureMessage':
      return { PictureMessage: libraryOrHex(content.picture) };
    case 'groupGraphic':
      return { GroupGraphic: libraryOrHex(content.graphic) };
    case 'operatorLogo':
      return { OperatorLogo: libraryOrHex(content.logo), MCC: String(content.mcc), MNC: String(content.mnc) };
    case 'ringtone':
      return {
        Ringtone: typeof content.ringtone === 'string' ? content.ringtone : libraryOrHex(content.ringtone),
      };
    case 'vCard':
      return { vCard: content.vcard };
    case 'vCal':
      return { vCal: content.vcal };
    case 'mmsNotification':
      return 'file' in content
        ? { MMSNotificationFileName1: content.file.name, MMSNotificationFileData1: toHex(content.file.data) }
        : { MMSFileMMS: String(content.libraryNumber) };
    case 'wapPush':
      return 'file' in content
        ? { WAPPushFileName1: content.file.name, WAPPushFileData1: toHex(content.file.data) }
        : { MMSFileWAP: String(content.libraryNumber) };
    case 'serviceIndication': {
      const f: Record<string, string> = { 'si-href': content.href };
      if (content.id !== undefined) f['si-id'] = content.id;
      if (content.created !== undefined) f['si-created'] = content.created;
      if (content.expires !== undefined) f['si-expires'] = content.expires;
      if (content.action !== undefined) f['si-action'] = content.action;
      if (content.content !== undefined) f['si-content'] = content.content;
      if (content.info !== undefined) {
        f['si-info-pcdata'] = content.info.pcdata;
        f['si-info-class'] = content.info.class;
      }
      return f;
    }
    case 'pdu': {
      const f: Record<string, string> = {
        SmsSubmitPduDataCodingScheme: toHex(content.dataCodingScheme),
        SmsSubmitPduProtocolIdentifier: toHex(content.protocolIdentifier),
        SmsSubmitPduUserDataHeader: toHex(content.userDataHeader),
      };
      if (content.userData !== undefined) f.SmsSubmitPduUserData = toHex(content.userData);
      if (content.text !== undefined) f.Message = content.text;
      return f;
    }
  }
}

/**
 * General sendmms fields from the options: every request of a send carries them. Cc/Bcc numbers
 * and address books are not among them (addressBookFields): they go with exactly one request.
 */
export function optionFields(options: MmsOptions): Record<string, string> {
  const f: Record<string, string> = {};
  if (options.phoneMake !== undefined) f.PhoneMake = options.phoneMake;
  if (options.phoneModel !== undefined) f.PhoneModel = options.phoneModel;
  if (options.message !== undefined) f.Message = options.message;
  if (options.contentType !== undefined) f.ContentType = options.contentType;
  if (options.disableRepurposing !== undefined) f.DisableRepurposing = options.disableRepurposing ? '1' : '0';
  if (options.disableWalledGardenRule !== undefined) {
    f.DisableWalledGardenRule = options.disableWalledGardenRule ? '1' : '0';
  }
  if (options.addSmil !== undefined) f.AddSMIL = options.addSmil;
  return f;
}

/** The Cc and Bcc address-book fields: one request of a send carries them, never every request. */
export function addressBookFields(options: MmsOptions): Record<string, string> {
  const f: Record<string, string> = {};
  if (options.sendCcAddressBook !== undefined) f.SendCcAddressBook = options.sendCcAddressBook;
  if (options.sendBccAddressBook !== undefined) f.SendBccAddressBook = options.sendBccAddressBook;
  return f;
}
