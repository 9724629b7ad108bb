// Interpretation of a gateway's answers: a transport outcome and a form body become per-recipient
// results (formats 0, 1 and 3, the deprecated bare code) and the account queries' values. Pure
// functions of protocol/; GatewayClient (./gateway-client.ts) sends, this reads.
import { decodeForm } from '../../protocol/form.ts';
import {
  classifyReport,
  describeDeprecated,
  describeReport,
  isAccepted,
  DEPRECATED_CODES,
  SEND_STOP_REPORTS,
} from '../../protocol/reports.ts';
import {
  parseDeprecated,
  parseFormat0,
  parseQueryResponse,
  parseRecordsResponse,
} from '../../protocol/responses.ts';
import type { ResponseRecord } from '../../protocol/responses.ts';
import type { SoapFaultError } from '../../protocol/soap/errors.ts';
import type { RecipientResult, Result } from './results.ts';
import type { ServerRole, TransportResult } from './transport.ts';

export interface BatchInterpretation {
  results: RecipientResult[];
  error?: { code?: string; message: string };
  stop: boolean;
  libraryNumber?: string;
}

export function interpretTransport(
  res: TransportResult,
  labels: string[],
  interpret: (body: string, labels: string[]) => BatchInterpretation,
): BatchInterpretation {
  if (res.kind === 'unsent') {
    return {
      results: labels.map((number) => ({ number, status: 'not-sent', text: `not sent: ${res.reason}` })),
      error: { message: res.reason },
      stop: true,
    };
  }
  const unknown = (reason: string): BatchInterpretation => ({
    results: labels.map((number) => ({ number, status: 'unknown', text: `unknown: ${reason}` })),
    error: { message: reason },
    stop: true,
  });
  if (res.kind === 'unknown') return unknown(res.reason);
  if (res.status !== 200) return unknown(`the gateway answered HTTP ${res.status}; not sent again`);
  try {
    return interpret(res.body, labels);
  } catch (err) {
    return unknown(`the gateway's answer could not be read (${errorText(err)}); not sent again`);
  }
}

function recipientFromRecord(number: string, rec: ResponseRecord): RecipientResult {
  const classification = classifyReport(rec.report);
  const status = isAccepted(rec.report) ? 'accepted' : classification === 'error' ? 'rejected' : 'unknown';
  const result: RecipientResult = {
    number,
    status,
    report: rec.report,
    classification,
    text: describeReport(rec.report, rec.text),
  };
  if (rec.messageIdentifier !== '') result.messageIdentifier = rec.messageIdentifier;
  if (rec.libraryNumber !== undefined && rec.libraryNumber !== '') result.libraryNumber = rec.libraryNumber;
  return result;
}

/** Formats 1 and 3 (and a format 0 line from a gateway that ignored ResponseFormat). */
export function interpretRecords(
  body: string,
  labels: readonly string[],
  addressBook?: string,
): BatchInterpretation {
  let records: ResponseRecord[];
  try {
    records = parseRecordsResponse(body).records;
  } catch (err) {
    let line: { code: string; text: string };
    try {
      line = parseFormat0(body);
    } catch {
      throw err;
    }
    // A format 0 answer is one line for the whole request.
    const accepted = isAccepted(line.code);
    const message = describeReport(line.code, line.text);
    return {
      results: labels.map((number) => ({
        number,
        status: accepted ? 'accepted' : classifyReport(line.code) === 'error' ? 'rejected' : 'unknown',
        report: line.code,
        text: message,
      })),
      ...(accepted ? {} : { error: { code: line.code, message } }),
      stop: !accepted,
    };
  }
  let libraryNumber: string | undefined;
  for (const r of records)
    if (r.libraryNumber !== undefined && r.libraryNumber !== '') libraryNumber ??= r.libraryNumber;
  const withLibrary = libraryNumber !== undefined ? { libraryNumber } : {};

  if (records.length === 1 && labels.length !== 1 && !(labels.length === 0 && addressBook !== undefined)) {
    // One record for many recipients: a whole-request answer (invalid login) or a format 1 answer.
    // (A request to a book alone labels its one record as the book's.)
    const rec = records[0]!;
    const accepted = isAccepted(rec.report);
    const message = describeReport(rec.report, rec.text);
    return {
      // The record's MessageIdentifier is the last recipient's (format 1) or none at all (-1).
      results: labels.map((number, i) => {
        const r = recipientFromRecord(number, rec);
        if (!accepted) r.text = message;
        if (!accepted || i !== labels.length - 1) delete r.messageIdentifier;
        return r;
      }),
      ...(accepted ? {} : { error: { code: rec.report, message } }),
      stop: SEND_STOP_REPORTS.has(rec.report),
      ...withLibrary,
    };
  }
  if (records.length < labels.length || (records.length > labels.length && addressBook === undefined)) {
    throw new Error(`the gateway answered ${records.length} results for ${labels.length} recipients`);
  }
  const results = records.map((rec, i) =>
    recipientFromRecord(labels[i] ?? `${addressBook ?? 'address book'} #${i - labels.length + 1}`, rec),
  );
  const stopRecord = records.find((r) => SEND_STOP_REPORTS.has(r.report));
  const codes = new Set(records.map((r) => r.report));
  let error: { code: string; message: string } | undefined;
  if (stopRecord !== undefined) {
    error = { code: stopRecord.report, message: describeReport(stopRecord.report, stopRecord.text) };
  } else if (codes.size === 1 && records.length > 1 && !isAccepted(records[0]!.report)) {
    error = { code: records[0]!.report, message: describeReport(records[0]!.report, records[0]!.text) };
  }
  return {
    results,
    ...(error !== undefined ? { error } : {}),
    stop: stopRecord !== undefined,
    ...withLibrary,
  };
}

