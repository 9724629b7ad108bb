// What every HTTP form route shares: reading GET/POST fields, authenticating, and answering in the
// requested ResponseFormat (spec 4.1) with HTTP 200 whatever the report says.
import {
  decodeForm,
  fieldBeyond,
  FormDecodeError,
  FormFieldLimitError,
  FormFields,
} from '../../protocol/form.ts';
import type { ResponseRecord } from '../../protocol/responses.ts';
import { buildFormat0, buildFormat1, buildFormat3 } from '../../protocol/responses.ts';
import { FORMAT0_INVALID_LOGIN, REPORT, describeReport, isError } from '../../protocol/reports.ts';
import type { Problem } from '../../protocol/validate.ts';
import { splitNumberList } from '../../protocol/validate.ts';
import { DEFAULT_RESPONSE_FORMAT, LIMITS, RESPONSE_FORMATS } from '../../protocol/limits.ts';
import type { ResponseFormat } from '../../protocol/limits.ts';
import type { RouteRequest, RouteResponse } from '../http.ts';

export class BodyDecodeError extends Error {}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The request's fields: the query string (GET, or extra fields on a POST's URL) followed by the
 * form body (POST). Throws FormDecodeError / BodyDecodeError for malformed input.
 */
export function readForm(req: RouteRequest): FormFields {
  // Issue 23: at most LIMITS.maxFormFields fields in all, and no push(...entries) (a spread of a
  // million arguments overflows the stack).
  const entries: Array<[string, string]> = [];
  if (req.rawQuery) {
    for (const [k, v] of decodeForm(req.rawQuery, LIMITS.maxFormFields)) entries.push([k, v]);
  }
  if (req.body.byteLength > 0) {
    // issue 24: an HTML form with a file posts multipart/form-data, which is not this interface's
    // encoding; refused as a syntax error rather than read as fields that say nothing (Invalid login)
    if (/^\s*multipart\//i.test(req.headers['content-type'] ?? ''))
      throw new BodyDecodeError('multipart bodies are not read: post application/x-www-form-urlencoded');
    const beyond = fieldBeyond(req.body, LIMITS.maxFormFields - entries.length);
    if (beyond >= 0)
      throw new FormFieldLimitError(
        LIMITS.maxFormFields,
        new TextDecoder().decode(req.body.subarray(0, beyond)).length,
      );
    let text: string;
    try {
      text = utf8.decode(req.body);
    } catch {
      throw new BodyDecodeError('request body is not UTF-8 (non-ASCII octets must be percent-encoded)');
    }
    for (const [k, v] of decodeForm(text.trim(), LIMITS.maxFormFields - entries.length)) entries.push([k, v]);
  }
  return new FormFields(entries);
}

/**
 * Best-effort fields when the request as a whole could not be decoded: every pair of the query
 * string and body that decodes on its own (so an error report can still honour ResponseFormat).
 */
export function readLeniently(req: RouteRequest): FormFields {
  const entries: Array<[string, string]> = [];
  const texts = [req.rawQuery];
  if (req.body.byteLength > 0 && req.body.byteLength <= 64 * 1024) {
    texts.push(new TextDecoder('utf-8').decode(req.body));
  } else if (req.body.byteLength > 0) {
    texts.push(new TextDecoder('utf-8').decode(req.body.subarray(0, 64 * 1024)));
  }
  let tried = 0;
  for (const text of texts) {
    for (const pair of text.split('&')) {
      if (!pair) continue;
      // Only the head of a hostile body (issue 23): an error report needs a few fields, not 30 000.
      if (++tried > LIMITS.maxFormFields) break;
      try {
        const decoded = decodeForm(pair).entries[0];
        if (decoded) entries.push([decoded[0], decoded[1]]);
      } catch {
        // skip the malformed pair
      }
    }
  }
  return new FormFields(entries);
}

export function responseFormatOf(fields: FormFields): ResponseFormat {
  const v = fields.get('ResponseFormat')?.trim() ?? '';
  return (RESPONSE_FORMATS as ReadonlyArray<string>).includes(v)
    ? (v as ResponseFormat)
    : DEFAULT_RESPONSE_FORMAT;
}

/** The record format 0 and format 1 report: the last failure if any, else the last record (spec 4.1). */
function pick(records: ResponseRecord[]): ResponseRecord | undefined {
  for (let i = records.length - 1; i >= 0; i--) {
    const r = records[i];
    if (r && isError(r.report)) return r;
  }
  return records[records.length - 1];
}

export function recordsResponse(
  format: ResponseFormat,
  records: ResponseRecord[],
  log: Record<string, unknown> = {},
): RouteResponse {
  const chosen = pick(records);
  const report = chosen?.report;
  const logged = { ...log, format, report, recipients: records.length };
  if (format === '1') return { body: buildFormat1(records), log: logged };
  if (format === '3') return { body: buildFormat3(records), log: logged };
  if (!chosen)
    return { body: buildFormat0(REPORT.syntaxError, describeReport(REPORT.syntaxError)), log: logged };
  if (chosen.report === REPORT.invalidLogin) {
    return { body: buildFormat0(FORMAT0_INVALID_LOGIN.code, FORMAT0_INVALID_LOGIN.text), log: logged };
  }
  return { body: buildFormat0(chosen.report, chosen.text ?? describeReport(chosen.report)), log: logged };
}

/** Count of records a request-level error answers with: one per SendTo number (format 3), at least one. */
function recipientCount(fields: FormFields): number {
  const sendTo = fields.get('SendTo');
  if (!sendTo) return 1;
  const n = splitNumberList(sendTo).length;
  return Math.min(Math.max(n, 1), LIMITS.maxRecipientsPerRequest * 4);
}

/** The same error for every recipient: nothing was stored, so MessageIdentifier is -1. */
export function requestError(
  fields: FormFields,
  report: string,
  text: string,
  log: Record<string, unknown> = {},
): RouteResponse {
  const rec: ResponseRecord = { messageIdentifier: '-1', report, text: text.slice(0, LIMITS.textMax) };
  const n = responseFormatOf(fields) === '3' ? recipientCount(fields) : 1;
  return recordsResponse(
    responseFormatOf(fields),
    Array.from({ length: n }, () => ({ ...rec })),
    log,
  );
}

export function invalidLogin(fields: FormFields, username: string | undefined): RouteResponse {
  return requestError(fields, REPORT.invalidLogin, describeReport(REPORT.invalidLogin), {
    username,
    auth: 'failed',
  });
}

const RECIPIENT_LIST_FIELDS = new Set(['SendTo', 'SendCc', 'SendBcc', 'N']);

/**
 * The problems that reject a whole request. A malformed number in a recipient list is not one of
 * them: spec 7.3 says every number is processed, so such a number gets its own error report from
 * the submit pipeline while the others are sent.
 */
export function requestProblems(problems: Problem[]): Problem[] {
  return problems.filter((p) => !(p.rule === 'msisdn' && RECIPIENT_LIST_FIELDS.has(p.field)));
}

/**
 * The one report code of a refused request: more than LIMITS.maxRecipientsPerRequest recipients is
 * always tooManyRecipients (however it was counted: SendTo, Cc/Bcc or address-book members), a text
 * over its parts is messageTooLong, anything else a syntax error.
 */
export function problemsReport(problems: Problem[]): string {
  if (problems.some((p) => p.rule === 'maxRecipients')) return REPORT.tooManyRecipients;
  if (problems.some((p) => p.rule === 'maxParts')) return REPORT.messageTooLong;
  return REPORT.syntaxError;
}

/** One readable sentence listing every problem (Text is at most 255 characters). */
export function problemsText(problems: Problem[]): string {
  const text = problems.map((p) => p.message).join('; ');
  return text.length > LIMITS.textMax ? text.slice(0, LIMITS.textMax - 1) + '…' : text;
}

export function isDecodeError(err: unknown): boolean {
  return err instanceof FormDecodeError || err instanceof BodyDecodeError;
}

/** The report text of a request whose fields could not be read (isDecodeError). */
export function decodeErrorText(err: unknown): string {
  if (err instanceof FormFieldLimitError)
    return `Too many fields: at most ${err.limit} fields in one request`;
  if (err instanceof FormDecodeError) return `Malformed form encoding: ${err.message}`;
  if (err instanceof BodyDecodeError) return `Malformed form encoding: ${err.message}`;
  return 'Malformed request';
}
