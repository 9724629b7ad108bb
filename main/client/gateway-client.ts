// GatewayClient: the one place of the app that talks to a gateway. Every operation of the spec, typed,
// validated with protocol/ before anything is sent (all problems at once), sent through the
// failover transport, and answered with an explicit outcome. No automatic retry, ever: a report
// code that signals an error is returned as it is (spec 7.3.1), and a request that may have reached a
// server is never sent again (spec 1, 7.3.2). Request fields: ./requests.ts; sends to many
// recipients: ./campaign.ts; reading the answers: ./interpret.ts.
import { encodeForm, FORM_CONTENT_TYPE } from '../../protocol/form.ts';
import { LIMITS } from '../../protocol/limits.ts';
import { classifyReport, describeReport, isAccepted, REPORT } from '../../protocol/reports.ts';
import { parseManageResponse } from '../../protocol/responses.ts';
import type { Operation } from '../../protocol/fields.ts';
import { buildRequestEnvelope } from '../../protocol/soap/envelope.ts';
import { SoapBuildError, SoapFaultError } from '../../protocol/soap/errors.ts';
import { SENDSMS5_PROFILE, SOAP_CONTENT_TYPE } from '../../protocol/soap/namespaces.ts';
import type { SoapProfile } from '../../protocol/soap/namespaces.ts';
import type {
  AvailableCreditResponse,
  CollectMessagesResponse,
  MOMessage,
  MobileMessengerVersionResponse,
  SoapOperation,
  SoapRequests,
  SoapResponses,
  SubmitMessageRequest,
  SubmitMessageResponse,
} from '../../protocol/soap/operations.ts';
import { runCampaign, runRequests, validateFieldSets } from './campaign.ts';
import type { CampaignSetup, Post } from './campaign.ts';
import { errorText, interpretDeprecated, interpretRecords, readQuery, rejected } from './interpret.ts';
import { faultRejected } from './interpret.ts';
import type { BatchInterpretation, ParsedQuery } from './interpret.ts';
import { batches, prepareRecipients } from './recipients.ts';
import {
  addressBooksOf,
  createChildFields,
  deleteChildFields,
  mmsFields,
  smsFields,
  splitList,
  transferFields,
} from './requests.ts';
import type {
  CampaignFields,
  CampaignOptions,
  ChildAccountRequest,
  Credit,
  DeprecatedSmsRequest,
  Fields,
  RecipientOptions,
  MmsRequest,
  SmsRequest,
  TransferAmount,
} from './requests.ts';
import { ValidationError } from './results.ts';
import type { Result, SendResult } from './results.ts';
import { readSoapAnswer, soapStream } from './soap-stream.ts';
import { HttpTransport } from './transport.ts';
import { SoapNamespaces, type SoapNamespaceInUse } from './soap-namespace.ts';
import { reachOf, type AddressBookEntry } from './address-books.ts';
import type { ServerRole } from './transport.ts';
import { PATHS } from './client-options.ts';
import type { FormSendOutcome, GatewayClientOptions } from './client-options.ts';

export { interpretDeprecated, interpretRecords };
export type { BatchInterpretation };
export type {
  CampaignOptions,
  ChildAccountRequest,
  Credit,
  DeprecatedSmsRequest,
  MmsRequest,
  RecipientOptions,
  ScheduleOptions,
  SmsRequest,
  TransferAmount,
} from './requests.ts';

export { PATHS } from './client-options.ts';
export type { FormSendOutcome, GatewayClientOptions } from './client-options.ts';

export class GatewayClient {
  readonly #transport: HttpTransport;
  readonly #username: string;
  readonly #pin: string;
  readonly #defaultCountry: string | undefined;
  readonly #soapPath: string;
  /** The namespaces in use: pinned at construction, else learned on the first SOAP call. */
  readonly #soapNamespaces: SoapNamespaces;
  readonly #batchSize: number;

