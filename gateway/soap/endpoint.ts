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
import { buildFault, buildResponseEnvelope, parseRequestEnvelope } from '../../protocol/soap/envelope.ts';
import type { ParsedSoapRequest } from '../../protocol/soap/envelope.ts';
import { SoapParseError } from '../../protocol/soap/errors.ts';
import {
  SENDSMS2_PROFILE,
  SENDSMS5_PROFILE,
  SOAP_CONTENT_TYPE,
  SOAP_PATHS,
} from '../../protocol/soap/namespaces.ts';
import type { SoapProfile } from '../../protocol/soap/namespaces.ts';
import type {
  Message,
  Recipient,
  SoapOperation,
  SoapResponses,
  SubmitMessageRequest,
} from '../../protocol/soap/operations.ts';
import { buildWsdl } from '../../protocol/soap/wsdl.ts';
import { encodeForm } from '../../protocol/form.ts';
import type { ResponseFormat } from '../../protocol/limits.ts';
import { OPERATION_PATHS } from '../../protocol/fields.ts';
import { parseRecordsResponse } from '../../protocol/responses.ts';
import { REPORT, describeReport } from '../../protocol/reports.ts';
import type { GatewayContext } from '../context.ts';
import type { RouteRequest, RouteResponse, Router } from '../http.ts';
import { SOAP_BODY_LIMIT } from '../http.ts';
import type { Account } from '../accounts.ts';
import { creditOf } from '../accounts.ts';
import { availableMessages, CURRENCY, formatMoney, loadTariffs } from '../credit.ts';
import { findMessage } from '../messages.ts';
import { handleSendSms, permittedReplyTo } from '../routes/form-sendsms.ts';
import { handleSendMms } from '../routes/sendmms.ts';
import type { NetworkSimulator } from '../network/simulator.ts';

const SOAP_ENDPOINTS: ReadonlyArray<{ path: string; profile: SoapProfile }> = [
  { path: SOAP_PATHS.sendsms5, profile: SENDSMS5_PROFILE },
  { path: SOAP_PATHS.sendsms2, profile: SENDSMS2_PROFILE },
];

/** HTTP status of a SOAP fault: 200, never 5xx (see the head of this file). */
export const FAULT_STATUS = 200;

function xml(body: string, status = 200, log: Record<string, unknown> = {}): RouteResponse {
  return { status, contentType: SOAP_CONTENT_TYPE, body, log };
}

function fault(
  code: 'soap:Client' | 'soap:Server',
  message: string,
  log: Record<string, unknown> = {},
): RouteResponse {
  return xml(buildFault(code, message.slice(0, 1000)), FAULT_STATUS, { fault: code, ...log });
}

/** Host of the request when it is a plain host[:port] (never echo arbitrary header text into the WSDL). */
export function requestBaseUrl(req: RouteRequest): string {
  const host = req.headers.host ?? '';
  return /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(host)
    ? `http://${host}`
    : 'http://127.0.0.1';
}

