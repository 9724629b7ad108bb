// The SOAP interface (spec 4.5): all eight operations, document/literal, at /sendsms5 (current types
// namespace) and /sendsms2 (the older namespace), WSDL at /sendsms5?wsdl (and /sendsms2?wsdl) with the
// endpoint URL of the request's Host. Envelopes are read and written by protocol/soap (fast-xml-parser
// with DOCTYPE and entities refused). A request that is not a valid envelope of the interface gets a
// SOAP fault. Faults are sent with HTTP 200, not the 500 of SOAP 1.1 over HTTP (section 6.2): the
// interface's rule is "bad input → a clear report code or fault, HTTP never 5xx", so proxies, load
// balancers and monitoring never count a client's bad envelope as a server failure, and SOAP
// toolkits (zeep, .NET, gSOAP) read a fault from the body whatever the status. Everything else,
// including report codes such as invalid login or out of credit, is an ordinary response.
//
// SubmitMessage is a façade over the HTTP form API: the SOAP request is mapped to the form fields of
// spec 2.2/2.4 and run through the very same handler (sendsms or sendmms), so both interfaces validate,
// charge and answer identically; the format-1 record (last failure, else last recipient) becomes the
// SOAP response.
import { storedRelease } from '../release.ts';
import {
  buildFault,
  buildResponseEnvelope,
  parseRequestEnvelopeInSlices,
} from '../../protocol/soap/envelope.ts';
import { charsetOf } from '../../protocol/soap/xml-encoding.ts';
import { dateTimeMs } from '../../protocol/soap/values.ts';
import type { ParsedSoapRequest, SoapFaultCode } from '../../protocol/soap/envelope.ts';
import { SoapParseError } from '../../protocol/soap/errors.ts';
import { MAY_HAVE_BEEN_PROCESSED, respond, STATE_CHANGING, xmlSafe } from './answer.ts';
import type { Handled } from './answer.ts';
import {
  PROVIDER_WSDL_PATH,
  SENDSMS2_PROFILE,
  SOAP_CONTENT_TYPE,
  SOAP_PATHS,
} from '../../protocol/soap/namespaces.ts';
import type { SoapProfile } from '../../protocol/soap/namespaces.ts';
import type { SoapOperation, SoapResponses, SubmitMessageRequest } from '../../protocol/soap/operations.ts';
import { buildWsdl } from '../../protocol/soap/wsdl.ts';
import { encodeForm } from '../../protocol/form.ts';
import { OPERATION_PATHS } from '../../protocol/fields.ts';
import { parseRecordsResponse } from '../../protocol/responses.ts';
import { REPORT, describeReport } from '../../protocol/reports.ts';
import type { GatewayContext } from '../context.ts';
import type { RouteRequest, RouteResponse, Router } from '../http.ts';
import { SOAP_BODY_LIMIT, requestBaseUrl } from '../http.ts';
import type { Account } from '../accounts.ts';
import { creditOf } from '../accounts.ts';
import { availableMessages, CURRENCY, formatMoney, loadTariffs } from '../credit.ts';
import { findMessage } from '../messages.ts';
import { handleSendSms, permittedReplyTo } from '../routes/form-sendsms.ts';
import { handleSendMms } from '../routes/sendmms.ts';
import type { NetworkSimulator } from '../network/simulator.ts';
import { soapToFormFields } from './submit-fields.ts';
import { AddressBookQueryError, queryAddressBook } from '../address-books.ts';

/** A SOAP text message's Cc and Bcc address books, read by the sendsms handler (the form has none). */
const SOAP_TEXT_BOOK_FIELDS = ['SendCcAddressBook', 'SendBccAddressBook'];

/** The two SOAP endpoints: /sendsms5 in the configured namespaces, /sendsms2 in its older one. */
function soapEndpoints(ctx: GatewayContext): ReadonlyArray<{ path: string; profile: SoapProfile }> {
  return [
    { path: SOAP_PATHS.sendsms5, profile: ctx.config.soapProfile },
    { path: SOAP_PATHS.sendsms2, profile: SENDSMS2_PROFILE },
  ];
}

/** HTTP status of a SOAP fault: 200, never 5xx (see the head of this file). */
export const FAULT_STATUS = 200;

function xml(body: string, status = 200, log: Record<string, unknown> = {}): RouteResponse {
  return { status, contentType: SOAP_CONTENT_TYPE, body, log };
}

