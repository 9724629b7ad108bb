/**
 * Response bodies of the HTTP form API (spec 2.5, 4.1–4.4, 7): builders for the gateway,
 * tolerant parsers for the client.
 */

import { decodeForm, decodeFormComponent, encodeForm, encodeFormComponent, splitRawForm } from './form.ts';
import { DEFAULT_CURRENCY, LIMITS, QUERY_OPERATIONS } from './limits.ts';
import type { QueryOperation } from './limits.ts';
import { FORMAT0_INVALID_LOGIN, REPORT, isAccepted } from './reports.ts';
import type { DeprecatedCode } from './reports.ts';

/** One recipient's result (spec 2.5). */
export interface ResponseRecord {
  messageIdentifier: string;
  report: string;
  text?: string;
  libraryNumber?: string;
}

/** A body that is not the kind of response the parser was asked to read. */
export class ResponseParseError extends Error {
  readonly body: string;

  constructor(message: string, body: string) {
    super(`${message}: ${JSON.stringify(body.length > 200 ? `${body.slice(0, 200)}…` : body)}`);
    this.name = 'ResponseParseError';
    this.body = body;
  }
}

/** The body for wrong credentials on queries and record responses (spec 4.3, 5.4). */
export const INVALID_LOGIN_BODY = 'MessageIdentifier=-1&Report=2&Text=Invalid%20Login';

const RECORD_TAGS = ['MessageIdentifier', 'Report', 'Text', 'LibraryNumber'] as const;

// ------------------------------------------------------------------ format 0

/** "NNN - text" (spec 4.1, format 0). */
export function buildFormat0(code: string, text: string): string {
  return `${code} - ${text.replace(/[\r\n]+/g, ' ')}`;
}

const FORMAT0 = /^(-?\d{1,3})(?:\s+-(?:\s+([\s\S]*))?)?$/;

/** Reads a format 0 line; tolerant of a trailing newline and a missing text. */
export function parseFormat0(body: string): { code: string; text: string } {
  const m = FORMAT0.exec(body.trim());
  if (m === null || m[1] === undefined) throw new ResponseParseError('not a format 0 response', body);
  return { code: m[1], text: (m[2] ?? '').trim() };
}

// ------------------------------------------------------------------ formats 1 and 3

/** Text is at most 255 characters (spec 2.5, 8); longer text is cut with an ellipsis. */
export function clampText(text: string): string {
  const chars = [...text];
  return chars.length <= LIMITS.textMax ? text : `${chars.slice(0, LIMITS.textMax - 1).join('')}…`;
}

/** Sizes of spec 2.5 that a builder must never exceed (a gateway bug, not a user error). */
function checkRecord(r: ResponseRecord): void {
  if (r.messageIdentifier.length > LIMITS.messageIdentifierMax) {
    throw new RangeError(
      `MessageIdentifier longer than ${LIMITS.messageIdentifierMax}: ${r.messageIdentifier}`,
    );
  }
  if (!/^-?\d+$/.test(r.report) || r.report.replace('-', '').length > LIMITS.reportDigits) {
    throw new RangeError(`Report must be at most ${LIMITS.reportDigits} digits: ${r.report}`);
  }
  if (
    r.libraryNumber !== undefined &&
    !new RegExp(`^\\d{1,${LIMITS.libraryNumberDigits}}$`).test(r.libraryNumber)
  ) {
    throw new RangeError(
      `LibraryNumber must be at most ${LIMITS.libraryNumberDigits} digits: ${r.libraryNumber}`,
    );
  }
}

function recordPairs(r: ResponseRecord): Array<[string, string]> {
  checkRecord(r);
  const pairs: Array<[string, string]> = [
    ['MessageIdentifier', r.messageIdentifier],
    ['Report', r.report],
  ];
  if (r.text !== undefined) pairs.push(['Text', clampText(r.text)]);
  if (r.libraryNumber !== undefined) pairs.push(['LibraryNumber', r.libraryNumber]);
  return pairs;
}

