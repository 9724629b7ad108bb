// SOAP SubmitMessage as the form fields of spec 2.2/2.4 (the endpoint runs them through the form
// handlers), and the SOAP-only conflicts that are refused before: a FlashMessage or a TextMessage
// with smart content that carries no text, and a SmartMessage whose Format does not match it.
import type {
  Message,
  Recipient,
  SmartMessage,
  SubmitMessageRequest,
} from '../../protocol/soap/operations.ts';
import type { ResponseFormat } from '../../protocol/limits.ts';
import { hexToBytes } from '../../protocol/smart/bytes.ts';

export type SoapFormFields =
  | { fields: Record<string, string | undefined>; path: 'sendsms' | 'sendmms' }
  /** Refused with Report 3 (syntax error) and this reason. */
  | { refused: string };

const SMART_KINDS = ['Ringtone', 'OperatorLogo', 'PictureMessage', 'GroupGraphic'] as const;
/** Smart messages without a text part (a picture message has one). */
const TEXTLESS_SMART = ['Ringtone', 'OperatorLogo', 'GroupGraphic'] as const;

/** Nokia Smart Messaging ringtone: command-length 02, command 4A (ringing-tone programming). */
function isOtaRingtone(hex: string): boolean {
  return /^024a/i.test(hex);
}

/**
 * Whether SmartMessage/Format fits the content (spec 2.6 DataFormat): RTTTL is ringtone text (its
 * Data the hex of the RTTTL string), OTA the binary Smart Messaging form (an OTA bitmap or a Nokia
 * ringtone), FORMAT-UNDEFINED or none lets the gateway recognise it.
 */
function smartFormatProblem(
  kind: (typeof SMART_KINDS)[number],
  s: SmartMessage | undefined,
): string | undefined {
  if (s?.Format === undefined || s.Format === 'FORMAT-UNDEFINED' || s.LibraryNumber !== undefined)
    return undefined;
  const data = s.Data ?? '';
  if (kind !== 'Ringtone') {
    return s.Format === 'OTA'
      ? undefined
      : `${kind}/Format ${s.Format} is a ringtone format; a ${kind} is an OTA bitmap`;
  }
  if (s.Format === 'OTA' && !isOtaRingtone(data))
    return 'Ringtone/Format OTA: Data is not a Smart Messaging ringtone (it starts 024A)';
  if (s.Format === 'RTTTL' && isOtaRingtone(data))
    return 'Ringtone/Format RTTTL: Data is a binary Smart Messaging ringtone; use Format OTA';
  return undefined;
}

/** UTC YYYY-MM-DDTHH:MM:SS (the form's SendTimeAbsolute) from an xs:dateTime (no zone = UTC). */
function formDateTime(value: string): string {
  const zoned = /(Z|[+-]\d\d:\d\d)$/.test(value) ? value : `${value}Z`;
  const t = Date.parse(zoned);
  return Number.isFinite(t) ? new Date(t).toISOString().slice(0, 19) : value;
}

