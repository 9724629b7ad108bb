/**
 * Request validation against the field catalogue (fields.ts). Returns every problem at once so
 * the client can show them all before sending and the gateway can answer with all of them.
 */

import {
  CONTENT_KINDS,
  FIELDS,
  MMS_OR_WAP_CONTENT,
  PHONE_MAKE_REQUIRED,
  requiredPhoneMake,
} from './fields.ts';
import type { ContentKind, FieldSpec, ManageKind, Operation } from './fields.ts';
import { FormFields } from './form.ts';
import { analyzeText } from './sms.ts';
import {
  LIBRARY_RANGES,
  LIMITS,
  MANAGE_OPERATIONS,
  QUERY_OPERATIONS,
  inLibraryRange,
  parseUtcDateTime,
} from './limits.ts';

export interface Problem {
  field: string;
  /** Rule id: required, either, oneOf, requires, duplicate, onePair, maxLength, range, integer,
   *  decimal, enum, pattern, date, hex, library, libraryRange, msisdn, maxRecipients, extension,
   *  empty, value, udhLength. */
  rule: string;
  value: string | undefined;
  message: string;
}

/** Splits a comma-separated number list; blanks around items and empty items are dropped. */
export function splitNumberList(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** Why a number is not in the spec's international form (digits, country code, no '+'), or undefined. */
export function msisdnProblem(n: string): string | undefined {
  if (n.startsWith('+')) return 'must be written without the plus sign';
  if (n.startsWith('00')) return 'must be written without the 00 prefix';
  if (!/^\d+$/.test(n)) return 'must contain digits only';
  if (n.startsWith('0')) return 'must start with the country code, not a national 0';
  if (n.length < 7 || n.length > 15) return 'must be 7 to 15 digits with the country code';
  return undefined;
}

const USERNAME_PATTERN = /^[A-Za-z0-9.]+$/;
const PIN_PATTERN = /^[A-Za-z0-9]+$/;
const HEX_PATTERN = /^(?:[0-9A-Fa-f]{2})+$/;
const ADDRESS_BOOK_PATTERN = /^[^:]+(?:::[^:]+)?$/;
const URI_PATTERN = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s]+$/;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MIME_PATTERN = /^[A-Za-z0-9!#$&^_.+-]+\/[A-Za-z0-9!#$&^_.+-]+(?:\s*;.*)?$/;
const DECIMAL_PATTERN = /^\d+(?:\.\d{1,4})?$/;
const INTEGER_PATTERN = /^\d+$/;
const RTTTL_PATTERN = /^[^:]*:[^:]*:[\s\S]+$/;

function show(v: string): string {
  return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
}

class Collector {
  readonly problems: Problem[] = [];
  add(field: string, rule: string, value: string | undefined, message: string): void {
    // The same problem found twice (e.g. PhoneMake for two content kinds) is said once.
    if (this.problems.some((p) => p.field === field && p.rule === rule && p.value === value)) return;
    this.problems.push({ field, rule, value, message });
  }
}

function toFields(input: FormFields | Record<string, string>): FormFields {
  if (input instanceof FormFields) return input;
  const entries: Array<[string, string]> = [];
  for (const [k, v] of Object.entries(input)) if (typeof v === 'string') entries.push([k, v]);
  return new FormFields(entries);
}

/** Non-empty value of a tag, or undefined when absent or empty. */
function val(f: FormFields, name: string): string | undefined {
  const v = f.get(name);
  return v === undefined || v === '' ? undefined : v;
}

function checkLibrary(c: Collector, spec: FieldSpec, v: string): void {
  if (!INTEGER_PATTERN.test(v) || v.length > LIMITS.libraryNumberDigits) {
    c.add(
      spec.name,
      'library',
      v,
      `${spec.name} must be a library number of ${LIMITS.libraryNumberDigits} digits (got ${show(v)})`,
    );
    return;
  }
  if (spec.library !== undefined) {
    const [min, max] = LIBRARY_RANGES[spec.library];
    if (!inLibraryRange(spec.library, Number(v))) {
      c.add(
        spec.name,
        'libraryRange',
        v,
        `${spec.name} library number must be from ${min} to ${max} (got ${v})`,
      );
    }
  }
}

function checkHex(c: Collector, name: string, v: string): void {
  if (!HEX_PATTERN.test(v)) {
    c.add(name, 'hex', v, `${name} must be hex digits in pairs (got ${show(v)})`);
  }
}

/** Checks the value of one present, non-empty field against its spec. */
function checkValue(c: Collector, spec: FieldSpec, v: string, checkLength = true): void {
  const { name } = spec;
  if (checkLength && spec.maxLength !== undefined && [...v].length > spec.maxLength) {
    c.add(
      name,
      'maxLength',
      v,
      `${name} must be at most ${spec.maxLength} characters (got ${[...v].length})`,
    );
  }
  switch (spec.kind) {
    case 'username':
      if (!USERNAME_PATTERN.test(v))
        c.add(name, 'pattern', v, `${name} may contain only letters, digits and dots`);
      break;
    case 'pin':
      if (!PIN_PATTERN.test(v)) c.add(name, 'pattern', v, `${name} may contain only letters and digits`);
      break;
    case 'numberList':
      for (const n of splitNumberList(v)) {
        const why = msisdnProblem(n);
        if (why !== undefined) c.add(name, 'msisdn', n, `${name}: ${show(n)} ${why}`);
      }
      break;
    case 'msisdn': {
      const why = msisdnProblem(v.trim());
      if (why !== undefined) c.add(name, 'msisdn', v, `${name}: ${show(v)} ${why}`);
      break;
    }
    case 'countryCode':
      if (!/^[1-9]\d{0,2}$/.test(v))
        c.add(name, 'pattern', v, `${name} must be 1 to 3 digits without the plus sign`);
      break;
    case 'addressBook':
      if (!ADDRESS_BOOK_PATTERN.test(v)) {
        c.add(name, 'pattern', v, `${name} must be an address book name, optionally followed by ::group`);
      }
      break;
    case 'integer': {
      if (!INTEGER_PATTERN.test(v)) {
        c.add(name, 'integer', v, `${name} must be a whole number (got ${show(v)})`);
        break;
      }
      const n = Number(v);
      if ((spec.min !== undefined && n < spec.min) || (spec.max !== undefined && n > spec.max)) {
        const range =
          spec.max === undefined ? `at least ${spec.min}` : `from ${spec.min ?? 0} to ${spec.max}`;
        c.add(name, 'range', v, `${name} must be ${range} (got ${v})`);
      }
      break;
    }
    case 'decimal':
      if (!DECIMAL_PATTERN.test(v)) {
        c.add(name, 'decimal', v, `${name} must be an amount such as 12.50 (got ${show(v)})`);
      } else if (Number(v) <= 0) {
        c.add(name, 'range', v, `${name} must be more than zero`);
      }
      break;
    case 'enum':
      if (spec.values !== undefined && !spec.values.includes(v)) {
        c.add(name, 'enum', v, `${name} must be one of ${spec.values.join(', ')} (got ${show(v)})`);
      }
      break;
    case 'datetime':
      if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/.test(v)) {
        c.add(name, 'pattern', v, `${name} must be a UTC time YYYY-MM-DDTHH:MM:SS (got ${show(v)})`);
      } else if (parseUtcDateTime(v) === undefined) {
        c.add(name, 'date', v, `${name} is not a real date and time (got ${v})`);
      }
      break;
    case 'hex':
      checkHex(c, name, v);
      break;
    case 'library':
      checkLibrary(c, spec, v);
      break;
    case 'libraryOrHex':
      // A library number has at most 5 digits; a hex OTA bitmap is much longer.
      if (INTEGER_PATTERN.test(v) && v.length <= LIMITS.libraryNumberDigits) checkLibrary(c, spec, v);
      else checkHex(c, name, v);
      break;
    case 'ringtone':
      if (INTEGER_PATTERN.test(v) && v.length <= LIMITS.libraryNumberDigits) break;
      if (v.includes(':')) {
        if (!RTTTL_PATTERN.test(v)) c.add(name, 'pattern', v, `${name} RTTTL must be name:defaults:notes`);
      } else checkHex(c, name, v);
      break;
    case 'fileName': {
      const dot = v.lastIndexOf('.');
      const ext = dot > 0 ? v.slice(dot).toLowerCase() : '';
      if (ext.length < 2 || /[\\/]/.test(v)) {
        c.add(name, 'extension', v, `${name} must be a file name with an extension (got ${show(v)})`);
      } else if (spec.extensions !== undefined && !spec.extensions.includes(ext)) {
        c.add(name, 'extension', v, `${name} must end in ${spec.extensions.join(' or ')} (got ${show(v)})`);
      }
      break;
    }
    case 'uri':
      if (!URI_PATTERN.test(v)) c.add(name, 'pattern', v, `${name} must be an absolute URI (got ${show(v)})`);
      break;
    case 'email':
      if (!EMAIL_PATTERN.test(v))
        c.add(name, 'pattern', v, `${name} must be an e-mail address (got ${show(v)})`);
      break;
    case 'mime':
      if (!MIME_PATTERN.test(v)) c.add(name, 'pattern', v, `${name} must be a MIME type such as image/png`);
      break;
    case 'vcard':
      if (!/BEGIN:VCARD[\s\S]*END:VCARD/i.test(v))
        c.add(name, 'pattern', v, `${name} must hold BEGIN:VCARD … END:VCARD`);
      break;
    case 'vcalendar':
      if (!/BEGIN:VCALENDAR[\s\S]*END:VCALENDAR/i.test(v)) {
        c.add(name, 'pattern', v, `${name} must hold BEGIN:VCALENDAR … END:VCALENDAR`);
      }
      break;
    case 'empty':
      if (v !== '') c.add(name, 'empty', v, `${name} is sent with an empty value`);
      break;
    case 'text': {
      const { segments, encoding } = analyzeText(v);
      if (segments > LIMITS.maxMessageParts) {
        c.add(
          name,
          'maxParts',
          v,
          `${name} needs ${segments} ${encoding} parts; at most ${LIMITS.maxMessageParts} can be joined into one message`,
        );
      }
      break;
    }
    case 'string':
      break;
  }
}

