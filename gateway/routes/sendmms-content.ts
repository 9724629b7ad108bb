// The content of a sendmms request (spec 2.4), resolved into what the gateway sends: library numbers
// looked up (public or the account's own, in the range of their kind), hex bitmaps and ringtones
// checked, uploaded files checked and kept for the account's private library, images adapted to the
// handset (PhoneMake/PhoneModel) unless DisableRepurposing=1, a ZIP composed into an MMS (AddSMIL).
// A refusal is a ContentError with its report code; ./sendmms.ts answers with it.
import type { FormFields } from '../../protocol/form.ts';
import { REPORT } from '../../protocol/reports.ts';
import { LIMITS, MMS_NOTIFICATION_EXTENSIONS, parseLibraryNumber } from '../../protocol/limits.ts';
import { fieldSpec, requiredPhoneMake } from '../../protocol/fields.ts';
import type { RichKind } from '../../protocol/content.ts';
import { fileExtension } from '../../protocol/content-selection.ts';
import { parseSiAction } from '../../protocol/smart/wbxml-si.ts';
import { bytesToHex, hexToBytes } from '../../protocol/smart/bytes.ts';
import { decodeOtaBitmap } from '../../protocol/smart/ota-bitmap.ts';
import { parseRtttl } from '../../protocol/smart/rtttl.ts';
import type { GatewayContext } from '../context.ts';
import type { OutboundContent } from '../content.ts';
import type { Account } from '../accounts.ts';
import { getLibraryFile } from '../library/library.ts';
import type { LibraryKind } from '../library/library.ts';
import { handsetProfile, isAdaptable } from '../library/adapt.ts';
import { adaptInWorker } from '../library/adapt-pool.ts';
import { ImageError } from '../library/image-header.ts';
import type { HandsetProfile } from '../library/adapt.ts';
import {
  composeMmsFromZip,
  contentTypeForName,
  decodeMms,
  encodeMms,
  MMS_CONTENT_TYPE,
  MmsError,
} from '../library/mms.ts';

/** A request-level refusal: report code and the text the client sees. */
export class ContentError extends Error {
  readonly report: string;
  constructor(message: string, report: string = REPORT.invalidContent) {
    super(message);
    this.report = report;
  }
}

/** What one sendmms request sends, before it is stored. */
export interface ResolvedContent {
  content: OutboundContent;
  /** file to store in the account's private library (uploads), and what to do with its number */
  upload?: { kind: LibraryKind; name: string; contentType: string; bytes: Uint8Array };
  /** content handsets fetch from /content/<token> (WAP push files, MMS) */
  delivered?: { contentType: string; bytes: Uint8Array; adapted: boolean };
}

const SMART_FIELDS = [
  'PictureMessage',
  'GroupGraphic',
  'OperatorLogo',
  'Ringtone',
  'vCard',
  'vCal',
  'MMSFileMMS',
  'MMSNotificationFileName1',
  'MMSFileWAP',
  'WAPPushFileName1',
  'si-href',
  'SmsSubmitPduDataCodingScheme',
] as const;

type ContentField = (typeof SMART_FIELDS)[number];

function present(fields: FormFields, name: string): boolean {
  const v = fields.get(name);
  return v !== undefined && v.trim() !== '';
}

function contentFieldsOf(fields: FormFields): ContentField[] {
  const found = SMART_FIELDS.filter((f) => present(fields, f));
  // the library number and the upload of the same kind are alternatives, not two contents
  return found.filter(
    (f) =>
      !(f === 'MMSNotificationFileName1' && found.includes('MMSFileMMS')) &&
      !(f === 'WAPPushFileName1' && found.includes('MMSFileWAP')),
  );
}

function hex(value: string, field: string): Uint8Array {
  const clean = value.trim();
  if (!/^([0-9A-Fa-f]{2})+$/.test(clean)) throw new ContentError(`${field} is not hex-encoded octets`);
  return hexToBytes(clean);
}

/** PhoneMake is required for these kinds (spec 2.4), and a kind sent to one make only needs that make. */
function requirePhoneMake(fields: FormFields, what: string, kind: RichKind): void {
  const make = fields.get('PhoneMake')?.trim();
  if (!make) throw new ContentError(`PhoneMake is required for ${what}`, REPORT.syntaxError);
  const only = requiredPhoneMake(kind);
  if (only && make.toLowerCase() !== only.make.toLowerCase())
    throw new ContentError(`${what} requires PhoneMake=${only.make}`);
}

