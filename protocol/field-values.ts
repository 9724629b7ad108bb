/**
 * One field's value against its spec (fields.ts): format, length, range, enum, library range.
 * validate.ts applies these to every present field and adds the rules between fields.
 */

import type { FieldSpec } from './fields.ts';
import { analyzeText } from './sms.ts';
import { LIBRARY_RANGES, LIMITS, inLibraryRange, parseUtcDateTime } from './limits.ts';

export interface Problem {
  field: string;
  /** Rule id: required, either, oneOf, requires, duplicate, onePair, maxLength, range, integer,
   *  decimal, enum, pattern, date, hex, library, libraryRange, msisdn, maxRecipients, extension,
   *  empty, value, udhLength, conflict, contentSelection, control. */
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
export const HEX_PATTERN = /^(?:[0-9A-Fa-f]{2})+$/;
const ADDRESS_BOOK_PATTERN = /^[^:]+(?:::[^:]+)?$/;
const URI_PATTERN = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s]+$/;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MIME_PATTERN = /^[A-Za-z0-9!#$&^_.+-]+\/[A-Za-z0-9!#$&^_.+-]+(?:\s*;.*)?$/;
const DECIMAL_PATTERN = /^\d+(?:\.\d{1,4})?$/;
const INTEGER_PATTERN = /^\d+$/;
const RTTTL_PATTERN = /^[^:]*:[^:]*:[\s\S]+$/;

export function show(v: string): string {
  return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
}

export class Collector {
  readonly problems: Problem[] = [];
  add(field: string, rule: string, value: string | undefined, message: string): void {
    // The same problem found twice (e.g. PhoneMake for two content kinds) is said once.
    if (this.problems.some((p) => p.field === field && p.rule === rule && p.value === value)) return;
    this.problems.push({ field, rule, value, message });
  }
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

/** Kinds whose values are lines of text: a line feed, carriage return or tab belongs in them. */
const MULTILINE_KINDS: ReadonlySet<FieldSpec['kind']> = new Set(['text', 'vcard', 'vcalendar']);

/**
 * The first control character of `v` a field of `kind` may not hold, or undefined (issue 23: %00 and
 * %1E were accepted and charged). C0 controls, DEL and C1 controls are refused; LF, CR and TAB are
 * allowed in MULTILINE_KINDS, and form feed in SMS text as well (GSM 03.38 has it, through the
 * extension table: protocol/sms.ts). Written as a loop: the lint forbids control characters in a
 * regular expression.
 */
export function controlCharacter(
  v: string,
  kind: FieldSpec['kind'],
): { index: number; code: number } | undefined {
  const multiline = MULTILINE_KINDS.has(kind);
  for (let i = 0; i < v.length; i++) {
    const code = v.charCodeAt(i);
    if ((code >= 0x20 && code < 0x7f) || code > 0x9f) continue;
    if (multiline && (code === 0x0a || code === 0x0d || code === 0x09)) continue;
    if (kind === 'text' && code === 0x0c) continue;
    return { index: i, code };
  }
  return undefined;
}

/** Checks the value of one present, non-empty field against its spec. */
export function checkValue(c: Collector, spec: FieldSpec, v: string, checkLength = true): void {
  const { name } = spec;
  const control = controlCharacter(v, spec.kind);
  if (control !== undefined) {
    const u = `U+${control.code.toString(16).toUpperCase().padStart(4, '0')}`;
    c.add(
      name,
      'control',
      v,
      `${name} contains a control character (${u}) at character ${control.index + 1}; remove it`,
    );
  }
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