function checkRequired(c: Collector, f: FormFields, name: string, why = ''): void {
  if (val(f, name) === undefined) c.add(name, 'required', f.get(name), `${name} is required${why}`);
}

function checkEither(
  c: Collector,
  f: FormFields,
  names: readonly string[],
  label = names.join(' or '),
): void {
  if (!names.some((n) => val(f, n) !== undefined)) {
    c.add(names[0]!, 'either', undefined, `${label} is required`);
  }
}

function checkExactlyOne(c: Collector, f: FormFields, names: readonly string[], label: string): string[] {
  const present = names.filter((n) => f.has(n));
  if (present.length !== 1) {
    c.add(
      present[1] ?? names[0]!,
      'oneOf',
      present.length === 0 ? undefined : present.join(','),
      present.length === 0
        ? `${label}: one of ${names.join(', ')} is required`
        : `${label}: only one of ${present.join(', ')} may be given`,
    );
  }
  return present;
}

function countRecipients(c: Collector, f: FormFields, names: readonly string[]): void {
  let total = 0;
  for (const n of names) {
    const v = f.get(n);
    if (v !== undefined) total += splitNumberList(v).length;
  }
  if (total > LIMITS.maxRecipientsPerRequest) {
    c.add(
      names[0]!,
      'maxRecipients',
      String(total),
      `At most ${LIMITS.maxRecipientsPerRequest} recipients per request (got ${total}); split the list`,
    );
  }
}