export function registerSoapRoutes(router: Router, ctx: GatewayContext, network: NetworkSimulator): void {
  for (const { path, profile } of SOAP_ENDPOINTS) {
    router.add(
      ['GET', 'POST'],
      path,
      async (req) => {
        if (req.method === 'GET') {
          if (/^wsdl$/i.test(req.rawQuery) || /(^|&)wsdl(=|&|$)/i.test(req.rawQuery))
            return {
              contentType: 'text/xml; charset=utf-8',
              body: buildWsdl({ endpointUrl: `${requestBaseUrl(req)}${path}`, profile }),
            };
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
        onError: () => fault('soap:Server', 'Internal error; the request was not processed'),
      },
    );
  }
}

type Handled = {
  [K in SoapOperation]: { op: K; response: SoapResponses[K]; log?: Record<string, unknown> };
}[SoapOperation];

async function handleSoap(
  req: RouteRequest,
  ctx: GatewayContext,
  network: NetworkSimulator,
  profile: SoapProfile,
): Promise<RouteResponse> {
  let parsed: ParsedSoapRequest;
  try {
    parsed = parseRequestEnvelope(req.body, { maxBytes: SOAP_BODY_LIMIT });
  } catch (err) {
    if (err instanceof SoapParseError) return fault('soap:Client', err.message);
    throw err;
  }
  if (parsed.namespace !== profile.typesNamespace) {
    return fault(
      'soap:Client',
      `<${parsed.operation}> must be in namespace ${profile.typesNamespace} at this endpoint (found "${parsed.namespace}")`,
    );
  }
  let handled: Handled | RouteResponse;
  try {
    handled = await dispatchOperation(parsed, req, ctx, network);
  } catch (err) {
    ctx.log.error('soap operation failed', {
      operation: parsed.operation,
      error: err instanceof Error ? (err.stack ?? err.message) : String(err),
    });
    return fault('soap:Server', 'internal error');
  }
  if ('body' in handled) return handled;
  return xml(buildResponseEnvelope(handled.op, handled.response as never, profile), 200, {
    operation: handled.op,
    ...handled.log,
  });
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
      const items = network.collect(account.id);
      return {
        op: 'CollectMessages',
        response: { Report: Number(REPORT.success), MessageList: { item: items } },
        log: { username: account.username, collected: items.length },
      };
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
        ...(r.Timestamp1 ? { timestamp: new Date(r.Timestamp1) } : {}),
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
  }
}

function currentRelease(ctx: GatewayContext): GatewayContext['config']['release'] {
  return storedRelease(ctx.db) ?? ctx.config.release;
}

/** UTC YYYY-MM-DDTHH:MM:SS (the form's SendTimeAbsolute) from an xs:dateTime (no zone = UTC). */
function formDateTime(value: string): string {
  const zoned = /(Z|[+-]\d\d:\d\d)$/.test(value) ? value : `${value}Z`;
  const t = Date.parse(zoned);
  return Number.isFinite(t) ? new Date(t).toISOString().slice(0, 19) : value;
}

