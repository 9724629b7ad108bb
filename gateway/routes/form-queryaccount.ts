// POST|GET /webservices/http/queryaccount (spec 4.3): Username, PIN and exactly one empty operation
// tag. Also the older credit query on /sendsms (Username/PIN + AvailableCredit, old single-value shape).
import type { FormFields } from '../../protocol/form.ts';
import { validateRequest } from '../../protocol/validate.ts';
import { INVALID_LOGIN_BODY, buildQueryResponse } from '../../protocol/responses.ts';
import { REPORT } from '../../protocol/reports.ts';
import { LEGACY_CURRENCY, QUERY_OPERATIONS } from '../../protocol/limits.ts';
import type { GatewayContext } from '../context.ts';
import type { RouteResponse } from '../http.ts';
import { creditOf } from '../accounts.ts';
import { CURRENCY, availableMessages, formatMoney, loadTariffs } from '../credit.ts';
import { problemsText, recordsResponse } from './form-common.ts';
import { permittedReplyTo } from './form-sendsms.ts';

export async function handleQuery(
  fields: FormFields,
  ctx: GatewayContext,
  opts: { legacy?: boolean } = {},
): Promise<RouteResponse> {
  const username = fields.get('Username');
  const account = await ctx.authenticate(username, fields.get('PIN'));
  if (!account)
    return { body: INVALID_LOGIN_BODY, log: { username, auth: 'failed', report: REPORT.invalidLogin } };
  const problems = opts.legacy ? [] : validateRequest('queryaccount', fields);
  const ops = QUERY_OPERATIONS.filter((op) => fields.has(op));
  if (problems.length > 0 || ops.length !== 1) {
    const text =
      problems.length > 0
        ? problemsText(problems)
        : `Exactly one of ${QUERY_OPERATIONS.join(', ')} is required, got ${ops.length}`;
    // Queries have no ResponseFormat: errors use the tag=value shape of the invalid-login answer.
    return recordsResponse('1', [{ messageIdentifier: '-1', report: REPORT.syntaxError, text }], {
      username,
    });
  }
  const op = ops[0]!;
  const log = { username, operation: op };
  switch (op) {
    case 'AvailableCredit': {
      const credit = formatMoney(creditOf(ctx.db, account));
      return {
        body: buildQueryResponse(
          opts.legacy
            ? { operation: 'AvailableCredit', currency: LEGACY_CURRENCY, credit, legacy: true }
            : { operation: 'AvailableCredit', currency: CURRENCY, credit },
        ),
        log,
      };
    }
    case 'AvailableMessages': {
      const messages = availableMessages(creditOf(ctx.db, account), loadTariffs(ctx.db));
      return { body: buildQueryResponse({ operation: 'AvailableMessages', messages }), log };
    }
    default:
      return {
        body: buildQueryResponse({ operation: 'PermittedReplyTo', replyTo: permittedReplyTo(ctx, account) }),
        log,
      };
  }
}
