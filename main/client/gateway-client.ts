// GatewayClient: the one place of the app that talks to a gateway. Every operation of the spec, typed,
// validated with protocol/ before anything is sent (all problems at once), sent through the
// failover transport, and answered with an explicit outcome. No automatic retry, ever: a report
// code that signals an error is returned as it is (spec 7.3.1), and a request that may have reached a
// server is never sent again (spec 1, 7.3.2).
import { decodeForm, encodeForm, FORM_CONTENT_TYPE } from '../../protocol/form.ts';
import { formatUtcDateTime, LIMITS } from '../../protocol/limits.ts';
import type { DeliveryOption } from '../../protocol/limits.ts';
import { childAccountFields } from '../../protocol/child-account.ts';
import type { ChildAccountInput } from '../../protocol/child-account.ts';
import {
  classifyReport,
  describeDeprecated,
  describeReport,
  isAccepted,
  REPORT,
  DEPRECATED_CODES,
} from '../../protocol/reports.ts';
import {
  parseDeprecated,
  parseFormat0,
  parseManageResponse,
  parseQueryResponse,
  parseRecordsResponse,
} from '../../protocol/responses.ts';
import type { ResponseRecord } from '../../protocol/responses.ts';
import { OPERATION_PATHS } from '../../protocol/fields.ts';
import type { Operation } from '../../protocol/fields.ts';
import { validateRequest } from '../../protocol/validate.ts';
import type { Problem } from '../../protocol/validate.ts';
import { buildRequestEnvelope, parseResponseEnvelope } from '../../protocol/soap/envelope.ts';
import { SoapBuildError, SoapFaultError } from '../../protocol/soap/errors.ts';
import { DEFAULT_SOAP_PROFILE, SOAP_CONTENT_TYPE } from '../../protocol/soap/namespaces.ts';
import type { SoapProfile } from '../../protocol/soap/namespaces.ts';
import type {
  AvailableCreditResponse,
  CollectMessagesResponse,
  MobileMessengerVersionResponse,
  SoapOperation,
  SoapRequests,
  SoapResponses,
  SubmitMessageRequest,
  SubmitMessageResponse,
} from '../../protocol/soap/operations.ts';
import { contentFields, optionFields } from './mms.ts';
import type { MmsContent, MmsOptions } from './mms.ts';
import { batches, prepareRecipients } from './recipients.ts';
import { summarize, ValidationError } from './results.ts';
import type { Progress, RecipientResult, Result, SendResult, WholeRequestError } from './results.ts';
import { HttpTransport } from './transport.ts';
import type { ServerRole, TransportOptions, TransportResult } from './transport.ts';

export const PATHS = {
  sendsms: OPERATION_PATHS.sendsms,
  sendmms: OPERATION_PATHS.sendmms,
  queryaccount: OPERATION_PATHS.queryaccount,
  manageaccount: OPERATION_PATHS.manageaccount,
  /** SOAP interface version 5 (spec 4.5, 9.1). */
  soap: '/sendsms5',
} as const;

export interface GatewayClientOptions extends TransportOptions {
  username: string;
  pin: string;
  /** ISO 3166 alpha-2 country for national numbers such as 07700 900123. */
  defaultCountry?: string | undefined;
  /** Path of the SOAP endpoint below the base URL; default /sendsms5. */
  soapPath?: string | undefined;
  soapProfile?: SoapProfile | undefined;
  /** Recipients per request; at most (and by default) the spec's 350. */
  batchSize?: number | undefined;
}

export interface CampaignOptions {
  /** Called after each request: recipients done / total. */
  onProgress?: (progress: Progress) => void;
  /** Checked between requests: a request in flight is completed, the rest are not sent. */
  signal?: AbortSignal;
}

export interface ScheduleOptions {
  /** Minutes, 1 to 10080. */
  sendTimeDelay?: number;
  /** UTC; a Date or YYYY-MM-DDTHH:MM:SS. */
  sendTimeAbsolute?: Date | string;
}

