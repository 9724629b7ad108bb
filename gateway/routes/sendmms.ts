// POST|GET /webservices/http/sendmms (spec 2.4, 4.2): every content type of the multimedia API.
// The request is validated (protocol/validate), authenticated and its recipients resolved exactly as
// sendsms does; then the content is resolved here: library numbers looked up (public or the account's
// own, in the range of their kind), uploaded files checked and stored in the account's private library
// (the response carries the new LibraryNumber), images adapted to the handset (PhoneMake/PhoneModel)
// unless DisableRepurposing=1, a ZIP composed into an MMS (AddSMIL), and the result handed to the one
// submit pipeline as an OutboundContent that the network simulator turns into PDUs.
import { randomBytes } from 'node:crypto';
import type { FormFields } from '../../protocol/form.ts';
import { validateRequest } from '../../protocol/validate.ts';
import { REPORT } from '../../protocol/reports.ts';
import { LIMITS } from '../../protocol/limits.ts';
import { bytesToHex, hexToBytes } from '../../protocol/smart/bytes.ts';
import { decodeOtaBitmap } from '../../protocol/smart/ota-bitmap.ts';
import { parseRtttl } from '../../protocol/smart/rtttl.ts';
import type { GatewayContext } from '../context.ts';
import type { OutboundContent } from '../content.ts';
import type { RouteOptions, RouteRequest, RouteResponse, Router } from '../http.ts';
import { FORM_BODY_LIMIT } from '../http.ts';
import type { Account } from '../accounts.ts';
import { submitMessage } from '../submit.ts';
import { transaction } from '../store/db.ts';
import {
  invalidLogin,
  isDecodeError,
  problemsText,
  readForm,
  readLeniently,
  recordsResponse,
  requestError,
  responseFormatOf,
} from './form-common.ts';
import { deliveryOptionOf, resolveRecipients, sendTimeOf } from './form-sendsms.ts';
import { addLibraryFile, getLibraryFile } from '../library/library.ts';
import type { LibraryKind } from '../library/library.ts';
import { adaptContent, handsetProfile, isAdaptable } from '../library/adapt.ts';
import type { HandsetProfile } from '../library/adapt.ts';
import {
  composeMmsFromZip,
  contentTypeForName,
  decodeMms,
  encodeMms,
  MMS_CONTENT_TYPE,
  MmsError,
} from '../library/mms.ts';
import { requestBaseUrl } from '../soap/endpoint.ts';

export const SENDMMS_PATH = '/webservices/http/sendmms';

/** A request-level refusal: report code and the text the client sees. */
class ContentError extends Error {
  readonly report: string;
  constructor(message: string, report: string = REPORT.invalidContent) {
    super(message);
    this.report = report;
  }
}