  constructor(options: GatewayClientOptions) {
    this.#transport = new HttpTransport(options);
    this.#username = options.username;
    this.#pin = options.pin;
    this.#defaultCountry = options.defaultCountry;
    this.#soapPath = options.soapPath ?? PATHS.soap;
    const pinned: SoapProfile | undefined =
      options.soapProfile ??
      (options.soapTypesNamespace !== undefined && options.soapTypesNamespace !== ''
        ? { ...SENDSMS5_PROFILE, typesNamespace: options.soapTypesNamespace }
        : undefined);
    this.#soapNamespaces = new SoapNamespaces((path, signal) => this.#transport.get(path, signal), pinned);
    this.#batchSize = Math.min(
      options.batchSize ?? LIMITS.maxRecipientsPerRequest,
      LIMITS.maxRecipientsPerRequest,
    );
  }

  /** Closes the connections once the requests under way have finished. */
  async close(): Promise<void> {
    await this.#transport.close();
  }

  /** Closes the connections at once, requests under way included (tests, shutdown). */
  async destroy(): Promise<void> {
    await this.#transport.destroy();
  }

  get #login(): { username: string; pin: string } {
    return { username: this.#username, pin: this.#pin };
  }

  readonly #post: Post = (req) => this.#transport.post(req);

  // ------------------------------------------------------------------ sendsms (spec 2.2, 4.1)

  /** Text or flash SMS to any number of recipients: ceil(N/350) requests with ResponseFormat=3. */
  async sendSms(req: SmsRequest, options: CampaignOptions = {}): Promise<SendResult> {
    const setup = await this.#setup('sendsms', smsFields(this.#login, req), req);
    return runCampaign(this.#post, setup, options);
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
    validateFieldSets('sendsms-deprecated', fieldSets, prepared.problems);
    return runRequests(
      this.#post,
      groups,
      fieldSets,
      PATHS.sendsms,
      prepared.duplicatesRemoved,
      options,
      (body, labels) => interpretDeprecated(body, labels),
    );
  }

  // ------------------------------------------------------------------ sendmms (spec 2.4, 4.2)

  async sendMms(req: MmsRequest, options: CampaignOptions = {}): Promise<SendResult> {
    const fields = mmsFields(this.#login, req, this.#defaultCountry);
    return runCampaign(this.#post, await this.#setup('sendmms', fields, req), options);
  }

  /** One sendsms/sendmms request of the app's content as this account; `to`, then `book`, label the answer. */
  async sendFormFields(
    operation: 'sendsms' | 'sendmms',
    fields: Fields,
    to: readonly string[],
    book?: string,
  ): Promise<FormSendOutcome> {
    const res = await this.#post({
      path: PATHS[operation],
      body: encodeForm({ ...fields, Username: this.#username, PIN: this.#pin }),
      contentType: FORM_CONTENT_TYPE,
    });
    if (res.kind === 'unsent') return { outcome: 'unsent', reason: res.reason };
    if (res.kind === 'unknown') return { outcome: 'unknown', reason: res.reason, cause: res.cause };
    if (res.status !== 200)
      return {
        outcome: 'unknown',
        reason: `the gateway answered HTTP ${res.status}`,
        cause: 'answer-unreadable',
      };
    try {
      return { outcome: 'answered', value: interpretRecords(res.body, to, book) };
    } catch (err) {
      return { outcome: 'unknown', reason: errorText(err), cause: 'answer-unreadable' };
    }
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
    return this.#manage(createChildFields(this.#login, req), signal, (m) =>
      m.username !== undefined && m.pin !== undefined ? { username: m.username, pin: m.pin } : undefined,
    );
  }

  async deleteChildAccount(childUsername: string, signal?: AbortSignal): Promise<Result<null>> {
    return this.#manage(deleteChildFields(this.#login, childUsername), signal, () => null);
  }

  /** Move credit or messages from this (paying) account to `toUsername`. */
  async transferFunds(
    toUsername: string,
    amount: TransferAmount,
    signal?: AbortSignal,
  ): Promise<Result<null>> {
    return this.#manage(transferFields(this.#login, toUsername, amount), signal, () => null);
  }

  // ------------------------------------------------------------------ SOAP (spec 4.5)

  async soapSubmitMessage(
    req: Omit<SubmitMessageRequest, 'Username' | 'PIN'>,
    signal?: AbortSignal,
  ): Promise<Result<SubmitMessageResponse>> {
    const result = await this.#soap('SubmitMessage', { ...this.#credentials, ...req }, signal);
    if (result.outcome !== 'ok') return result;
    const report = result.value.Report;
    if (!isAccepted(report)) {
      return rejected(report, describeReport(report, result.value.Text), result.server);
    }
    return result;
  }

  async soapAvailableCredit(signal?: AbortSignal): Promise<Result<AvailableCreditResponse>> {
    return this.#soap('AvailableCredit', this.#credentials, signal);
  }

  async soapAvailableMessages(signal?: AbortSignal): Promise<Result<number>> {
    const r = await this.#soap('AvailableMessages', this.#credentials, signal);
    return r.outcome === 'ok' ? { ...r, value: Number(r.value.Messages) } : r;
  }

  async soapPermittedReplyTo(signal?: AbortSignal): Promise<Result<string[]>> {
    const r = await this.#soap('PermittedReplyTo', this.#credentials, signal);
    return r.outcome === 'ok' ? { ...r, value: splitList(r.value.PermittedReplyTo) } : r;
  }

  /**
   * Inbound messages waiting at the gateway (CollectMessages), the whole answer in memory. For an
   * answer of any size use collectMessagesStreaming, which hands the messages over as they are read.
   */
  async collectMessages(signal?: AbortSignal): Promise<Result<CollectMessagesResponse>> {
    const item: MOMessage[] = [];
    const r = await this.collectMessagesStreaming((items) => {
      item.push(...items);
    }, signal);
    return r.outcome === 'ok' ? { ...r, value: { Report: r.value.Report, MessageList: { item } } } : r;
  }

  /**
   * One CollectMessages call whose answer is read as it arrives (issue 16): `keep` gets the messages
   * in order, in batches (one per chunk of the body), and must have kept them (stored, printed) when
   * it returns; the next batch is read after that. No size limit applies to the answer, only to each
   * message (SOAP_MAX_BYTES), so memory stays bounded. Messages handed to `keep` stay kept even when
   * the answer later breaks off or turns out malformed; the result then says how many came first.
   * An error `keep` throws is thrown from here, after the connection is closed. `raw` (issue 25)
   * gets each chunk of the body as received, before it is parsed (the app spools it to disk).
   */
  async collectMessagesStreaming(
    keep: (items: MOMessage[]) => void | Promise<void>,
    signal?: AbortSignal,
    raw?: (chunk: Uint8Array, charset: string | undefined) => void,
  ): Promise<Result<{ Report: number; count: number }>> {
    let keepError: { error: unknown } | undefined;
    const inUse = await this.soapNamespace(signal);
    const res = await soapStream(
      this.#transport,
      { path: this.#soapPath, profile: inUse.profile },
      'CollectMessages',
      { Username: this.#username, PIN: this.#pin },
      signal,
      async (items) => {
        try {
          await keep(items);
        } catch (error) {
          keepError = { error };
          throw error;
        }
      },
      raw &&
        ((chunk, charset) => {
          try {
            raw(chunk, charset);
          } catch (error) {
            keepError = { error };
            throw error;
          }
        }),
    );
    if (keepError !== undefined) throw keepError.error;
    // a namespace fault: the WSDL is read again before the next call (this one is not repeated)
    if (res.outcome === 'rejected' && res.code.startsWith('soap:'))
      this.#soapNamespaces.faulted(inUse, res.reason);
    if (res.outcome !== 'ok') return res;
    const code = String(res.value.response.Report);
    if (classifyReport(code) === 'error') return rejected(code, describeReport(code), res.server);
    return { ...res, value: { Report: res.value.response.Report, count: res.value.count } };
  }

  /** QueryAddressBook: the members of one server book, one group of it, or (no name) every book. */
  async queryAddressBook(
    book?: string,
    group?: string,
    signal?: AbortSignal,
  ): Promise<Result<AddressBookEntry[]>> {
    const names = {
      ...(book !== undefined ? { AddressBookName: book } : {}),
      ...(group !== undefined ? { AddressBookGroupName: group } : {}),
    };
    const r = await this.#soap('QueryAddressBook', { ...this.#credentials, ...names }, signal);
    return r.outcome === 'ok' ? { ...r, value: r.value.AddressBookEntryList.item } : r;
  }

  get #credentials(): { Username: string; PIN: string } {
    return { Username: this.#username, PIN: this.#pin };
  }

  async mobileMessengerVersion(signal?: AbortSignal): Promise<Result<MobileMessengerVersionResponse>> {
    return this.#soap('MobileMessengerVersion', {}, signal);
  }

  /**
   * The SOAP namespaces this client speaks: pinned, or read from the gateway's WSDL once (again
   * after a fault about the namespace), or the provider's published values when no WSDL can be read.
   */
  soapNamespace(signal?: AbortSignal): Promise<SoapNamespaceInUse> {
    return this.#soapNamespaces.inUse(signal);
  }

  // ------------------------------------------------------------------ internals

  /** A campaign's setup; its address books are sized with QueryAddressBook first (campaign.ts). */
  async #setup(
    op: 'sendsms' | 'sendmms',
    fields: CampaignFields,
    recipients: RecipientOptions,
  ): Promise<CampaignSetup> {
    const books = addressBooksOf(fields.first);
    const firstReach =
      books.length === 0
        ? fields.extraLabels.length
        : await reachOf((b, g) => this.queryAddressBook(b, g), books, fields.extraLabels.length);
    return {
      op,
      path: PATHS[op],
      fields,
      recipients,
      defaultCountry: this.#defaultCountry,
      batchSize: this.#batchSize,
      firstReach,
    };
  }

  async #single<T>(
    op: Operation,
    path: string,
    fields: Fields,
    signal: AbortSignal | undefined,
    interpret: (body: string, server: ServerRole) => Result<T>,
  ): Promise<Result<T>> {
    validateFieldSets(op, [fields]);
    const res = await this.#transport.post({
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
    const inUse = await this.soapNamespace(signal);
    let body: string;
    try {
      body = buildRequestEnvelope(op, req, inUse.profile);
    } catch (err) {
      if (err instanceof SoapBuildError) {
        throw new ValidationError([
          { field: err.path, rule: 'soap-schema', value: undefined, message: err.message },
        ]);
      }
      throw err;
    }
    const res = await this.#transport.postBinary({
      path: this.#soapPath,
      body,
      contentType: SOAP_CONTENT_TYPE,
      headers: { soapaction: '""' },
      signal,
    });
    if (res.kind === 'unsent') return { outcome: 'unsent', reason: res.reason };
    if (res.kind === 'unknown') return { outcome: 'unknown', reason: res.reason, server: res.server };
    try {
      return { outcome: 'ok', value: readSoapAnswer(op, res.body), server: res.server };
    } catch (err) {
      if (err instanceof SoapFaultError) {
        // read the WSDL again before the next call (this one is not repeated)
        this.#soapNamespaces.faulted(inUse, err.faultstring);
        return faultRejected(err, res.server);
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