function sendmmsRules(c: Collector, f: FormFields): void {
  const specs = FIELDS.sendmms;
  checkEither(
    c,
    f,
    ['SendTo', 'SendToAddressBook', 'SendCc', 'SendBcc', 'SendCcAddressBook', 'SendBccAddressBook'],
    'SendTo (or SendToAddressBook, SendCc, SendBcc)',
  );
  countRecipients(c, f, ['SendTo', 'SendCc', 'SendBcc']);

  const kinds = CONTENT_KINDS.filter((k) => specs.some((s) => s.content === k && f.has(s.name)));
  if (kinds.length === 0) {
    c.add(
      'content',
      'oneOf',
      undefined,
      'One kind of content is required: PictureMessage, GroupGraphic, OperatorLogo, Ringtone, vCard, vCal, MMS notification, WAP push file, si-href or SMS-SUBMIT PDU fields',
    );
    return;
  }
  if (kinds.length > 1) {
    const tags = specs.filter((s) => s.content !== undefined && f.has(s.name)).map((s) => s.name);
    c.add(
      'content',
      'oneOf',
      tags.join(','),
      `Only one kind of content per request (got ${tags.join(', ')})`,
    );
  }
  for (const kind of kinds) contentRules(c, f, kind);
}

function contentRules(c: Collector, f: FormFields, kind: ContentKind): void {
  const make = val(f, 'PhoneMake');
  if (PHONE_MAKE_REQUIRED.includes(kind) && make === undefined) {
    c.add('PhoneMake', 'required', f.get('PhoneMake'), `PhoneMake is required for ${kind}`);
  }
  const only = requiredPhoneMake(kind);
  if (only !== undefined && make !== undefined && make !== only.make) {
    c.add('PhoneMake', 'value', make, `${only.what} need PhoneMake=${only.make} (got ${show(make)})`);
  }
  if (MMS_OR_WAP_CONTENT.includes(kind)) {
    // Message on MMS or WAP push: at most 50 characters (spec 8). Other content (PDU user data) is not limited so.
    const m = f.get('Message');
    if (m !== undefined && [...m].length > LIMITS.mmsMessageMax) {
      c.add(
        'Message',
        'maxLength',
        m,
        `Message on MMS or WAP push must be at most ${LIMITS.mmsMessageMax} characters (got ${[...m].length})`,
      );
    }
  }
  switch (kind) {
    case 'pictureMessage':
      checkRequired(c, f, 'PictureMessage');
      break;
    case 'groupGraphic':
      checkRequired(c, f, 'GroupGraphic');
      break;
    case 'operatorLogo':
      for (const n of ['OperatorLogo', 'MCC', 'MNC']) checkRequired(c, f, n, ' for an operator logo');
      break;
    case 'ringtone':
      checkRequired(c, f, 'Ringtone');
      break;
    case 'vcard':
      checkRequired(c, f, 'vCard');
      break;
    case 'vcalendar':
      checkRequired(c, f, 'vCal');
      break;
    case 'mmsNotification':
      fileRules(c, f, 'MMSFileMMS', 'MMSNotificationFileName1', 'MMSNotificationFileData1');
      break;
    case 'wapPushFile':
      fileRules(c, f, 'MMSFileWAP', 'WAPPushFileName1', 'WAPPushFileData1');
      break;
    case 'serviceIndication': {
      checkRequired(c, f, 'si-href', ' for a service indication');
      const pc = f.getAll('si-info-pcdata').length;
      const cl = f.getAll('si-info-class').length;
      if (pc > 1 || cl > 1) {
        c.add(
          'si-info-pcdata',
          'onePair',
          String(Math.max(pc, cl)),
          'Only one si-info-pcdata/si-info-class pair is accepted',
        );
      } else if (pc !== cl) {
        const missing = pc === 0 ? 'si-info-pcdata' : 'si-info-class';
        c.add(missing, 'requires', undefined, 'si-info-pcdata and si-info-class are given as a pair');
      }
      break;
    }
    case 'pdu': {
      for (const n of [
        'SmsSubmitPduDataCodingScheme',
        'SmsSubmitPduProtocolIdentifier',
        'SmsSubmitPduUserDataHeader',
      ]) {
        checkRequired(c, f, n, ' for an SMS-SUBMIT PDU');
      }
      checkEither(c, f, ['SmsSubmitPduUserData', 'Message']);
      const udh = val(f, 'SmsSubmitPduUserDataHeader');
      if (udh !== undefined && HEX_PATTERN.test(udh)) {
        const declared = parseInt(udh.slice(0, 2), 16);
        if (declared !== udh.length / 2 - 1) {
          c.add(
            'SmsSubmitPduUserDataHeader',
            'udhLength',
            udh,
            `SmsSubmitPduUserDataHeader declares ${declared} octets after its length octet but has ${udh.length / 2 - 1}`,
          );
        }
      }
      for (const n of ['SmsSubmitPduDataCodingScheme', 'SmsSubmitPduProtocolIdentifier']) {
        const v = val(f, n);
        if (v !== undefined && HEX_PATTERN.test(v) && v.length !== 2) {
          c.add(n, 'maxLength', v, `${n} is one octet (two hex digits)`);
        }
      }
      break;
    }
  }
}

