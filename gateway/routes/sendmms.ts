// POST|GET /webservices/http/sendmms (spec 2.4, 4.2): every content type of the multimedia API.
// The request is validated (protocol/validate), authenticated and its recipients resolved exactly as
// sendsms does; then its content is resolved (./sendmms-content.ts: library numbers, uploads, handset
// adaptation, MMS composition), the upload stored in the account's private library (the response
// carries the new LibraryNumber), and the result handed to the one submit pipeline as an
// OutboundContent that the network simulator turns into PDUs.
import { randomBytes } from 'node:crypto';
import type { FormFields } from '../../protocol/form.ts';
import { validateRequest } from '../../protocol/validate.ts';
import { OPERATION_PATHS } from '../../protocol/fields.ts';
import { REPORT } from '../../protocol/reports.ts';
import type { GatewayContext } from '../context.ts';
import type { OutboundContent } from '../content.ts';
import type { RouteOptions, RouteRequest, RouteResponse, Router } from '../http.ts';
import { FORM_BODY_LIMIT } from '../http.ts';
import { submitMessage } from '../submit.ts';
import { transaction } from '../store/db.ts';
import {
  decodeErrorText,
  invalidLogin,
  isDecodeError,
  problemsReport,
  problemsText,
  readForm,
  readLeniently,
  recordsResponse,
  requestError,
  responseFormatOf,
} from './form-common.ts';
import { deliveryOptionOf, resolveRecipients, sendTimeOf, sendTimeProblem } from './form-sendsms.ts';
import { ContentError, resolveContent } from './sendmms-content.ts';
import type { ResolvedContent } from './sendmms-content.ts';
import { addLibraryFile } from '../library/library.ts';
import { requestBaseUrl } from '../http.ts';

export const SENDMMS_PATH = OPERATION_PATHS.sendmms;

/** The sendmms handler (also used by SOAP SubmitMessage for rich content). */
export async function handleSendMms(req: RouteRequest, ctx: GatewayContext): Promise<RouteResponse> {
  let fields: FormFields;
  try {
    fields = readForm(req);
  } catch (err) {
    if (!isDecodeError(err)) throw err;
    return requestError(readLeniently(req), REPORT.syntaxError, decodeErrorText(err));
  }
  const username = fields.get('Username');
  const account = await ctx.authenticate(username, fields.get('PIN'));
  if (!account) return invalidLogin(fields, username);
  const problems = validateRequest('sendmms', fields);
  if (problems.length > 0) {
    return requestError(fields, problemsReport(problems), problemsText(problems), {
      username,
      problems: problems.map((p) => `${p.field}:${p.rule}`),
    });
  }
  const resolved = resolveRecipients(ctx, account, fields, {
    sendTo: ['SendTo', 'SendCc', 'SendBcc'],
    addressBooks: ['SendToAddressBook', 'SendCcAddressBook', 'SendBccAddressBook'],
  });
  if ('error' in resolved) return resolved.error;
  let content: ResolvedContent;
  try {
    content = await resolveContent(ctx, account, fields);
  } catch (err) {
    if (err instanceof ContentError) return requestError(fields, err.report, err.message, { username });
    throw err;
  }
  const sendAt = sendTimeOf(fields);
  const late = sendTimeProblem(sendAt);
  if (late !== null) return requestError(fields, REPORT.invalidSchedule, late, { username });
  const deliveryOption = deliveryOptionOf(fields);
  const replyTo = fields.get('ReplyTo')?.trim();
  const baseUrl = requestBaseUrl(req);
  const token = randomBytes(12).toString('hex');
  const outbound: OutboundContent =
    content.delivered &&
    (content.content.kind === 'wap-push-si' || content.content.kind === 'mms-notification')
      ? { ...content.content, href: `${baseUrl}/content/${token}`, contentToken: token }
      : content.content;
  try {
    ctx.network.partsFor(outbound); // the network must be able to encode it before anything is stored
  } catch (err) {
    return requestError(fields, REPORT.invalidContent, `Content cannot be sent: ${(err as Error).message}`, {
      username,
    });
  }
  // The upload, the content handsets fetch and the messages are stored together or not at all.
  const { records, libraryNumber } = transaction(ctx.db, () => {
    const number = content.upload
      ? addLibraryFile(ctx.db, { ...content.upload, ownerAccountId: account.id })
      : undefined;
    if (content.delivered) {
      ctx.db
        .prepare(
          'INSERT INTO delivered_content (token, message_identifier, content_type, bytes, adapted) VALUES (?, ?, ?, ?, ?)',
        )
        .run(
          token,
          '',
          content.delivered.contentType,
          content.delivered.bytes,
          content.delivered.adapted ? 1 : 0,
        );
    }
    const out = submitMessage(ctx, {
      account,
      recipients: resolved.recipients,
      content: outbound,
      ...(replyTo ? { replyTo } : {}),
      ...(sendAt ? { sendAt } : {}),
      ...(deliveryOption ? { deliveryOption } : {}),
      ...(number !== undefined ? { libraryNumber: String(number) } : {}),
    });
    return { records: out, libraryNumber: number };
  });
  return recordsResponse(responseFormatOf(fields), records, {
    username,
    content: content.content.kind,
    ...(libraryNumber !== undefined ? { libraryNumber } : {}),
  });
}

function sendMmsOptions(): RouteOptions {
  return {
    maxBodyBytes: FORM_BODY_LIMIT,
    onTooLarge: (req) =>
      requestError(
        readLeniently(req),
        REPORT.syntaxError,
        `Request body too large: at most ${FORM_BODY_LIMIT} bytes`,
      ),
    expectedError: isDecodeError,
    onError: (req, _ctx, err) =>
      isDecodeError(err)
        ? requestError(readLeniently(req), REPORT.syntaxError, decodeErrorText(err))
        : requestError(
            readLeniently(req),
            REPORT.serverError,
            'Internal error; the request was not processed',
          ),
  };
}

export function registerSendMmsRoute(router: Router): void {
  router.add(['GET', 'POST'], SENDMMS_PATH, handleSendMms, sendMmsOptions());
}
