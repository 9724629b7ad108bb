// Push receiver: a small SOAP endpoint the app can run (opt-in; loopback by default, LAN when asked)
// so that a gateway configured with the app's URL pushes delivery receipts (SubmitDeliveryReceipt)
// and inbound messages (DeliverMessage) instead of the app polling CollectMessages (spec 4.5, 6).
//
// Every push must carry the account's Username; when the receiver is given the PIN it also requires
// the PIN (compared in constant time). A push with wrong credentials is answered with report 2
// (invalid login) in a normal response, as the gateway itself does (report codes are not faults),
// and is not emitted. Malformed XML, DOCTYPE/entities and oversize bodies are refused by protocol/soap.
//
// Issue 17: a web page could post a DeliverMessage here (a form post carries no credentials but
// the Username). So the path is unguessable (/push/<128 random bits> unless one is given), a push
// must be a SOAP content type (text/xml or application/soap+xml: a page can only send one after a
// CORS preflight, which this server never answers), and any request with an Origin (a browser's)
// is refused.
import { EventEmitter } from 'node:events';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { timingSafeEqual, createHash, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { buildFault, buildResponseEnvelope, parseRequestEnvelope } from '../../protocol/soap/envelope.ts';
import { charsetOf } from '../../protocol/soap/xml-encoding.ts';
import { SoapParseError } from '../../protocol/soap/errors.ts';
import { DEFAULT_SOAP_PROFILE, SOAP_CONTENT_TYPE } from '../../protocol/soap/namespaces.ts';
import type { SoapProfile } from '../../protocol/soap/namespaces.ts';
import type { DeliverMessageRequest, SubmitDeliveryReceiptRequest } from '../../protocol/soap/operations.ts';
import { buildWsdl } from '../../protocol/soap/wsdl.ts';

export interface PushReceiverOptions {
  username: string;
  /** When given, every push must carry this PIN too. */
  pin?: string | undefined;
  /** Interface to listen on: 127.0.0.1 (default) or a LAN address / 0.0.0.0 when the user opts in. */
  host?: string | undefined;
  port?: number | undefined;
  /** URL path of the endpoint; default /push/<32 random hex digits> (see newPushPath). */
  path?: string | undefined;
  maxBytes?: number | undefined;
  profile?: SoapProfile | undefined;
  /**
   * Issue 25: keeps a DeliverMessage's raw body on disk before the message is handed on or
   * answered: `keep` returns a token that the 'message' event carries (the listener stores the
   * message and ends the entry); a message refused (wrong credentials) is `drop`ped. Receipts and
   * unreadable bodies are not kept (issue 27). When `keep` throws (a full disk) the push is
   * answered with a server fault, so the gateway keeps the message for a later push or poll.
   */
  spool?: { keep(body: Uint8Array, charset?: string): string; drop(token: string): void } | undefined;
  /**
   * Issue 27 item 6: records the receipts pushed in one turn of the event loop together (the app's
   * journal writes them in one transaction: a commit per receipt was most of a receipt's store time
   * while a campaign's receipts arrive by the thousand) and tells, per receipt, whether it is stored.
   * Each push is answered only after this returns: a stored receipt as accepted, one not stored (false,
   * or this threw) with a server fault, so the gateway pushes it again; a receipt is never
   * acknowledged before it is on disk. Without it each receipt is emitted as 'receipt' and answered
   * after its listeners return (a listener that throws gets the push a fault).
   */
  recordReceipts?: ((receipts: readonly DeliveryReceipt[]) => readonly boolean[]) | undefined;
}

/** A delivery receipt, without the credentials it came with. */
export type DeliveryReceipt = Omit<SubmitDeliveryReceiptRequest, 'Username' | 'PIN'>;
/** An inbound (mobile-originated) message, without the credentials it came with. */
export type InboundMessage = Omit<DeliverMessageRequest, 'Username' | 'PIN'>;

export interface PushReceiverEvents {
  receipt: [DeliveryReceipt];
  /** The message, and its spool token when the receiver has a spool (options.spool). */
  message: [InboundMessage, string | undefined];
  /** A push that was refused: wrong credentials, malformed, or an operation this receiver does not take. */
  refused: [{ reason: string; remoteAddress: string | undefined }];
}

const DEFAULT_MAX_BYTES = 1024 * 1024;

type Parsed = ReturnType<typeof parseRequestEnvelope>;

/** A receipt read and waiting for this turn's recordReceipts, with the push to answer. */
interface HeldReceipt {
  receipt: DeliveryReceipt;
  res: ServerResponse;
}

/** An unguessable endpoint path (kept with the port so that the address survives restarts). */
export function newPushPath(): string {
  return `/push/${randomBytes(16).toString('hex')}`;
}

const SOAP_TYPES = /^\s*(text\/xml|application\/soap\+xml)\s*(;|$)/i;

export class PushReceiver extends EventEmitter<PushReceiverEvents> {
  readonly #options: PushReceiverOptions;
  readonly #path: string;
  readonly #server: Server;
  #url: string | undefined;
  #sequence = 0;
  /** The credentials' digests, made once (`same` compares a push's against them). */
  readonly #username: Buffer;
  readonly #pin: Buffer | undefined;
  /** Receipts read in this turn of the event loop, recorded together by #recordHeld. */
  #held: HeldReceipt[] = [];
  #heldTimer: NodeJS.Immediate | null = null;

  constructor(options: PushReceiverOptions) {
    super();
    this.#options = options;
    this.#path = options.path ?? newPushPath();
    this.#username = digest(options.username);
    this.#pin = options.pin === undefined ? undefined : digest(options.pin);
    this.#server = createServer((req, res) => {
      this.#handle(req, res).catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': SOAP_CONTENT_TYPE });
        res.end(buildFault('soap:Server', err instanceof Error ? err.message : 'internal error'));
      });
    });
    this.#server.requestTimeout = 30_000;
  }

  /** Start listening; resolves with the URL to configure at the gateway. */
  async listen(): Promise<string> {
    const host = this.#options.host ?? '127.0.0.1';
    await new Promise<void>((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(this.#options.port ?? 0, host, () => {
        this.#server.off('error', reject);
        resolve();
      });
    });
    const { port } = this.#server.address() as AddressInfo;
    const shownHost = host.includes(':') ? `[${host}]` : host;
    this.#url = `http://${shownHost}:${port}${this.#path}`;
    return this.#url;
  }

  get url(): string | undefined {
    return this.#url;
  }

  async close(): Promise<void> {
    // Receipts read and not yet recorded are recorded and answered first (the store is still open).
    this.#recordHeld();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.headers.origin !== undefined) {
      // A browser's request (a web page): gateways do not send an Origin.
      req.resume();
      this.emit('refused', {
        reason: 'a request from a web page (Origin)',
        remoteAddress: req.socket.remoteAddress,
      });
      res
        .writeHead(403, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' })
        .end('forbidden\n');
      return;
    }
    const url = new URL(req.url ?? '/', 'http://receiver');
    if (url.pathname !== this.#path) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
      return;
    }
    if (req.method === 'GET' && url.search.toLowerCase() === '?wsdl') {
      const wsdl = buildWsdl({
        endpointUrl: this.#url ?? '',
        profile: this.#options.profile ?? DEFAULT_SOAP_PROFILE,
      });
      res.writeHead(200, { 'content-type': 'text/xml; charset=utf-8' }).end(wsdl);
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST', 'content-type': 'text/plain; charset=utf-8' }).end('POST only\n');
      return;
    }
    const remoteAddress = req.socket.remoteAddress;
    if (!SOAP_TYPES.test(req.headers['content-type'] ?? '')) {
      req.resume();
      this.emit('refused', { reason: 'not a SOAP content type', remoteAddress });
      res
        .writeHead(415, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' })
        .end('a push is SOAP: text/xml or application/soap+xml\n');
      return;
    }
    const max = this.#options.maxBytes ?? DEFAULT_MAX_BYTES;
    const body = await readBody(req, max);
    if (body === undefined) {
      this.emit('refused', { reason: `body larger than ${max} bytes`, remoteAddress });
      fault(res, 413, 'soap:Client', `request larger than ${max} bytes`);
      return;
    }
    const charset = charsetOf(req.headers['content-type']);
    let parsed: Parsed;
    try {
      parsed = parseRequestEnvelope(body, { maxBytes: max, charset });
    } catch (err) {
      const reason = err instanceof SoapParseError ? err.message : 'unreadable request';
      this.emit('refused', { reason, remoteAddress });
      fault(res, 500, 'soap:Client', reason);
      return;
    }
    // Issue 27: only a message is spooled. A receipt is recorded by the listener before it is
    // answered (the gateway pushes it again otherwise), and a spooled receipt was never read again
    // (pushedMessage takes messages only): its fsynced spool write was all cost, one per receipt.
    const spool = parsed.operation === 'DeliverMessage' ? this.#options.spool : undefined;
    let token: string | undefined;
    if (spool) {
      try {
        token = spool.keep(body, charset); // the charset too: the body is read with it again after a crash
      } catch (err) {
        const reason = `the push could not be kept: ${err instanceof Error ? err.message : String(err)}`;
        this.emit('refused', { reason, remoteAddress });
        fault(res, 500, 'soap:Server', reason);
        return;
      }
    }
    // Everything but a message (stored by the listener with its token) ends its spool entry here;
    // when answering threw (the listener could not store), the entry stays to be read again.
    let kept: boolean | undefined;
    try {
      kept = this.#answer(parsed, res, remoteAddress, token);
    } finally {
      if (token !== undefined && kept === false) spool?.drop(token);
    }
  }

  /** Answers the push read into `parsed`; true when it was a message handed to the listener. */
  #answer(parsed: Parsed, res: ServerResponse, remoteAddress: string | undefined, token?: string): boolean {
    const profile = this.#options.profile ?? DEFAULT_SOAP_PROFILE;
    if (parsed.operation !== 'SubmitDeliveryReceipt' && parsed.operation !== 'DeliverMessage') {
      const reason = `operation ${parsed.operation} is not taken by this receiver`;
      this.emit('refused', { reason, remoteAddress });
      fault(res, 500, 'soap:Client', reason);
      return false;
    }
    const { Username, PIN, ...rest } = parsed.request;
    const authorised = same(Username, this.#username) && (this.#pin === undefined || same(PIN, this.#pin));
    if (parsed.operation === 'SubmitDeliveryReceipt') {
      const receipt = rest as DeliveryReceipt;
      if (!authorised) {
        this.emit('refused', { reason: 'invalid Username or PIN', remoteAddress });
        const xml = buildResponseEnvelope(
          'SubmitDeliveryReceipt',
          { MessageIdentifier: '-1', Report: 2, Text: 'Invalid login' },
          profile,
        );
        res.writeHead(200, { 'content-type': SOAP_CONTENT_TYPE }).end(xml);
        return false;
      }
      if (this.#options.recordReceipts) {
        // Answered once this turn's receipts are recorded (#recordHeld).
        this.#held.push({ receipt, res });
        this.#heldTimer ??= setImmediate(() => this.#recordHeld());
        return false;
      }
      this.emit('receipt', receipt);
      this.#accepted(receipt, res);
      return false;
    }
    const message = rest as InboundMessage;
    if (!authorised) {
      this.emit('refused', { reason: 'invalid Username or PIN', remoteAddress });
      const xml = buildResponseEnvelope(
        'DeliverMessage',
        { MessageIdentifier: '-1', Report: 2, Text: 'Invalid login' },
        profile,
      );
      res.writeHead(200, { 'content-type': SOAP_CONTENT_TYPE }).end(xml);
      return false;
    }
    this.emit('message', message, token);
    const id = `R${Date.now().toString(36)}${(this.#sequence++).toString(36)}`.slice(0, 15);
    const xml = buildResponseEnvelope(
      'DeliverMessage',
      { MessageIdentifier: id, Report: 0, Text: 'message accepted' },
      profile,
    );
    res.writeHead(200, { 'content-type': SOAP_CONTENT_TYPE }).end(xml);
    return true;
  }

  /** A receipt stored: answered as accepted. */
  #accepted(receipt: DeliveryReceipt, res: ServerResponse): void {
    const xml = buildResponseEnvelope(
      'SubmitDeliveryReceipt',
      { MessageIdentifier: receipt.MessageIdentifier ?? '', Report: 0, Text: 'receipt accepted' },
      this.#options.profile ?? DEFAULT_SOAP_PROFILE,
    );
    // Its length given: the answer goes in one write, not chunked (three pieces and a last chunk).
    res
      .writeHead(200, { 'content-type': SOAP_CONTENT_TYPE, 'content-length': Buffer.byteLength(xml) })
      .end(xml);
  }

  /**
   * The receipts read since the last call, recorded together (options.recordReceipts), then each
   * answered: accepted when stored, else a server fault (the gateway pushes it again).
   */
  #recordHeld(): void {
    if (this.#heldTimer) clearImmediate(this.#heldTimer);
    this.#heldTimer = null;
    const held = this.#held;
    this.#held = [];
    const record = this.#options.recordReceipts;
    if (held.length === 0 || !record) return;
    let stored: readonly boolean[] = [];
    let why = 'the receipt could not be stored';
    try {
      stored = record(held.map((h) => h.receipt));
    } catch (err) {
      why = `the receipt could not be stored: ${err instanceof Error ? err.message : String(err)}`;
    }
    held.forEach((h, i) => {
      try {
        if (stored[i] === true) this.#accepted(h.receipt, h.res);
        else fault(h.res, 500, 'soap:Server', why);
      } catch {
        // its connection went away meanwhile: the gateway pushes it again or has it recorded
      }
    });
  }
}