/** A library number (LIMITS.libraryNumberDigits digits) or hex OTA bitmap, as hex of a valid OTA bitmap. */
function bitmapOf(
  ctx: GatewayContext,
  account: Account,
  fields: FormFields,
  field: string,
  kinds: LibraryKind[],
): string {
  const value = (fields.get(field) ?? '').trim();
  if (parseLibraryNumber(value) !== null) {
    const found = getLibraryFile(ctx.db, value, account, kinds);
    if (!found.ok) throw new ContentError(`${field}: ${found.message}`, REPORT.contentNotFound);
    return bytesToHex(found.file.bytes);
  }
  const bytes = hex(value, field);
  try {
    decodeOtaBitmap(bytes);
  } catch (err) {
    throw new ContentError(`${field} is not an OTA bitmap: ${(err as Error).message}`);
  }
  return bytesToHex(bytes);
}

/** An integer field of sendmms in its spec range (MCC, MNC: 0 to 999). */
function intField(fields: FormFields, name: string): number {
  const spec = fieldSpec('sendmms', name);
  const max = spec?.max ?? 0;
  const v = (fields.get(name) ?? '').trim();
  if (!new RegExp(`^\\d{1,${String(max).length}}$`).test(v) || Number(v) > max)
    throw new ContentError(`${name} must be an integer 0 to ${max}`);
  return Number(v);
}

/** Ringtone: library number, hex (RTTTL text or a Nokia Smart Messaging ringtone), or RTTTL text. */
function ringtoneOf(ctx: GatewayContext, account: Account, value: string): OutboundContent {
  let text = value.trim();
  if (parseLibraryNumber(text) !== null) {
    const found = getLibraryFile(ctx.db, text, account, ['ringtone']);
    if (!found.ok) throw new ContentError(`Ringtone: ${found.message}`, REPORT.contentNotFound);
    text = new TextDecoder().decode(found.file.bytes);
  } else if (/^([0-9A-Fa-f]{2})+$/.test(text)) {
    const bytes = hexToBytes(text);
    if (bytes[0] === 0x02 && bytes[1] === 0x4a) return { kind: 'ringtone', data: bytesToHex(bytes) };
    text = new TextDecoder().decode(bytes);
  }
  try {
    parseRtttl(text);
  } catch (err) {
    throw new ContentError(`Ringtone is not valid RTTTL/RTX: ${(err as Error).message}`);
  }
  return { kind: 'ringtone', rtttl: text };
}

function profileOf(fields: FormFields): HandsetProfile {
  return handsetProfile(
    fields.get('PhoneMake')?.trim() || undefined,
    fields.get('PhoneModel')?.trim() || undefined,
  );
}

function flag(fields: FormFields, name: string): boolean {
  return fields.get(name)?.trim() === '1';
}

/** An uploaded file: name ≤ 50 characters with an extension, hex data. */
function uploadOf(
  fields: FormFields,
  nameField: string,
  dataField: string,
): { name: string; bytes: Uint8Array } {
  const name = (fields.get(nameField) ?? '').trim();
  if (name.length > LIMITS.fileNameMax)
    throw new ContentError(`${nameField} is longer than ${LIMITS.fileNameMax} characters`);
  if (!/^[^/\\]+\.[A-Za-z0-9]+$/.test(name))
    throw new ContentError(`${nameField} must be a file name with an extension`);
  const data = fields.get(dataField);
  if (data === undefined || data.trim() === '')
    throw new ContentError(`${dataField} is required with ${nameField}`);
  return { name, bytes: hex(data, dataField) };
}

/** Adapts every image part of an MMS to the handset (unless disabled); returns the file to deliver. */
async function adaptMms(
  bytes: Uint8Array,
  profile: HandsetProfile,
  disable: boolean,
): Promise<{ bytes: Uint8Array; adapted: boolean }> {
  if (disable) return { bytes, adapted: false };
  const msg = decodeMms(bytes);
  let adapted = false;
  for (const part of msg.parts) {
    if (!isAdaptable(part.contentType)) continue;
    const out = await adaptInWorker(part.bytes, part.contentType, profile);
    if (out.adapted) {
      adapted = true;
      part.bytes = out.bytes;
      part.contentType = out.contentType;
    }
  }
  return adapted ? { bytes: encodeMms(msg), adapted } : { bytes, adapted };
}

