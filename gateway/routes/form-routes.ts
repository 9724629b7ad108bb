// Registers the HTTP form paths of gateway-core: sendsms, queryaccount, manageaccount and the older
// /sendsms (deprecated UN/PIN/M/N sends and the old AvailableCredit query). GET and POST on each.
// Protocol-level failures (malformed percent-encoding, oversize bodies, unexpected errors) are
// answered with HTTP 200 and a report body, never 5xx.
import { buildDeprecated, buildManageResponse } from '../../protocol/responses.ts';
import { DEPRECATED_CODES, REPORT } from '../../protocol/reports.ts';
import { OPERATION_PATHS } from '../../protocol/fields.ts';
import type { GatewayContext } from '../context.ts';
import { FORM_BODY_LIMIT } from '../http.ts';
import type { RouteRequest, RouteResponse, RouteOptions, Router } from '../http.ts';
import { decodeErrorText, isDecodeError, readForm, readLeniently, requestError } from './form-common.ts';
import { handleSendSms } from './form-sendsms.ts';
import { handleDeprecatedSend, isDeprecatedShape } from './form-deprecated.ts';
import { handleQuery } from './form-queryaccount.ts';
import { handleManage } from './form-manageaccount.ts';

export const FORM_PATHS = {
  sendsms: OPERATION_PATHS.sendsms,
  queryaccount: OPERATION_PATHS.queryaccount,
  manageaccount: OPERATION_PATHS.manageaccount,
  legacy: '/sendsms',
} as const;

type Style = 'records' | 'deprecated' | 'manage';

function errorBody(req: RouteRequest, style: Style, report: string, text: string): RouteResponse {
  const fields = readLeniently(req);
  if (style === 'deprecated' || (style === 'records' && isDeprecatedShape(fields))) {
    return {
      body: buildDeprecated(DEPRECATED_CODES.syntaxOrCredit),
      log: { report: DEPRECATED_CODES.syntaxOrCredit, error: text },
    };
  }
  if (style === 'manage')
    return { body: buildManageResponse({ report, text }), log: { report, error: text } };
  return requestError(fields, report, text, { error: text });
}

function formOptions(style: Style): RouteOptions {
  return {
    maxBodyBytes: FORM_BODY_LIMIT,
    onTooLarge: (req) =>
      errorBody(req, style, REPORT.syntaxError, `Request body too large: at most ${FORM_BODY_LIMIT} bytes`),
    expectedError: isDecodeError,
    onError: (req, _ctx, err) =>
      isDecodeError(err)
        ? errorBody(req, style, REPORT.syntaxError, decodeErrorText(err))
        : errorBody(req, style, REPORT.serverError, 'Internal error; the request was not processed'),
  };
}

export function registerFormRoutes(router: Router, _ctx: GatewayContext): void {
  const methods = ['GET', 'POST'];
  router.add(methods, FORM_PATHS.sendsms, handleSendSms, formOptions('records'));
  router.add(
    methods,
    FORM_PATHS.queryaccount,
    (req, ctx) => handleQuery(readForm(req), ctx),
    formOptions('records'),
  );
  router.add(
    methods,
    FORM_PATHS.manageaccount,
    (req, ctx) => handleManage(readForm(req), ctx),
    formOptions('manage'),
  );
  router.add(
    methods,
    FORM_PATHS.legacy,
    (req, ctx) => {
      const fields = readForm(req);
      if (isDeprecatedShape(fields)) return handleDeprecatedSend(fields, ctx);
      // The older page states the account queries on /sendsms too (spec 4.3).
      if (fields.has('Username') && !fields.has('SendTo')) return handleQuery(fields, ctx, { legacy: true });
      return handleSendSms(req, ctx);
    },
    formOptions('deprecated'),
  );
}