export interface RecipientOptions {
  /** Numbers as typed: international or national (with defaultCountry). */
  to?: readonly string[];
  /**
   * The numbers of `to` were already normalised by protocol/msisdn.ts (e.g. taken from the contact
   * store): only their form is checked, they are not parsed again.
   */
  recipientsNormalized?: boolean;
}

export interface SmsRequest extends ScheduleOptions, RecipientOptions {
  /** Address book name, optionally name::group. */
  toAddressBook?: string;
  text: string;
  flash?: boolean;
  replyTo?: string;
  deliveryOption?: DeliveryOption;
}

export interface MmsRequest extends ScheduleOptions, MmsOptions, RecipientOptions {
  toAddressBook?: string;
  replyTo?: string;
  content: MmsContent;
}

export interface DeprecatedSmsRequest {
  to: readonly string[];
  text: string;
}

export type ChildAccountRequest = ChildAccountInput;

export type TransferAmount = { currency: string } | { messages: number };

export interface Credit {
  currency: string;
  /** Decimal as sent by the gateway (four places). */
  credit: string;
}

/** Report codes after which the rest of a campaign is not sent: every further request would fail the same way. */
const STOP_CODES: ReadonlySet<string> = new Set([
  REPORT.invalidLogin,
  REPORT.invalidLoginQuery,
  REPORT.outOfCredit,
]);

type Fields = Record<string, string>;

export class GatewayClient {
  readonly transport: HttpTransport;
  readonly #username: string;
  readonly #pin: string;
  readonly #defaultCountry: string | undefined;
  readonly #soapPath: string;
  readonly #soapProfile: SoapProfile;
  readonly #batchSize: number;