/** Format 1: one value per tag — the last failure if any failed, else the last record (spec 4.1, 7.3). */
export function buildFormat1(records: ResponseRecord[]): string {
  if (records.length === 0) throw new RangeError('buildFormat1 needs at least one record');
  let chosen = records[records.length - 1]!;
  for (let i = records.length - 1; i >= 0; i--) {
    if (!isAccepted(records[i]!.report)) {
      chosen = records[i]!;
      break;
    }
  }
  return encodeForm(recordPairs(chosen));
}

/**
 * Format 3: each tag carries one value per recipient in SendTo order, comma-separated. Every
 * value is percent-encoded on its own, so a comma inside a value is %2C and splitting the raw
 * tag value on ',' is unambiguous.
 */
export function buildFormat3(records: ResponseRecord[]): string {
  if (records.length === 0) throw new RangeError('buildFormat3 needs at least one record');
  records.forEach(checkRecord);
  // A value like the record's before it (most of a campaign's Report and Text) is not encoded again.
  const column = (pick: (r: ResponseRecord) => string | undefined): string => {
    let last: string | undefined;
    let lastEncoded = '';
    return records
      .map((r) => {
        const value = pick(r) ?? '';
        if (value !== last) {
          last = value;
          lastEncoded = encodeFormComponent(value);
        }
        return lastEncoded;
      })
      .join(',');
  };
  const parts = [
    `MessageIdentifier=${column((r) => r.messageIdentifier)}`,
    `Report=${column((r) => r.report)}`,
  ];
  if (records.some((r) => r.text !== undefined)) {
    // clampText once per distinct text, as the encoding
    let lastText: string | undefined;
    let lastClamped = '';
    const clamped = (text: string): string => {
      if (text !== lastText) {
        lastText = text;
        lastClamped = clampText(text);
      }
      return lastClamped;
    };
    parts.push(`Text=${column((r) => (r.text === undefined ? undefined : clamped(r.text)))}`);
  }
  if (records.some((r) => r.libraryNumber !== undefined))
    parts.push(`LibraryNumber=${column((r) => r.libraryNumber)}`);
  return parts.join('&');
}

/**
 * Reads a format 1 or format 3 body into records (one per recipient, in order). Tolerant: a
 * missing Text, a trailing newline, tags in any order; unknown tags are returned in `extra`.
 * When Text does not split into as many values as there are records but there is one record,
 * the whole Text is that record's (a server that did not encode commas in format 1).
 * With `expectedCount`, a body with neither 1 nor `expectedCount` records is refused.
 */
export function parseRecordsResponse(
  body: string,
  expectedCount?: number,
): { records: ResponseRecord[]; extra: Record<string, string> } {
  const raw = splitRawForm(body.trim());
  const columns = new Map<string, string>();
  const extra: Record<string, string> = {};
  for (const [rawName, rawValue] of raw) {
    const name = decodeFormComponent(rawName);
    if ((RECORD_TAGS as readonly string[]).includes(name)) {
      if (!columns.has(name)) columns.set(name, rawValue);
    } else if (!Object.hasOwn(extra, name)) {
      extra[name] = decodeFormComponent(rawValue);
    }
  }
  const reportRaw = columns.get('Report');
  if (reportRaw === undefined) throw new ResponseParseError('no Report in the response', body);
  // Values are split on the literal commas of the raw body (a comma inside a value is %2C). A
  // server that encoded the separators too (Report=-3%2C5) is read by splitting after decoding.
  const separatorsEncoded = !reportRaw.includes(',') && decodeFormComponent(reportRaw).includes(',');
  const itemsOf = (v: string): string[] =>
    separatorsEncoded
      ? decodeFormComponent(v).split(',')
      : v.split(',').map((item) => decodeFormComponent(item));
  const reports = itemsOf(reportRaw).map((s) => s.trim());
  const idsRaw = columns.get('MessageIdentifier');
  const ids = idsRaw === undefined ? [] : itemsOf(idsRaw).map((s) => s.trim());
  const count = Math.max(reports.length, ids.length);
  const column = (tag: string, trim: boolean): Array<string | undefined> | undefined => {
    const v = columns.get(tag);
    if (v === undefined) return undefined;
    const items = itemsOf(v);
    // One record (format 1) but a Text with unencoded commas: the whole value is the text.
    if (items.length !== count && count === 1) return [decodeFormComponent(v)];
    return trim ? items.map((s) => s.trim()) : items;
  };
  const texts = column('Text', false);
  const libs = column('LibraryNumber', true);
  if (expectedCount !== undefined && count !== 1 && count !== expectedCount) {
    throw new ResponseParseError(`expected ${expectedCount} records, got ${count}`, body);
  }
  const records: ResponseRecord[] = [];
  for (let i = 0; i < count; i++) {
    const rec: ResponseRecord = { messageIdentifier: ids[i] ?? '', report: reports[i] ?? '' };
    const text = texts?.[i];
    if (text !== undefined) rec.text = text;
    const lib = libs?.[i];
    if (lib !== undefined && lib !== '') rec.libraryNumber = lib;
    records.push(rec);
  }
  return { records, extra };
}

