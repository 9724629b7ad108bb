/**
 * Request validation against the field catalogue (fields.ts). Returns every problem at once so
 * the client can show them all before sending and the gateway can answer with all of them.
 * One field's own value is checked by field-values.ts; the rules between fields are here.
 */

import {
  CONTENT_LABELS,
  FIELDS,
  MMS_OR_WAP_CONTENT,
  PHONE_MAKE_REQUIRED,
  requiredPhoneMake,
} from './fields.ts';
import type { FieldSpec, ManageKind, Operation } from './fields.ts';
import type { RichKind } from './kinds.ts';
import { Collector, HEX_PATTERN, checkValue, show, splitNumberList } from './field-values.ts';
import type { Problem } from './field-values.ts';
import { FormFields } from './form.ts';
import { selectFileRoute } from './content-selection.ts';
import { LIMITS, MANAGE_OPERATIONS, QUERY_OPERATIONS } from './limits.ts';

export { msisdnProblem, splitNumberList } from './field-values.ts';
export type { Problem } from './field-values.ts';

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

/**
 * SendTimeDelay and SendTimeAbsolute are two answers to one question (when to send): a request with
 * both is refused instead of silently preferring one.
 */
function scheduleRules(c: Collector, f: FormFields): void {
  if (val(f, 'SendTimeDelay') !== undefined && val(f, 'SendTimeAbsolute') !== undefined) {
    c.add(
      'SendTimeAbsolute',
      'conflict',
      f.get('SendTimeAbsolute'),
      'SendTimeDelay and SendTimeAbsolute are both given: send one of them',
    );
  }
}

/** The sendmms content kinds these fields select, in the catalogue's order (content.ts RICH_KINDS). */
export function selectedContentKinds(input: FormFields | Record<string, string>): RichKind[] {
  const f = toFields(input);
  const kinds: RichKind[] = [];
  for (const s of FIELDS.sendmms)
    if (s.content !== undefined && f.has(s.name) && !kinds.includes(s.content)) kinds.push(s.content);
  return kinds;
}

/** "A, B … or Z": the content kinds in the catalogue's order, as the problem of none names them. */
const CONTENT_CHOICES = ((labels: string[]) => `${labels.slice(0, -1).join(', ')} or ${labels.at(-1)}`)(
  [...new Set(FIELDS.sendmms.flatMap((s) => (s.content === undefined ? [] : [s.content])))].map(
    (k) => CONTENT_LABELS[k].label,
  ),
);

function sendmmsRules(c: Collector, f: FormFields, scope: ValidationScope): void {
  const specs = FIELDS.sendmms;
  if (scope === 'request') {
    checkEither(
      c,
      f,
      ['SendTo', 'SendToAddressBook', 'SendCc', 'SendBcc', 'SendCcAddressBook', 'SendBccAddressBook'],
      'SendTo (or SendToAddressBook, SendCc, SendBcc)',
    );
    countRecipients(c, f, ['SendTo', 'SendCc', 'SendBcc']);
  }

  const kinds = selectedContentKinds(f);
  if (kinds.length === 0) {
    c.add('content', 'oneOf', undefined, `One kind of content is required: ${CONTENT_CHOICES}`);
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

function contentRules(c: Collector, f: FormFields, kind: RichKind): void {
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
  // The kind's required fields (fields.ts); the rules between its fields follow.
  const { requiredFor } = CONTENT_LABELS[kind];
  for (const spec of FIELDS.sendmms)
    if (spec.content === kind && spec.required === 'yes')
      checkRequired(c, f, spec.name, requiredFor === undefined ? '' : ` for ${requiredFor}`);
  switch (kind) {
    case 'mms':
      fileRules(c, f, 'MMSFileMMS', 'MMSNotificationFileName1', 'MMSNotificationFileData1');
      break;
    case 'wapPush': {
      fileRules(c, f, 'MMSFileWAP', 'WAPPushFileName1', 'WAPPushFileData1');
      // content selection (spec 2.4, content-selection.ts): an MMS presentation goes in an MMS
      // notification and a .jad through si-href, never as a WAP push file
      const name = val(f, 'WAPPushFileName1');
      const route = name === undefined ? undefined : selectFileRoute(name);
      if (route !== undefined && route.route !== 'wapPush')
        c.add('WAPPushFileName1', 'contentSelection', name, `WAPPushFileName1: ${route.reason}`);
      break;
    }
    case 'serviceIndication': {
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
 * What validateRequest checks: the whole request, or the content alone (content.ts
 * contentProblems): then credentials and recipients are neither required nor counted.
 */
export type ValidationScope = 'request' | 'content';

/** Fields a content-scope check does not require (the account's, not the content's). */
const CREDENTIAL_KINDS: ReadonlyArray<FieldSpec['kind']> = ['username', 'pin'];

/**
 * Every problem of a request (empty = valid). Checks required fields, "either" and exactly-one
 * groups, and each present field's format, length, range, enum and library range.
 * Unknown tags are not problems (the spec does not forbid them).
 */
export function validateRequest(
  op: Operation,
  input: FormFields | Record<string, string>,
  scope: ValidationScope = 'request',
): Problem[] {
  const f = toFields(input);
  const c = new Collector();
  const specs = FIELDS[op];

  for (const spec of specs)
    if (spec.required === 'yes' && spec.content === undefined && spec.manage === undefined) {
      if (scope === 'content' && CREDENTIAL_KINDS.includes(spec.kind)) continue;
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
      if (scope === 'request') checkEither(c, f, ['SendTo', 'SendToAddressBook']);
      checkEither(c, f, ['Message', 'FlashMessage']);
      scheduleRules(c, f);
      if (scope === 'request') countRecipients(c, f, ['SendTo']);
      break;
    case 'sendsms-deprecated':
      countRecipients(c, f, ['N']);
      break;
    case 'sendmms':
      scheduleRules(c, f);
      sendmmsRules(c, f, scope);
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
