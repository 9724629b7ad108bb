// POST|GET /webservices/http/sendsms (spec 2.2, 4.1). The deprecated UN/PIN/M/N shape (spec 2.3)
// is accepted here too and answered in its own two-digit format.
import type { FormFields } from '../../protocol/form.ts';
import { validateRequest } from '../../protocol/validate.ts';
import { REPORT } from '../../protocol/reports.ts';
import type { DeliveryOption } from '../../protocol/limits.ts';
import { DELIVERY_OPTIONS, LIMITS, parseUtcDateTime } from '../../protocol/limits.ts';
import type { GatewayContext } from '../context.ts';
import type { RouteRequest, RouteResponse } from '../http.ts';
import type { Account } from '../accounts.ts';
import { textContent } from '../content.ts';
import { expandRecipients, RecipientError, submitMessage } from '../submit.ts';
import { handleDeprecatedSend, isDeprecatedShape } from './form-deprecated.ts';
import {
  invalidLogin,
  problemsReport,
  problemsText,
  requestProblems,
  readForm,
  recordsResponse,
  requestError,
  responseFormatOf,
} from './form-common.ts';

/** The permitted ReplyTo values of an account: the service default first, then its own (spec 2.1). */
export function permittedReplyTo(ctx: GatewayContext, account: Account): string[] {
  return [ctx.config.defaultReplyTo, ...account.replyTo.filter((v) => v !== ctx.config.defaultReplyTo)];
}

/**
 * When to send: SendTimeDelay minutes from now, or SendTimeAbsolute (UTC, no offset); undefined = now.
 * Both already passed validateRequest, so they are well-formed and in range here.
 */
export function sendTimeOf(fields: FormFields, now = Date.now()): Date | undefined {
  const delay = fields.get('SendTimeDelay')?.trim();
  if (delay) return new Date(now + Number(delay) * 60_000);
  const abs = fields.get('SendTimeAbsolute')?.trim();
  if (abs) {
    const t = parseUtcDateTime(abs);
    if (t !== undefined) return new Date(t);
  }
  return undefined;
}

/**
 * Issue 17: the latest SendTimeAbsolute the gateway schedules. The spec caps SendTimeDelay at 7 days
 * and names no horizon for SendTimeAbsolute; a year allows any real scheduling, while
 * 9999-12-31T23:59:59 (charged at once, sent never) is refused with report 12.
 */
export const MAX_SCHEDULE_AHEAD_MS = 366 * 24 * 60 * 60 * 1000;

/** Why the send time cannot be scheduled, or null. */
export function sendTimeProblem(sendAt: Date | undefined, now = Date.now()): string | null {
  if (sendAt === undefined || sendAt.getTime() - now <= MAX_SCHEDULE_AHEAD_MS) return null;
  return `SendTimeAbsolute ${sendAt.toISOString()} is more than a year ahead; schedule at most 366 days ahead`;
}

export function deliveryOptionOf(fields: FormFields): DeliveryOption | undefined {
  const v = fields.get('DeliveryServiceOption')?.trim();
  return (DELIVERY_OPTIONS as ReadonlyArray<string>).includes(v ?? '') ? (v as DeliveryOption) : undefined;
}

/**
 * Checks shared by sendsms and sendmms after validation: ReplyTo permitted, recipients expanded
 * (SendTo + address books). Returns the recipients or an error response.
 */