  constructor(options: GatewayClientOptions) {
    this.transport = new HttpTransport(options);
    this.#username = options.username;
    this.#pin = options.pin;
    this.#defaultCountry = options.defaultCountry;
    this.#soapPath = options.soapPath ?? PATHS.soap;
    this.#soapProfile = options.soapProfile ?? DEFAULT_SOAP_PROFILE;
    this.#batchSize = Math.min(
      options.batchSize ?? LIMITS.maxRecipientsPerRequest,
      LIMITS.maxRecipientsPerRequest,
    );
  }

  async close(): Promise<void> {
    await this.transport.close();
  }

  // ------------------------------------------------------------------ sendsms (spec 2.2, 4.1)

  /** Text or flash SMS to any number of recipients: ceil(N/350) requests with ResponseFormat=3. */
  async sendSms(req: SmsRequest, options: CampaignOptions = {}): Promise<SendResult> {
    const base: Fields = { Username: this.#username, PIN: this.#pin };
    base[req.flash === true ? 'FlashMessage' : 'Message'] = req.text;
    if (req.replyTo !== undefined) base.ReplyTo = req.replyTo;
    if (req.deliveryOption !== undefined) base.DeliveryServiceOption = req.deliveryOption;
    Object.assign(base, scheduleFields(req));
    const first: Fields = {};
    if (req.toAddressBook !== undefined) first.SendToAddressBook = req.toAddressBook;
    return this.#campaign('sendsms', PATHS.sendsms, base, req, first, [], options);
  }

  /** The deprecated format one (UN, PIN, M, N) for old accounts: plain text, a bare code per request. */
  async sendSmsDeprecated(req: DeprecatedSmsRequest, options: CampaignOptions = {}): Promise<SendResult> {
    const prepared = prepareRecipients(req.to, this.#defaultCountry, 'N');
    const groups = batches(prepared.numbers, this.#batchSize);
    const fieldSets = groups.map((g) => ({
      UN: this.#username,
      PIN: this.#pin,
      M: req.text,
      N: g.join(','),
    }));
    this.#validate('sendsms-deprecated', fieldSets, prepared.problems);
    return this.#run(groups, fieldSets, PATHS.sendsms, prepared.duplicatesRemoved, options, (body, labels) =>
      interpretDeprecated(body, labels),
    );
  }

  // ------------------------------------------------------------------ sendmms (spec 2.4, 4.2)

  async sendMms(req: MmsRequest, options: CampaignOptions = {}): Promise<SendResult> {
    const base: Fields = { Username: this.#username, PIN: this.#pin, ...optionFields(req) };
    if (req.replyTo !== undefined) base.ReplyTo = req.replyTo;
    Object.assign(base, scheduleFields(req), contentFields(req.content));
    // Cc/Bcc and address books go with the first request only, so nobody gets the message twice.
    const first: Fields = {};
    const extraLabels: string[] = [];
    for (const [field, list] of [
      ['SendCc', req.sendCc],
      ['SendBcc', req.sendBcc],
    ] as const) {
      if (list === undefined || list.length === 0) continue;
      const prepared = prepareRecipients(list, this.#defaultCountry, field);
      if (prepared.problems.length > 0) throw new ValidationError(prepared.problems);
      first[field] = prepared.numbers.join(',');
      extraLabels.push(...prepared.numbers);
    }
    if (req.toAddressBook !== undefined) first.SendToAddressBook = req.toAddressBook;
    return this.#campaign('sendmms', PATHS.sendmms, base, req, first, extraLabels, options);
  }

  // ------------------------------------------------------------------ queryaccount (spec 4.3)

  async availableCredit(signal?: AbortSignal): Promise<Result<Credit>> {
    return this.#query('AvailableCredit', signal, (parsed) => {
      if (parsed.kind === 'AvailableCredit') return { currency: parsed.currency, credit: parsed.credit };
      return undefined;
    });
  }

  async availableMessages(signal?: AbortSignal): Promise<Result<number>> {
    return this.#query('AvailableMessages', signal, (parsed) =>
      parsed.kind === 'AvailableMessages' ? Number(parsed.messages) : undefined,
    );
  }

  async permittedReplyTo(signal?: AbortSignal): Promise<Result<string[]>> {
    return this.#query('PermittedReplyTo', signal, (parsed) =>
      parsed.kind === 'PermittedReplyTo' ? parsed.values : undefined,
    );
  }

  // ------------------------------------------------------------------ manageaccount (spec 4.4)

  async createChildAccount(
    req: ChildAccountRequest,
    signal?: AbortSignal,
  ): Promise<Result<{ username: string; pin: string }>> {
    const fields: Fields = { Username: this.#username, PIN: this.#pin, ...childAccountFields(req) };
    return this.#manage(fields, signal, (m) =>
      m.username !== undefined && m.pin !== undefined ? { username: m.username, pin: m.pin } : undefined,
    );
  }

  async deleteChildAccount(childUsername: string, signal?: AbortSignal): Promise<Result<null>> {
    const fields: Fields = {
      Username: this.#username,
      PIN: this.#pin,
      DeleteChildAccountUsername: childUsername,
    };
    return this.#manage(fields, signal, () => null);
  }

  /** Move credit or messages from this (paying) account to `toUsername`. */
  async transferFunds(
    toUsername: string,
    amount: TransferAmount,
    signal?: AbortSignal,
  ): Promise<Result<null>> {
    const fields: Fields = {
      Username: this.#username,
      PIN: this.#pin,
      TransferToAccountUsername: toUsername,
    };
    if ('currency' in amount) fields.TransferCurrencyAmount = amount.currency;
    else fields.TransferMessagesAmount = String(amount.messages);
    return this.#manage(fields, signal, () => null);
  }

  // ------------------------------------------------------------------ SOAP (spec 4.5)

  async soapSubmitMessage(
    req: Omit<SubmitMessageRequest, 'Username' | 'PIN'>,
    signal?: AbortSignal,
  ): Promise<Result<SubmitMessageResponse>> {
    const result = await this.#soap(
      'SubmitMessage',
      { Username: this.#username, PIN: this.#pin, ...req },
      signal,
    );
    if (result.outcome !== 'ok') return result;
    const report = result.value.Report;
    if (!isAccepted(report)) {
      return rejected(report, describeReport(report, result.value.Text), result.server);
    }
    return result;
  }

  async soapAvailableCredit(signal?: AbortSignal): Promise<Result<AvailableCreditResponse>> {
    return this.#soap('AvailableCredit', { Username: this.#username, PIN: this.#pin }, signal);
  }

  async soapAvailableMessages(signal?: AbortSignal): Promise<Result<number>> {
    const r = await this.#soap('AvailableMessages', { Username: this.#username, PIN: this.#pin }, signal);
    return r.outcome === 'ok' ? { ...r, value: Number(r.value.Messages) } : r;
  }

  async soapPermittedReplyTo(signal?: AbortSignal): Promise<Result<string[]>> {
    const r = await this.#soap('PermittedReplyTo', { Username: this.#username, PIN: this.#pin }, signal);
    return r.outcome === 'ok' ? { ...r, value: splitList(r.value.PermittedReplyTo) } : r;
  }

  /** Inbound messages waiting at the gateway (CollectMessages). */
  async collectMessages(signal?: AbortSignal): Promise<Result<CollectMessagesResponse>> {
    const r = await this.#soap('CollectMessages', { Username: this.#username, PIN: this.#pin }, signal);
    if (r.outcome !== 'ok') return r;
    const code = String(r.value.Report);
    if (classifyReport(code) === 'error') return rejected(code, describeReport(code), r.server);
    return r;
  }

  async mobileMessengerVersion(signal?: AbortSignal): Promise<Result<MobileMessengerVersionResponse>> {
    return this.#soap('MobileMessengerVersion', {}, signal);
  }

  // ------------------------------------------------------------------ internals

  #validate(op: Operation, fieldSets: readonly Fields[], extra: readonly Problem[] = []): void {
    const problems: Problem[] = [...extra];
    const seen = new Set<string>();
    for (const fields of fieldSets.length > 0 ? fieldSets : [{}]) {
      for (const p of validateRequest(op, fields)) {
        // SendTo problems of every request are wanted; the same problem in every request is said once.
        const key = `${p.field}\u0000${p.rule}\u0000${p.field === 'SendTo' || p.field === 'N' ? p.value : ''}`;
        if (seen.has(key)) continue;
        seen.add(key);
        problems.push(
          p.field === 'PIN' ? { ...p, value: p.value === undefined ? undefined : '(hidden)' } : p,
        );
      }
    }
    if (problems.length > 0) throw new ValidationError(problems);
  }

  async #campaign(
    op: 'sendsms' | 'sendmms',
    path: string,
    base: Fields,
    recipients: RecipientOptions,
    first: Fields,
    extraLabels: readonly string[],
    options: CampaignOptions,
  ): Promise<SendResult> {
    const prepared = prepareRecipients(
      recipients.to ?? [],
      this.#defaultCountry,
      'SendTo',
      recipients.recipientsNormalized === true,
    );
    const groups = batches(prepared.numbers, this.#batchSize);
    const hasFirstExtras = Object.keys(first).length > 0;
    if (groups.length === 0 && hasFirstExtras) groups.push([]);
    const labels = groups.map((g, i) => (i === 0 ? [...g, ...extraLabels] : g));
    const fieldSets = groups.map((g, i) => {
      const f: Fields = { ...base };
      if (g.length > 0) f.SendTo = g.join(',');
      if (i === 0) Object.assign(f, first);
      f.ResponseFormat = '3';
      return f;
    });
    this.#validate(op, fieldSets, prepared.problems);
    const addressBook = first.SendToAddressBook;
    return this.#run(labels, fieldSets, path, prepared.duplicatesRemoved, options, (body, batchLabels) =>
      interpretRecords(body, batchLabels, addressBook),
    );
  }

  /**
   * Send the prepared requests one after another; stop at a whole-account error. Deliberately not
   * concurrent: with two requests in flight, the one after an out-of-credit or invalid-login answer
   * would already be on its way, and "the rest is never sent" could not be kept. The client is not
   * the bottleneck (bench/client.ts: >50,000 recipients/s against a no-work peer).
   */
  async #run(
    labels: string[][],
    fieldSets: Fields[],
    path: string,
    duplicatesRemoved: number,
    options: CampaignOptions,
    interpret: (body: string, labels: string[]) => BatchInterpretation,
  ): Promise<SendResult> {
    const total = labels.reduce((n, l) => n + l.length, 0);
    const recipients: RecipientResult[] = [];
    let requests = 0;
    let error: WholeRequestError | undefined;
    let libraryNumber: string | undefined;
    let cancelled = false;
    let stopReason: string | undefined;
    for (let i = 0; i < fieldSets.length; i++) {
      const batchLabels = labels[i] ?? [];
      const fields = fieldSets[i] ?? {};
      if (stopReason === undefined && options.signal?.aborted === true) {
        cancelled = true;
        stopReason = 'not sent: cancelled';
      }
      if (stopReason !== undefined) {
        for (const number of batchLabels) recipients.push({ number, status: 'not-sent', text: stopReason });
        continue;
      }
      const request = i + 1;
      const res = await this.transport.post({
        path,
        body: encodeForm(fields),
        contentType: FORM_CONTENT_TYPE,
      });
      if (res.kind !== 'unsent') requests++;
      const outcome = interpretTransport(res, batchLabels, interpret);
      for (const r of outcome.results) {
        r.request = request;
        if (res.kind !== 'unsent') r.server = res.server;
        recipients.push(r);
      }
      if (outcome.libraryNumber !== undefined) libraryNumber ??= outcome.libraryNumber;
      if (outcome.error !== undefined) error ??= { ...outcome.error, request };
      if (outcome.stop) {
        stopReason = `not sent: stopped after request ${request} (${outcome.error?.message ?? 'error'})`;
      }
      options.onProgress?.({ done: recipients.length, total, requests });
    }
    if (recipients.length !== total) options.onProgress?.({ done: recipients.length, total, requests });
    return {
      ...summarize(recipients),
      recipients,
      requests,
      ...(error !== undefined ? { error } : {}),
      ...(libraryNumber !== undefined ? { libraryNumber } : {}),
      duplicatesRemoved,
      cancelled,
    };
  }

  async #single<T>(
    op: Operation,
    path: string,
    fields: Fields,
    signal: AbortSignal | undefined,
    interpret: (body: string, server: ServerRole) => Result<T>,
  ): Promise<Result<T>> {
    this.#validate(op, [fields]);
    const res = await this.transport.post({
      path,
      body: encodeForm(fields),
      contentType: FORM_CONTENT_TYPE,
      signal,
    });
    if (res.kind === 'unsent') return { outcome: 'unsent', reason: res.reason };
    if (res.kind === 'unknown') return { outcome: 'unknown', reason: res.reason, server: res.server };
    if (res.status !== 200) {
      return {
        outcome: 'unknown',
        reason: `the gateway answered HTTP ${res.status}; not sent again`,
        server: res.server,
      };
    }
    try {
      return interpret(res.body, res.server);
    } catch (err) {
      return {
        outcome: 'unknown',
        reason: `the gateway's answer could not be read: ${errorText(err)}`,
        server: res.server,
      };
    }
  }

  async #query<T>(
    operation: 'AvailableCredit' | 'AvailableMessages' | 'PermittedReplyTo',
    signal: AbortSignal | undefined,
    pick: (parsed: ParsedQuery) => T | undefined,
  ): Promise<Result<T>> {
    const fields: Fields = { Username: this.#username, PIN: this.#pin, [operation]: '' };
    return this.#single('queryaccount', PATHS.queryaccount, fields, signal, (body, server) => {
      const parsed = readQuery(body);
      if (parsed.kind === 'error')
        return rejected(parsed.code, describeReport(parsed.code, parsed.text), server);
      const value = pick(parsed);
      if (value === undefined)
        throw new Error(`expected ${operation}, got ${JSON.stringify(body.slice(0, 200))}`);
      return { outcome: 'ok', value, server };
    });
  }

  async #manage<T>(
    fields: Fields,
    signal: AbortSignal | undefined,
    pick: (m: { username?: string | undefined; pin?: string | undefined }) => T | undefined,
  ): Promise<Result<T>> {
    return this.#single('manageaccount', PATHS.manageaccount, fields, signal, (body, server) => {
      const m = parseManageResponse(body);
      if (m.report !== REPORT.success) return rejected(m.report, describeReport(m.report, m.text), server);
      const value = pick(m);
      if (value === undefined) throw new Error('success without the expected Username and PIN');
      return { outcome: 'ok', value, server };
    });
  }

  async #soap<K extends SoapOperation>(
    op: K,
    req: SoapRequests[K],
    signal: AbortSignal | undefined,
  ): Promise<Result<SoapResponses[K]>> {
    let body: string;
    try {
      body = buildRequestEnvelope(op, req, this.#soapProfile);
    } catch (err) {
      if (err instanceof SoapBuildError) {
        throw new ValidationError([
          { field: err.path, rule: 'soap-schema', value: undefined, message: err.message },
        ]);
      }
      throw err;
    }
    const res = await this.transport.post({
      path: this.#soapPath,
      body,
      contentType: SOAP_CONTENT_TYPE,
      headers: { soapaction: '""' },
      signal,
    });
    if (res.kind === 'unsent') return { outcome: 'unsent', reason: res.reason };
    if (res.kind === 'unknown') return { outcome: 'unknown', reason: res.reason, server: res.server };
    try {
      return { outcome: 'ok', value: parseResponseEnvelope(op, res.body), server: res.server };
    } catch (err) {
      if (err instanceof SoapFaultError) {
        return rejected(`soap:${err.code}`, `SOAP fault ${err.faultcode}: ${err.faultstring}`, res.server);
      }
      const status = res.status !== 200 ? `HTTP ${res.status}, ` : '';
      return {
        outcome: 'unknown',
        reason: `${status}the gateway's SOAP answer could not be read (${errorText(err)}); not sent again`,
        server: res.server,
      };
    }
  }
}