function fileRules(c: Collector, f: FormFields, library: string, fileName: string, fileData: string): void {
  // "Either" in the spec means at least one (2.2); with both, the library number is the file sent
  // and the upload is still stored, so both are allowed.
  if (!f.has(library) && !f.has(fileName)) {
    c.add(library, 'either', undefined, `${library} or ${fileName} is required`);
  }
  if (f.has(fileName)) checkRequired(c, f, fileData, ` with ${fileName}`);
  if (f.has(fileData) && !f.has(fileName)) {
    c.add(fileData, 'requires', undefined, `${fileData} needs ${fileName}`);
  }
}

function manageRules(c: Collector, f: FormFields): void {
  const ops = checkExactlyOne(c, f, Object.values(MANAGE_OPERATIONS), 'Account management operation');
  if (ops.length !== 1) return;
  const kind = (Object.keys(MANAGE_OPERATIONS) as ManageKind[]).find((k) => MANAGE_OPERATIONS[k] === ops[0])!;
  for (const spec of FIELDS.manageaccount) {
    if (spec.manage === kind && spec.required === 'yes') checkRequired(c, f, spec.name);
  }
  if (kind === 'transfer') {
    checkExactlyOne(c, f, ['TransferCurrencyAmount', 'TransferMessagesAmount'], 'Transfer amount');
  }
}