function siContent(fields: FormFields): OutboundContent {
  const get = (n: string) => {
    const v = fields.get(n)?.trim();
    return v === undefined || v === '' ? undefined : v;
  };
  const text = get('si-content') ?? get('Message');
  const action = parseSiAction(get('si-action') ?? '');
  const infoPcdata = get('si-info-pcdata');
  const infoClass = get('si-info-class');
  if (fields.getAll('si-info-pcdata').length > 1 || fields.getAll('si-info-class').length > 1)
    throw new ContentError('only one pair of si-info-pcdata and si-info-class is accepted');
  return {
    kind: 'wap-push-si',
    href: get('si-href')!,
    ...(get('si-id') ? { siId: get('si-id')! } : {}),
    ...(get('si-created') ? { created: get('si-created')! } : {}),
    ...(get('si-expires') ? { expires: get('si-expires')! } : {}),
    ...(action ? { action } : {}),
    ...(text !== undefined ? { text } : {}),
    ...(infoPcdata !== undefined && infoClass !== undefined
      ? { info: { pcdata: infoPcdata, class: infoClass } }
      : {}),
  };
}

export async function resolveContent(
  ctx: GatewayContext,
  account: Account,
  fields: FormFields,
): Promise<ResolvedContent> {
  const found = contentFieldsOf(fields);
  if (found.length === 0)
    throw new ContentError(
      'No content: one of PictureMessage, GroupGraphic, OperatorLogo, Ringtone, vCard, vCal, MMSFileMMS, MMSNotificationFileName1, MMSFileWAP, WAPPushFileName1, si-href or SmsSubmitPdu* is required',
    );
  if (found.length > 1)
    throw new ContentError(`One content type per request; this one has ${found.join(', ')}`);
  const field = found[0]!;
  const message = fields.get('Message');
  const profile = profileOf(fields);
  const disableRepurposing = flag(fields, 'DisableRepurposing');
  switch (field) {
    case 'PictureMessage':
      requirePhoneMake(fields, 'a picture message', 'pictureMessage');
      return {
        content: {
          kind: 'picture',
          bitmap: bitmapOf(ctx, account, fields, field, ['picture']),
          ...(message ? { text: message } : {}),
        },
      };
    case 'GroupGraphic':
      requirePhoneMake(fields, 'a group graphic', 'groupGraphic');
      return {
        content: {
          kind: 'group-graphic',
          bitmap: bitmapOf(ctx, account, fields, field, ['group-graphic', 'operator-logo']),
        },
      };
    case 'OperatorLogo':
      requirePhoneMake(fields, 'an operator logo', 'operatorLogo');
      return {
        content: {
          kind: 'operator-logo',
          mcc: intField(fields, 'MCC'),
          mnc: intField(fields, 'MNC'),
          bitmap: bitmapOf(ctx, account, fields, field, ['operator-logo', 'group-graphic']),
        },
      };
    case 'Ringtone':
      requirePhoneMake(fields, 'a ringtone', 'ringtone');
      return { content: ringtoneOf(ctx, account, fields.get('Ringtone') ?? '') };
    case 'vCard': {
      const data = fields.get('vCard') ?? '';
      if (!/BEGIN:VCARD/i.test(data)) throw new ContentError('vCard must hold BEGIN:VCARD … END:VCARD');
      return { content: { kind: 'vcard', data } };
    }
    case 'vCal': {
      const data = fields.get('vCal') ?? '';
      if (!/BEGIN:VCALENDAR/i.test(data))
        throw new ContentError('vCal must hold BEGIN:VCALENDAR … END:VCALENDAR');
      return { content: { kind: 'vcalendar', data } };
    }
    case 'si-href':
      return { content: siContent(fields) };
    case 'SmsSubmitPduDataCodingScheme': {
      const one = (n: string) => {
        const b = hex(fields.get(n) ?? '', n);
        if (b.length !== 1) throw new ContentError(`${n} must be one octet in hex`);
        return b[0]!;
      };
      const udh = fields.get('SmsSubmitPduUserDataHeader');
      if (udh === undefined) throw new ContentError('SmsSubmitPduUserDataHeader is required');
      const userData = fields.get('SmsSubmitPduUserData');
      if ((userData === undefined || userData === '') && (message === undefined || message === ''))
        throw new ContentError('SmsSubmitPduUserData or Message is required with the PDU fields');
      return {
        content: {
          kind: 'pdu',
          dcs: one('SmsSubmitPduDataCodingScheme'),
          pid: one('SmsSubmitPduProtocolIdentifier'),
          udh: udh.trim() === '' ? '' : bytesToHex(hex(udh, 'SmsSubmitPduUserDataHeader')),
          ...(userData
            ? { userData: bytesToHex(hex(userData, 'SmsSubmitPduUserData')) }
            : { text: message ?? '' }),
        },
      };
    }
    case 'MMSFileWAP':
    case 'WAPPushFileName1': {
      let file: { name: string; contentType: string; bytes: Uint8Array };
      let upload: ResolvedContent['upload'];
      if (field === 'MMSFileWAP') {
        const lib = getLibraryFile(ctx.db, fields.get('MMSFileWAP') ?? '', account, ['wap', 'mms']);
        if (!lib.ok) throw new ContentError(`MMSFileWAP: ${lib.message}`, REPORT.contentNotFound);
        file = lib.file;
      } else {
        const up = uploadOf(fields, 'WAPPushFileName1', 'WAPPushFileData1');
        const contentType = fields.get('ContentType')?.trim() || contentTypeForName(up.name);
        // spec 2.4: a .jad descriptor must itself point at the .jar
        if (
          contentType === 'text/vnd.sun.j2me.app-descriptor' &&
          !/^MIDlet-Jar-URL:\s*\S/m.test(new TextDecoder().decode(up.bytes))
        )
          throw new ContentError('a .jad descriptor must point at its .jar (MIDlet-Jar-URL)');
        file = { ...up, contentType };
        upload = { kind: 'wap', ...file };
      }
      // A file that is not the image its name says, or too large to decode: the sender's content.
      const adapted = await adaptInWorker(file.bytes, file.contentType, profile, {
        disableRepurposing,
      }).catch((err: unknown) => {
        if (err instanceof ImageError) throw new ContentError(`${file.name}: ${err.message}`);
        throw err;
      });
      return {
        content: { kind: 'wap-push-si', href: '', ...(message ? { text: message } : { text: file.name }) },
        ...(upload ? { upload } : {}),
        delivered: { contentType: adapted.contentType, bytes: adapted.bytes, adapted: adapted.adapted },
      };
    }
    case 'MMSFileMMS':
    case 'MMSNotificationFileName1': {
      let mms: Uint8Array;
      let upload: ResolvedContent['upload'];
      if (field === 'MMSFileMMS') {
        const lib = getLibraryFile(ctx.db, fields.get('MMSFileMMS') ?? '', account, ['mms']);
        if (!lib.ok) throw new ContentError(`MMSFileMMS: ${lib.message}`, REPORT.contentNotFound);
        mms = lib.file.bytes;
      } else {
        const up = uploadOf(fields, 'MMSNotificationFileName1', 'MMSNotificationFileData1');
        const [mmsExtension, zipExtension] = MMS_NOTIFICATION_EXTENSIONS;
        const ext = fileExtension(up.name);
        if (ext === zipExtension) {
          const addSmilField = fields.get('AddSMIL')?.trim();
          const addSmil = addSmilField === '1' ? true : addSmilField === '2' ? false : profile.smil;
          try {
            mms = composeMmsFromZip(up.bytes, { addSmil, ...(message ? { subject: message } : {}) }).mms;
          } catch (err) {
            if (err instanceof MmsError) throw new ContentError(`MMSNotificationFileData1: ${err.message}`);
            throw err;
          }
          upload = {
            kind: 'mms',
            name: up.name.replace(/\.zip$/i, '.mms'),
            contentType: MMS_CONTENT_TYPE,
            bytes: mms,
          };
        } else if (ext === mmsExtension) {
          try {
            decodeMms(up.bytes);
          } catch (err) {
            throw new ContentError(`MMSNotificationFileData1 is not an MMS file: ${(err as Error).message}`);
          }
          mms = up.bytes;
          upload = { kind: 'mms', name: up.name, contentType: MMS_CONTENT_TYPE, bytes: mms };
        } else
          throw new ContentError(
            `MMSNotificationFileName1 must be a ${MMS_NOTIFICATION_EXTENSIONS.join(' or ')} file`,
          );
      }
      let delivered: { bytes: Uint8Array; adapted: boolean };
      try {
        delivered = await adaptMms(mms, profile, disableRepurposing);
        // what a handset fetches from the content location is an m-retrieve-conf (issue 24)
        delivered = {
          ...delivered,
          bytes: encodeMms(decodeMms(delivered.bytes), { date: Date.now() / 1000 }),
        };
      } catch (err) {
        throw new ContentError(`MMS file cannot be read: ${(err as Error).message}`);
      }
      return {
        content: {
          kind: 'mms-notification',
          href: '',
          size: delivered.bytes.length,
          ...(message ? { subject: message } : {}),
          walledGardenRule: !flag(fields, 'DisableWalledGardenRule'),
        },
        ...(upload ? { upload } : {}),
        delivered: { contentType: MMS_CONTENT_TYPE, bytes: delivered.bytes, adapted: delivered.adapted },
      };
    }
  }
}