/** The deprecated format's bare code (spec 4.1, 7.2). */
export function interpretDeprecated(body: string, labels: readonly string[]): BatchInterpretation {
  const { code } = parseDeprecated(body);
  const text = `${describeDeprecated(code)} (${code})`;
  if (code === DEPRECATED_CODES.accepted) {
    return {
      results: labels.map((number) => ({ number, status: 'accepted', report: code, text })),
      stop: false,
    };
  }
  if (code === DEPRECATED_CODES.invalidLogin) {
    return {
      results: labels.map((number) => ({ number, status: 'rejected', report: code, text })),
      error: { code, message: text },
      stop: true,
    };
  }
  // 97 (or an unknown code): the code of the last failing number; which recipients failed is not said.
  const message = `${text}: at least one recipient failed; the deprecated format does not say which`;
  return {
    results: labels.map((number) => ({ number, status: 'unknown', report: code, text: message })),
    error: { code, message },
    stop: false,
  };
}

export type ParsedQuery =
  | { kind: 'AvailableCredit'; currency: string; credit: string }
  | { kind: 'AvailableMessages'; messages: string }
  | { kind: 'PermittedReplyTo'; values: string[] }
  | { kind: 'error'; code: string; text?: string | undefined };

export function readQuery(body: string): ParsedQuery {
  const form = decodeForm(body.trim());
  const report = form.get('Report');
  if (report !== undefined) return { kind: 'error', code: report, text: form.get('Text') };
  // protocol/responses.ts reads both AvailableCredit shapes (Currency=…&AvailableCredit=…, and the
  // older single "UKL 12.3400" value).
  const q = parseQueryResponse(body);
  switch (q.operation) {
    case 'AvailableCredit':
      return { kind: 'AvailableCredit', currency: q.currency, credit: q.credit };
    case 'AvailableMessages':
      return { kind: 'AvailableMessages', messages: String(q.messages) };
    case 'PermittedReplyTo':
      return { kind: 'PermittedReplyTo', values: q.replyTo };
  }
}

export function rejected(code: string, reason: string, server: ServerRole): Result<never> {
  return { outcome: 'rejected', code, reason, server };
}

/**
 * A SOAP fault as a refusal: its report code when its detail carries one (issue 24: <detail><Report>2
 * </Report></detail>, or the reference gateway's <detail>2</detail>), else "soap:<code>".
 */
export function faultRejected(err: SoapFaultError, server: ServerRole): Result<never> {
  const reason = `SOAP fault ${err.faultcode}: ${err.faultstring}`;
  return err.report !== undefined
    ? rejected(err.report, `${describeReport(err.report)} (${reason})`, server)
    : rejected(`soap:${err.code}`, reason, server);
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