function fault(code: SoapFaultCode, message: string, log: Record<string, unknown> = {}): RouteResponse {
  return xml(buildFault(code, message.slice(0, 1000)), FAULT_STATUS, { fault: code, ...log });
}

export function registerSoapRoutes(router: Router, ctx: GatewayContext, network: NetworkSimulator): void {
  const wsdlOf = (req: RouteRequest, path: string, profile: SoapProfile): RouteResponse => ({
    contentType: 'text/xml; charset=utf-8',
    body: buildWsdl({ endpointUrl: `${requestBaseUrl(req)}${path}`, profile }),
  });
  // The provider also publishes its WSDL on its web site (PROVIDER_WSDL_PATH): so does this gateway.
  router.add(['GET'], PROVIDER_WSDL_PATH, async (req) =>
    wsdlOf(req, SOAP_PATHS.sendsms5, ctx.config.soapProfile),
  );
  for (const { path, profile } of soapEndpoints(ctx)) {
    router.add(
      ['GET', 'POST'],
      path,
      async (req) => {
        if (req.method === 'GET') {
          if (/^wsdl$/i.test(req.rawQuery) || /(^|&)wsdl(=|&|$)/i.test(req.rawQuery))
            return wsdlOf(req, path, profile);
          return {
            status: 405,
            headers: { allow: 'POST' },
            body: `POST a SOAP envelope to ${path}, or GET ${path}?wsdl\n`,
          };
        }
        return handleSoap(req, ctx, network, profile);
      },
      {
        maxBodyBytes: SOAP_BODY_LIMIT,
        onTooLarge: () => fault('soap:Client', `request larger than ${SOAP_BODY_LIMIT} bytes`),
        // handleSoap catches every failure from the dispatch on (see there): what reaches this point
        // failed before the request was read, so nothing was done.
        onError: () => fault('soap:Server', 'Internal error; the request was not processed'),
      },
    );
  }
}

async function handleSoap(
  req: RouteRequest,
  ctx: GatewayContext,
  network: NetworkSimulator,
  profile: SoapProfile,
): Promise<RouteResponse> {
  let parsed: ParsedSoapRequest;
  try {
    // In slices (issue 23): a large hostile envelope does not stall the other clients. The request's
    // byte order mark, HTTP charset or XML declaration say its encoding (issue 24).
    const charset = charsetOf(req.headers['content-type']);
    parsed = await parseRequestEnvelopeInSlices(
      req.body,
      { maxBytes: SOAP_BODY_LIMIT, charset },
      () => new Promise((resolve) => setImmediate(resolve)),
    );
  } catch (err) {
    if (err instanceof SoapParseError) return fault('soap:Client', err.message);
    throw err;
  }
  // SOAP 1.1 only (the WSDL binds SOAP 1.1): a SOAP 1.2 envelope gets the VersionMismatch fault of
  // SOAP 1.1 section 4.4.1, which a SOAP 1.2 node also understands (SOAP 1.2 part 1, 5.4.7), rather
  // than a SOAP 1.1 answer it did not ask for (issue 24)
  if (parsed.soapVersion !== '1.1')
    return fault(
      'soap:VersionMismatch',
      'this endpoint speaks SOAP 1.1 (http://schemas.xmlsoap.org/soap/envelope/)',
    );
  if (parsed.namespace !== profile.typesNamespace) {
    return fault(
      'soap:Client',
      `<${parsed.operation}> must be in namespace ${profile.typesNamespace} at this endpoint (found "${parsed.namespace}")`,
    );
  }
  let handled: Handled | RouteResponse;
  try {
    handled = await dispatchOperation(parsed, req, ctx, network, profile);
  } catch (err) {
    ctx.log.error('soap operation failed', {
      operation: parsed.operation,
      error: err instanceof Error ? (err.stack ?? err.message) : String(err),
    });
    // Never "not processed" for an operation that may have committed before it failed (issue 17,
    // item 14): a client that believed it and sent again would send or charge twice.
    return STATE_CHANGING.has(parsed.operation)
      ? fault('soap:Server', `Internal error; ${MAY_HAVE_BEEN_PROCESSED}`, { committed: 'maybe' })
      : fault('soap:Server', 'Internal error; nothing was changed');
  }
  if ('body' in handled) return handled;
  return respond(handled, profile, ctx, { xml, fault });
}