/**
 * Every problem of a request (empty = valid). Checks required fields, "either" and exactly-one
 * groups, and each present field's format, length, range, enum and library range.
 * Unknown tags are not problems (the spec does not forbid them).
 */
export function validateRequest(op: Operation, input: FormFields | Record<string, string>): Problem[] {
  const f = toFields(input);
  const c = new Collector();
  const specs = FIELDS[op];

  for (const spec of specs)
    if (spec.required === 'yes' && spec.content === undefined && spec.manage === undefined) {
      checkRequired(c, f, spec.name);
    }
  for (const spec of specs) {
    const all = f.getAll(spec.name);
    if (all.length > 1 && spec.name !== 'si-info-pcdata' && spec.name !== 'si-info-class') {
      c.add(spec.name, 'duplicate', all.join(','), `${spec.name} is given ${all.length} times`);
    }
    const v = all[0];
    if (spec.kind === 'empty') {
      if (v !== undefined) checkValue(c, spec, v);
    } else if (v !== undefined && v !== '') {
      // sendmms Message: its 50-character limit depends on the content kind (see contentRules).
      checkValue(c, spec, v, !(op === 'sendmms' && spec.name === 'Message'));
    }
  }

  switch (op) {
    case 'sendsms':
      checkEither(c, f, ['SendTo', 'SendToAddressBook']);
      checkEither(c, f, ['Message', 'FlashMessage']);
      countRecipients(c, f, ['SendTo']);
      break;
    case 'sendsms-deprecated':
      countRecipients(c, f, ['N']);
      break;
    case 'sendmms':
      sendmmsRules(c, f);
      break;
    case 'queryaccount':
      checkExactlyOne(c, f, QUERY_OPERATIONS, 'Query operation');
      break;
    case 'manageaccount':
      manageRules(c, f);
      break;
  }
  return c.problems;
}