// ------------------------------------------------------------------ deprecated format one

/** The bare two-digit code of the deprecated format one (spec 4.1, 7.2). */
export function buildDeprecated(code: DeprecatedCode): string {
  return code;
}

export function parseDeprecated(body: string): { code: string } {
  const code = body.trim();
  if (!/^\d{2}$/.test(code)) throw new ResponseParseError('not a deprecated format one code', body);
  return { code };
}

// ------------------------------------------------------------------ queryaccount

export type QueryResponse =
  | { operation: 'AvailableCredit'; currency: string; credit: string; legacy?: boolean }
  | { operation: 'AvailableMessages'; messages: number }
  | { operation: 'PermittedReplyTo'; replyTo: string[] };

export interface QueryResponseInput {
  operation: QueryOperation;
  currency?: string;
  credit?: string | number;
  /** Older single-value shape: AvailableCredit=<currency> <amount>. */
  legacy?: boolean;
  messages?: number | string;
  replyTo?: readonly string[];
}

function formatCredit(credit: string | number | undefined): string {
  if (credit === undefined) return '0.0000';
  return typeof credit === 'number' ? credit.toFixed(4) : credit;
}

/** Success bodies of spec 4.3. */
export function buildQueryResponse(q: QueryResponseInput): string {
  switch (q.operation) {
    case 'AvailableCredit': {
      const currency = q.currency ?? DEFAULT_CURRENCY;
      const credit = formatCredit(q.credit);
      if (q.legacy === true) return encodeForm([['AvailableCredit', `${currency} ${credit}`]]);
      return encodeForm([
        ['Currency', currency],
        ['AvailableCredit', credit],
      ]);
    }
    case 'AvailableMessages':
      return encodeForm([['AvailableMessages', String(q.messages ?? 0)]]);
    case 'PermittedReplyTo':
      return `PermittedReplyTo=${(q.replyTo ?? []).map(encodeFormComponent).join(',')}`;
  }
}

/**
 * Reads a queryaccount success body. AvailableCredit in both shapes: `Currency=GBP&AvailableCredit=12.3456`
 * and the older `AvailableCredit=GBP 12.3456` (or `UKL 12.3456`).
 */