// ------------------------------------------------------------------ interpretation of answers

interface BatchInterpretation {
  results: RecipientResult[];
  error?: { code?: string; message: string };
  stop: boolean;
  libraryNumber?: string;
}

function interpretTransport(
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

  if (records.length === 1 && labels.length !== 1) {
    // One record for many recipients: a whole-request answer (invalid login) or a format 1 answer.
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
      stop: STOP_CODES.has(rec.report),
      ...withLibrary,
    };
  }
  if (records.length < labels.length || (records.length > labels.length && addressBook === undefined)) {
    throw new Error(`the gateway answered ${records.length} results for ${labels.length} recipients`);
  }
  const results = records.map((rec, i) =>
    recipientFromRecord(labels[i] ?? `${addressBook ?? 'address book'} #${i - labels.length + 1}`, rec),
  );
  const stopRecord = records.find((r) => STOP_CODES.has(r.report));
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

type ParsedQuery =
  | { kind: 'AvailableCredit'; currency: string; credit: string }
  | { kind: 'AvailableMessages'; messages: string }
  | { kind: 'PermittedReplyTo'; values: string[] }
  | { kind: 'error'; code: string; text?: string | undefined };

function readQuery(body: string): ParsedQuery {
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

function rejected(code: string, reason: string, server: ServerRole): Result<never> {
  return { outcome: 'rejected', code, reason, server };
}

function scheduleFields(s: ScheduleOptions): Fields {
  const f: Fields = {};
  if (s.sendTimeDelay !== undefined) f.SendTimeDelay = String(s.sendTimeDelay);
  if (s.sendTimeAbsolute !== undefined) {
    f.SendTimeAbsolute =
      typeof s.sendTimeAbsolute === 'string'
        ? s.sendTimeAbsolute
        : formatUtcDateTime(s.sendTimeAbsolute.getTime());
  }
  return f;
}

function splitList(value: string): string[] {
  return value
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