function authOr(ctx: GatewayContext, req: { Username?: string; PIN?: string }): Promise<Account | null> {
  return ctx.authenticate(req.Username, req.PIN);
}

function invalidLoginFault(op: SoapOperation, username: string | undefined): RouteResponse {
  // These responses carry no Report element, so an invalid login is a client fault (detail = the report code).
  return xml(
    buildFault('soap:Client', describeReport(REPORT.invalidLogin), REPORT.invalidLogin),
    FAULT_STATUS,
    {
      operation: op,
      username,
      auth: 'failed',
    },
  );
}

async function dispatchOperation(
  parsed: ParsedSoapRequest,
  req: RouteRequest,
  ctx: GatewayContext,
  network: NetworkSimulator,
  profile: SoapProfile,
): Promise<Handled | RouteResponse> {
  switch (parsed.operation) {
    case 'MobileMessengerVersion': {
      const release = currentRelease(ctx);
      return {
        op: 'MobileMessengerVersion',
        response: {
          Version: release.version,
          ReleaseNotice: release.releaseNotice,
          DownloadURL: release.downloadUrl,
          ReleaseDate: release.releaseDate,
        },
      };
    }
    case 'AvailableCredit': {
      const account = await authOr(ctx, parsed.request);
      if (!account) return invalidLoginFault(parsed.operation, parsed.request.Username);
      return {
        op: 'AvailableCredit',
        response: { Currency: CURRENCY, Credit: formatMoney(creditOf(ctx.db, account)) },
        log: { username: account.username },
      };
    }
    case 'AvailableMessages': {
      const account = await authOr(ctx, parsed.request);
      if (!account) return invalidLoginFault(parsed.operation, parsed.request.Username);
      return {
        op: 'AvailableMessages',
        response: { Messages: String(availableMessages(creditOf(ctx.db, account), loadTariffs(ctx.db))) },
        log: { username: account.username },
      };
    }
    case 'PermittedReplyTo': {
      const account = await authOr(ctx, parsed.request);
      if (!account) return invalidLoginFault(parsed.operation, parsed.request.Username);
      return {
        op: 'PermittedReplyTo',
        response: { PermittedReplyTo: permittedReplyTo(ctx, account).join(',') },
        log: { username: account.username },
      };
    }
    case 'CollectMessages': {
      const account = await authOr(ctx, parsed.request);
      if (!account)
        return {
          op: 'CollectMessages',
          response: { Report: Number(REPORT.invalidLogin), MessageList: { item: [] } },
        };
      // One page; the answer is written inside the transaction that marks the page collected, so a
      // page is marked only once its answer exists (messages lost in transit: docs/ARCHITECTURE.md).
      return network.collect(account.id, (items) =>
        xml(
          buildResponseEnvelope(
            'CollectMessages',
            { Report: Number(REPORT.success), MessageList: { item: xmlSafe(items) } },
            profile,
          ),
          200,
          { operation: 'CollectMessages', username: account.username, collected: items.length },
        ),
      );
    }
    case 'SubmitDeliveryReceipt': {
      const r = parsed.request;
      const account = await authOr(ctx, r);
      const id = r.MessageIdentifier ?? '';
      if (!account)
        return {
          op: 'SubmitDeliveryReceipt',
          response: {
            MessageIdentifier: id || '-1',
            Report: Number(REPORT.invalidLogin),
            Text: describeReport(REPORT.invalidLogin),
          },
        };
      const message = id ? findMessage(ctx.db, id) : null;
      // Network-side callers: the account that sent the message, or an account with the restricted
      // (operator) permission. Anything else looks like an unknown identifier (no oracle).
      if (!message || (message.accountId !== account.id && !account.restricted)) {
        return {
          op: 'SubmitDeliveryReceipt',
          response: {
            MessageIdentifier: id || '-1',
            Report: Number(REPORT.syntaxError),
            Text: `unknown MessageIdentifier ${id}`.trim(),
          },
          log: { username: account.username },
        };
      }
      network.storeReceipt({
        messageIdentifier: id,
        accountId: message.accountId,
        recipient: r.SentTo ?? message.recipient,
        report: r.Report,
        timestamp: r.Timestamp1,
      });
      return {
        op: 'SubmitDeliveryReceipt',
        response: { MessageIdentifier: id, Report: Number(REPORT.success), Text: 'Receipt stored' },
        log: { username: account.username, messageIdentifier: id },
      };
    }
    case 'DeliverMessage': {
      const r = parsed.request;
      const account = await authOr(ctx, r);
      if (!account)
        return {
          op: 'DeliverMessage',
          response: {
            MessageIdentifier: '-1',
            Report: Number(REPORT.invalidLogin),
            Text: describeReport(REPORT.invalidLogin),
          },
        };
      const text = r.Message?.TextMessage ?? r.Message?.FlashMessage;
      const sendTo = r.Recipient?.SendTo?.trim();
      if (!sendTo || text === undefined || !r.ReplyTo) {
        return {
          op: 'DeliverMessage',
          response: {
            MessageIdentifier: '-1',
            Report: Number(REPORT.syntaxError),
            Text: 'DeliverMessage needs Recipient/SendTo, ReplyTo and Message/TextMessage',
          },
          log: { username: account.username },
        };
      }
      const result = network.injectInbound({
        sendTo,
        replyTo: r.ReplyTo,
        message: text,
        source: 'soap',
        // network side = an account with the restricted (operator) permission; others only to themselves
        ...(account.restricted ? {} : { onlyAccountId: account.id }),
        ...(r.Timestamp1 ? { timestamp: new Date(dateTimeMs(r.Timestamp1)) } : {}), // no zone: UTC
      });
      return result.ok
        ? {
            op: 'DeliverMessage',
            response: {
              MessageIdentifier: result.messageIdentifier,
              Report: Number(REPORT.success),
              Text: 'Message queued',
            },
            log: { username: account.username },
          }
        : {
            op: 'DeliverMessage',
            response: { MessageIdentifier: '-1', Report: Number(REPORT.invalidNumber), Text: result.reason },
            log: { username: account.username },
          };
    }
    case 'SubmitMessage':
      return submitViaForm(parsed.request, req, ctx);
    case 'QueryAddressBook': {
      const r = parsed.request;
      const account = await authOr(ctx, r);
      if (!account) return invalidLoginFault(parsed.operation, r.Username);
      try {
        const item = queryAddressBook(ctx.db, account, r.AddressBookName, r.AddressBookGroupName);
        return {
          op: 'QueryAddressBook',
          response: { AddressBookEntryList: { item } },
          log: { username: account.username, entries: item.length },
        };
      } catch (err) {
        if (err instanceof AddressBookQueryError)
          return fault('soap:Client', err.message, {
            operation: parsed.operation,
            username: account.username,
          });
        throw err;
      }
    }
  }
}