export function parseQueryResponse(body: string): QueryResponse {
  const form = decodeForm(body.trim());
  const credit = form.get('AvailableCredit');
  if (credit !== undefined) {
    const currencyTag = form.get('Currency');
    const value = credit.trim();
    const m = /^([A-Za-z]{3})\s+(\S+)$/.exec(value) ?? /^(\S+)\s+([A-Za-z]{3})$/.exec(value);
    if (currencyTag === undefined && m !== null) {
      const [a, b] = [m[1]!, m[2]!];
      const currencyFirst = /^[A-Za-z]{3}$/.test(a);
      return {
        operation: 'AvailableCredit',
        currency: (currencyFirst ? a : b).toUpperCase(),
        credit: currencyFirst ? b : a,
        legacy: true,
      };
    }
    return { operation: 'AvailableCredit', currency: (currencyTag ?? '').trim(), credit: value };
  }
  const messages = form.get('AvailableMessages');
  if (messages !== undefined) {
    const n = Number(messages.trim());
    if (!Number.isInteger(n) || messages.trim() === '') {
      throw new ResponseParseError('AvailableMessages is not an integer', body);
    }
    return { operation: 'AvailableMessages', messages: n };
  }
  const replyTo = form.get('PermittedReplyTo');
  if (replyTo !== undefined) {
    return {
      operation: 'PermittedReplyTo',
      replyTo: replyTo
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    };
  }
  throw new ResponseParseError(`none of ${QUERY_OPERATIONS.join(', ')} in the response`, body);
}

// ------------------------------------------------------------------ manageaccount

export interface ManageResponse {
  report: string;
  username?: string;
  pin?: string;
  text?: string;
}

/** `Report=0&Username=..&PIN=..`, `Report=0`, `Report=2&Text=...` (spec 4.4). */
export function buildManageResponse(r: {
  report: string;
  username?: string | undefined;
  pin?: string | undefined;
  text?: string | undefined;
}): string {
  const text = r.text === undefined ? undefined : clampText(r.text);
  return encodeForm({ Report: r.report, Username: r.username, PIN: r.pin, Text: text });
}

export function parseManageResponse(body: string): ManageResponse {
  const form = decodeForm(body.trim());
  const report = form.get('Report');
  if (report === undefined) throw new ResponseParseError('no Report in the response', body);
  const out: ManageResponse = { report: report.trim() };
  const username = form.get('Username');
  const pin = form.get('PIN');
  const text = form.get('Text');
  if (username !== undefined) out.username = username;
  if (pin !== undefined) out.pin = pin;
  if (text !== undefined) out.text = text;
  return out;
}

// ------------------------------------------------------------------ any

export type AnyResponse =
  | { kind: 'records'; records: ResponseRecord[]; extra: Record<string, string> }
  | { kind: 'query'; query: QueryResponse }
  | { kind: 'manage'; manage: ManageResponse }
  | { kind: 'format0'; code: string; text: string }
  | { kind: 'deprecated'; code: string }
  | { kind: 'invalidLogin'; text: string };

/**
 * Recognises any response body of the form API. Invalid login is reported as its own kind in all
 * its shapes: the record/query body (MessageIdentifier=-1&Report=2), a format 0 line starting with
 * 171, and a manageaccount `Report=2&Text=...`. The deprecated 99 stays `deprecated` (its meaning
 * depends on the request having been format one).
 */
export function parseAnyResponse(body: string): AnyResponse {
  const t = body.trim();
  if (/^\d{2}$/.test(t)) return { kind: 'deprecated', code: t };
  if (FORMAT0.test(t)) {
    const { code, text } = parseFormat0(t);
    if (code === FORMAT0_INVALID_LOGIN.code)
      return { kind: 'invalidLogin', text: text || FORMAT0_INVALID_LOGIN.text };
    return { kind: 'format0', code, text };
  }
  const form = decodeForm(t);
  const report = form.get('Report')?.trim();
  if (report !== undefined) {
    const id = form.get('MessageIdentifier')?.trim();
    if (report === REPORT.invalidLogin && (id === undefined || id === REPORT.invalidLoginQuery)) {
      return { kind: 'invalidLogin', text: form.get('Text') ?? '' };
    }
    if (id === undefined) return { kind: 'manage', manage: parseManageResponse(t) };
    return { kind: 'records', ...parseRecordsResponse(t) };
  }
  if (QUERY_OPERATIONS.some((op) => form.has(op))) return { kind: 'query', query: parseQueryResponse(t) };
  throw new ResponseParseError('not a gateway response', body);
}
