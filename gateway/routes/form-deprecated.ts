// The deprecated format-one request (spec 2.3: UN, PIN, M, N; plain text only) and its bare
// two-digit answer (spec 7.2: 01 accepted, 97 syntax error or out of credit, 99 invalid login).
// Served at /sendsms and, when a request uses these field names, at /webservices/http/sendsms.
import type { FormFields } from '../../protocol/form.ts';
import { validateRequest } from '../../protocol/validate.ts';
import { splitNumberList } from '../../protocol/validate.ts';
import { buildDeprecated } from '../../protocol/responses.ts';
import { DEPRECATED_CODES, isAccepted } from '../../protocol/reports.ts';
import { LIMITS } from '../../protocol/limits.ts';
import type { GatewayContext } from '../context.ts';
import type { RouteResponse } from '../http.ts';
import { textContent } from '../content.ts';
import { submitMessage } from '../submit.ts';
import { requestProblems } from './form-common.ts';

export function isDeprecatedShape(fields: FormFields): boolean {
  return !fields.has('Username') && (fields.has('UN') || fields.has('N') || fields.has('M'));
}

export async function handleDeprecatedSend(fields: FormFields, ctx: GatewayContext): Promise<RouteResponse> {
  const username = fields.get('UN');
  const account = await ctx.authenticate(username, fields.get('PIN'));
  if (!account) {
    return {
      body: buildDeprecated(DEPRECATED_CODES.invalidLogin),
      log: { username, format: 'deprecated', report: DEPRECATED_CODES.invalidLogin },
    };
  }
  const problems = requestProblems(validateRequest('sendsms-deprecated', fields));
  const recipients = splitNumberList(fields.get('N') ?? '').filter((n) => n.trim() !== '');
  if (problems.length > 0 || recipients.length === 0 || recipients.length > LIMITS.maxRecipientsPerRequest) {
    return {
      body: buildDeprecated(DEPRECATED_CODES.syntaxOrCredit),
      log: {
        username,
        format: 'deprecated',
        report: DEPRECATED_CODES.syntaxOrCredit,
        problems: problems.map((p) => `${p.field}:${p.rule}`),
      },
    };
  }
  const records = submitMessage(ctx, { account, recipients, content: textContent(fields.get('M') ?? '') });
  // "When some recipients fail, the code of the last failing number is returned" (spec 4.1): every
  // per-number failure (invalid number, out of credit) maps to 97.
  const failed = records.some((r) => !isAccepted(r.report));
  const code = failed ? DEPRECATED_CODES.syntaxOrCredit : DEPRECATED_CODES.accepted;
  return {
    body: buildDeprecated(code),
    log: { username, format: 'deprecated', report: code, recipients: records.length },
  };
}