/** What one sendmms request sends, before it is stored. */
interface ResolvedContent {
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

function requirePhoneMake(fields: FormFields, what: string, nokiaOnly = false): void {
  const make = fields.get('PhoneMake')?.trim();
  if (!make) throw new ContentError(`PhoneMake is required for ${what}`, REPORT.syntaxError);
  if (nokiaOnly && make.toLowerCase() !== 'nokia') throw new ContentError(`${what} requires PhoneMake=Nokia`);
}

/** A library number (5 digits) or hex OTA bitmap, as hex of a valid OTA bitmap. */
function bitmapOf(
  ctx: GatewayContext,
  account: Account,
  fields: FormFields,
  field: string,
  kinds: LibraryKind[],
): string {
  const value = (fields.get(field) ?? '').trim();
  if (/^\d{5}$/.test(value)) {
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

function intField(fields: FormFields, name: string, max: number): number {
  const v = (fields.get(name) ?? '').trim();
  if (!/^\d{1,3}$/.test(v) || Number(v) > max)
    throw new ContentError(`${name} must be an integer 0 to ${max}`);
  return Number(v);
}

/** Ringtone: library number, hex (RTTTL text or a Nokia Smart Messaging ringtone), or RTTTL text. */
function ringtoneOf(ctx: GatewayContext, account: Account, value: string): OutboundContent {
  let text = value.trim();
  if (/^\d{5}$/.test(text)) {
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
    const out = await adaptContent(part.bytes, part.contentType, profile);
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
  const action = get('si-action');
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
    ...(action ? { action: action === 'signal-delete' ? 'delete' : action } : {}),
    ...(text !== undefined ? { text } : {}),
    ...(infoPcdata !== undefined && infoClass !== undefined
      ? { info: { pcdata: infoPcdata, class: infoClass } }
      : {}),
  };
}

async function resolveContent(
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
      requirePhoneMake(fields, 'a picture message');
      return {
        content: {
          kind: 'picture',
          bitmap: bitmapOf(ctx, account, fields, field, ['picture']),
          ...(message ? { text: message } : {}),
        },
      };
    case 'GroupGraphic':
      requirePhoneMake(fields, 'a group graphic', true);
      return {
        content: {
          kind: 'group-graphic',
          bitmap: bitmapOf(ctx, account, fields, field, ['group-graphic', 'operator-logo']),
        },
      };
    case 'OperatorLogo':
      requirePhoneMake(fields, 'an operator logo');
      return {
        content: {
          kind: 'operator-logo',
          mcc: intField(fields, 'MCC', 999),
          mnc: intField(fields, 'MNC', 999),
          bitmap: bitmapOf(ctx, account, fields, field, ['operator-logo', 'group-graphic']),
        },
      };
    case 'Ringtone':
      requirePhoneMake(fields, 'a ringtone');
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
      const adapted = await adaptContent(file.bytes, file.contentType, profile, { disableRepurposing });
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
        const ext = up.name.slice(up.name.lastIndexOf('.') + 1).toLowerCase();
        if (ext === 'zip') {
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
        } else if (ext === 'mms') {
          try {
            decodeMms(up.bytes);
          } catch (err) {
            throw new ContentError(`MMSNotificationFileData1 is not an MMS file: ${(err as Error).message}`);
          }
          mms = up.bytes;
          upload = { kind: 'mms', name: up.name, contentType: MMS_CONTENT_TYPE, bytes: mms };
        } else throw new ContentError('MMSNotificationFileName1 must be a .mms or .zip file');
      }
      let delivered: { bytes: Uint8Array; adapted: boolean };
      try {
        delivered = await adaptMms(mms, profile, disableRepurposing);
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

/** The sendmms handler (also used by SOAP SubmitMessage for rich content). */
export async function handleSendMms(req: RouteRequest, ctx: GatewayContext): Promise<RouteResponse> {
  let fields: FormFields;
  try {
    fields = readForm(req);
  } catch (err) {
    if (!isDecodeError(err)) throw err;
    return requestError(
      readLeniently(req),
      REPORT.syntaxError,
      `Malformed form encoding: ${(err as Error).message}`,
    );
  }
  const username = fields.get('Username');
  const account = ctx.authenticate(username, fields.get('PIN'));
  if (!account) return invalidLogin(fields, username);
  const problems = validateRequest('sendmms', fields);
  if (problems.length > 0) {
    return requestError(fields, REPORT.syntaxError, problemsText(problems), {
      username,
      problems: problems.map((p) => `${p.field}:${p.rule}`),
    });
  }
  const resolved = resolveRecipients(ctx, account, fields, {
    sendTo: ['SendTo', 'SendCc', 'SendBcc'],
    addressBooks: ['SendToAddressBook', 'SendCcAddressBook', 'SendBccAddressBook'],
  });
  if ('error' in resolved) return resolved.error;
  let content: ResolvedContent;
  try {
    content = await resolveContent(ctx, account, fields);
  } catch (err) {
    if (err instanceof ContentError) return requestError(fields, err.report, err.message, { username });
    throw err;
  }
  const sendAt = sendTimeOf(fields);
  const deliveryOption = deliveryOptionOf(fields);
  const replyTo = fields.get('ReplyTo')?.trim();
  const baseUrl = requestBaseUrl(req);
  const token = randomBytes(12).toString('hex');
  const outbound: OutboundContent =
    content.delivered &&
    (content.content.kind === 'wap-push-si' || content.content.kind === 'mms-notification')
      ? { ...content.content, href: `${baseUrl}/content/${token}`, contentToken: token }
      : content.content;
  try {
    ctx.network.partsFor(outbound); // the network must be able to encode it before anything is stored
  } catch (err) {
    return requestError(fields, REPORT.invalidContent, `Content cannot be sent: ${(err as Error).message}`, {
      username,
    });
  }
  // The upload, the content handsets fetch and the messages are stored together or not at all.
  const { records, libraryNumber } = transaction(ctx.db, () => {
    const number = content.upload
      ? addLibraryFile(ctx.db, { ...content.upload, ownerAccountId: account.id })
      : undefined;
    if (content.delivered) {
      ctx.db
        .prepare(
          'INSERT INTO delivered_content (token, message_identifier, content_type, bytes, adapted) VALUES (?, ?, ?, ?, ?)',
        )
        .run(
          token,
          '',
          content.delivered.contentType,
          content.delivered.bytes,
          content.delivered.adapted ? 1 : 0,
        );
    }
    const out = submitMessage(ctx, {
      account,
      recipients: resolved.recipients,
      content: outbound,
      ...(replyTo ? { replyTo } : {}),
      ...(sendAt ? { sendAt } : {}),
      ...(deliveryOption ? { deliveryOption } : {}),
      ...(number !== undefined ? { libraryNumber: String(number) } : {}),
    });
    return { records: out, libraryNumber: number };
  });
  return recordsResponse(responseFormatOf(fields), records, {
    username,
    content: content.content.kind,
    ...(libraryNumber !== undefined ? { libraryNumber } : {}),
  });
}

function sendMmsOptions(): RouteOptions {
  return {
    maxBodyBytes: FORM_BODY_LIMIT,
    onTooLarge: (req) =>
      requestError(
        readLeniently(req),
        REPORT.syntaxError,
        `Request body too large: at most ${FORM_BODY_LIMIT} bytes`,
      ),
    expectedError: isDecodeError,
    onError: (req, _ctx, err) =>
      isDecodeError(err)
        ? requestError(
            readLeniently(req),
            REPORT.syntaxError,
            `Malformed form encoding: ${(err as Error).message}`,
          )
        : requestError(
            readLeniently(req),
            REPORT.serverError,
            'Internal error; the request was not processed',
          ),
  };
}

export function registerSendMmsRoute(router: Router): void {
  router.add(['GET', 'POST'], SENDMMS_PATH, handleSendMms, sendMmsOptions());
}
