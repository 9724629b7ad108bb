/**
 * The app's content model: the kinds of message it sends, one content value per send, the form
 * fields that content becomes and its own problems (spec 2.2 sendsms, 2.4 sendmms). Every layer
 * names a kind as CONTENT_KINDS does: the field catalogue (fields.ts), content selection, the
 * journal and the API (preload/api.ts), the argument check (validate-args.ts) and the editors.
 * Credentials and recipients are not content: the sender adds them (main/services/send-content.ts).
 */

import type { Operation } from './fields.ts';
import { FIELDS } from './fields.ts';
import type { DeliveryOption } from './limits.ts';
import { selectedContentKinds, validateRequest } from './validate.ts';
import type { Problem } from './validate.ts';
import { isRichKind } from './kinds.ts';
import type { ContentKind, RichKind, TextKind } from './kinds.ts';

export { CONTENT_KINDS, RICH_KINDS, TEXT_KINDS, isContentKind, isRichKind } from './kinds.ts';
export type { ContentKind, RichKind, TextKind } from './kinds.ts';

/** The two operations that carry content. */
export type SendOperation = Extract<Operation, 'sendsms' | 'sendmms'>;

/** What every send may carry beside its content (spec 2.2 / 2.4). */
interface ContentCommon {
  /** Message / FlashMessage text, or the subject / text of rich content (sendmms Message). */
  text: string;
  /** ReplyTo: one of the account's permitted values ('' = the account's default). */
  replyTo?: string;
  /** SendTimeDelay, minutes. */
  sendTimeDelay?: number;
  /** SendTimeAbsolute: UTC, YYYY-MM-DDTHH:MM:SS (limits.ts SEND_TIME_ABSOLUTE_PATTERN). */
  sendTimeAbsolute?: string;
}

interface TextCommon extends ContentCommon {
  /** DeliveryServiceOption (sendsms only). */
  deliveryOption?: DeliveryOption;
}

/** Plain or flash text (sendsms); one member per kind, so `kind === 'text' || kind === 'flash'` narrows. */
export type TextContent = { [K in TextKind]: TextCommon & { kind: K } }[TextKind];

/** One kind of sendmms content, as the sendmms fields of that kind (PhoneMake, Ringtone, vCal, si-href, …). */
export interface RichContent extends ContentCommon {
  kind: RichKind;
  /** The sendmms fields by their spec names; Message comes from `text` when they have none. */
  fields?: Record<string, string>;
}

/** What one send carries: the content of one message to every recipient. */
export type Content = TextContent | RichContent;

export function isRichContent(content: Content): content is RichContent {
  return isRichKind(content.kind);
}

/** Fields of a request that no content may carry: the account's login, the recipients, the answer's format. */
const NOT_CONTENT_FIELDS = ['Username', 'PIN', 'SendTo', 'ResponseFormat'] as const;

/** The operation that sends a kind: sendsms for text and flash, sendmms for the others. */
export function contentOperation(kind: ContentKind): SendOperation {
  return isRichKind(kind) ? 'sendmms' : 'sendsms';
}

/**
 * The form fields a content sends, without credentials, recipients and ResponseFormat: the text
 * (Message or FlashMessage) or the sendmms fields, then ReplyTo, DeliveryServiceOption (text only)
 * and the schedule.
 */
export function contentFormFields(content: Content): Record<string, string> {
  const f: Record<string, string> = {};
  if (!isRichContent(content)) f[content.kind === 'flash' ? 'FlashMessage' : 'Message'] = content.text;
  else {
    Object.assign(f, content.fields ?? {});
    if (content.text !== '' && f.Message === undefined) f.Message = content.text;
  }
  if (content.replyTo !== undefined && content.replyTo !== '') f.ReplyTo = content.replyTo;
  if (!isRichContent(content) && content.deliveryOption !== undefined)
    f.DeliveryServiceOption = content.deliveryOption;
  if (content.sendTimeDelay !== undefined) f.SendTimeDelay = String(content.sendTimeDelay);
  if (content.sendTimeAbsolute !== undefined) f.SendTimeAbsolute = content.sendTimeAbsolute;
  return f;
}

/**
 * Every problem of the content alone (empty = it can be sent): protocol validation of its form
 * fields under `operation`, credentials and recipients left out; and whether `operation` sends its
 * kind and its fields are content of its kind.
 */
export function contentProblems(operation: SendOperation, content: Content): Problem[] {
  const expected = contentOperation(content.kind);
  if (operation !== expected) {
    return [
      {
        field: 'kind',
        rule: 'operation',
        value: content.kind,
        message: `${content.kind} content is sent by ${expected}, not ${operation}`,
      },
    ];
  }
  const fields = contentFormFields(content);
  const problems = validateRequest(operation, fields, 'content');
  if (isRichContent(content)) {
    // The account, the recipients and the answer's format belong to the request, never to content
    // (issue 16: a Cc or address book in the content would go with every request and every resend).
    const request = Object.keys(content.fields ?? {}).filter(
      (name) =>
        (NOT_CONTENT_FIELDS as readonly string[]).includes(name) ||
        FIELDS.sendmms.some((s) => s.name === name && s.group === 'recipients'),
    );
    if (request.length > 0) {
      problems.push({
        field: 'content',
        rule: 'request-field',
        value: request.join(','),
        message: `${request.join(', ')} ${request.length === 1 ? 'is' : 'are'} set by the send, not by its content`,
      });
    }
    const other = selectedContentKinds(fields).filter((k) => k !== content.kind);
    if (other.length > 0 && !problems.some((p) => p.field === 'content' && p.rule === 'oneOf')) {
      const tags = FIELDS.sendmms
        .filter((s) => s.content !== undefined && s.content !== content.kind && s.name in fields)
        .map((s) => s.name);
      problems.push({
        field: 'content',
        rule: 'kind',
        value: tags.join(','),
        message: `${tags.join(', ')} ${tags.length === 1 ? 'is' : 'are'} not ${content.kind} content`,
      });
    }
  }
  return problems;
}