/** Spec 2.4 form fields for a SOAP SubmitMessage (names of spec 2.2/2.4, values as the form carries them). */
export function soapToFormFields(r: SubmitMessageRequest): SoapFormFields {
  const rc: Recipient = r.Recipient ?? {};
  const m: Message = r.Message ?? {};
  const o = rc.SendOptions ?? {};
  const bool = (b: boolean | undefined) => (b === undefined ? undefined : b ? '1' : '0');
  const num = (n: number | undefined) => (n === undefined ? undefined : String(n));
  const f: Record<string, string | undefined> = {
    Username: r.Username,
    PIN: r.PIN,
    SendTo: rc.SendTo,
    SendToAddressBook: rc.SendToAddressBook,
    ReplyTo: r.ReplyTo,
    SendTimeDelay: num(o.SendTimeDelay),
    SendTimeAbsolute: o.SendTimeAbsolute === undefined ? undefined : formDateTime(o.SendTimeAbsolute),
    DeliveryServiceOption: o.DeliveryOption,
    ResponseFormat: '1' satisfies ResponseFormat, // one record: the SOAP answer carries one
  };
  const isText = m.TextMessage !== undefined || m.FlashMessage !== undefined;
  const isRich =
    m.Ringtone !== undefined ||
    m.OperatorLogo !== undefined ||
    m.PictureMessage !== undefined ||
    m.GroupGraphic !== undefined ||
    m.SmsSubmitPdu !== undefined ||
    m.WAPPush !== undefined ||
    m.MMSNotification !== undefined;
  if (isText && !isRich) {
    // the text form has one number list: Cc and Bcc numbers are recipients like SendTo, and the Cc
    // and Bcc address books are sent too (handleSendSms is told to read them), never dropped
    const lists = [rc.SendTo, rc.SendCc, rc.SendBcc].filter(
      (l): l is string => l !== undefined && l.trim() !== '',
    );
    f['SendTo'] = lists.length > 0 ? lists.join(',') : rc.SendTo;
    f['SendCcAddressBook'] = rc.SendCcAddressBook;
    f['SendBccAddressBook'] = rc.SendBccAddressBook;
    f['Message'] = m.TextMessage;
    f['FlashMessage'] = m.FlashMessage;
    return { fields: f, path: 'sendsms' };
  }
  // Conflicting content is refused, never silently dropped.
  if (m.FlashMessage !== undefined)
    return { refused: 'FlashMessage is a text message: it cannot go with smart or multimedia content' };
  if (m.TextMessage !== undefined) {
    const textless = TEXTLESS_SMART.filter((k) => m[k] !== undefined);
    if (textless.length > 0)
      return {
        refused: `TextMessage cannot go with ${textless.join(', ')}: that content carries no text (send the text as its own message)`,
      };
  }
  for (const k of SMART_KINDS) {
    const problem = smartFormatProblem(k, m[k]);
    if (problem !== undefined) return { refused: problem };
  }
  Object.assign(f, {
    SendCc: rc.SendCc,
    SendBcc: rc.SendBcc,
    SendCcAddressBook: rc.SendCcAddressBook,
    SendBccAddressBook: rc.SendBccAddressBook,
    PhoneMake: rc.PhoneMake,
    PhoneModel: rc.PhoneModel,
    MCC: num(rc.MCC),
    MNC: num(rc.MNC),
    DisableRepurposing: bool(o.DisableRepurposing),
    DisableWalledGardenRule: bool(o.DisableWalledGardenRule),
    Message: m.TextMessage,
  });
  const smart = (s: SmartMessage | undefined) =>
    s === undefined
      ? undefined
      : s.LibraryNumber !== undefined
        ? String(s.LibraryNumber)
        : s.Format === 'RTTTL'
          ? new TextDecoder().decode(hexToBytes(s.Data ?? '')) // the form's ringtone as RTTTL text
          : (s.Data ?? '');
  f['Ringtone'] = smart(m.Ringtone);
  f['OperatorLogo'] = smart(m.OperatorLogo);
  f['PictureMessage'] = smart(m.PictureMessage);
  f['GroupGraphic'] = smart(m.GroupGraphic);
  if (m.SmsSubmitPdu) {
    f['SmsSubmitPduDataCodingScheme'] = m.SmsSubmitPdu.DataCodingScheme;
    f['SmsSubmitPduProtocolIdentifier'] = m.SmsSubmitPdu.ProtocolIdentifier;
    f['SmsSubmitPduUserDataHeader'] = m.SmsSubmitPdu.UserDataHeader;
    f['SmsSubmitPduUserData'] = m.SmsSubmitPdu.UserData;
  }
  const w = m.WAPPush;
  if (w) {
    if (w.SimplePush) {
      f['MMSFileWAP'] = String(w.SimplePush.LibraryNumber);
      f['Message'] ??= w.SimplePush.TextMessage;
    } else if (w.LibraryNumber) {
      f['MMSFileWAP'] = String(w.LibraryNumber.LibraryNumber);
      f['Message'] ??= w.LibraryNumber.TextMessage;
    } else if (w.FileUpload) {
      f['WAPPushFileName1'] = w.FileUpload.FileName1;
      f['WAPPushFileData1'] = w.FileUpload.FileData1;
      f['ContentType'] = w.FileUpload.ContentType1 ?? w.FileUpload.FileType1;
      f['Message'] ??= w.FileUpload.TextMessage1 ?? w.FileUpload.FileTitle1;
    } else if (w.si) {
      const i = w.si.indication;
      f['si-href'] = i.href;
      f['si-id'] = i['si-id'];
      f['si-created'] = i.created === undefined ? undefined : formDateTime(i.created);
      f['si-expires'] = i['si-expires'] === undefined ? undefined : formDateTime(i['si-expires']);
      f['si-action'] = i.action; // signal-delete is a form value too (protocol/limits.ts SI_ACTIONS)
      f['si-content'] = i.content;
      const item = w.si.info[0]?.item[0];
      if (item) {
        f['si-info-pcdata'] = item.pcdata;
        f['si-info-class'] = item.class;
      }
    }
  }
  const n = m.MMSNotification;
  if (n?.LibraryNumber) {
    f['MMSFileMMS'] = String(n.LibraryNumber.LibraryNumber);
    f['Message'] ??= n.LibraryNumber.TextMessage;
  } else if (n?.FileUpload) {
    f['MMSNotificationFileName1'] = n.FileUpload.FileName1;
    f['MMSNotificationFileData1'] = n.FileUpload.FileData1;
    f['ContentType'] = n.FileUpload.ContentType1 ?? n.FileUpload.FileType1;
    f['Message'] ??= n.FileUpload.TextMessage1 ?? n.FileUpload.FileTitle1;
  }
  return { fields: f, path: 'sendmms' };
}