function fault(
  res: ServerResponse,
  status: number,
  code: 'soap:Client' | 'soap:Server',
  message: string,
): void {
  res
    .writeHead(status, { 'content-type': SOAP_CONTENT_TYPE, connection: 'close' })
    .end(buildFault(code, message));
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** Constant-time comparison of a credential with an expected one's digest (hashed so lengths do not leak). */
function same(given: string | undefined, expected: Buffer): boolean {
  if (given === undefined) return false;
  return timingSafeEqual(digest(given), expected);
}

async function readBody(req: IncomingMessage, max: number): Promise<Uint8Array | undefined> {
  const declared = Number(req.headers['content-length'] ?? '0');
  if (declared > max) {
    req.resume();
    return undefined;
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > max) {
      req.resume();
      return undefined;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * Issue 25: the message of a spooled push body, read again after a restart: a DeliverMessage for
 * `username` (and `pin` when one is required), else null (a receipt, refused or unreadable).
 */
export function pushedMessage(
  body: Uint8Array,
  username: string,
  options: { pin?: string | undefined; maxBytes?: number | undefined; charset?: string | undefined } = {},
): InboundMessage | null {
  let parsed: ReturnType<typeof parseRequestEnvelope>;
  try {
    parsed = parseRequestEnvelope(body, {
      maxBytes: options.maxBytes ?? DEFAULT_MAX_BYTES,
      charset: options.charset,
    });
  } catch {
    return null;
  }
  if (parsed.operation !== 'DeliverMessage') return null;
  const { Username, PIN, ...rest } = parsed.request as DeliverMessageRequest;
  const authorised =
    same(Username, digest(username)) && (options.pin === undefined || same(PIN, digest(options.pin)));
  return authorised ? (rest as InboundMessage) : null;
}