export function resolveRecipients(
  ctx: GatewayContext,
  account: Account,
  fields: FormFields,
  lists: { sendTo: string[]; addressBooks: string[] },
): { recipients: string[] } | { error: RouteResponse } {
  const replyTo = fields.get('ReplyTo')?.trim();
  if (replyTo && !permittedReplyTo(ctx, account).includes(replyTo)) {
    return {
      error: requestError(
        fields,
        REPORT.invalidReplyTo,
        `ReplyTo ${replyTo} is not permitted for this account`,
        {
          username: account.username,
        },
      ),
    };
  }
  let recipients: string[] = [];
  try {
    for (const name of lists.sendTo) {
      recipients.push(...expandRecipients(ctx.db, account, { sendTo: fields.get(name) }));
    }
    recipients.push(
      ...expandRecipients(ctx.db, account, { addressBooks: lists.addressBooks.map((n) => fields.get(n)) }),
    );
  } catch (err) {
    if (err instanceof RecipientError) {
      return { error: requestError(fields, REPORT.syntaxError, err.message, { username: account.username }) };
    }
    throw err;
  }
  recipients = recipients.filter((r) => r.trim() !== '');
  if (recipients.length === 0) {
    return {
      error: requestError(
        fields,
        REPORT.syntaxError,
        'No recipients: SendTo or SendToAddressBook is required',
      ),
    };
  }
  if (recipients.length > LIMITS.maxRecipientsPerRequest) {
    return {
      error: requestError(
        fields,
        REPORT.tooManyRecipients,
        `Too many recipients: ${recipients.length}, at most ${LIMITS.maxRecipientsPerRequest} per request`,
      ),
    };
  }
  return { recipients };
}

/**
 * Message and FlashMessage both given (spec 2.2 asks for at least one): Message is sent as a normal
 * text and FlashMessage is ignored; every record's Text says so (docs/GATEWAY.md).
 */
export const BOTH_TEXTS_NOTE =
  'FlashMessage ignored: with Message and FlashMessage both given, Message is sent';

/**
 * sendsms. `extraAddressBookFields`: address-book fields read besides SendToAddressBook (a SOAP text
 * message's SendCcAddressBook/SendBccAddressBook, which the form has not).
 */
export async function handleSendSms(
  req: RouteRequest,
  ctx: GatewayContext,
  extraAddressBookFields: readonly string[] = [],
): Promise<RouteResponse> {
  const fields = readForm(req);
  if (isDeprecatedShape(fields)) return handleDeprecatedSend(fields, ctx);
  const username = fields.get('Username');
  const account = await ctx.authenticate(username, fields.get('PIN'));
  if (!account) return invalidLogin(fields, username);
  const problems = requestProblems(validateRequest('sendsms', fields));
  if (problems.length > 0) {
    return requestError(fields, problemsReport(problems), problemsText(problems), {
      username,
      problems: problems.map((p) => `${p.field}:${p.rule}`),
    });
  }
  const resolved = resolveRecipients(ctx, account, fields, {
    sendTo: ['SendTo'],
    addressBooks: ['SendToAddressBook', ...extraAddressBookFields],
  });
  if ('error' in resolved) return resolved.error;
  const flash = fields.get('FlashMessage');
  const message = fields.get('Message');
  const content =
    message !== undefined && message !== '' ? textContent(message) : textContent(flash ?? '', true);
  const sendAt = sendTimeOf(fields);
  const late = sendTimeProblem(sendAt);
  if (late !== null) return requestError(fields, REPORT.invalidSchedule, late, { username });
  const deliveryOption = deliveryOptionOf(fields);
  const replyTo = fields.get('ReplyTo')?.trim();
  // numbers are checked before the write transaction, on two threads for a large list
  const checked = await ctx.numbers.check(resolved.recipients, () => ctx.network.drainQueue?.());
  const bothTexts = message !== undefined && message !== '' && flash !== undefined && flash !== '';
  const submitted = submitMessage(ctx, {
    account,
    recipients: resolved.recipients,
    checked,
    content,
    ...(replyTo ? { replyTo } : {}),
    ...(sendAt ? { sendAt } : {}),
    ...(deliveryOption ? { deliveryOption } : {}),
  });
  const records = bothTexts
    ? submitted.map((r) => ({ ...r, text: `${r.text}; ${BOTH_TEXTS_NOTE}`.slice(0, LIMITS.textMax) }))
    : submitted;
  return recordsResponse(responseFormatOf(fields), records, { username });
}