/** Spec 2.4 form fields for a SOAP SubmitMessage (names of spec 2.2/2.4, values as the form carries them). */
export function soapToFormFields(r: SubmitMessageRequest): {
  fields: Record<string, string | undefined>;
  path: 'sendsms' | 'sendmms';
} {
  const rc: Recipient = r.Recipient ?? {};
  const m: Message = r.Message ?? {};
  const o = rc.SendOptions ?? {};
  const bool = (b: boolean | undefined) => (b === undefined ? undefined : b ? '1' : '0');
  const num = (n: number | undefined) => (n === undefined ? undefined : String(n));
  const f: Record<string, string | undefined> = {
    Username: r.Username,
    PIN: r.PIN,
    SendTo: rc.SendTo,
    SendToAddressBook: rc.SendToAddressBook,
    ReplyTo: r.ReplyTo,
    SendTimeDelay: num(o.SendTimeDelay),
    SendTimeAbsolute: o.SendTimeAbsolute === undefined ? undefined : formDateTime(o.SendTimeAbsolute),
    DeliveryServiceOption: o.DeliveryOption,
    ResponseFormat: '1' satisfies ResponseFormat, // one record: the SOAP answer carries one
  };
  const isText = m.TextMessage !== undefined || m.FlashMessage !== undefined;
  const isRich =
    m.Ringtone !== undefined ||
    m.OperatorLogo !== undefined ||
    m.PictureMessage !== undefined ||
    m.GroupGraphic !== undefined ||
    m.SmsSubmitPdu !== undefined ||
    m.WAPPush !== undefined ||
    m.MMSNotification !== undefined;
  if (isText && !isRich) {
    // the text form has one number list: Cc and Bcc numbers are recipients like SendTo
    const lists = [rc.SendTo, rc.SendCc, rc.SendBcc].filter(
      (l): l is string => l !== undefined && l.trim() !== '',
    );
    f['SendTo'] = lists.length > 0 ? lists.join(',') : rc.SendTo;
    f['Message'] = m.TextMessage;
    f['FlashMessage'] = m.FlashMessage;
    return { fields: f, path: 'sendsms' };
  }
  Object.assign(f, {
    SendCc: rc.SendCc,
    SendBcc: rc.SendBcc,
    SendCcAddressBook: rc.SendCcAddressBook,
    SendBccAddressBook: rc.SendBccAddressBook,
    PhoneMake: rc.PhoneMake,
    PhoneModel: rc.PhoneModel,
    MCC: num(rc.MCC),
    MNC: num(rc.MNC),
    DisableRepurposing: bool(o.DisableRepurposing),
    DisableWalledGardenRule: bool(o.DisableWalledGardenRule),
    Message: m.TextMessage,
  });
  const smart = (s: { LibraryNumber?: number; Data?: string } | undefined) =>
    s === undefined ? undefined : s.LibraryNumber !== undefined ? String(s.LibraryNumber) : (s.Data ?? '');
  f['Ringtone'] = smart(m.Ringtone);
  f['OperatorLogo'] = smart(m.OperatorLogo);
  f['PictureMessage'] = smart(m.PictureMessage);
  f['GroupGraphic'] = smart(m.GroupGraphic);
  if (m.SmsSubmitPdu) {
    f['SmsSubmitPduDataCodingScheme'] = m.SmsSubmitPdu.DataCodingScheme;
    f['SmsSubmitPduProtocolIdentifier'] = m.SmsSubmitPdu.ProtocolIdentifier;
    f['SmsSubmitPduUserDataHeader'] = m.SmsSubmitPdu.UserDataHeader;
    f['SmsSubmitPduUserData'] = m.SmsSubmitPdu.UserData;
  }
  const w = m.WAPPush;
  if (w) {
    if (w.SimplePush) {
      f['MMSFileWAP'] = String(w.SimplePush.LibraryNumber);
      f['Message'] ??= w.SimplePush.TextMessage;
    } else if (w.LibraryNumber) {
      f['MMSFileWAP'] = String(w.LibraryNumber.LibraryNumber);
      f['Message'] ??= w.LibraryNumber.TextMessage;
    } else if (w.FileUpload) {
      f['WAPPushFileName1'] = w.FileUpload.FileName1;
      f['WAPPushFileData1'] = w.FileUpload.FileData1;
      f['ContentType'] = w.FileUpload.ContentType1 ?? w.FileUpload.FileType1;
      f['Message'] ??= w.FileUpload.TextMessage1 ?? w.FileUpload.FileTitle1;
    } else if (w.si) {
      const i = w.si.indication;
      f['si-href'] = i.href;
      f['si-id'] = i['si-id'];
      f['si-created'] = i.created === undefined ? undefined : formDateTime(i.created);
      f['si-expires'] = i['si-expires'] === undefined ? undefined : formDateTime(i['si-expires']);
      f['si-action'] = i.action; // signal-delete is a form value too (protocol/limits.ts SI_ACTIONS)
      f['si-content'] = i.content;
      const item = w.si.info[0]?.item[0];
      if (item) {
        f['si-info-pcdata'] = item.pcdata;
        f['si-info-class'] = item.class;
      }
    }
  }
  const n = m.MMSNotification;
  if (n?.LibraryNumber) {
    f['MMSFileMMS'] = String(n.LibraryNumber.LibraryNumber);
    f['Message'] ??= n.LibraryNumber.TextMessage;
  } else if (n?.FileUpload) {
    f['MMSNotificationFileName1'] = n.FileUpload.FileName1;
    f['MMSNotificationFileData1'] = n.FileUpload.FileData1;
    f['ContentType'] = n.FileUpload.ContentType1 ?? n.FileUpload.FileType1;
    f['Message'] ??= n.FileUpload.TextMessage1 ?? n.FileUpload.FileTitle1;
  }
  return { fields: f, path: 'sendmms' };
}

async function submitViaForm(
  r: SubmitMessageRequest,
  req: RouteRequest,
  ctx: GatewayContext,
): Promise<Handled> {
  const { fields, path } = soapToFormFields(r);
  const formReq: RouteRequest = {
    ...req,
    method: 'POST',
    path: OPERATION_PATHS[path],
    rawQuery: '',
    body: new TextEncoder().encode(encodeForm(fields)),
  };
  const res = path === 'sendsms' ? await handleSendSms(formReq, ctx) : await handleSendMms(formReq, ctx);
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