function currentRelease(ctx: GatewayContext): GatewayContext['config']['release'] {
  return storedRelease(ctx.db) ?? ctx.config.release;
}

async function submitViaForm(
  r: SubmitMessageRequest,
  req: RouteRequest,
  ctx: GatewayContext,
): Promise<Handled> {
  const mapped = soapToFormFields(r);
  if ('refused' in mapped)
    return {
      op: 'SubmitMessage',
      response: { MessageIdentifier: '-1', Report: REPORT.syntaxError, Text: mapped.refused },
      log: { username: r.Username, refused: mapped.refused },
    };
  const { fields, path } = mapped;
  const formReq: RouteRequest = {
    ...req,
    method: 'POST',
    path: OPERATION_PATHS[path],
    rawQuery: '',
    body: new TextEncoder().encode(encodeForm(fields)),
  };
  const res =
    path === 'sendsms'
      ? await handleSendSms(formReq, ctx, SOAP_TEXT_BOOK_FIELDS)
      : await handleSendMms(formReq, ctx);
  const body = typeof res.body === 'string' ? res.body : new TextDecoder().decode(res.body);
  const record = parseRecordsResponse(body).records[0];
  const response: SoapResponses['SubmitMessage'] = record
    ? {
        MessageIdentifier: record.messageIdentifier,
        Report: record.report,
        ...(record.text !== undefined ? { Text: record.text } : {}),
        ...(record.libraryNumber ? { LibraryNumber: Number(record.libraryNumber) } : {}),
      }
    : { MessageIdentifier: '-1', Report: REPORT.syntaxError, Text: 'no response record' };
  return { op: 'SubmitMessage', response, log: { ...res.log, via: path } };
}
