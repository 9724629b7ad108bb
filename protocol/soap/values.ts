// Lexical mapping of the XSD simple types the interface uses (XML Schema Part 2), both ways.
// Writing checks a value before it leaves, so a gateway or client never sends an envelope its own
// XSD would refuse; reading types the text and reports which rule failed.

import type { EnumTypeName, ScalarType } from './schema.ts';
import { SOAP_ENUMS } from './schema.ts';

const INTEGER = /^[+-]?[0-9]+$/;
const HEX = /^(?:[0-9A-Fa-f]{2})*$/;
/** xs:dateTime: date, 'T', time with optional fraction, optional zone (Z or ±hh:mm). */
const DATE_TIME =
  /^-?[0-9]{4,}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\.[0-9]+)?(Z|[+-](?:0[0-9]|1[0-3]):[0-5][0-9]|[+-]14:00)?$/;
/**
 * A date and time as servers write them (issue 24): xs:dateTime, or a space for the 'T', seconds left
 * out, a zone written ±hhmm, ±hh, UTC or GMT. Read into xs:dateTime form; a time without a zone stays
 * without one (as sent), and means UTC wherever this project turns it into an instant (dateTimeMs):
 * the rule of SendTimeAbsolute (spec 2.2, "UTC, no offset") and of the provider, a UK service.
 */
const LENIENT_DATE_TIME =
  /^(-?[0-9]{4,}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01]))[T ]((?:[01][0-9]|2[0-3]):[0-5][0-9])(:[0-5][0-9](?:\.[0-9]+)?)? ?(Z|UTC|GMT|[+-](?:0[0-9]|1[0-4])(?::?[0-5][0-9])?)?$/i;

/** The xs:dateTime form of a date and time as a server wrote it, or undefined when it is not one. */
export function readDateTime(text: string): string | undefined {
  if (DATE_TIME.test(text)) return text; // already xs:dateTime: the common case, one test
  const m = LENIENT_DATE_TIME.exec(text);
  if (m === null) return undefined;
  const [, date, hm, seconds, zone] = m;
  let z = (zone ?? '').toUpperCase();
  if (z === 'UTC' || z === 'GMT') z = 'Z';
  else if (z !== 'Z' && z !== '')
    z = z.length === 3 ? `${z}:00` : z.length === 5 ? `${z.slice(0, 3)}:${z.slice(3)}` : z;
  const out = `${date}T${hm}${seconds ?? ':00'}${z}`;
  return DATE_TIME.test(out) ? out : undefined;
}

/** An xs:dateTime with its zone said: no zone is UTC ('Z' added). The text as given when unreadable. */
export function zonedDateTime(text: string): string {
  const value = readDateTime(text.trim());
  if (value === undefined) return text;
  return /(Z|[+-]\d\d:\d\d)$/.test(value) ? value : `${value}Z`;
}

/** The instant of an xs:dateTime (or a form readDateTime reads); no zone is UTC. NaN when it is none. */
export function dateTimeMs(text: string): number {
  return readDateTime(text.trim()) === undefined ? NaN : Date.parse(zonedDateTime(text));
}

/** xs:NMTOKEN (XML 1.0 Nmtoken, NameChar production, approximated with Unicode classes). */
const NMTOKEN = /^[\p{L}\p{Nd}\p{Mn}\p{Mc}._:\u00B7-]+$/u;

type IntegerType = 'int' | 'unsignedShort' | 'positiveInteger' | 'nonNegativeInteger';
const INT_RANGE: Readonly<Record<IntegerType, readonly [number, number]>> = {
  int: [-2147483648, 2147483647],
  unsignedShort: [0, 65535],
  positiveInteger: [1, Number.MAX_SAFE_INTEGER],
  nonNegativeInteger: [0, Number.MAX_SAFE_INTEGER],
};

/** Why a value does not fit its type, or undefined when it does. Shared by writer and reader. */
function checkLexical(type: ScalarType, text: string): string | undefined {
  switch (type) {
    case 'string':
    case 'anyURI':
      return undefined;
    case 'int':
    case 'unsignedShort':
    case 'positiveInteger':
    case 'nonNegativeInteger': {
      if (!INTEGER.test(text)) return `"${text}" is not an integer`;
      const [min, max] = INT_RANGE[type];
      const n = Number(text);
      return n < min || n > max ? `${text} is outside ${type} (${min} to ${max})` : undefined;
    }
    case 'boolean':
      return ['true', 'false', '1', '0'].includes(text) ? undefined : `"${text}" is not a boolean`;
    case 'hexBinary':
      return HEX.test(text) ? undefined : `"${abbreviate(text)}" is not hexBinary (pairs of hex digits)`;
    case 'dateTime':
      return DATE_TIME.test(text) ? undefined : `"${text}" is not an xs:dateTime (YYYY-MM-DDThh:mm:ss)`;
    case 'NMTOKEN':
      return NMTOKEN.test(text) ? undefined : `"${text}" is not an NMTOKEN`;
  }
}

function abbreviate(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}...` : text;
}

export type ScalarValue = string | number | boolean;

/** Lexical form of a typed value, or an error message. */
export function writeScalar(
  type: ScalarType,
  value: unknown,
): { ok: true; text: string } | { ok: false; message: string } {
  let text: string;
  switch (type) {
    case 'int':
    case 'unsignedShort':
    case 'positiveInteger':
    case 'nonNegativeInteger':
      if (typeof value !== 'number' || !Number.isInteger(value)) {
        return { ok: false, message: `expected an integer number, got ${describe(value)}` };
      }
      text = String(value);
      break;
    case 'boolean':
      if (typeof value !== 'boolean')
        return { ok: false, message: `expected a boolean, got ${describe(value)}` };
      text = value ? 'true' : 'false';
      break;
    default:
      if (typeof value !== 'string')
        return { ok: false, message: `expected a string, got ${describe(value)}` };
      text = value;
  }
  const problem = checkLexical(type, text);
  return problem === undefined ? { ok: true, text } : { ok: false, message: problem };
}

/** Typed value of element text, or an error message. Non-string types are whitespace-collapsed first. */
export function readScalar(
  type: ScalarType,
  raw: string,
): { ok: true; value: ScalarValue } | { ok: false; message: string } {
  if (type === 'string') return { ok: true, value: raw };
  const text = raw.trim();
  if (type === 'dateTime') {
    const value = readDateTime(text);
    return value === undefined
      ? { ok: false, message: `"${text}" is not a date and time (YYYY-MM-DDThh:mm:ss, optional zone)` }
      : { ok: true, value };
  }
  const problem = checkLexical(type, text);
  if (problem !== undefined) return { ok: false, message: problem };
  switch (type) {
    case 'int':
    case 'unsignedShort':
    case 'positiveInteger':
    case 'nonNegativeInteger':
      return { ok: true, value: Number(text) };
    case 'boolean':
      return { ok: true, value: text === 'true' || text === '1' };
    case 'hexBinary':
      return { ok: true, value: text.toUpperCase() };
    default:
      return { ok: true, value: text };
  }
}

export function checkEnum(type: EnumTypeName, text: string): string | undefined {
  const allowed: readonly string[] = SOAP_ENUMS[type];
  return allowed.includes(text) ? undefined : `"${text}" is not one of ${allowed.join(', ')}`;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return `the string "${abbreviate(value)}"`;
  if (typeof value === 'object') return Array.isArray(value) ? 'an array' : 'an object';
  return `${typeof value} ${String(value)}`;
}
